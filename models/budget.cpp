// SPDX-License-Identifier: MIT
// Solves budget = A + B·n on the upper confidence line for n, then rounds down to whole blocks, KiB or a
// power of two, checking the rounded size against the line itself.
#include "budget.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "units.hpp"
#include "upstream.hpp"

namespace fputune {

const LineFit& bound_fit(const CacheModel& m, Quantile quantile) { return quantile == Quantile::p99 ? m.p99 : m.p90; }

BoundPoints bound_points(const CacheModel& cm, Quantile q) {
    const bool p99 = q == Quantile::p99;
    return {cm.bound_bytes, p99 ? cm.bound_p99 : cm.bound_p90, p99 ? cm.round_p99 : cm.round_p90};
}

namespace {

// The bound points near `bytes`, when the sweep had rounds: within a factor of 2, else the 3 nearest.
std::vector<std::size_t> near_points(const BoundPoints& points, double bytes) {
    std::vector<std::size_t> near;
    const std::size_t np = points.bytes.size();
    if (!(points.rounds.size() >= 2 && points.pooled.size() == np && np >= 3 && bytes > 0)) return near;
    std::vector<std::pair<double, std::size_t>> by_distance;
    for (std::size_t i = 0; i < np; ++i)
        by_distance.emplace_back(std::abs(std::log(static_cast<double>(points.bytes[i]) / bytes)), i);
    std::sort(by_distance.begin(), by_distance.end());
    for (const auto& [d, i] : by_distance)
        if (d <= std::log(2.0) || near.size() < 3) near.push_back(i);
    return near;
}

// The median of at least one value (of an even count, the upper of the middle two).
double upper_median(std::vector<double> xs) {
    const auto mid = xs.begin() + static_cast<std::ptrdiff_t>(xs.size() / 2);
    std::nth_element(xs.begin(), mid, xs.end());
    return *mid;
}

// The mean and the sample standard deviation (n - 1) of at least two values.
std::pair<double, double> mean_sd(const std::vector<double>& xs) {
    const double n = static_cast<double>(xs.size());
    double mean = 0, ss = 0;
    for (double x : xs) mean += x / n;
    for (double x : xs) ss += (x - mean) * (x - mean);
    return {mean, std::sqrt(ss / (n - 1))};
}

// The line scaled to the near points: the mean of their bound statistics over the line's at their sizes (1
// without near points, or where that is not a positive number), and the 95 % half-width of that mean: the ratios
// scatter about it, and the mean of k of them is known to t(k - 1) x sd / sqrt(k) (0 with fewer than 2). One
// pass over the ratios gives both.
struct NearScale {
    double scale = 1, half = 0;
};
NearScale near_scale(const LineFit& bound, const BoundPoints& points, const std::vector<std::size_t>& near) {
    NearScale s;
    if (near.empty()) return s;
    std::vector<double> r;
    for (std::size_t i : near) r.push_back(points.pooled[i] / bound.at(static_cast<double>(points.bytes[i])));
    const double mean = std::accumulate(r.begin(), r.end(), 0.0) / static_cast<double>(r.size());
    if (std::isfinite(mean) && mean > 0) s.scale = mean;
    if (r.size() >= 2) {
        const double half = student_t95(r.size() - 1) * mean_sd(r).second / std::sqrt(static_cast<double>(r.size()));
        if (std::isfinite(half)) s.half = half;
    }
    return s;
}

}  // namespace

double local_scale(const LineFit& bound, const BoundPoints& points, double bytes) {
    return near_scale(bound, points, near_points(points, bytes)).scale;
}

LocalBand local_band(const LineFit& bound, const BoundPoints& points, double bytes) {
    const std::vector<std::size_t> near = near_points(points, bytes);
    if (near.empty()) return {bound.a_lo + bound.b_lo * bytes, bound.at(bytes), bound.upper_at(bytes)};
    const auto [scale, half] = near_scale(bound, points, near);
    const double at = bound.at(bytes);
    return {at * std::max(0.0, scale - half), at * scale, at * (scale + half)};
}

double local_upper(const LineFit& bound, const BoundPoints& points, double bytes) {
    return local_band(bound, points, bytes).hi;
}

LimitInterval limit_interval(const LineFit& bound, const BoundPoints& points, double budget_cycles,
                             double prior_rel_sd) {
    LimitInterval iv;
    auto n_at = [](double cycles, double a, double b) { return b > 0 ? std::max(0.0, (cycles - a) / b) : 0.0; };
    const double n0 = n_at(budget_cycles, bound.a, bound.b);
    const std::vector<std::size_t> near = near_points(points, n0);
    const auto [scale, half_scale] = near_scale(bound, points, near);  // the line, scaled to the points near the limit
    if (!near.empty()) iv.local_bias = scale - 1;
    const double budget = budget_cycles / scale;
    // The upper confidence line; with points near the limit, the line scaled to them by the upper end of their
    // scale (its level there is theirs, so their scatter is its uncertainty, not the whole line's band).
    const double upper = !near.empty() ? n_at(budget_cycles / (scale + half_scale), bound.a, bound.b)
                                       : n_at(budget, bound.a_hi, bound.b_hi);
    iv.central = std::max(upper, n_at(budget, bound.a, bound.b));
    // The lower end (optimistic): of the near points' scale, else the lower line; one that bounds nothing (a scale
    // not above its half-width, a low slope not positive): twice the centre.
    if (!near.empty())
        iv.hi = scale > half_scale ? std::max(iv.central, n_at(budget_cycles / (scale - half_scale), bound.a, bound.b))
                                   : 2 * iv.central;
    else
        iv.hi = bound.b_lo > 0 ? std::max(iv.central, n_at(budget, bound.a_lo, bound.b_lo)) : 2 * iv.central;
    std::vector<double> per_round;
    for (const std::vector<double>& r : near.empty() ? std::vector<std::vector<double>>{} : points.rounds) {
        if (r.size() != points.bytes.size()) continue;
        // Over the near points the round has (0: it took no sample there, or was left out: rounds_kept).
        double ratio = 0, used = 0;
        for (std::size_t i : near)
            if (r[i] > 0 && points.pooled[i] > 0) {
                ratio += r[i] / points.pooled[i];
                ++used;
            }
        if (used > 0) ratio /= used;
        if (ratio > 0) {
            per_round.push_back(n_at(budget / ratio, bound.a, bound.b));
            iv.round_ratio.push_back(ratio);
        }
    }
    double half = 0;
    if (per_round.size() >= 2) {
        const double k = static_cast<double>(per_round.size());
        const auto [mean, sd] = mean_sd(per_round);
        iv.rounds = per_round.size();
        iv.round_sd = sd;
        double df = k - 1;
        if (prior_rel_sd >= 0 && mean > 0) {
            const double own = iv.round_sd / mean;
            iv.round_sd =
                mean * std::sqrt((df * own * own + kPriorDegrees * prior_rel_sd * prior_rel_sd) / (df + kPriorDegrees));
            df += kPriorDegrees;
        }
        // Another sweep's centre is the mean of its own rounds: the two means differ by sd x sqrt(2 / k).
        half = student_t95(static_cast<std::size_t>(df)) * iv.round_sd * std::sqrt(2 / k);
    }
    // One size measured again (verify, the next sweep's point there) is one point, not the line: its statistic
    // scatters as each point's rounds do about it, a prediction for a single new point (in quadrature). Only
    // points within a factor of 2 of the limit say how a point there scatters: a sweep of a few small sizes
    // (--sizes) has none, and the scatter of its 64 B sections (timer-bound) says nothing of 40 KiB ones.
    double single = 0;
    std::vector<double> point_sds;
    for (std::size_t i : near) {
        if (!(n0 > 0) || std::abs(std::log(static_cast<double>(points.bytes[i]) / n0)) > std::log(2.0)) continue;
        std::vector<double> ys;
        for (const std::vector<double>& r : points.rounds)
            if (r.size() == points.bytes.size() && r[i] > 0) ys.push_back(r[i]);
        if (ys.size() < 2 || !(points.pooled[i] > 0)) continue;
        point_sds.push_back(mean_sd(ys).second / points.pooled[i]);
    }
    if (!point_sds.empty()) {
        iv.point_sd = upper_median(point_sds);
        const double t = student_t95(point_sds.size() * (points.rounds.size() - 1));
        single = std::max(0.0, iv.central - n_at(budget / (1 + t * iv.point_sd), bound.a, bound.b));
    }
    iv.lo = std::max(0.0, iv.central - std::hypot(iv.central - upper, half, single));
    iv.hi = iv.central + std::hypot(iv.hi - iv.central, half, single);
    return iv;
}

double predict_upper_s(const CacheModel& m, double bytes, double min_freq_hz, Quantile quantile) {
    const LineFit& bound = bound_fit(m, quantile);
    return local_upper(bound, bound_points(m, quantile), bytes) / min_freq_hz;
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

double round_spread_prior(const std::vector<std::pair<double, double>>& others, double central) {
    std::vector<double> all, near;
    for (const auto& [c, spread] : others) {
        all.push_back(spread);
        if (central > 0 && c > 0 && std::abs(std::log(c / central)) <= std::log(kPriorNearFactor))
            near.push_back(spread);
    }
    std::vector<double>& spreads = near.size() >= kPriorNearMin ? near : all;
    if (spreads.size() < 3) return -1;
    return upper_median(spreads);
}

namespace {

// The machine's kernels in one cache state: (central, relative round spread) of each limit with rounds, and the
// point scatter of each that has one.
struct MachineSpreads {
    std::vector<std::pair<double, double>> round;
    std::vector<double> point;
};
// How many streams of a limit's bytes one section moves: N for a multi-source series (its bytes are per source),
// else 1. The prior compares kernels by what a section moves, not by its per-source bytes: by those, the cold
// xor and RAID series (4-33 sources, 5-20 KiB each) were "alike" to the cold SHA kernels (6-11 KiB), and a phase of
// the host's memory that ran their large sections 1.2-1.5x as long in a round (2-vCPU AMD Zen 5 VM, 2026-12-03)
// gave cold sha256-shani a prior of 0.13 against its own spread of 0.008: its low end fell 18 % below the centre.
double section_streams(const ModelFile& src, const std::string& kernel) {
    const KernelInfo* k = src.kernel(kernel);
    return k ? std::max<std::uint32_t>(1, k->sources) : 1;
}

MachineSpreads machine_spreads(const ModelFile& src, Cache cache, const RecommendOptions& o, double budget_cycles) {
    MachineSpreads out;
    for (const CacheModel& m : src.prior_models.empty() ? src.models : src.prior_models) {
        if (m.cache != cache) continue;
        const LimitInterval iv = limit_interval(bound_fit(m, o.question.quantile), bound_points(m, o.question.quantile), budget_cycles);
        if (iv.rounds >= 2 && iv.central > 0)
            out.round.emplace_back(iv.central * section_streams(src, m.kernel), iv.round_sd / iv.central);
        if (iv.point_sd > 0) out.point.push_back(iv.point_sd);
    }
    return out;
}

// The note of a limit whose rounds disagreed far more than the machine's other kernels' did (kUnsureScatterFactor).
std::optional<std::string> unsure_note(const LimitInterval& iv, const std::vector<double>& machine_point_sds) {
    if (machine_point_sds.size() < kUnsureMinKernels || iv.round_ratio.empty() || !(iv.central > 0)) return {};
    const double median = upper_median(machine_point_sds);
    if (!(iv.point_sd > kUnsureMinScatter && iv.point_sd > kUnsureScatterFactor * median)) return {};
    std::string ratios;
    for (double r : iv.round_ratio) ratios += fmt::format("{}{:.2f}", ratios.empty() ? "" : " / ", r);
    return fmt::format(
        "unsure: its rounds disagreed (near the limit they ran {} x the calmest; a point's rounds scatter by "
        "{:.1f} %, this machine's kernels' by {:.1f} % at the median), so the limit is {:.0f} % below its central "
        "estimate ({:.0f} B): some rounds met a phase of the host that others did not, and another sweep may put it "
        "higher",
        ratios, 100 * iv.point_sd, 100 * median, 100 * (1 - iv.lo / iv.central), iv.central);
}

}  // namespace

namespace {

// The limit's interval (bytes): where the bound line meets the budget, widened by the fit's band and the
// spread between the sweep's rounds (this machine's other kernels inform it where this one has few rounds).
void set_interval(VariantResult& v, const ModelFile& src, const CacheModel& cm, const LineFit& bound,
                  const RecommendOptions& o) {
    const double budget = effective_budget_s(o.question);
    const double budget_cycles = budget * o.question.min_freq_hz;
    const double own_central = limit_interval(bound, bound_points(cm, o.question.quantile), budget_cycles).central;
    const MachineSpreads spreads = machine_spreads(src, cm.cache, o, budget_cycles);
    double prior = round_spread_prior(spreads.round, own_central * section_streams(src, cm.kernel));
    if (prior < 0) prior = kFallbackPriorRelSd;
    const LimitInterval iv = limit_interval(bound, bound_points(cm, o.question.quantile), budget_cycles, prior);
    if (o.emit == Emit::conservative) {  // the low end is what is emitted
        if (std::optional<std::string> note = unsure_note(iv, spreads.point))
            v.notes.push_back(std::move(*note));
    }
    v.interval_lo_bytes = iv.lo;
    v.central_bytes = iv.central;
    v.interval_hi_bytes = iv.hi;
    v.rounds = iv.rounds;
    v.round_spread = iv.central > 0 ? iv.round_sd / iv.central : 0;
    v.local_bias = iv.local_bias;
    v.point_spread = iv.point_sd;
}

// The limit in whole granules (--round): the largest multiple that `fits`, or the largest power of two of
// blocks; n = 0 when not even one block fits. granule: the step to the next size.
struct Rounded {
    std::uint64_t n = 0, granule = 0;
    bool to_blocks = false;  // no granule of --round fits: whole blocks instead
};
Rounded round_limit(const VariantResult& v, Round round, const std::function<bool(double)>& fits) {
    // The largest multiple of g up to kMaxLimitBytes that fits: both conditions hold on a prefix of the
    // multiples (t() grows with n, b > 0; its local scale steps a little where the points near n change, so
    // the search ends on a size that fits, checked at that size), found by a binary search in ~30 steps.
    auto largest_multiple = [&](std::uint64_t g) {
        std::uint64_t lo = 0, hi = kMaxLimitBytes / g;  // in granules
        while (lo < hi) {
            const std::uint64_t mid = lo + (hi - lo + 1) / 2;
            if (fits(static_cast<double>(mid * g)))
                lo = mid;
            else
                hi = mid - 1;
        }
        return lo * g;
    };
    const std::uint64_t block = v.block_bytes;
    std::uint64_t n = 0, granule = block;
    if (round == Round::pow2) {
        const std::uint64_t blocks = largest_multiple(block);
        std::uint64_t p = block;
        if (blocks >= block) {
            while (p * 2 <= blocks) p *= 2;
            n = p;
        }
        granule = n ? n : block;  // the next power of two up
    } else {
        granule = round_granule(round, v.block_bytes);
        n = largest_multiple(granule);
        if (n == 0 && granule != block) {
            n = largest_multiple(block);
            granule = block;
            return {n, granule, true};
        }
    }
    return {n, granule, false};
}

// The bound statistic the sweep measured at `bytes` (a bound point), in seconds at the minimum clock.
double measured_s(const CacheModel& cm, const RecommendOptions& o, std::uint64_t bytes) {
    const BoundPoints points = bound_points(cm, o.question.quantile);
    for (std::size_t i = 0; i < points.bytes.size() && i < points.pooled.size(); ++i)
        if (points.bytes[i] == bytes) return points.pooled[i] / o.question.min_freq_hz;
    return 0;
}

// The smallest size the sweep measured over the budget (its bound statistic, the calmest round's, at the stated
// contention) by more than that statistic's own precision (the sampling rule's ~3 % on the p99): no limit
// reaches it, whatever the line says. The closed loop measures each limit at its size, so a limit its own
// measurement put over the budget comes down below it (nullopt: none measured over). Without the precision,
// a point a hair over (its noise) capped 32 limits over three sweeps on the Intel Xeon VM (2026-12-01) and
// `compare` called the difference between two of them a change.
constexpr double kMeasuredOverPrecision = 0.03;
std::optional<std::uint64_t> measured_over(const CacheModel& cm, const RecommendOptions& o) {
    const BoundPoints points = bound_points(cm, o.question.quantile);
    const double budget_cycles = effective_budget_s(o.question) * o.question.min_freq_hz * (1 + kMeasuredOverPrecision);
    std::optional<std::uint64_t> over;
    for (std::size_t i = 0; i < points.bytes.size() && i < points.pooled.size(); ++i)
        if (points.pooled[i] > budget_cycles && (!over || points.bytes[i] < *over)) over = points.bytes[i];
    return over;
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
    v.contention_known = cm.contention_known;
    v.contention_level = cm.contention_level;
    v.contention_s = cm.contention_s;
    v.contention_s_lo = cm.contention_s_lo;
    v.contention_s_hi = cm.contention_s_hi;
    v.contention_tail = cm.contention_tail;
    const double budget = effective_budget_s(o.question);
    auto t = [&](double n) { return predict_upper_s(cm, n, o.question.min_freq_hz, o.question.quantile); };
    const LineFit& bound = bound_fit(cm, o.question.quantile);
    v.one_block_s = t(v.block_bytes);
    const double b_cycles = bound.b_hi;
    if (!(b_cycles > 0)) {
        v.notes.push_back("the fit has no positive per-byte cost; no limit can be computed");
        return v;
    }
    set_interval(v, src, cm, bound, o);
    const bool central = o.emit == Emit::central;
    const double exact = central ? v.central_bytes : v.interval_lo_bytes;
    v.unrounded_bytes = std::min(exact, static_cast<double>(kMaxLimitBytes));
    if (exact > static_cast<double>(kMaxLimitBytes))
        v.notes.push_back(fmt::format("capped at {}: the line allows more ({}), beyond any section a sweep measures",
                                      format_size(kMaxLimitBytes),
                                      std::isfinite(exact) ? fmt::format("{:.3g} B", exact) : "any size"));
    // The conservative end also keeps the upper line within the budget (it does by construction; this
    // guards the rounding at the edge); the central estimate is only the size.
    const double edge = v.unrounded_bytes * (1 + 1e-12) + 1e-9;
    const std::optional<std::uint64_t> over = measured_over(cm, o);
    auto by_line = [&](double n) { return n <= edge && (central || t(n) <= budget); };
    auto fits = [&](double n) { return by_line(n) && (!over || n < static_cast<double>(*over)); };
    const Rounded r = round_limit(v, o.round, fits);
    const std::uint64_t n = r.n, granule = r.granule;
    if (n && r.to_blocks)
        v.notes.push_back(fmt::format("less than 1 KiB fits: rounded to whole blocks ({} B)", granule));
    if (over && round_limit(v, o.round, by_line).n >= *over)
        v.notes.push_back(fmt::format("below {} B: the sweep measured that size over the budget ({} at {}, beyond the 3 % its p99 is known to)", *over,
                                      format_duration(measured_s(cm, o, *over)), format_frequency(o.question.min_freq_hz)));
    if (n == 0) return v;
    if (central && t(static_cast<double>(n)) > budget)
        v.notes.push_back(fmt::format("central estimate: the upper bound line predicts {} at this size",
                                      format_duration(t(static_cast<double>(n)))));
    if (!cm.bound_bytes.empty() && n > cm.bound_bytes.back())
        v.notes.push_back(
            fmt::format("extrapolated: the bound was fitted on sections up to {} B", cm.bound_bytes.back()));
    v.fits = true;
    v.bytes = n;
    v.time_s = t(static_cast<double>(n));
    v.next_time_s = t(static_cast<double>(n + granule));
    const double a = cm.p50.a, bn = cm.p50.b * static_cast<double>(n);
    v.throughput_cost = a + bn > 0 ? std::max(0.0, a) / (a + bn) : 0;
    return v;
}

void judge_upstream(VariantResult& v, const CacheModel& cm, const RecommendOptions& o) {
    const std::string version = resolve_linux_version(o.linux_version);
    const UpstreamLimit* u = find_upstream_limit(v.algorithm, version, v.kernel);
    if (!u) return;
    if (u->absent()) {  // that version has no such code: the kernel runs another variant there
        v.notes.push_back(fmt::format("upstream ({}): {}", u->cited(version), u->judged_because));
        return;
    }
    // A series of more sources than upstream puts in one section (xor before 7.1): no such section upstream.
    if (u->sources_per_section && series_sources(v.algorithm) > *u->sources_per_section) {
        v.notes.push_back(fmt::format("upstream (Linux {}): at most {} sources per section, judged in the .x{} series",
                                      version, *u->sources_per_section, *u->sources_per_section));
        return;
    }
    v.upstream_known = true;
    v.upstream_cited = u->cited(version);
    v.upstream_bytes = u->fpu_chunk_bytes;
    if (!u->fpu_chunk_bytes) v.upstream_judged_at = u->judged_at_bytes;
    if (const std::optional<std::uint64_t> judged = u->judged_bytes()) {
        v.upstream_time_s = predict_upper_s(cm, static_cast<double>(*judged), o.question.min_freq_hz, o.question.quantile);
        v.upstream_pass = v.upstream_time_s <= effective_budget_s(o.question);
    } else {
        v.upstream_time_s = std::numeric_limits<double>::infinity();
        v.upstream_pass = false;
    }
}

}  // namespace fputune
