// SPDX-License-Identifier: MIT
// `check`'s table.
#include <algorithm>

#include <fmt/format.h>

#include "render.hpp"
#include "units.hpp"

namespace fputune {

std::string render_check(const CheckReport& report, const std::string& source, const std::vector<ModelFile>& sources,
                         const RecommendOptions& o) {
    std::string out = fmt::format("fputune {} ({}) check {}: budget {} per FPU section at {} minimum, margin {} (fits {}), {} cache\n",
                                  tool_version(), tool_commit(), source, format_duration(o.budget_s), format_frequency(o.min_freq_hz),
                                  format_margin(o.margin), format_duration(effective_budget_s(o)), name(o.cache));
    for (const auto& s : sources)
        out += fmt::format("machine: {} ({} {}{})\n", s.machine, s.source_kind, s.source, s.sweep_date.empty() ? "" : ", " + s.sweep_date);
    out += "\n";
    const std::string tcol = "time@" + format_frequency(o.min_freq_hz);
    out += fmt::format("{:<40} {:>9} {:>11} {:<7} {}\n", "constant", "bytes", tcol, "verdict", "slowest");
    for (const auto& r : report.results) {
        out += fmt::format("{:<40} {:>9} {:>11} {:<7} {}{}{}\n", r.constant.name, r.constant.value, format_duration(r.time_s),
                           r.pass ? "PASS" : "OVER", r.kernel, sources.size() > 1 ? " on " + r.machine : "",
                           r.cache != o.cache ? fmt::format(" ({} cache: no {} points)", name(r.cache), name(o.cache))
                                              : "");
        if (!r.note.empty()) out += fmt::format("{:<40}   note: {}\n", "", r.note);
    }
    for (const auto& n : report.notes) out += "note: " + n + "\n";
    const auto over = std::count_if(report.results.begin(), report.results.end(), [](const CheckResult& r) { return !r.pass; });
    out += over ? fmt::format("{} of {} constants OVER the budget\n", over, report.results.size())
                : fmt::format("all {} constants within the budget\n", report.results.size());
    return out;
}

}  // namespace fputune
