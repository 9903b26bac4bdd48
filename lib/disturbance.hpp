// SPDX-License-Identifier: MIT
// Judging the host while sampling: is the timer, the core clock or the interruption rate what it was?
// Pure logic fed with calibrations and counts, so every rule is testable without a clock.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace fputune {

// One local calibration, taken between samples every ~0.25 ms of sampling.
struct Calibration {
    std::uint64_t tsc = 0;  // when (TSC)
    double overhead_ticks = 0;  // median of 7 empty timed sections
    double step_ticks = 0;  // smallest positive step of back-to-back reads
    double core_per_tsc = 0;  // the accepted ratio probe (0: every try was rejected)
    int probes_rejected = 0;  // tries that read low: interrupted inside the probe
    // The contention probe (clock.hpp probe_contention_ticks) in core cycles, with this calibration's ratio;
    // 0: not probed (the ratio probe was rejected).
    double contention_cycles = 0;
};

enum class DisturbanceKind { none, timer_slow, clock_collapse, interrupt_storm, preempted, clock_step };
const char* disturbance_name(DisturbanceKind k) noexcept;

// What the sweep records for each disturbance: when it started (seconds since the sweep began), how
// long it lasted, what it was. Neighbouring events of one kind (within 50 ms) are merged (count).
struct DisturbanceEvent {
    DisturbanceKind kind = DisturbanceKind::none;
    double start_s = 0, length_s = 0;
    std::uint64_t count = 1;
    bool adopted = false;  // it outlasted the wait: its state was taken as the new normal
    std::string detail;
};

// The thresholds, chosen from this host's measurements (calm: overhead 48-112 ticks, step 20-46, probes
// within 0.5 % of each other; a trapped timer: overhead 344-832, step 116-378; interrupted probes:
// 0.001-0.8 of the real ratio; host stalls ~1 per ms).
// A sample this many times the timer's step (or more) is resolved to 1 % however coarse the step became.
inline constexpr double kStepResolved = 100;

struct DisturbanceRules {
    double slow_overhead_factor = 2.5;  // timer slow: overhead above 2.5 x its calm level + 2 steps...
    double slow_step_factor = 3.0;  // ...or the step above 3 x its calm level + 10 ticks
    double probe_low_factor = 0.8;  // a ratio probe below 0.8 x the recent ones was interrupted
    double ratio_moved = 0.10;  // probes around an interval 10 % apart: its samples are ambiguous
    double storm_window_s = 8e-3;  // sampling time over which the interruption rate is judged
    double storm_factor = 5;  // a storm: stalls at more than 5 x the sweep's own rate...
    double storm_min_rate_per_ms = 10;  // ...and more than 10 per ms (this host: 0.4-1 per ms; windows of
        // short AVX-512 points reach 5 per ms without any host event)
    double preempted_s = 1e-3;  // a single stall this long: the thread lost the CPU
};

// What happened in one interval of sampling (between two calibrations).
struct IntervalCounts {
    double sampled_ticks = 0;  // time inside samples
    std::uint64_t samples = 0;
    std::uint64_t hits = 0;  // samples stalled: above their point's interruption threshold and 2 us over its median
};

// Tracks the calm levels (the timer's overhead and step, the core/TSC ratio, the interruption rate) and
// says whether the latest calibration and interval are disturbed.
class DisturbanceMonitor {
public:
    explicit DisturbanceMonitor(double tsc_hz, DisturbanceRules rules = {}) : rules_(rules), tsc_hz_(tsc_hz) {}
    // Starting levels (e.g. from the doctor's look at the timer before the sweep).
    void seed(const Calibration& calm);

    struct Verdict {
        DisturbanceKind kind = DisturbanceKind::none;
        bool ambiguous = false;  // not a disturbance, but the interval's samples cannot be converted (ratio moved)
        // timer_slow from the step alone (the overhead calm): a sample of at least kStepResolved steps is resolved
        // to 1 % whatever the step, and only shorter ones are in doubt (the sampler keeps the rest).
        bool step_only = false;
        std::string detail;
    };
    // Judges an interval: `before` was accepted, `after` closes it. Accepted intervals update the levels.
    Verdict observe(const Calibration& before, const Calibration& after, const IntervalCounts& counts);
    // The core/TSC ratio moved by more than rules().ratio_moved between the two: the interval's samples have no
    // known ratio (Verdict::ambiguous).
    bool ratio_moved(const Calibration& before, const Calibration& after) const;
    // Is this calibration back to normal (used while waiting a disturbance out)?
    DisturbanceKind judge_calibration(const Calibration& c) const;
    // A disturbance outlasted its wait: its state is the new normal.
    void adopt(const Calibration& c);
    // A ratio probe below this was interrupted (0 before any level is known).
    double probe_floor() const noexcept { return ratio_level_ > 0 ? rules_.probe_low_factor * ratio_level_ : 0; }

    double overhead_level() const noexcept { return overhead_level_; }
    double step_level() const noexcept { return step_level_; }
    double ratio_level() const noexcept { return ratio_level_; }
    double hit_rate_per_tick() const noexcept {
        return sampled_ticks_ > 0 ? static_cast<double>(hits_) / sampled_ticks_ : 0;
    }
    const DisturbanceRules& rules() const noexcept { return rules_; }

private:
    void learn(const Calibration& c);
    DisturbanceRules rules_;
    double tsc_hz_;
    // Calm levels: a low quantile of the recent accepted calibrations (noise only adds time).
    std::deque<double> overheads_, steps_, ratios_;
    double overhead_level_ = 0, step_level_ = 0, ratio_level_ = 0;
    std::uint64_t learned_ = 0;
    std::deque<IntervalCounts> window_;
    double window_ticks_ = 0;
    double sampled_ticks_ = 0;  // the whole sweep's before the window, outside storms
    std::uint64_t hits_ = 0;
};

// Appends an event, merging it into the last one of the same kind when it starts within 50 ms of its end.
void record_event(std::vector<DisturbanceEvent>& events, const DisturbanceEvent& e);

}  // namespace fputune
