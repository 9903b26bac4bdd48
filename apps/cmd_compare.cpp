// SPDX-License-Identifier: MIT
// `fputune compare A B`: did my patch (or this CPU) change the cost per byte and the limit? A table or JSON.
#include <algorithm>
#include <cmath>
#include <iostream>

#include <fmt/format.h>

#include "budget_options.hpp"
#include "cli.hpp"
#include "compare.hpp"
#include "units.hpp"

namespace fputune::cli {

namespace {

double parse_percent(const po::variables_map& vm, const char* option, double lo, double hi) {
    const std::string text = vm[option].as<std::string>();
    std::string t = text;
    if (!t.empty() && t.back() == '%') t.pop_back();
    std::size_t used = 0;
    double v = NAN;
    try {
        v = std::stod(t, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != t.size() || !(v >= lo && v <= hi))
        throw UsageError(
            fmt::format("--{} {}: expected a percentage from {} to {}, e.g. 5 (or 5%)", option, text, lo, hi));
    return v;
}

std::string p_text(double p) {
    if (std::isnan(p)) return "-";
    return p < 0.001 ? "<.001" : fmt::format("{:.3f}", p);
}

// "  2.512   2.498  -0.6 %  0.410" or the reason it was not compared.
std::string change_cells(const Change& c, const char* value_format, int width) {
    if (!c.compared)
        return fmt::format("{:<{}}",
                           c.why.size() > static_cast<std::size_t>(width) ? c.why.substr(0, width - 3) + "..." : c.why,
                           width);
    return fmt::format("{:>8} {:>8} {:>8} {:>6}", fmt::format(fmt::runtime(value_format), c.shown_a),
                       fmt::format(fmt::runtime(value_format), c.shown_b), fmt::format("{:+.1f}%", 100 * c.rel),
                       p_text(c.p));
}

std::string side_text(const CompareSide& s) {
    return fmt::format("{} ({}{}{}, fputune {} {}{}{})", s.path, s.machine, s.kind.empty() ? "" : ", " + s.kind,
                       s.date.empty() ? "" : ", " + s.date, s.tool_version, s.tool_commit,
                       s.masked_features.empty() ? "" : ", masked: " + s.masked_features,
                       s.contention >= 1 ? fmt::format(", contention c p50 {:.2f}", s.contention) : "");
}

// One row per variant: each quantity A, B, its change and p.
void print_rows(const CompareResult& r) {
    const RecommendOptions& o = r.options.recommend;
    const int w = 33;
    if (r.kind == "bench") {
        std::cout << fmt::format("{:<24} {:>9} {:<{}}  {}\n", "kernel", "bytes",
                                 "   p50 c/B A        B   change      p", w, "verdict");
        for (const auto& row : r.rows)
            std::cout << fmt::format("{:<24} {:>9} {:<{}}  {}\n", row.kernel, row.bytes,
                                     change_cells(row.p50_cpb, "{:.3f}", w), w, row.verdict);
    } else {
        auto kernel = [&](const CompareRow& row) {
            return row.kernel + (row.cache != o.question.cache ? " (" + std::string(name(row.cache)) + ")" : "");
        };
        std::size_t kw = 24;  // series names (an AAD part, N sources) run longer than kernels
        for (const auto& row : r.rows) kw = std::max(kw, kernel(row).size());
        std::cout << fmt::format("{:<{}} {:<{}}  {:<{}}  {:<{}}  {}\n", "kernel", kw,
                                 "   p50 c/B A        B   change      p", w, "  bound c/B A        B   change      p",
                                 w, "     limit A        B   change      p", w, "verdict");
        for (const auto& row : r.rows)
            std::cout << fmt::format(
                "{:<{}} {:<{}}  {:<{}}  {:<{}}  {}\n", kernel(row), kw, change_cells(row.p50_cpb, "{:.3f}", w), w,
                change_cells(row.bound_cpb, "{:.3f}", w), w, change_cells(row.limit, "{:.0f}", w), w, row.verdict);
    }
}

// Per algorithm: the constant to ship and the SIMD threshold, A and B.
void print_algorithms(const CompareResult& r) {
    if (r.algorithms.empty()) return;
    auto thr = [](const std::optional<SimdThreshold>& t) -> std::string {
        if (!t) return "-";
        const std::string v =
            t->kind == ThresholdKind::bytes ? fmt::format("{} B", t->bytes) : std::string(name(t->kind));
        return v + " (" + t->kernel + ")";
    };
    auto lim = [](const std::optional<std::uint64_t>& b, bool in) -> std::string {
        if (!in) return "-";
        return b ? fmt::format("{}", *b) : "no fit";
    };
    // Columns as wide as their longest entry (series names and thresholds run long).
    std::size_t aw = 12, bw = 24, tw = 28;
    for (const auto& c : r.algorithms)
        aw = std::max(aw, c.algorithm.size()), bw = std::max({bw, c.bound_by_a.size(), c.bound_by_b.size()}),
        tw = std::max(tw, thr(c.threshold_a).size());
    std::cout << fmt::format(
        "\nper algorithm: the constant to ship (smallest limit over its variants) and the SIMD threshold (the "
        "state save paid by every call, as swept; recommend pays it by one call in 193)\n"
        "{:<{}} {:>9} {:<{}} {:>9} {:<{}} {:>8}  {:<{}} {}\n",
        "algorithm", aw, "limit A", "bound by", bw, "limit B", "bound by", bw, "change", "SIMD from A", tw,
        "SIMD from B");
    for (const auto& c : r.algorithms)
        std::cout << fmt::format("{:<{}} {:>9} {:<{}} {:>9} {:<{}} {:>8}  {:<{}} {}\n", c.algorithm, aw,
                                 lim(c.limit_a, c.in_a), c.in_a ? c.bound_by_a : "-", bw, lim(c.limit_b, c.in_b),
                                 c.in_b ? c.bound_by_b : "-", bw,
                                 c.limit_a && c.limit_b ? fmt::format("{:+.1f}%", 100 * c.rel) : "-",
                                 thr(c.threshold_a), tw, thr(c.threshold_b));
}

void print_table(const CompareResult& r) {
    const RecommendOptions& o = r.options.recommend;
    std::cout << fmt::format(
        "fputune {} ({}) compare: {}\n", tool_version(), tool_commit(),
        r.kind == "bench"
            ? "bench files, core cycles per byte (p50)"
            : fmt::format("sweeps, {} cache, core cycles per byte of the p50 and {} lines, limits for {} at {} "
                          "(margin {}, rounding {})",
                          name(o.question.cache), name(o.question.quantile), format_duration(o.question.budget_s), format_frequency(o.question.min_freq_hz),
                          format_margin(o.question.margin), name(o.round)));
    std::cout << "A: " << side_text(r.a) << "\n";
    std::cout << "B: " << side_text(r.b) << "\n";
    std::cout << fmt::format(
        "significant: p < {:g} over all {} tests together (Holm's step-down: the smallest p against {:g} / {}, the "
        "next against {:g} / {}, ...; two-sided; standard errors from each file's own 95 % intervals, widened by "
        "what the contention each file met leaves uncertain: docs/contention.md) and a change of at least {:g} %\n\n",
        r.options.alpha, r.tests, r.options.alpha, r.tests, r.options.alpha, r.tests > 0 ? r.tests - 1 : 0,
        100 * r.options.min_change);
    print_rows(r);
    print_algorithms(r);
    auto list = [](const std::vector<std::string>& v) {
        std::string s;
        for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
        return s;
    };
    if (!r.only_a.empty()) std::cout << "\nonly in A: " << list(r.only_a) << "\n";
    if (!r.only_b.empty()) std::cout << (r.only_a.empty() ? "\n" : "") << "only in B: " << list(r.only_b) << "\n";
    std::cout << fmt::format("\n{} compared: {} with no significant change, {} changed{}\n", r.rows.size(),
                             r.rows.size() - r.changed(), r.changed(),
                             r.only_a.size() + r.only_b.size()
                                 ? fmt::format("; {} only in A, {} only in B", r.only_a.size(), r.only_b.size())
                                 : "");
    if (r.kind != "bench")
        std::cout << "c/B: core cycles per byte (slope of the line; ticks x core/TSC); limit: the emitted limit in "
                     "bytes, its p from recommend's interval of each (the bound line's band, the spread of the sweep's "
                     "rounds and how one size measured again scatters: docs/results.md, How sure)\n";
    for (const auto& n : r.notes) std::cout << "note: " << n << "\n";
}

}  // namespace

int run_compare(const Args& args) {
    po::options_description desc("compare options");
    desc.add_options()("a", po::value<std::string>(), "the file before (or the first machine)")(
        "b", po::value<std::string>(), "the file after (or the second machine)")("json",
                                                                                 "print JSON (fputune.compare/1)")(
        "fail-on-regression", po::value<std::string>(),
        "exit 1 when a variant is significantly slower (c/B) or its limit significantly smaller by more than PCT %")(
        "min-change", po::value<std::string>()->default_value("3"),
        "smallest change in % called significant (the fits' intervals know the noise within one sweep, not the host's "
        "drift between two)")("alpha", po::value<double>()->default_value(0.05, "0.05"),
                              "significance level of all the comparison's tests together (Holm's step-down; each p is printed as is)")(
        "budget", po::value<std::string>()->default_value("30us"), "for the limits: longest acceptable FPU section")(
        "min-freq", po::value<std::string>()->default_value("1GHz"),
        "for the limits: lowest core frequency to plan for")("margin", po::value<std::string>()->default_value("1.0"),
                                                             "for the limits: safety factor >= 1")(
        "round", po::value<std::string>()->default_value("block"), "for the limits: block | kib | pow2")(
        "cache", po::value<std::string>()->default_value("cold"), "cold | hot: which sweep points to compare")(
        "quantile", po::value<std::string>()->default_value("p99"), "p99 | p90: the bound line");
    po::positional_options_description pos;
    pos.add("a", 1).add("b", 1);
    po::variables_map vm;
    if (!parse("compare",
               "A.json B.json [--json] [--fail-on-regression PCT] [--min-change PCT] [--budget 30us] [--min-freq 1GHz] "
               "[--cache cold|hot]\n\n"
               "A and B: two sweeps (or model files), or two bench files. Per variant the change in core cycles per "
               "byte (p50 and bound "
               "lines; bench: p50) and in the recommended limit, with a p-value from each file's own 95 % intervals. "
               "Two sweeps of one kind of CPU: each variant beyond the host's own move (the median change over all "
               "variants, said in a note).\n"
               "Exit 0 (whatever changed), 1 with --fail-on-regression PCT when something regressed by more than PCT "
               "%, 2 bad input",
               desc, args, vm, false, &pos))
        return kExitOk;
    if (!vm.count("a") || !vm.count("b"))
        throw UsageError("which two files? e.g. `fputune compare before.json after.json`");
    CompareOptions o;
    try {
        o.recommend.question.budget_s = parse_duration_s(vm["budget"].as<std::string>(), "--budget");
        o.recommend.question.min_freq_hz = parse_frequency_hz(vm["min-freq"].as<std::string>(), "--min-freq");
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    o.recommend.question.margin = margin_option(vm["margin"].as<std::string>());
    const std::string round = vm["round"].as<std::string>();
    if (const auto r = parse_round(round))
        o.recommend.round = *r;
    else
        throw UsageError("--round " + round + ": expected block, kib or pow2");
    o.recommend.question.cache = cache_option(vm["cache"].as<std::string>());
    o.recommend.question.quantile = quantile_option(vm["quantile"].as<std::string>());
    o.recommend.command_line = command_line_of("compare", args);
    try {
        validate(o.recommend);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    o.min_change = parse_percent(vm, "min-change", 0, 1000) / 100;
    o.alpha = vm["alpha"].as<double>();
    if (!(o.alpha > 0 && o.alpha < 1))
        throw UsageError(fmt::format("--alpha {}: expected a level between 0 and 1, e.g. 0.05", o.alpha));
    double fail_pct = -1;
    if (vm.count("fail-on-regression")) fail_pct = parse_percent(vm, "fail-on-regression", 0, 1000);
    const CompareResult r = compare_files(vm["a"].as<std::string>(), vm["b"].as<std::string>(), o);
    if (vm.count("json")) {
        nlohmann::json j = to_json(r);
        if (fail_pct >= 0) j["regressions"] = regressions(r, fail_pct);
        std::cout << j.dump(1) << "\n";
    } else {
        print_table(r);
    }
    if (fail_pct < 0) return kExitOk;
    const std::vector<std::string> bad = regressions(r, fail_pct);
    if (!vm.count("json")) {
        if (bad.empty()) std::cout << fmt::format("no regression over {:g} %\n", fail_pct);
        for (const auto& b : bad) std::cout << "REGRESSION " << b << "\n";
    }
    return bad.empty() ? kExitOk : kExitCheckFailed;
}

}  // namespace fputune::cli
