// SPDX-License-Identifier: MIT
// The budget solver: per kernel and machine the largest section that fits a time budget at a minimum
// frequency, and upstream's limit judged by the same cost line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model.hpp"
#include "recommend_options.hpp"

namespace fputune {

// The cost line that bounds a section: p90, or p99 of uninterrupted samples.
const LineFit& bound_fit(const CacheModel& m, Quantile quantile);

// The points a bound line was fitted on: sizes, the pooled statistic, and the same per round ([round][point]).
struct BoundPoints {
    const std::vector<std::uint64_t>& bytes;
    const std::vector<double>& pooled;
    const std::vector<std::vector<double>>& rounds;
};
// The bound points of a model for a quantile.
BoundPoints bound_points(const CacheModel& cm, Quantile q);
// How far the bound points near `bytes` lie from the line, as a factor (mean of point / line over the points
// within a factor of 2 of it, at least the 3 nearest), when the sweep had rounds; 1 otherwise. The line is a
// fit over every short section; near one size the measured points say where the bound really is there.
double local_scale(const LineFit& bound, const BoundPoints& points, double bytes);
// The upper 95 % bound of the bound statistic at `bytes`, core cycles: with points near it (local_scale), the
// line scaled to them by the upper end of their scale's 95 % interval (t(k - 1) x the sd of their ratios to the
// line / sqrt(k)): its level there is theirs, so their scatter is its uncertainty. The line's own band, a fit
// over every short section, is as wide as the series is curved: for the cold RAID6 and xor series of many
// sources it was 20-30 % at the limit, where their points near it lay within a few % of the scaled line (AMD
// Zen 5 VM, 2026-12-04), and their limits were 10-29 % below what `verify` then measured in budget. Without
// near points, the line's upper confidence line.
double local_upper(const LineFit& bound, const BoundPoints& points, double bytes);
// The bound at `bytes` with its 95 % band, core cycles, as local_upper takes it (hi = local_upper): with points near
// it, the line scaled to them and that scale's interval; without, the line and its band.
struct LocalBand {
    double lo = 0, mid = 0, hi = 0;
};
LocalBand local_band(const LineFit& bound, const BoundPoints& points, double bytes);
// Predicted section time at f_min: local_upper / f_min. What recommend's conservative limit keeps within the
// budget and what check judges.
double predict_upper_s(const CacheModel& m, double bytes, double min_freq_hz, Quantile quantile = Quantile::p99);

// The interval of one limit (unrounded bytes) for a budget in cycles. Without rounds: where the bound
// line and its 95 % band meet the budget (lo = the upper line's n). With rounds, near the limit (the bound
// points within a factor of 2 of it, at least 3): the line is scaled by how far those points lie above or
// below it, its band is that scale's 95 % interval (local_upper), and each round's ratio to the pooled points there gives a per-round limit; their spread (a 95 %
// prediction for another sweep's centre: t x sd x sqrt(2 / rounds)) widens the band, in quadrature. So does
// the scatter of one point's rounds (point_sd, t x sd): `verify` and the closed loop measure one size,
// not the line, and a limit put where the line meets the budget is over it about half the time that
// size is measured again (2-vCPU Intel Xeon VM, 2026-12-01: the same header verified twice, 6 s apart, gave
// a constant's p99 within -10 %..+5 % (p10..p90) of itself; the band alone kept 70-85 % of them in budget).
struct LimitInterval {
    double lo = 0, central = 0, hi = 0;  // lo <= central <= hi
    std::size_t rounds = 0;
    double round_sd = 0;  // sd of the per-round limits, bytes
    double local_bias = 0;  // the points near the limit against the line: mean of y / line - 1
    // What one size measured again (verify) scatters by: the median, over the points within a factor of 2 of
    // the limit, of the sd of a point's rounds relative to its bound statistic. With rounds and such points only
    // (0 otherwise).
    double point_sd = 0;
    // Each round's statistic against the pooled (calmest) one, averaged over the points near the limit (>= 1):
    // the rounds the spread above comes from. With rounds only.
    std::vector<double> round_ratio;
};
// `prior_rel_sd` (>= 0): the relative spread of the other kernels' per-round limits on the same machine,
// weighted as kPriorDegrees more rounds of this one: four rounds alone give a spread only to +-40 %, and a
// host phase falls on every kernel (a shrinkage estimate, so the low end holds still between sweeps).
inline constexpr double kPriorDegrees = 6;
// The prior: the median relative spread of the kernels whose limit (central) is within kPriorNearFactor
// of `central`, both counted as the bytes one section moves (a multi-source series' limit times its sources;
// the callers do it) — they move as many bytes per microsecond, so the host's phases (memory bandwidth taken by
// neighbours, page walks) fall on them alike: on a 2-vCPU Intel Emerald Rapids VM (2026-11-30) fast cold kernels (30-40 KiB limits)
// spread 2-6 % between rounds, hot ones under 1 % — when at least kPriorNearMin are, else of all of
// them. `others`: (central, relative spread) per kernel of the machine in one cache state, this one
// included. -1 when fewer than 3.
inline constexpr double kPriorNearFactor = 2;
inline constexpr std::size_t kPriorNearMin = 5;
// With fewer than 3 kernels to learn it from (a sweep of one or two kernels, --quick), the prior is this
// spread instead, with the same weight: the middle of what whole sweeps show (hot kernels under 1 %, fast
// cold ones 2-6 %). Without it, 2 rounds (--quick) give 1 degree of freedom, t = 12.7, and the low end of
// the interval falls to 0: "no size fits" for a kernel whose points say 2.4 KiB does.
inline constexpr double kFallbackPriorRelSd = 0.04;
double round_spread_prior(const std::vector<std::pair<double, double>>& others, double central);
// A limit whose point scatter (LimitInterval::point_sd) is more than kUnsureScatterFactor times the median of
// the machine's kernels in the same cache state (at least kUnsureMinKernels of them), and above
// kUnsureMinScatter, gets a note saying so, with its rounds' ratios: its low end fell because some of its
// rounds met a phase of the host that the others did not (on the 2-vCPU Intel Xeon VM, 2026-12-02: 2-8 of
// 100 limits a sweep, 14-29 % below their central estimate, against a median of 9-13 %), and another sweep
// may put it well above.
inline constexpr double kUnsureScatterFactor = 2.5;
inline constexpr double kUnsureMinScatter = 0.06;
inline constexpr std::size_t kUnsureMinKernels = 5;
LimitInterval limit_interval(const LineFit& bound, const BoundPoints& points, double budget_cycles,
                             double prior_rel_sd = -1);

struct VariantResult {
    std::string kernel, algorithm, machine, source;
    Cache cache = Cache::cold;
    std::uint32_t block_bytes = 0;
    bool fits = false;
    double unrounded_bytes = 0;  // the emitted end of the interval below, before rounding
    // The limit's interval (see limit_interval): where the bound line meets budget / margin, its 95 %
    // confidence band widened by the spread of the same limit computed from each round of the sweep near
    // the limit. Without rounds (an older sweep, a table) it is the band alone, and its low end the upper
    // line's n, the limit as it always was.
    double interval_lo_bytes = 0, central_bytes = 0, interval_hi_bytes = 0;
    std::size_t rounds = 0;  // rounds the spread came from (0: the band alone)
    double round_spread = 0;  // sd of the per-round limits / central_bytes
    double point_spread = 0;  // LimitInterval::point_sd: what one size measured again scatters by, relative
    double local_bias = 0;  // how far the bound points near the limit lie from the line (see LimitInterval)
    std::uint64_t bytes = 0;  // the limit, rounded down (whole blocks, KiB or power of two)
    double time_s = 0;  // predicted (upper bound) at `bytes`
    double next_time_s = 0;  // predicted at `bytes` + one granule (over budget, or beyond the emitted end)
    double one_block_s = 0;  // predicted for one block
    double throughput_cost = 0;  // A / (A + B·n) of the p50 fit: what the limit costs against none
    bool upstream_known = false;
    std::optional<std::uint64_t> upstream_bytes;  // empty: no limit upstream
    std::optional<std::uint64_t>
        upstream_judged_at;  // no limit upstream, judged at this section (an XTS message, a stripe)
    double upstream_time_s = 0;  // infinity when upstream has no limit
    bool upstream_pass = false;
    std::string upstream_cited;  // "Linux 7.1: <file>; <evidence>" (upstream.hpp UpstreamLimit::cited)
    std::optional<SimdThreshold> threshold;
    std::vector<std::string> notes;
    // Series (lib/sweep.hpp): the stems of the variant's and its algorithm's macros (header.hpp series_stem),
    // and the state: > 0 the ZMM warm-up series, the first section after this long idle.
    std::string stem, algorithm_stem;
    double idle_s = 0;
    // The contention its bound is stated at (CacheModel's): the level c and the sensitivity s with its
    // interval; known false: as measured.
    bool contention_known = false;
    double contention_level = 0, contention_s = 0, contention_s_lo = 0, contention_s_hi = 0;
    TailSensitivity contention_tail;
};

// No limit above this: no sweep measures sections beyond 1 GiB (sweep --sizes stops there), and a
// larger one is a line extrapolated past all sense (a tiny per-byte cost, a huge budget).
inline constexpr std::uint64_t kMaxLimitBytes = 1ull << 30;
// The limit of one kernel on one machine (`src`) from one of its cache models; no threshold or upstream
// yet. Bounded whatever the line: a binary search over whole granules up to kMaxLimitBytes (~30 steps),
// never a walk whose length comes from the data.
VariantResult solve_budget(const ModelFile& src, const KernelInfo& k, const CacheModel& cm, const RecommendOptions& o);
// Upstream's limit for v's algorithm, predicted by the same line: PASS or OVER the budget.
void judge_upstream(VariantResult& v, const CacheModel& cm, const RecommendOptions& o);

// "no size fits: one block (64 B) takes 1.2 us at 1 GHz"
std::string no_fit_message(const VariantResult& v, double min_freq_hz);

}  // namespace fputune
