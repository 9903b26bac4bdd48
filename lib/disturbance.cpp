// SPDX-License-Identifier: MIT
// The rules of DisturbanceMonitor: calm levels from recent calibrations, and what counts as leaving them.
#include "disturbance.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace fputune {

namespace {
constexpr std::size_t kLevelMemory = 256;  // calibrations (~64 ms of sampling) that set the calm levels
constexpr std::uint64_t kRelearnEvery = 16;

double low_quantile(const std::deque<double>& v, double q) {
    std::vector<double> s(v.begin(), v.end());
    if (s.empty()) return 0;
    auto it = s.begin() + static_cast<std::ptrdiff_t>(q * static_cast<double>(s.size() - 1));
    std::nth_element(s.begin(), it, s.end());
    return *it;
}

void remember(std::deque<double>& d, double v) {
    d.push_back(v);
    if (d.size() > kLevelMemory) d.pop_front();
}
}  // namespace

const char* disturbance_name(DisturbanceKind k) noexcept {
    switch (k) {
        case DisturbanceKind::none: return "none";
        case DisturbanceKind::timer_slow: return "timer_slow";
        case DisturbanceKind::clock_collapse: return "clock_collapse";
        case DisturbanceKind::interrupt_storm: return "interrupt_storm";
        case DisturbanceKind::preempted: return "preempted";
        case DisturbanceKind::clock_step: return "clock_step";
    }
    return "?";
}

void DisturbanceMonitor::learn(const Calibration& c) {
    remember(overheads_, c.overhead_ticks);
    remember(steps_, c.step_ticks);
    if (c.core_per_tsc > 0) remember(ratios_, c.core_per_tsc);
    // The timer's calm level is a low quantile (interruptions and slow phases only add time); the
    // ratio's is the median of the recent probes (it really moves, within milliseconds).
    if (++learned_ % kRelearnEvery == 1 || learned_ < kRelearnEvery) {
        overhead_level_ = low_quantile(overheads_, 0.25);
        step_level_ = low_quantile(steps_, 0.25);
        ratio_level_ = ratios_.empty() ? ratio_level_ : low_quantile(ratios_, 0.5);
    }
}

void DisturbanceMonitor::seed(const Calibration& calm) { learn(calm); }

void DisturbanceMonitor::adopt(const Calibration& c) {
    overheads_.clear();
    steps_.clear();
    ratios_.clear();
    window_.clear();
    window_ticks_ = 0;
    learned_ = 0;
    learn(c);
}

DisturbanceKind DisturbanceMonitor::judge_calibration(const Calibration& c) const {
    if (overhead_level_ > 0 && c.overhead_ticks > rules_.slow_overhead_factor * overhead_level_ + 2 * step_level_)
        return DisturbanceKind::timer_slow;
    if (step_level_ > 0 && c.step_ticks > rules_.slow_step_factor * step_level_ + 10)
        return DisturbanceKind::timer_slow;
    if (c.core_per_tsc <= 0) return DisturbanceKind::clock_collapse;
    return DisturbanceKind::none;
}

bool DisturbanceMonitor::ratio_moved(const Calibration& before, const Calibration& after) const {
    return before.core_per_tsc > 0 && after.core_per_tsc > 0 &&
           std::max(before.core_per_tsc, after.core_per_tsc) >
               (1 + rules_.ratio_moved) * std::min(before.core_per_tsc, after.core_per_tsc);
}

DisturbanceMonitor::Verdict DisturbanceMonitor::observe(const Calibration& before, const Calibration& after,
                                                        const IntervalCounts& counts) {
    Verdict v;
    v.kind = judge_calibration(after);
    if (v.kind == DisturbanceKind::timer_slow) {
        v.step_only = !(overhead_level_ > 0 &&
                        after.overhead_ticks > rules_.slow_overhead_factor * overhead_level_ + 2 * step_level_);
        v.detail = fmt::format("timer overhead {:.0f} ticks, step {:.0f} (calm: {:.0f}, {:.0f})", after.overhead_ticks,
                               after.step_ticks, overhead_level_, step_level_);
        return v;
    }
    if (v.kind == DisturbanceKind::clock_collapse) {
        v.detail = fmt::format("core/TSC ratio below {:.3f} on {} probes in a row (recent level {:.3f})", probe_floor(),
                               after.probes_rejected, ratio_level_);
        return v;
    }
    // The stall rate over the last storm_window_s of sampling, against the sweep's own.
    window_.push_back(counts);
    window_ticks_ += counts.sampled_ticks;
    const double span = rules_.storm_window_s * tsc_hz_;
    while (window_.size() > 1 && window_ticks_ - window_.front().sampled_ticks >= span) {
        // What leaves the window joins the sweep's own rate (so a storm does not raise its own bar).
        window_ticks_ -= window_.front().sampled_ticks;
        sampled_ticks_ += window_.front().sampled_ticks;
        hits_ += window_.front().hits;
        window_.pop_front();
    }
    double hits = 0;
    for (const IntervalCounts& w : window_) hits += static_cast<double>(w.hits);
    const double rate = window_ticks_ > 0 ? hits / window_ticks_ : 0;  // per tick
    const double per_ms = rate * tsc_hz_ * 1e-3;
    if (window_ticks_ >= span && per_ms > rules_.storm_min_rate_per_ms && sampled_ticks_ > 0 &&
        rate > rules_.storm_factor * hit_rate_per_tick()) {
        v.kind = DisturbanceKind::interrupt_storm;
        v.detail = fmt::format(
            "{:.0f} stalled samples in {:.1f} ms of sampling ({:.1f} per ms; the sweep's rate {:.2f} per ms)", hits,
            window_ticks_ / tsc_hz_ * 1e3, per_ms, hit_rate_per_tick() * tsc_hz_ * 1e-3);
        window_.clear();
        window_ticks_ = 0;
        return v;
    }
    if (ratio_moved(before, after)) {
        v.ambiguous = true;
        v.detail = fmt::format("core/TSC ratio moved {:.3f} -> {:.3f} within one interval", before.core_per_tsc,
                               after.core_per_tsc);
    }
    learn(after);
    return v;
}

void record_event(std::vector<DisturbanceEvent>& events, const DisturbanceEvent& e) {
    for (auto it = events.rbegin(); it != events.rend(); ++it) {
        if (it->kind != e.kind) continue;
        if (e.start_s - (it->start_s + it->length_s) <= 0.05) {
            it->length_s = std::max(it->length_s, e.start_s + e.length_s - it->start_s);
            it->count += e.count;
            it->adopted = it->adopted || e.adopted;
            return;
        }
        break;
    }
    events.push_back(e);
}

}  // namespace fputune
