// SPDX-License-Identifier: MIT
// Fitting a sweep: the lines per kernel and cache state, and which sizes bound them.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "contention.hpp"
#include "model.hpp"

namespace fputune {

// The p90 and p99 lines (the bounds) are fitted on sections of at most this long (p50), and at least
// on the kBoundFitMinPoints shortest. Longer sections are where a host's interruptions stop being rare
// events and become part of the distribution: on the VM this was built on, the host takes the CPU for
// ~38 us about once per ms, so the p90 of 40-600 us sections jumps by 10-50 % from run to run, and a
// line through them moves the limits with it. Limits for budgets of 10-100 us at >= 1 GHz land on
// sections of 3-30 us on a 3.5 GHz core, well inside this range; the p50 line still spans every size.
inline constexpr double kBoundFitMaxSeconds = 50e-6;
inline constexpr std::size_t kBoundFitMinPoints = 6;

// The statistics a point's bound lines are fitted on, in cycles: the p90 and the p99 of uninterrupted
// samples (never below the p90) of each round, one round being one stretch of the sweep's time, and of
// those the calmest round's (rounds of fewer than kBoundRoundMinSamples samples left out). A host's
// phases (a neighbour on the core, page walks contended) only add time, and come and go over tens of
// seconds: a pooled p99 is set by whichever round fell in the worst of them, the mean by how many rounds
// did. On a 2-vCPU Intel Emerald Rapids VM (2026-11-30), across five sets of three consecutive sweeps, 62-85 of 87 limits stayed
// within 10 % with the pooled p99 (worst 29 %), 71-85 with the mean, 84-87 with the calmest round's
// (docs/results.md, How sure) — the minimum of repeated runs, as timeit takes it, here of each round's tail. The phases are not lost: the spread
// between the rounds widens the limit's interval, whose low end is emitted. A point with fewer than 2
// such rounds (an older file, --rounds 1) gives its pooled statistics. `mean`: their mean instead (the
// machine over a few seconds, phases included).
inline constexpr std::uint64_t kBoundRoundMinSamples = 20;
struct BoundStats {
    double p90 = 0, p99 = 0;
};
// A round's bound statistics (p90, and p99 of uninterrupted samples never below it) moved by `adjust`: from its
// quiet samples' (RoundStats::quiet_*) and their level where it has kBoundRoundMinSamples of them, else from all of
// its samples at its median level. A round's median level does not see a contended minority, which sets the
// round's tail: moved by the median, such a tail stayed as contended as it was measured, and the limits moved with
// how many samples the neighbour took (docs/contention.md). Unmoved (all samples) when `adjust` is not known.
std::pair<double, double> round_bound(const RoundStats& r, const ContentionAdjust& adjust);
// Which of a point's rounds count (RoundKeep): their quiet parts alone (quiet), with `adjust` known, when at least
// 2 of its rounds have kBoundRoundMinSamples quiet samples. A round the neighbour held nearly throughout has few quiet samples; its
// statistics would be all of its samples moved from their median level by s, and s, fitted on p50s, does not move a
// tail that the contended samples set (2-vCPU AMD Zen 5 VM, 2026-12-03, sha256-avx cold 2 KiB: quiet p99 30.4-31.0 k
// cycles in three rounds, the fourth with 9 quiet of 363 samples 44 k moved by s): such a round says nothing of the
// quiet tail and would widen the limit's interval by the neighbour's share alone. `round_left_out`: whether round
// `r` is then left out (bound_stats, the model's rounds: 0, over_budget_p).
// Cleaner still, where 2 rounds have them: rounds whose contended samples are at most kCleanRoundMaxShare of theirs.
// The probe reads the neighbour every ~0.25 ms, so a "quiet" sample amid contended ones was often contended too: over
// 12 default sweeps (2-vCPU AMD Zen 5 VM, 2026-12-03), a round's quiet p90 against its point's rounds with under 5 %
// contended ran a median 1.036x (p90 1.16x) with 5-15 % of the round contended, 1.092x (p90 1.31x) with 30-50 %; cold
// sha256-avx at 2 KiB, one sweep: quiet p90 30.0-30.2 k cycles in three rounds, 38.3 k in the fourth (46 % contended),
// which widened the limit's interval to 33 % below its centre while the other two sweeps' stayed within 6 %.
inline constexpr double kCleanRoundMaxShare = 0.05;
// A point the neighbour held in every round (no round with a quiet part, each shared) says of the quiet cost only
// what s moves it by, and s, fitted over the whole sweep, need not fit that neighbour: in one default sweep (2-vCPU
// AMD Zen 5 VM, 2026-12-03) the closed loop measured cold sha256-avx at 1536-1920 B while a neighbour held every
// round (c 1.58-1.62); its s read -0.02 there, so those points stayed as measured, 1.5x the clean first-pass points
// beside them (1472-2048 B, c 1.01-1.02; p99 at 1920 B 44.8 k cycles, 29.0 k between its clean neighbours), and its
// limit fell from 1920-1984 B in the two sweeps before to 1472 B (central estimates: 100 variants 0.905x at the
// median, compute-bound ones too). Such a point is left out of the bound fit, and of the points near a limit,
// where at least kHeldPointMinClean points within a factor of 2 of it were not held; the p50 line keeps it.
// `neighbour_held`: every round (of kBoundRoundMinSamples) shared, two at least, and fewer than two with a quiet part;
// `held_point`: so, with `adjust` known (its s is what would move it). The closed loop measures again a point the
// neighbour held near a constant, as it does one that did not settle (closed_loop.hpp loop_points).
inline constexpr std::size_t kHeldPointMinClean = 3;
bool neighbour_held(const std::vector<RoundStats>& rounds);
bool held_point(const std::vector<RoundStats>& rounds, const ContentionAdjust& adjust);
enum class RoundKeep { all, quiet, clean };
RoundKeep rounds_kept(const std::vector<RoundStats>& rounds, const ContentionAdjust& adjust);
bool round_left_out(const RoundStats& r, RoundKeep keep);
// With `adjust` known, each round's statistics are first moved from the contention the round met to the
// target level (models/contention.hpp): the calmest round is then the calmest in everything but the
// neighbour, whose share is stated. `fit`, `recommend`, `check` and `verify` all judge this one statistic.
enum class OverRounds { calmest, mean };
BoundStats bound_stats(const PointStats& pooled, const std::vector<RoundStats>& rounds,
                       OverRounds over = OverRounds::calmest, const ContentionAdjust& adjust = {});

// Fits every kernel x cache state of the sweep and computes the thresholds. `kernel_globs` (fnmatch
// patterns) limit the kernels; a pattern that matches no kernel with section points is an error, as is
// a complete (not partial) sweep in which one of our FPU kernels has no section points (a peer without
// points, or any kernel of a partial sweep, gets a note).
// Where the sweep recorded contention and a kernel's sensitivity could be fitted, its bounds are stated
// quiet (each round moved to c = 1); restate_contention (models/contention.hpp) moves them to another level.
// `as_measured`: not at all (each round as it was; the model's contention is "as-measured").
ModelFile fit_sweep(const SweepFile& sweep, const std::string& source,
                    const std::vector<std::string>& kernel_globs = {}, bool as_measured = false);

// `verify`'s judgement of one measured point: the bound statistic (bound_stats above, the calmest
// round) as measured, and moved to the level its header states with the sensitivity it states (`adjusted`
// = `raw` when the header states none: "as-measured", or a header from before contention). `met`: the
// median contention level of the rounds.
struct VerifyBound {
    double raw_p90 = 0, raw_p99 = 0, adjusted_p90 = 0, adjusted_p99 = 0;
    double met = 0;
    bool adjusted = false;
};
VerifyBound verify_bound(const PointStats& pooled, const std::vector<RoundStats>& rounds, const HeaderContention* h);

// How sure `verify` can be that a point's judged statistic (verify_bound's, at the header's contention) is over
// `budget_cycles`: the p-value of "it is not". Per round (as bound_stats takes them), a quantile test: were the
// round's p99 of uninterrupted samples at or below the budget (moved back to the contention the round met),
// the count of them above it would be at most Binomial(n, 0.01); the p90 of all samples alike with 0.10, and
// the two (the statistic is the larger) joined with Bonferroni. The judged statistic is the calmest round's,
// over only when every round is over: the point's p is the largest of the rounds' (an intersection-union
// test). `p90`: the p90 test alone. 1 when the samples say nothing (no round over the budget).
// With a stated contention, a round is tested on its quiet samples (`round_quiet_samples`, at their level) where
// round_bound takes its statistics from them, and the budget is moved back with the end of the stated interval
// of s that moves it furthest (s_hi for a round more contended than the stated level): over beyond the
// samples' noise is then over beyond what the uncertainty of s explains too. (A RAID count of 18 sources
// verified while the neighbour held the core, every round at c 1.5: 41 us as measured, 31.6 us at the quiet
// level with the s of 0.58 its header stated, 26 us with its series' upper s; AMD EPYC Zen 5 VM, 2026-12-03.)
double over_budget_p(const std::vector<double>& pooled, const std::vector<std::vector<double>>& round_samples,
                     const std::vector<RoundStats>& rounds, const HeaderContention* h, double budget_cycles, bool p90,
                     const std::vector<std::vector<double>>& round_quiet_samples = {});

// Whether a point measured at a stated contention (`h`, its sensitivity known) can only be judged on rounds a
// neighbour shared: fewer than 2 of its rounds are clean (kCleanRoundMaxShare), and a round it is judged on had
// more of its samples contended. Such a round's quiet samples run slower too, by more than s moves them: a
// `verify` whose every round met a neighbour (c 1.13-1.16 at the median in each; AMD Zen 5 VM, 2026-12-03) read
// cold sha256-avx's p50 at 32.1 us and its p99 at 43.6 us (40.3 us moved to the quiet level by the header's s and
// tail) against 30 us, where its sweep had put p99 at 30 us; SHA-NI's constants, immune, passed. Over the budget
// on such rounds is the neighbour's as much as the constant's: `verify` says CONTENDED, not OVER.
bool judged_on_shared_rounds(const std::vector<RoundStats>& rounds, const HeaderContention* h);

}  // namespace fputune
