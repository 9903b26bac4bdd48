// SPDX-License-Identifier: MIT
// Contention levels: what the core's other hardware thread (or another tenant's vCPU on it) takes from
// throughput-bound code, from the contention probe timed at every calibration (clock.hpp). Pure functions.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sampler.hpp"
#include "sweep_file.hpp"

namespace fputune {

// A calibration whose probe took this much longer than the best counts as contended. The probe's own
// scatter on an idle core is 1-6 % (the faster of two tries; TSC steps of up to ~26 ticks on some VMs); a
// busy sibling stretches it 1.3-2.2x (models/contention.hpp kContendedLevel is the same, checked by a test).
inline constexpr double kContendedAbove = 1.15;

// The quiet level of the probe, core cycles (0 if no probe is positive): the fastest of fewer than 50, else
// the 1st percentile. Not the minimum of many: a ratio probe that read up to 20 % low and was accepted makes
// its calibration's probe read as low, and a full sweep (~200 000 probes) always has such a one: levels
// against it came out 1.25 where the core was quiet.
double best_probe_cycles(const std::vector<double>& probe_cycles);

// c = probe / best, at least 1; 0 for an unknown probe (<= 0) or best.
double contention_level(double probe_cycles, double best_cycles);

// The median level of the positive probes (0: none known): a round's or a point's contention.
double median_contention(const std::vector<double>& probe_cycles, double best_cycles);

// The trace of a run's probes against `best_cycles` (0: the best of these probes): quantiles of c and the
// share of calibrations at or above kContendedAbove. probes == 0 when none is known.
ContentionTrace summarise_contention(const std::vector<double>& probe_cycles, double best_cycles = 0);

// A sweep whose core was contended in at least kBusyCoreShare of its probes (a neighbour on the core most of the
// time) bounds each limit on the few quiet samples between: their p99 scatters, the limits' intervals widen and
// their low ends fall (AMD EPYC Zen 5 VM, 2026-12-03: cold sha256-avx 1280 B from a sweep contended in 65 % of
// its probes, 1920 B from the two before it at 11 and 31 %, the central estimates 2001-2034 B in all three).
// One line saying so and what to do; empty below the share, or with no probes.
inline constexpr double kBusyCoreShare = 0.5;
std::string busy_core_note(const ContentionTrace& c);

// The memory probe's quantiles over a run (clock.hpp probe_memory_ticks); probes == 0 when none is known.
MemoryTrace summarise_memory(const std::vector<double>& ticks);

// A measured point's contention: the median level of its samples, and of each round's (against `best_cycles`),
// with each round's quiet statistics (quiet_round_stats).
void record_point_contention(SectionPoint& p, const PointSamples& s, double best_cycles);

// A sample's level is quiet: known (>= 1) and below kContendedAbove.
constexpr bool quiet_level(double c) noexcept { return c >= 1 && c < kContendedAbove; }

// Into `r`: the statistics of the round's quiet samples, those whose contention level (each sample's probe beside
// it, `probe_cycles`, against `best_cycles`) is known and below kContendedAbove (their count, p50, p90, p99 of
// uninterrupted samples and median level), and of its contended ones, at or above it (count, p50, median level).
// Nothing (counts 0) when the levels are not one per sample. `quiet_out`: the quiet samples themselves, in order
// (verify tests a round on them).
void quiet_round_stats(RoundStats& r, const std::vector<double>& cycles, const std::vector<double>& probe_cycles,
                       double best_cycles, std::vector<double>* quiet_out = nullptr);

// The samples a short section's round may also settle on (sampler.cpp; `all` sorted): its quiet ones
// (quiet_round_stats' `quiet_out`), sorted, once there are `needed` of them and some samples are not quiet; else
// `all`. Its bound is taken from its quiet samples (models/fit_sweep.hpp round_bound), and a contended minority
// puts the p90 of all samples between two modes, where it does not settle: on an AMD EPYC Zen 5 VM (2026-12-03,
// sweeps with 11-65 % of the probes contended) 18-43 % of the points near the limits settled, their rounds
// ending at the sample ceiling or the round's time. The round settles when either all its samples or these meet
// the rule: judged on its quiet samples alone, a round the neighbour held most of the time could not gather them
// in its time (a sweep with 40 % of the probes contended: 18 of 1072 points near the limits settled).
std::vector<double> settle_samples(std::vector<double> all, std::vector<double> quiet, std::size_t needed);

// Writes what a sweep's pool measured of contention into its file: the trace of every calibration's probe (and
// of the memory probe: whichever run probed more), and
// each section point's levels. `point_of` names the pool's point of a section of the file (nullptr: not
// measured in this run, e.g. an earlier run's point of a resumed file). A file that already holds a trace keeps
// its best probe (the points' levels stay comparable) and takes this run's trace only if it probed more.
void record_contention(SweepFile& f, const PoolResult& pool,
                       const std::function<const PointSamples*(const SectionPoint&)>& point_of);

}  // namespace fputune
