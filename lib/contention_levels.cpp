// SPDX-License-Identifier: MIT
// Contention levels from the contention probe's times, and the memory probe's trace.
#include "contention_levels.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "clock.hpp"
#include "stats.hpp"

namespace fputune {

double best_probe_cycles(const std::vector<double>& probe_cycles) {
    std::vector<double> v;
    for (double p : probe_cycles)
        if (p > 0) v.push_back(p);
    if (v.empty()) return 0;
    const std::size_t k = v.size() < 50 ? 0 : static_cast<std::size_t>(0.01 * static_cast<double>(v.size() - 1));
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
    return v[k];
}

double contention_level(double probe_cycles, double best_cycles) {
    if (!(probe_cycles > 0) || !(best_cycles > 0)) return 0;
    return std::max(1.0, probe_cycles / best_cycles);
}

namespace {

std::vector<double> sorted_levels(const std::vector<double>& probe_cycles, double best_cycles) {
    std::vector<double> c;
    for (double p : probe_cycles)
        if (const double l = contention_level(p, best_cycles); l > 0) c.push_back(l);
    std::sort(c.begin(), c.end());
    return c;
}

double at(const std::vector<double>& sorted, double f) {
    return sorted[static_cast<std::size_t>(f * static_cast<double>(sorted.size() - 1) + 0.5)];
}

}  // namespace

double median_contention(const std::vector<double>& probe_cycles, double best_cycles) {
    const std::vector<double> c = sorted_levels(probe_cycles, best_cycles);
    return c.empty() ? 0 : at(c, 0.5);
}

ContentionTrace summarise_contention(const std::vector<double>& probe_cycles, double best_cycles) {
    if (!(best_cycles > 0)) best_cycles = best_probe_cycles(probe_cycles);
    const std::vector<double> c = sorted_levels(probe_cycles, best_cycles);
    ContentionTrace t;
    if (c.empty()) return t;
    t.probes = c.size();
    t.best_cycles = best_cycles;
    t.p10 = at(c, 0.1);
    t.p50 = at(c, 0.5);
    t.p90 = at(c, 0.9);
    t.max = c.back();
    const auto contended = std::count_if(c.begin(), c.end(), [](double l) { return l >= kContendedAbove; });
    t.contended_share = static_cast<double>(contended) / static_cast<double>(c.size());
    t.contended_above = kContendedAbove;
    return t;
}

std::string busy_core_note(const ContentionTrace& c) {
    if (!c.probes || c.contended_share < kBusyCoreShare) return {};
    return fmt::format(
        "contention: the core was contended in {:.0f} % of the sweep's probes: each limit rests on the "
        "quiet samples between, so its interval is wider and its low end lower than a calmer sweep's; "
        "sweep again when the core is calmer, or give the sweep more time (--time-budget)",
        100 * c.contended_share);
}

MemoryTrace summarise_memory(const std::vector<double>& ticks) {
    std::vector<double> v;
    for (double t : ticks)
        if (t > 0 && std::isfinite(t)) v.push_back(t);
    MemoryTrace m;
    if (v.empty()) return m;
    std::sort(v.begin(), v.end());
    m.probes = v.size();
    m.bytes = static_cast<std::uint32_t>(kMemoryProbeBytes);
    m.p10 = at(v, 0.1);
    m.p50 = at(v, 0.5);
    m.p90 = at(v, 0.9);
    return m;
}

void quiet_round_stats(RoundStats& r, const std::vector<double>& cycles, const std::vector<double>& probe_cycles,
                       double best_cycles, std::vector<double>* quiet_out) {
    r.quiet_samples = r.contended_samples = 0;
    r.quiet_p50 = r.quiet_p90 = r.quiet_p99_clean = r.quiet_contention = 0;
    r.contended_p50 = r.contended_contention = 0;
    if (quiet_out) quiet_out->clear();
    if (cycles.size() != probe_cycles.size()) return;
    std::vector<double> quiet, quiet_levels, contended, contended_levels;
    for (std::size_t i = 0; i < cycles.size(); ++i) {
        const double c = contention_level(probe_cycles[i], best_cycles);
        if (!(c >= 1)) continue;
        (quiet_level(c) ? quiet : contended).push_back(cycles[i]);
        (quiet_level(c) ? quiet_levels : contended_levels).push_back(c);
    }
    if (quiet_out) *quiet_out = quiet;
    if (!quiet.empty()) {
        const PointStats q = summarize(std::move(quiet));
        std::sort(quiet_levels.begin(), quiet_levels.end());
        r.quiet_samples = q.samples;
        r.quiet_p50 = q.p50;
        r.quiet_p90 = q.p90;
        r.quiet_p99_clean = q.p99_clean;
        r.quiet_contention = at(quiet_levels, 0.5);
    }
    if (!contended.empty()) {
        std::sort(contended_levels.begin(), contended_levels.end());
        r.contended_samples = contended.size();
        r.contended_p50 = median(std::move(contended));
        r.contended_contention = at(contended_levels, 0.5);
    }
}

std::vector<double> settle_samples(std::vector<double> all, std::vector<double> quiet, std::size_t needed) {
    if (quiet.size() >= all.size() || quiet.size() < needed) return all;
    std::sort(quiet.begin(), quiet.end());
    return quiet;
}

void record_point_contention(SectionPoint& p, const PointSamples& s, double best_cycles) {
    p.contention = median_contention(s.contention_cycles, best_cycles);
    // p.rounds holds the rounds that have samples, in order: skip the empty ones alike.
    std::size_t k = 0;
    for (std::size_t r = 0; r < s.round_begin.size() && k < p.rounds.size(); ++r) {
        const std::vector<double> cycles = s.round_cycles(r);
        if (cycles.empty()) continue;
        const std::vector<double> probes = s.round_contention(r);
        RoundStats& round = p.rounds[k++];
        round.contention = median_contention(probes, best_cycles);
        quiet_round_stats(round, cycles, probes, best_cycles);
    }
}

void record_contention(SweepFile& f, const PoolResult& pool,
                       const std::function<const PointSamples*(const SectionPoint&)>& point_of) {
    // A file measured into again (--resume, the closed loop) keeps its quiet level, so that every point's
    // level is against one best, and the trace of whichever run probed more.
    const bool known = f.contention.probes && f.contention.best_cycles > 0;
    const double best = known ? f.contention.best_cycles : best_probe_cycles(pool.clock.contention_cycles);
    const ContentionTrace run = summarise_contention(pool.clock.contention_cycles, best);
    if (!known || run.probes > f.contention.probes) f.contention = run;
    const MemoryTrace memory = summarise_memory(pool.clock.memory_ticks);
    if (memory.probes > f.memory.probes) f.memory = memory;
    if (!run.probes) return;
    for (SectionPoint& p : f.sections)
        if (const PointSamples* s = point_of(p)) record_point_contention(p, *s, best);
}

}  // namespace fputune
