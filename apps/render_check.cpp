// SPDX-License-Identifier: MIT
// `check`'s table.
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "render.hpp"
#include "units.hpp"

namespace fputune {

std::string render_check(const CheckReport& report, const std::string& source, const std::vector<ModelFile>& sources,
                         const RecommendOptions& o) {
    std::string out = fmt::format(
        "fputune {} ({}) check {}: budget {} per FPU section at {} minimum, margin {} (fits {}), {} cache\n",
        tool_version(), tool_commit(), source, format_duration(o.question.budget_s), format_frequency(o.question.min_freq_hz),
        format_margin(o.question.margin), format_duration(effective_budget_s(o.question)), name(o.question.cache));
    for (const auto& s : sources)
        out += fmt::format("machine: {} ({} {}{})\n", s.machine, s.source_kind, s.source,
                           s.sweep_date.empty() ? "" : ", " + s.sweep_date);
    out += "\n";
    const std::string tcol = "time@" + format_frequency(o.question.min_freq_hz);
    out += fmt::format("{:<40} {:>9} {:>11} {:<7} {}\n", "constant", "bytes", tcol, "verdict", "slowest");
    for (const auto& r : report.results) {
        out += fmt::format(
            "{:<40} {:>9} {:>11} {:<7} {}{}{}\n", r.constant.name, r.constant.value, format_duration(r.time_s),
            r.pass ? "PASS" : "OVER", r.kernel, sources.size() > 1 ? " on " + r.machine : "",
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

std::string render_upstream(const Recommendation& r, std::size_t& over) {
    const RecommendOptions& o = r.options;
    const bool many = r.machines.size() > 1;
    std::string out = fmt::format(
        "\nupstream: what Linux's x86 glue holds in one section today (data/reference/linux-x86-limits.csv, "
        "linux-x86-sections.csv), judged by the same lines on the slowest variant{}\n",
        many ? " and machine" : "");
    const std::string tcol = "time@" + format_frequency(o.question.min_freq_hz);
    std::size_t aw = 11;
    for (const auto& a : r.algorithms) aw = std::max(aw, a.algorithm.size());
    out += fmt::format("{:<{}} {:<16} {:>11} {:<7} {:>9}  {}\n", "algorithm", aw, "upstream section", tcol, "verdict",
                       "x budget", "slowest");
    std::size_t judged = 0;
    over = 0;
    const double budget = effective_budget_s(o.question);
    for (const auto& a : r.algorithms) {
        if (!a.upstream_known) continue;
        ++judged;
        over += !a.upstream_pass;
        const std::string section = a.upstream_bytes       ? fmt::format("{} B", *a.upstream_bytes)
                                    : a.upstream_judged_at ? fmt::format("none, at {} B", *a.upstream_judged_at)
                                                           : std::string("none");
        const bool unbounded = std::isinf(a.upstream_time_s);
        out += fmt::format("{:<{}} {:<16} {:>11} {:<7} {:>9}  {}\n", a.algorithm, aw, section,
                           unbounded ? std::string("unbounded") : format_duration(a.upstream_time_s),
                           a.upstream_pass ? "PASS" : "OVER",
                           unbounded ? std::string("-") : fmt::format("{:.2f}", a.upstream_time_s / budget), a.kernel);
    }
    for (const StripeResult& s : r.stripe_algorithms) {
        ++judged;
        const bool all = s.cap && s.max_sources >= s.cap;
        over += !all;
        out += fmt::format(
            "{:<{}} {:<16} {}\n", s.algorithm, aw, fmt::format("any {}, 4096 B", s.unit.word),
            all ? fmt::format("PASS: every count the kernel takes fits ({} {})", s.cap + s.unit.extra, s.unit.word)
                : fmt::format("OVER above {} {} (bound by {})", s.count(), s.unit.word, s.kernel));
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
    out += judged ? fmt::format("{} of {} upstream behaviours OVER the budget\n", over, judged)
                  : "no algorithm of the inputs has an upstream row\n";
    return out;
}

}  // namespace fputune
