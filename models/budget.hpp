// SPDX-License-Identifier: MIT
// The budget solver: per kernel and machine the largest section that fits a time budget at a minimum
// frequency, and upstream's limit judged by the same cost line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model.hpp"
#include "recommend_options.hpp"

namespace fputune {

// The cost line that bounds a section: p90, or p99 of uninterrupted samples.
const LineFit& bound_fit(const CacheModel& m, Quantile quantile);
// Predicted section time at f_min, upper bound of that line.
double predict_upper_s(const CacheModel& m, double bytes, double min_freq_hz, Quantile quantile = Quantile::p99);

struct VariantResult {
    std::string kernel, algorithm, machine, source;
    Cache cache = Cache::cold;
    std::uint32_t block_bytes = 0;
    bool fits = false;
    double unrounded_bytes = 0;     // the n at which the predicted upper time equals budget / margin
    std::uint64_t bytes = 0;        // the limit, rounded down (whole blocks, KiB or power of two)
    double time_s = 0;              // predicted (upper bound) at `bytes`
    double next_time_s = 0;         // predicted at `bytes` + one granule (over budget by construction)
    double one_block_s = 0;         // predicted for one block
    double throughput_cost = 0;     // A / (A + B·n) of the p50 fit: what the limit costs against none
    bool upstream_known = false;
    std::optional<std::uint64_t> upstream_bytes;  // empty: no limit upstream
    double upstream_time_s = 0;     // infinity when upstream has no limit
    bool upstream_pass = false;
    std::optional<SimdThreshold> threshold;
    std::vector<std::string> notes;
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
