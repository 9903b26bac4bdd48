// SPDX-License-Identifier: MIT
// `fit`'s table.
#include <fmt/format.h>

#include "render.hpp"

namespace fputune {

std::string render_fit(const ModelFile& m) {
    std::string out;
    out += fmt::format(
        "fputune {} ({}) fit: {} ({}, {}), core/TSC {:.3f}, TSC {:.3f} GHz, weighted least squares "
        "(weights 1/y^2, Huber), 95 % intervals\n\n",
        m.tool_version, m.tool_commit, m.machine, m.source, m.sweep_date.empty() ? m.source_kind : m.sweep_date,
        m.core_per_tsc, m.tsc_hz / 1e9);
    out += fmt::format("{:<22} {:<5} {:<4} {:>20} {:>24} {:>8} {:>7}  {}\n", "kernel", "cache", "q", "A cycles",
                       "B cycles/byte", "R^2", "max res", "note");
    for (const auto& cm : m.models) {
        for (const auto& [q, f] : {std::pair{"p50", &cm.p50}, std::pair{"p90", &cm.p90}, std::pair{"p99", &cm.p99}}) {
            out += fmt::format("{:<22} {:<5} {:<4} {:>20} {:>24} {:>8.5f} {:>6.1f}%  {}\n", cm.kernel, name(cm.cache),
                               q, fmt::format("{:.0f} ± {:.0f}", f->a, (f->a_hi - f->a_lo) / 2),
                               fmt::format("{:.4f} ± {:.4f}", f->b, (f->b_hi - f->b_lo) / 2), f->r2,
                               100 * f->max_rel_residual, f->note);
        }
    }
    out += fmt::format(
        "\nA: fixed cost per section in core cycles (state save and per-section overhead included); "
        "B: core cycles per byte; p99: of uninterrupted samples; p90 and p99 are fitted on sections of "
        "at most {:.0f} us; a line is flagged when a point is more than {:.0f}% off it\n",
        kBoundFitMaxSeconds * 1e6, 100 * kMaxRelResidualForLine);
    for (const auto& t : m.thresholds)
        out += fmt::format("threshold {} ({} dirty) vs {}: {}\n", t.kernel, name(t.dirty), t.scalar_kernels,
                           t.kind == ThresholdKind::bytes ? fmt::format("{} B", t.bytes)
                           : t.kind == ThresholdKind::always
                               ? fmt::format("always ({} B)", t.bytes)
                               : fmt::format("never (measured {}..{} B)", t.measured_from, t.measured_to));
    for (const auto& n : m.notes) out += "note: " + n + "\n";
    return out;
}

}  // namespace fputune
