// SPDX-License-Identifier: MIT
// Solves budget = A + B·n on the upper confidence line for n, then rounds down to whole blocks, KiB or a
// power of two, checking the rounded size against the line itself.
#include "budget.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "units.hpp"
#include "upstream.hpp"

namespace fputune {

const LineFit& bound_fit(const CacheModel& m, Quantile quantile) { return quantile == Quantile::p99 ? m.p99 : m.p90; }

double predict_upper_s(const CacheModel& m, double bytes, double min_freq_hz, Quantile quantile) {
    return bound_fit(m, quantile).upper_at(bytes) / min_freq_hz;
}

std::string no_fit_message(const VariantResult& v, double min_freq_hz) {
    return fmt::format("no size fits: one block ({} B) takes {} at {}", v.block_bytes, format_duration(v.one_block_s),
                       format_frequency(min_freq_hz));
}

namespace {

std::uint64_t round_granule(Round mode, std::uint32_t block) {
    if (mode == Round::kib) return std::lcm<std::uint64_t>(1024, block);
    return block;
}

}  // namespace

VariantResult solve_budget(const ModelFile& src, const KernelInfo& k, const CacheModel& cm, const RecommendOptions& o) {
    VariantResult v;
    v.kernel = k.name;
    v.algorithm = k.algorithm;
    v.machine = src.machine;
    v.source = src.source;
    v.cache = cm.cache;
    v.block_bytes = std::max<std::uint32_t>(1, k.block_bytes);
    const double budget = effective_budget_s(o);
    auto t = [&](double n) { return predict_upper_s(cm, n, o.min_freq_hz, o.quantile); };
    const LineFit& bound = bound_fit(cm, o.quantile);
    v.one_block_s = t(v.block_bytes);
    const double b_cycles = bound.b_hi;
    if (!(b_cycles > 0)) {
        v.notes.push_back("the fit has no positive per-byte cost; no limit can be computed");
        return v;
    }
    const double budget_cycles = budget * o.min_freq_hz;
    const double exact = std::max(0.0, (budget_cycles - bound.a_hi) / b_cycles);
    v.unrounded_bytes = std::min(exact, static_cast<double>(kMaxLimitBytes));
    if (exact > static_cast<double>(kMaxLimitBytes))
        v.notes.push_back(fmt::format("capped at {}: the line allows more ({}), beyond any section a sweep measures",
                                      format_size(kMaxLimitBytes), std::isfinite(exact) ? fmt::format("{:.3g} B", exact) : "any size"));
    // The largest multiple of g up to kMaxLimitBytes whose predicted time fits: t() grows with n (b > 0),
    // so the multiples that fit are a prefix; a binary search finds its end in ~30 steps.
    auto largest_multiple = [&](std::uint64_t g) {
        std::uint64_t lo = 0, hi = kMaxLimitBytes / g;  // in granules
        while (lo < hi) {
            const std::uint64_t mid = lo + (hi - lo + 1) / 2;
            if (t(static_cast<double>(mid * g)) <= budget) lo = mid;
            else hi = mid - 1;
        }
        return lo * g;
    };
    const std::uint64_t block = v.block_bytes;
    std::uint64_t n = 0, granule = block;
    if (o.round == Round::pow2) {
        const std::uint64_t blocks = largest_multiple(block);
        std::uint64_t p = block;
        if (blocks >= block) {
            while (p * 2 <= blocks) p *= 2;
            n = p;
        }
        granule = n ? n : block;  // the next power of two up
    } else {
        granule = round_granule(o.round, v.block_bytes);
        n = largest_multiple(granule);
        if (n == 0 && granule != block) {
            n = largest_multiple(block);
            if (n) v.notes.push_back(fmt::format("less than 1 KiB fits: rounded to whole blocks ({} B)", block));
            granule = block;
        }
    }
    if (n == 0) return v;
    if (!cm.bound_bytes.empty() && n > cm.bound_bytes.back())
        v.notes.push_back(fmt::format("extrapolated: the bound was fitted on sections up to {} B", cm.bound_bytes.back()));
    v.fits = true;
    v.bytes = n;
    v.time_s = t(static_cast<double>(n));
    v.next_time_s = t(static_cast<double>(n + granule));
    const double a = cm.p50.a, bn = cm.p50.b * static_cast<double>(n);
    v.throughput_cost = a + bn > 0 ? std::max(0.0, a) / (a + bn) : 0;
    return v;
}

void judge_upstream(VariantResult& v, const CacheModel& cm, const RecommendOptions& o) {
    const UpstreamLimit* u = find_upstream_limit(v.algorithm);
    if (!u) return;
    v.upstream_known = true;
    v.upstream_bytes = u->fpu_chunk_bytes;
    if (u->fpu_chunk_bytes) {
        v.upstream_time_s = predict_upper_s(cm, static_cast<double>(*u->fpu_chunk_bytes), o.min_freq_hz, o.quantile);
        v.upstream_pass = v.upstream_time_s <= effective_budget_s(o);
    } else {
        v.upstream_time_s = std::numeric_limits<double>::infinity();
        v.upstream_pass = false;
    }
}

}  // namespace fputune
