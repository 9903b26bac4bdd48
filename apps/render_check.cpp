// SPDX-License-Identifier: MIT
// `check`'s table.
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "render.hpp"
#include "units.hpp"
#include "upstream.hpp"

namespace fputune {

namespace {

// The contention a constant was judged at: the header's level, --contention's, or as measured.
std::string judged_at(const CheckResult& r, const RecommendOptions& o) {
    if (!(r.contention_level >= 1)) return "as measured";
    return fmt::format("c={:.2f} {}", r.contention_level, r.contention_from_header ? "header" : o.question.contention);
}

// Which contention the times are judged at, in one line.
std::string check_contention_line(const CheckReport& report, const RecommendOptions& o) {
    if (o.question.contention == kContentionAsMeasured)
        return "contention: as measured (the header's bounds are, or --contention as-measured): each round as it was\n";
    const std::string fallback = fmt::format("--contention {}", o.question.contention);
    if (report.header_levels)
        return fmt::format(
            "contention: each variant at the level c its header states (its ` *   contention` lines) with the "
            "sweep's own sensitivity; one it states none for at {}; no sensitivity known: as measured\n",
            fallback);
    return fmt::format("contention: the header states no level; judged at {} (no sensitivity known: as measured)\n",
                       fallback);
}

}  // namespace

std::string render_check(const CheckReport& report, const std::string& source, const std::vector<ModelFile>& sources,
                         const RecommendOptions& o) {
    std::string out = fmt::format(
        "fputune {} ({}) check {}: budget {} per FPU section at {} minimum, margin {} (fits {}), {} cache\n",
        tool_version(), tool_commit(), source, format_duration(o.question.budget_s), format_frequency(o.question.min_freq_hz),
        format_margin(o.question.margin), format_duration(effective_budget_s(o.question)), name(o.question.cache));
    for (const auto& s : sources)
        out += fmt::format("machine: {} ({} {}{})\n", s.machine, s.source_kind, s.source,
                           s.sweep_date.empty() ? "" : ", " + s.sweep_date);
    out += check_contention_line(report, o);
    out += "\n";
    const std::string tcol = "time@" + format_frequency(o.question.min_freq_hz);
    out += fmt::format("{:<40} {:>9} {:>11} {:<7} {:<13} {}\n", "constant", "bytes", tcol, "verdict", "contention",
                       "slowest");
    for (const auto& r : report.results) {
        out += fmt::format(
            "{:<40} {:>9} {:>11} {:<7} {:<13} {}{}{}\n", r.constant.name, r.constant.value, format_duration(r.time_s),
            r.pass ? "PASS" : "OVER", judged_at(r, o), r.kernel, sources.size() > 1 ? " on " + r.machine : "",
            r.cache != o.question.cache ? fmt::format(" ({} cache: no {} points)", name(r.cache), name(o.question.cache)) : "");
        if (!r.note.empty()) out += fmt::format("{:<40}   note: {}\n", "", r.note);
    }
    for (const auto& n : report.notes) out += "note: " + n + "\n";
    const auto over =
        std::count_if(report.results.begin(), report.results.end(), [](const CheckResult& r) { return !r.pass; });
    out += over ? fmt::format("{} of {} constants OVER the budget\n", over, report.results.size())
                : fmt::format("all {} constants within the budget\n", report.results.size());
    return out;
}

namespace {

std::string upstream_section_text(const AlgorithmRow& a) {
    if (a.upstream_bytes) return fmt::format("{} B", *a.upstream_bytes);
    if (a.upstream_judged_at) return fmt::format("none, at {} B", *a.upstream_judged_at);
    return "none";
}

// One algorithm's row of `check --upstream`, and under it the row's version and source.
std::string upstream_algorithm_line(const AlgorithmRow& a, std::size_t aw, double budget, const std::string& version) {
    const bool unbounded = std::isinf(a.upstream_time_s);
    const std::string simd = a.upstream_simd_min.empty()     ? "-"
                             : a.upstream_simd_min == "none" ? "any"
                                                             : a.upstream_simd_min + " B";
    std::string out = fmt::format(
        "{:<{}} {:<16} {:>11} {:<7} {:>9} {:>9}  {}\n", a.algorithm, aw, upstream_section_text(a),
        unbounded ? std::string("unbounded") : format_duration(a.upstream_time_s), a.upstream_pass ? "PASS" : "OVER",
        unbounded ? std::string("-") : fmt::format("{:.2f}", a.upstream_time_s / budget), simd, a.kernel);
    if (!a.upstream_cited.empty()) out += fmt::format("{:<{}}   {}\n", "", aw, a.upstream_cited);
    // An uncapped section judged at a message or stripe size: what nothing in the glue stops.
    if (!a.upstream_bytes && a.upstream_judged_at && a.fits) {
        const UpstreamLimit* u = find_upstream_limit(a.algorithm, version, a.kernel);
        const char* per = !series_sources(a.algorithm) ? ""
                          : u && u->count == "disks"   ? " per data disk"
                          : u && u->shape == "message" ? " per message"
                                                       : " per source";
        out += fmt::format("{:<{}}   uncapped: a section over {} B{} would be OVER\n", "", aw, a.bytes, per);
    }
    return out;
}

// A multi-source kernel: PASS when every count upstream puts in one section fits.
std::string upstream_stripe_line(const StripeResult& s, std::size_t aw, const std::string& version, std::size_t& over) {
    const UpstreamLimit* u = find_upstream_limit(s.algorithm, version);
    const std::uint32_t per_section = u && u->sources_per_section ? *u->sources_per_section : 0;
    std::string out;
    if (per_section) {
        const bool pass = s.max_sources >= per_section;
        over += !pass;
        out = fmt::format(
            "{:<{}} {:<16} {}\n", s.algorithm, aw, fmt::format("{} {}, 4096 B", per_section, s.unit.word),
            pass ? fmt::format("PASS: {} {} per section fit (up to {})", per_section, s.unit.word, s.count())
                 : fmt::format("OVER: {} {} per section, {} fit (bound by {})", per_section, s.unit.word, s.count(),
                               s.kernel));
    } else {
        const bool all = s.cap && s.max_sources >= s.cap;
        over += !all;
        out = fmt::format(
            "{:<{}} {:<16} {}\n", s.algorithm, aw, fmt::format("any {}, 4096 B", s.unit.word),
            all ? fmt::format("PASS: every count the kernel takes fits ({} {})", s.cap + s.unit.extra, s.unit.word)
                : fmt::format("OVER above {} {} (bound by {})", s.count(), s.unit.word, s.kernel));
    }
    if (u) out += fmt::format("{:<{}}   {}\n", "", aw, u->cited(version));
    return out;
}

}  // namespace

std::string render_upstream(const Recommendation& r, std::size_t& over) {
    const RecommendOptions& o = r.options;
    const std::string version = resolve_linux_version(o.linux_version);
    const bool many = r.machines.size() > 1;
    std::string out = fmt::format(
        "\nupstream: what Linux {}'s x86 glue holds in one section (data/reference/linux-x86-limits.csv, "
        "linux-x86-sections.csv; --linux {}), judged by the same lines on the slowest variant{}\n",
        version, upstream_versions_text(), many ? " and machine" : "");
    const std::string tcol = "time@" + format_frequency(o.question.min_freq_hz);
    std::size_t aw = 11;
    for (const auto& a : r.algorithms) aw = std::max(aw, a.algorithm.size());
    out += fmt::format("{:<{}} {:<16} {:>11} {:<7} {:>9} {:>9}  {}\n", "algorithm", aw, "upstream section", tcol,
                       "verdict", "x budget", "simd from", "slowest");
    std::size_t judged = 0;
    over = 0;
    const double budget = effective_budget_s(o.question);
    for (const auto& a : r.algorithms) {
        if (!a.upstream_known) continue;
        ++judged;
        over += !a.upstream_pass;
        out += upstream_algorithm_line(a, aw, budget, version);
    }
    for (const StripeResult& s : r.stripe_algorithms) {
        // Only where upstream's section is a stripe of sources (raid6, xor): not sha256_finup_2x's two messages.
        const UpstreamLimit* u = find_upstream_limit(s.algorithm, version);
        if (!u || u->shape != "stripe") continue;
        ++judged;
        out += upstream_stripe_line(s, aw, version, over);
    }
    // Why each is judged where it is: one line per upstream row (a multi-source kernel's series share theirs).
    std::vector<std::pair<std::string, std::string>> why;  // (algorithms, because)
    for (const auto& a : r.algorithms) {
        if (a.upstream_because.empty()) continue;
        auto it = std::find_if(why.begin(), why.end(), [&](const auto& w) { return w.second == a.upstream_because; });
        if (it == why.end())
            why.emplace_back(a.algorithm, a.upstream_because);
        else
            it->first += ", " + a.algorithm;
    }
    for (const auto& [algs, because] : why) out += fmt::format("  {}: {}\n", algs, because);
    if (const std::string tail = softirq_tail_note(version); !tail.empty()) out += "note: " + tail + "\n";
    out += judged ? fmt::format("{} of {} upstream behaviours in Linux {} OVER the budget\n", over, judged, version)
                  : fmt::format("no algorithm of the inputs has an upstream row for Linux {}\n", version);
    return out;
}

}  // namespace fputune
