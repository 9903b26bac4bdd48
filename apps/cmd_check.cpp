// SPDX-License-Identifier: MIT
// `fputune check`: does each constant of a header meet the budget on the measured machines? Exit 1 if not.
#include <iostream>

#include "atomic_file.hpp"
#include "budget_options.hpp"
#include "check.hpp"
#include "cli.hpp"
#include "render.hpp"

namespace fputune::cli {

int run_check(const Args& args) {
    po::options_description desc("check options");
    desc.add_options()("header", po::value<std::string>(), "the header to check");
    add_budget_options(desc);
    po::positional_options_description pos;
    pos.add("header", 1);
    po::variables_map vm;
    if (!parse("check", "limits.h [--from FILE...] --budget 30us [--min-freq 1GHz] [--margin 1.0] [--cache cold|hot]", desc, args,
               vm, false, &pos))
        return kExitOk;
    if (!vm.count("header")) throw UsageError("which header? e.g. `fputune check limits.h --budget 30us`");
    const RecommendOptions o = budget_options(vm, "check", args);
    const std::string path = vm["header"].as<std::string>();
    const std::string text = read_file(path);
    const auto sources = load_sources(vm);
    const CheckReport report = check_header(text, path, sources, o);
    std::cout << render_check(report, path, sources, o);
    return report.all_pass() ? kExitOk : kExitCheckFailed;
}

}  // namespace fputune::cli
