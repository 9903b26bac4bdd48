// SPDX-License-Identifier: MIT
// `fit`'s table.
#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "render.hpp"

namespace fputune {

namespace {

// Each kernel's contention sensitivity (models/contention.hpp), immune first.
std::string render_sensitivities(const ModelFile& m) {
    if (m.contention.empty()) return "\ncontention: unknown (the sweep recorded none)\n";
    std::string out = fmt::format(
        "\ncontention: time(c) = quiet x (1 + s x (c - 1)); bounds stated at {} (c = {}); the sweep's p90 level "
        "{:.2f}\n",
        m.contention,
        m.contention == "observed" ? fmt::format("{:.2f}", m.contention_observed)
        : m.contention == "quiet"  ? fmt::format("{:g}", std::round(100 * m.contention_floor) / 100)
                                   : m.contention,
        m.contention_observed);
    std::vector<const CacheModel*> order;
    for (const auto& cm : m.models) order.push_back(&cm);
    std::stable_sort(order.begin(), order.end(), [](const CacheModel* a, const CacheModel* b) {
        return a->contention_known != b->contention_known ? a->contention_known : a->contention_s < b->contention_s;
    });
    for (const CacheModel* cm : order)
        out +=
            cm->contention_known
                ? fmt::format("  {:<32} {:<5} s = {:5.2f} ({:.2f}..{:.2f}){}\n", cm->kernel, name(cm->cache),
                              cm->contention_s, cm->contention_s_lo, cm->contention_s_hi,
                              cm->contention_tail.known ? fmt::format(", tail p90 {:.2f} p99 {:.2f}",
                                                                      cm->contention_tail.p90, cm->contention_tail.p99)
                                                        : "")
                : fmt::format(
                      "  {:<32} {:<5} s unknown (contention hardly moved, or too few "
                      "rounds): as measured\n",
                      cm->kernel, name(cm->cache));
    return out;
}

}  // namespace

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
    out += render_sensitivities(m);
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
