// SPDX-License-Identifier: MIT
// The sampling pool: many points measured round-robin, in rounds spread over the whole run, each sample
// corrected with the timer and core clock probed beside it, disturbed stretches waited out and re-taken.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "disturbance.hpp"
#include "sweep_file.hpp"

namespace fputune {

// One timed sample as the measured code returns it: raw TSC differences, nothing subtracted.
struct RawSample {
    double ticks = 0;  // raw difference(s) of TSC reads
    double timer_reads = 1;  // how many empty-section overheads `ticks` contains (subtracted with the local one)
    double per = 1;  // a batch: the sample is (ticks - timer_reads x overhead) / per
    double request_ticks = -1;  // optional second value (the section plus the return to user space), 2 timer reads
};

// A round's share of the budget ends it for the points still open, but a point with at least kGraceShare of its
// samples for the round (max_samples / rounds, where it ends settled) may run on past the share by kRoundGrace of
// it, at most kRoundGraceMaxS: a disturbance that took a second of a round no longer leaves every point a few
// samples short (sampler.cpp, judge).
inline constexpr double kGraceShare = 0.9, kRoundGrace = 0.15, kRoundGraceMaxS = 1.0;

// When a point has enough samples, per round (the whole rule, e.g. "p90 to 1 %", is met by the rounds
// together: each round asks for its share of the samples and sqrt(rounds) x the interval).
struct SamplingRules {
    int rounds = 4;
    double point_cap_s = 0.25;  // a point's time, all rounds together
    double target_rel_ci = 0.01;  // the median to ~1 %
    double target_rel_ci_long = 0.02;  // that of a need90 point longer than tail_max_s (only the median line)
    double target_rel_ci90 = 0.01;  // the p90 to ~1 % (points that need it)
    std::uint64_t min_samples = 21, max_samples = 2000;
    std::uint64_t min_samples90 = 100;
    // Points whose p50 is at most this (fit_sweep.hpp kBoundFitMaxSeconds: the sections the bounds are fitted on)
    // need their p90 (need90 points) and their p99 of uninterrupted samples (>= min_samples99, to
    // target_rel_ci99); a longer point only feeds the median line, so its median alone is its rule.
    double tail_max_s = 50e-6;
    std::uint64_t min_samples99 = 500;
    double target_rel_ci99 = 0.03;
    // Rounds start evenly over the budget (round r at r x budget / rounds), waiting if the previous one ended
    // early: a few points (verify) then meet the host's phases as a sweep's points do, whose rounds are spread
    // over the whole sweep because it has many. Off: each round starts when the previous one ends.
    bool spread_rounds = false;
    double max_wait_s = 2;  // one disturbance is waited out at most this long...
    double wait_share = 0.10;  // ...and all of them at most this share of the budget
};

struct PointSpec {
    bool need90 = false;  // p90 and p99 of uninterrupted samples too, while the point is short (tail_max_s)
};

// Everything the pool measured for one point.
struct PointSamples {
    std::vector<double> ticks;  // timer overhead subtracted with the local value
    std::vector<double> cycles;  // each x the core/TSC ratio probed around it
    std::vector<double> request_ticks;  // when the sample function gives them
    // Beside each of `cycles`: the contention probe around it, core cycles (0: unknown); contention.hpp
    // turns them into levels.
    std::vector<double> contention_cycles;
    std::vector<std::size_t> round_begin;  // index of each round's first sample (samples are in round order)
    bool settled = false;  // every round ended (false: the pool stopped before the last one did)
    // Rounds that ended because the point's time ran out (its share of the budget, the point's cap, or the
    // pool's hard end) before its rule was met or it had max_samples: its quantiles are then noisier than
    // the rule asks. 0 in every point: the plan fit its budget.
    std::uint32_t unsettled_rounds = 0;
    std::uint64_t rejected = 0;  // impossible samples (at or below the timer's floor), measured again
    std::uint64_t retaken = 0;  // samples dropped for a disturbance, measured again
    // The cycles of round r.
    std::vector<double> round_cycles(std::size_t r) const;
    std::vector<double> round_contention(std::size_t r) const;  // the same round's contention_cycles
};

// The clocks as probed all through the run.
struct ClockTrace {
    std::vector<double> core_per_tsc;  // accepted probes
    std::uint64_t probes_rejected = 0;  // read low (interrupted) and not used
    std::vector<double> overhead_ticks, step_ticks;  // per calibration
    std::vector<double> contention_cycles;  // the contention probe of each calibration that has one
    std::vector<double> memory_ticks;  // the memory probes of the block each round began with (TSC ticks)
};

struct PoolResult {
    std::vector<PointSamples> points;
    ClockTrace clock;
    std::vector<DisturbanceEvent> events;
    std::uint64_t rejected = 0, retaken = 0;  // over all points
    std::size_t unsettled = 0;  // points with unsettled rounds
    double waited_s = 0;  // waiting disturbances out
    double elapsed_s = 0;
    bool complete = false;  // false: stopped before every round finished
};

struct PoolProgress {
    int round = 0, rounds = 0;
    std::size_t settled = 0, points = 0;  // in this round
};

struct PoolHooks {
    const std::atomic<bool>* stop = nullptr;  // checked between samples
    std::function<void(const PoolProgress&)> progress;  // about twice a second
    std::function<void(const DisturbanceEvent&)> on_event;  // as each disturbance ends
    std::function<void(int round)> on_round;  // as each round (0-based) begins, e.g. to toggle a sibling's load
    // Before each sample, outside its timing: the point about to be sampled, of how many the pool has (a
    // `busy:same` sibling is told which kernel that runs).
    std::function<void(std::size_t point, std::size_t points)> on_point;
    // Tests only: added to each TSC read of the pool's timeline (not to a sample's own ticks), to play a machine
    // paused, restored from a snapshot or moved to another host (the TSC steps back or far forward).
    std::function<std::uint64_t()> tsc_shift;
};

// Samples points 0..n-1 with `sample` in `rules.rounds` rounds, each round round-robin in shuffled order
// over the points not yet settled in it, until each is settled or has spent its share of budget_s.
// A sample whose corrected value is at or below the timer's step (zero, negative: the overhead moved) is
// counted and measured again. `calm` seeds the monitor's levels.
PoolResult sample_pool(const std::vector<PointSpec>& points, const std::function<RawSample(std::size_t)>& sample,
                       const SamplingRules& rules, double budget_s, const Calibration& calm, const PoolHooks& hooks);

// One calibration now: timer probe, a core/TSC probe retried up to 3 times while it reads below
// `probe_floor` (interrupted; core_per_tsc = 0 when every try read low), and the contention probe.
Calibration calibrate_now(double probe_floor);
// `n` calibrations about 0.25 ms apart, the median of each field: a starting level.
Calibration calm_level(int n);

}  // namespace fputune
