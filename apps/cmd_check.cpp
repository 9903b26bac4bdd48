// SPDX-License-Identifier: MIT
// `fputune check`: does each constant of a header meet the budget on the measured machines? Exit 1 if not.
#include <iostream>

#include <fmt/format.h>

#include "atomic_file.hpp"
#include "budget_options.hpp"
#include "check.hpp"
#include "contention.hpp"
#include "kernel_globs.hpp"
#include "cli.hpp"
#include "recommend.hpp"
#include "render.hpp"
#include "units.hpp"

namespace fputune::cli {

int run_check(const Args& args) {
    po::options_description desc("check options");
    desc.add_options()("header", po::value<std::string>(), "the header to check")(
        "upstream",
        "also judge upstream's own sections (what Linux does today) by the same lines; without a header, only them");
    add_budget_options(desc);
    po::positional_options_description pos;
    pos.add("header", 1);
    po::variables_map vm;
    if (!parse("check",
               "[limits.h] [--upstream] [--from FILE...] --budget 30us [--min-freq 1GHz] [--margin 1.0] [--cache "
               "cold|hot]",
               desc, args, vm, false, &pos))
        return kExitOk;
    const bool upstream = vm.count("upstream") > 0;
    if (!vm.count("header") && !upstream)
        throw UsageError(
            "which header? e.g. `fputune check limits.h --budget 30us`, or `fputune check --upstream --budget 30us` "
            "for Linux's own");
    // -k chooses what is shown, never what is judged: an algorithm's constant over all its variants, as recommend.
    const std::vector<std::string> globs = kernel_patterns(vm);
    reject_version_as_glob(globs);  // -k 6.12 means --linux 6.12: said before anything is read
    po::variables_map every = vm;
    every.erase("kernel");
    // A header whose bounds are as measured is judged as measured, unless --contention says otherwise.
    const std::string text = vm.count("header") ? read_file(vm["header"].as<std::string>()) : "";
    if (header_as_measured(text) && vm["contention"].defaulted())
        every.at("contention").value() = std::string(kContentionAsMeasured);
    const RecommendOptions o = budget_options(every, "check", args);
    const auto sources = load_sources(every);
    for (const ModelFile& m : sources) {
        ModelFile named = m;
        filter_kernels(named, globs);  // a -k that names nothing in a file: one line, exit 2
    }
    bool pass = true;
    if (vm.count("header")) {
        const std::string path = vm["header"].as<std::string>();
        CheckReport report = check_header(text, path, sources, o);
        keep_shown(report, sources, globs);
        if (report.results.empty())
            throw UsageError(fmt::format("-k names no kernel a constant of {} limits; drop -k to see them all", path));
        std::cout << render_check(report, path, sources, o);
        pass = report.all_pass();
    } else {
        std::cout << fmt::format(
            "fputune {} ({}) check --upstream: budget {} per FPU section at {} minimum, margin {}, {} cache\n",
            tool_version(), tool_commit(), format_duration(o.question.budget_s), format_frequency(o.question.min_freq_hz),
            format_margin(o.question.margin), name(o.question.cache));
        for (const auto& s : sources)
            std::cout << fmt::format("machine: {} ({} {}{})\n", s.machine, s.source_kind, s.source,
                                     s.sweep_date.empty() ? "" : ", " + s.sweep_date);
    }
    if (upstream) {
        std::size_t over = 0;
        Recommendation r = recommend(sources, o);
        keep_shown(r, sources, globs);
        std::cout << render_upstream(r, over);
        pass = pass && over == 0;
    }
    return pass ? kExitOk : kExitCheckFailed;
}

}  // namespace fputune::cli
