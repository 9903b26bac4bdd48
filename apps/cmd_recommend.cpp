// SPDX-License-Identifier: MIT
// `fputune recommend`: chunk limits for a time budget at a minimum frequency, as a table, JSON, a header.
#include <charconv>
#include <iostream>
#include <string>

#include "atomic_file.hpp"
#include "budget_options.hpp"
#include "cli.hpp"
#include "header.hpp"
#include "recommend.hpp"
#include "recommendation_json.hpp"
#include "render.hpp"
#include "thresholds.hpp"

namespace fputune::cli {

namespace {

// --save-every: a whole number 1 .. 1e9 (UsageError naming the value otherwise).
std::uint64_t save_every_option(const std::string& text) {
    std::uint64_t n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc() || end != text.data() + text.size() || n < 1 || n > 1000000000)
        throw UsageError("--save-every " + text +
                         ": give a whole number of one-shots per state save, 1 .. 1000000000 (1 = every "
                         "one pays; " +
                         std::to_string(kTraceSaveEvery) + " as in a laptop trace; for none, --dirty none)");
    return n;
}

}  // namespace

int run_recommend(const Args& args) {
    po::options_description desc("recommend options");
    add_budget_options(desc);
    desc.add_options()("round", po::value<std::string>()->default_value("block"),
                       "block | kib | pow2: how limits are rounded down")(
        "header", po::value<std::string>(), "also write a C header of #defines here (atomically)")(
        "json", "print JSON (fputune.recommendation/1)");
    desc.add_options()(
        "save-every", po::value<std::string>()->default_value(std::to_string(kTraceSaveEvery)),
        "thresholds: the state save is paid by one one-shot in N (1 = every one pays; default: 26 saves in "
        "5010 kernel_fpu_begin() of a laptop trace; --dirty none = none pays)");
    po::variables_map vm;
    if (!parse("recommend",
               "[--from FILE...] --budget 30us [--min-freq 1GHz] [--margin 1.0] [--round block|kib|pow2] [--cache "
               "cold|hot] "
               "[--dirty xmm|ymm|zmm|none] [--save-every 193] [-k GLOB]... [--header limits.h] [--json]",
               desc, args, vm, false))
        return kExitOk;
    RecommendOptions o = budget_options(vm, "recommend", args);
    o.save_every = save_every_option(vm["save-every"].as<std::string>());
    std::string header_path;
    if (vm.count("header")) {
        header_path = vm["header"].as<std::string>();
        check_writable(header_path);
        refuse_same_files({{"--header", header_path}}, source_paths(vm));
    }
    const Recommendation r = recommend(load_sources(vm), o);
    // Everything is rendered before anything is written: a failure (a macro defined twice) leaves no header.
    const std::string printed = vm.count("json")
                                    ? to_json(r).dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"
                                    : render_table(r);
    const std::string header = header_path.empty() ? "" : render_header(r, header_path);
    if (!header_path.empty()) write_file_atomic(header_path, header);
    std::cout << printed;
    if (!header_path.empty() && !vm.count("json")) std::cout << "wrote " << header_path << "\n";
    return kExitOk;
}

}  // namespace fputune::cli
