// SPDX-License-Identifier: MIT
// `fputune recommend`: chunk limits for a time budget at a minimum frequency, as a table, JSON, a header.
#include <algorithm>
#include <charconv>
#include <iostream>
#include <optional>
#include <set>
#include <string>

#include <fmt/format.h>

#include "atomic_file.hpp"
#include "budget_options.hpp"
#include "cli.hpp"
#include "header.hpp"
#include "kernel_globs.hpp"
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

// Under each per-algorithm constant of the header, the other --per-algorithm policy's value as a comment, labelled:
// the header shows both, as the table does, and says which one it defines.
std::string with_other_policy(std::string header, const Recommendation& r, const Recommendation* other) {
    if (!other) return header;
    const bool other_selected = other->options.per_algorithm == PerAlgorithm::selected;
    for (const AlgorithmRow& a : r.algorithms) {
        auto o = std::find_if(other->algorithms.begin(), other->algorithms.end(),
                              [&](const AlgorithmRow& x) { return x.algorithm == a.algorithm; });
        if (o == other->algorithms.end() || !o->fits || (other_selected && o->policy != PerAlgorithm::selected))
            continue;
        const std::string macro = a.stem.empty() ? algorithm_macro(a.algorithm) : "FPUTUNE_" + a.stem + "_FPU_BYTES";
        const auto at = header.find("\n#define " + macro + " ");
        if (at == std::string::npos) continue;
        const auto eol = header.find('\n', at + 1);
        if (eol == std::string::npos) continue;
        header.insert(eol + 1, fmt::format("/*   --per-algorithm {}: {}U ({}, {}) */\n", other_selected ? "selected" : "slowest",
                                           o->bytes, o->kernel,
                                           other_selected ? "the kernel's choice on the CPU swept" : "the slowest variant"));
    }
    return header;
}

}  // namespace

int run_recommend(const Args& args) {
    po::options_description desc("recommend options");
    add_budget_options(desc);
    desc.add_options()("round", po::value<std::string>()->default_value("block"),
                       "block | kib | pow2: how limits are rounded down")(
        "header", po::value<std::string>(), "also write a C header of #defines here (atomically)")(
        "json", "print JSON (fputune.recommendation/1)")(
        "verbose", "keep every fit-shape note on its variant's line (else one line per algorithm)");
    desc.add_options()(
        "save-every", po::value<std::string>()->default_value(std::to_string(kTraceSaveEvery)),
        "thresholds: the state save is paid by one one-shot in N (1 = every one pays; default: 26 saves in "
        "5010 kernel_fpu_begin() of a laptop trace; --dirty none = none pays)");
    po::variables_map vm;
    if (!parse("recommend",
               "[--from FILE...] --budget 30us [--min-freq 1GHz] [--margin 1.0] [--round block|kib|pow2] [--cache "
               "cold|hot] "
               "[--dirty xmm|ymm|zmm|none] [--save-every 193] [-k GLOB]... [--header limits.h] [--json] [--verbose]",
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
    const std::vector<std::string> globs = kernel_patterns(vm);
    reject_version_as_glob(globs);  // -k 6.12 means --linux 6.12: said before anything is read
    po::variables_map every = vm;
    every.erase("kernel");
    const std::vector<ModelFile> sources = load_sources(every);
    for (const ModelFile& m : sources) {
        ModelFile named = m;
        filter_kernels(named, globs);  // a -k that names nothing in a file: one line, exit 2
    }
    Recommendation r = recommend(sources, o);
    keep_shown(r, sources, globs);
    // The table shows per algorithm both policies, labelled: the other one is recommended too.
    std::optional<Recommendation> other;
    if (!vm.count("json") || !header_path.empty()) {
        RecommendOptions p = o;
        p.per_algorithm = o.per_algorithm == PerAlgorithm::slowest ? PerAlgorithm::selected : PerAlgorithm::slowest;
        other = recommend(sources, p);
        keep_shown(*other, sources, globs);
    }
    // Everything is rendered before anything is written: a failure (a macro defined twice) leaves no header.
    const std::string printed = vm.count("json")
                                    ? to_json(r).dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"
                                    : render_table(r, {vm.count("verbose") > 0, other ? &*other : nullptr});
    const std::string header =
        header_path.empty() ? "" : with_other_policy(render_header(r, header_path), r, other ? &*other : nullptr);
    if (!header_path.empty()) write_file_atomic(header_path, header);
    std::cout << printed;
    if (!header_path.empty() && !vm.count("json")) std::cout << "wrote " << header_path << "\n";
    return kExitOk;
}

}  // namespace fputune::cli
