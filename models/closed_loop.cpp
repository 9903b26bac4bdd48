// SPDX-License-Identifier: MIT
// The sweep's closed loop: provisional constants, the points that measure them, and their check.
#include "closed_loop.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "fit_sweep.hpp"
#include "recommend.hpp"

namespace fputune {

namespace {

const KernelInfo* listed(const SweepFile& f, const std::string& name) {
    for (const KernelInfo& k : f.kernels)
        if (k.name == name) return &k;
    return nullptr;
}

const SectionPoint* point_of(const SweepFile& f, const std::string& series, Cache cache, std::uint64_t bytes) {
    const std::string state = std::string(name(cache));
    for (const SectionPoint& p : f.sections)
        if (p.kernel == series && p.cache == state && p.bytes == bytes) return &p;
    return nullptr;
}

HeaderContention stated(const VariantResult& v) {
    return {v.kernel,
            std::string(name(v.cache)),
            v.contention_known && v.contention_level >= 1,
            v.contention_level,
            v.contention_s,
            v.contention_s_lo,
            v.contention_s_hi,
            v.contention_tail};
}

// A count's series is stated at its kernel's: a kin series' line, this cache first (verify does the same).
HeaderContention kin_contention(const Recommendation& r, const StripeResult& s) {
    HeaderContention best;
    bool found = false;
    for (const VariantRow& v : r.variants) {
        const std::string& series = v.bound.kernel;
        if (series.substr(0, series.find('.')) != s.kernel) continue;
        if (!found || v.bound.cache == s.cache) best = stated(v.bound);
        found = true;
        if (v.bound.cache == s.cache) break;
    }
    return best;
}

// A limit's point: at its size, else the nearest of its series within kLoopNearShare (nullptr: none).
const SectionPoint* nearest_point(const SweepFile& f, const LoopConstant& c) {
    const std::string state = std::string(name(c.cache));
    const SectionPoint* best = nullptr;
    auto off = [&](const SectionPoint& p) {
        return std::abs(static_cast<double>(p.bytes) - static_cast<double>(c.bytes)) / static_cast<double>(c.bytes);
    };
    for (const SectionPoint& p : f.sections)
        if (p.kernel == c.series && p.cache == state && off(p) <= kLoopNearShare && (!best || off(p) < off(*best)))
            best = &p;
    return best;
}

std::uint64_t whole_blocks(double bytes, std::uint32_t block) {
    const std::uint64_t b = std::max<std::uint32_t>(block, 1);
    return std::max<std::uint64_t>(b, static_cast<std::uint64_t>(bytes / static_cast<double>(b)) * b);
}

std::string count_series(const std::string& kernel, std::uint32_t sources) {
    return fmt::format("{}.x{}", kernel, sources);
}

// A count's new series is measured at the sizes of the kernel's measured series nearest in sources (in the
// count's cache state), and at its stripe size: a series as the first pass would have swept it, whose bound
// line is as sure as its neighbours' (three sizes alone leave a line with one degree of freedom, whose 95 %
// band is ten times as wide).
std::vector<std::uint64_t> kin_sizes(const SweepFile& f, const LoopConstant& c) {
    const KernelInfo* nearest = nullptr;
    for (const KernelInfo& k : f.kernels) {
        if (k.kernel() != c.kernel || !k.sources) continue;
        const auto d = [&](const KernelInfo& x) { return x.sources > c.sources ? x.sources - c.sources : c.sources - x.sources; };
        if (!nearest || d(k) < d(*nearest)) nearest = &k;
    }
    std::vector<std::uint64_t> out{c.bytes};
    const std::string state = std::string(name(c.cache));
    if (nearest)
        for (const SectionPoint& p : f.sections)
            if (p.kernel == nearest->name && p.cache == state && std::find(out.begin(), out.end(), p.bytes) == out.end())
                out.push_back(p.bytes);
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

std::vector<LoopConstant> provisional_constants(const SweepFile& f, const std::string& source,
                                                const RecommendOptions& o) {
    ModelFile m = fit_sweep(f, source);
    restate_contention(m, parse_contention_target(o.question.contention).value_or(ContentionTarget{}));
    const Recommendation r = recommend({m}, o);
    std::vector<LoopConstant> out;
    for (const VariantRow& row : r.variants) {
        const VariantResult& v = row.bound;
        const KernelInfo* info = listed(f, v.kernel);
        if (!v.fits || !v.bytes || !info || !info->needs_fpu) continue;
        out.push_back({v.kernel, info->kernel(), v.cache, v.bytes, 0, v.block_bytes, v.interval_lo_bytes,
                       v.interval_hi_bytes, v.time_s, stated(v), {}});
        out.back().bracket_bytes = bracket_gap(f, out.back(), o.question);
    }
    for (const StripeRow& row : r.stripes) {
        const StripeResult& s = row.bound;
        if (!s.max_sources) continue;
        std::uint32_t block = 0;
        for (const KernelInfo& k : f.kernels)
            if (k.kernel() == s.kernel && k.sources) block = k.block_bytes;
        if (!block) continue;
        // Capped (every measured count fits): the count the line gives beyond them, not one more than the largest,
        // which would take a pass per source.
        const bool beyond = s.capped && s.line_sources > s.max_sources;
        const std::uint32_t n = beyond ? s.line_sources : s.max_sources;
        out.push_back({count_series(s.kernel, n),
                       s.kernel,
                       s.cache,
                       whole_blocks(static_cast<double>(s.stripe_bytes), block),
                       n,
                       block,
                       static_cast<double>(n),
                       static_cast<double>(n),
                       beyond ? s.line_time_s : s.time_s,
                       kin_contention(r, s),
                       {}});
        out.back().contention.kernel = out.back().series;
    }
    return out;
}

std::vector<LoopPoint> loop_points(const std::vector<LoopConstant>& constants, const SweepFile& f, bool around) {
    std::vector<LoopPoint> out;
    auto add = [&](const std::string& series, const LoopConstant& c, std::uint64_t bytes, std::uint32_t sources) {
        const LoopPoint p{series, c.kernel, c.cache, bytes, sources};
        if (!point_of(f, series, c.cache, bytes) && std::find(out.begin(), out.end(), p) == out.end())
            out.push_back(p);
    };
    for (const LoopConstant& c : constants) {
        if (c.sources) {
            // The count, and one source more where the kernel takes it: both sides of the answer measured.
            std::uint32_t most = 0;
            for (const KernelInfo& k : f.kernels)
                if (k.kernel() == c.kernel && k.max_sources) most = k.max_sources;
            const std::vector<std::uint64_t> sizes = kin_sizes(f, c);
            for (std::uint32_t n : {c.sources, c.sources + 1}) {
                if (most && n > most) continue;
                for (std::uint64_t b : sizes) add(count_series(c.kernel, n), c, b, n);
            }
            continue;
        }
        const KernelInfo* info = listed(f, c.series);
        const std::uint32_t sources = info ? info->sources : 0;
        if (around || !nearest_point(f, c)) add(c.series, c, c.bytes, sources);
        if (!around) continue;
        for (double share : {7.0 / 8, 9.0 / 8})
            add(c.series, c, whole_blocks(share * static_cast<double>(c.bytes), c.block_bytes), sources);
        for (std::uint64_t b : c.bracket_bytes) add(c.series, c, b, sources);
        const std::string state = std::string(name(c.cache));
        for (const SectionPoint& p : f.sections) {
            const double at = static_cast<double>(p.bytes) / static_cast<double>(c.bytes);
            if (p.kernel != c.series || p.cache != state || at < kDependsLo || at > kDependsHi) continue;
            if (!p.unsettled_rounds && !neighbour_held(p.rounds)) continue;
            const LoopPoint again{c.series, c.kernel, c.cache, p.bytes, sources, true};
            if (std::find(out.begin(), out.end(), again) == out.end()) out.push_back(again);
        }
    }
    return out;
}

namespace {

// The file's wall seconds per second of section time: its elapsed time over every point's samples times its
// median (2 where the file does not say; at least 1, at most 4).
double wall_per_section_second(const SweepFile& f) {
    double ticks = 0;
    for (const SectionPoint& p : f.sections) ticks += static_cast<double>(p.ticks.samples) * p.ticks.p50;
    for (const ThresholdPoint& p : f.thresholds) ticks += static_cast<double>(p.ticks.samples) * p.ticks.p50;
    if (!(ticks > 0) || !(f.tsc_hz > 0) || !(f.sampling.elapsed_s > 0)) return 2;
    return std::clamp(f.sampling.elapsed_s / (ticks / f.tsc_hz), 1.0, 4.0);
}

double all_sources(std::uint64_t bytes, std::uint32_t sources) {
    return static_cast<double>(bytes) * std::max<std::uint32_t>(sources, 1);
}

double expected_with(const LoopPoint& p, const SweepFile& f, std::uint64_t max_samples, double per_second) {
    if (!(f.tsc_hz > 0)) return 0;
    const std::string state = std::string(name(p.cache));
    const double total = all_sources(p.bytes, p.sources);
    // Its own series where the file has it, else (a count's new series) its kernel's, by bytes in all sources.
    const SectionPoint* ref = nullptr;
    double best = 0;
    for (const bool own : {true, false}) {
        for (const SectionPoint& q : f.sections) {
            if (q.cache != state || !q.ticks.samples || !(q.ticks.p50 > 0)) continue;
            if (own ? q.kernel != p.series : q.kernel == p.series) continue;
            if (!own) {
                const KernelInfo* k = listed(f, q.kernel);
                if (!k || k->kernel() != p.kernel) continue;
            }
            const double off = std::abs(std::log(all_sources(q.bytes, q.sources) / total));
            if (!ref || off < best) {
                ref = &q;
                best = off;
            }
        }
        if (ref) break;
    }
    if (!ref) return 0;  // nothing alike measured: not costed
    const double samples = ref->unsettled_rounds ? static_cast<double>(max_samples)
                                                 : static_cast<double>(std::min(ref->ticks.samples, max_samples));
    const double ticks = ref->ticks.p50 * total / all_sources(ref->bytes, ref->sources);
    return samples * ticks / f.tsc_hz * per_second;
}

// Does the point measure this count (its series of that many sources, or one more)?
bool of_count(const LoopPoint& p, const LoopConstant& c) {
    return c.sources && c.kernel == p.kernel && c.cache == p.cache &&
           (p.sources == c.sources || p.sources == c.sources + 1);
}

// How far a point lies from the constant it measures: |log(size / constant)|, the nearest constant of its
// series and state; a point of a count's series, from the count's stripe size (infinity: none).
double distance_from_constants(const LoopPoint& p, const std::vector<LoopConstant>& constants) {
    double best = std::numeric_limits<double>::infinity();
    for (const LoopConstant& c : constants) {
        const bool mine = of_count(p, c) || (c.series == p.series && c.cache == p.cache);
        if (mine && c.bytes)
            best = std::min(best, std::abs(std::log(static_cast<double>(p.bytes) / static_cast<double>(c.bytes))));
    }
    return best;
}

}  // namespace

double expected_loop_seconds(const LoopPoint& p, const SweepFile& f, std::uint64_t max_samples) {
    return expected_with(p, f, max_samples, wall_per_section_second(f));
}

LoopSchedule schedule_loop_points(const std::vector<LoopPoint>& points, const std::vector<LoopConstant>& constants,
                                  const SweepFile& f, std::uint64_t max_samples, double seconds) {
    std::vector<std::pair<double, const LoopPoint*>> order;
    for (const LoopPoint& p : points) order.emplace_back(distance_from_constants(p, constants), &p);
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    const double per_second = wall_per_section_second(f);
    LoopSchedule out;
    for (const auto& [distance, p] : order) {
        const double cost = expected_with(*p, f, max_samples, per_second);
        if (out.later.empty() && (out.now.empty() || out.expected_s + cost <= seconds)) {
            out.now.push_back(*p);
            out.expected_s += cost;
        } else {
            out.later.push_back(*p);
        }
    }
    return out;
}

std::vector<LoopPoint> still_needed(const std::vector<LoopPoint>& points, const std::vector<LoopConstant>& constants,
                                    const SweepFile& f) {
    std::vector<LoopPoint> out;
    const double reach = std::max(std::log(kDependsHi), -std::log(kDependsLo));
    for (const LoopPoint& p : points) {
        // A count's series: all of it (a line of its own), while the count is still there.
        const bool near =
            distance_from_constants(p, constants) <= reach ||
            std::any_of(constants.begin(), constants.end(), [&](const LoopConstant& c) { return of_count(p, c); });
        const SectionPoint* had = point_of(f, p.series, p.cache, p.bytes);
        const bool lacking = p.again ? had && (had->unsettled_rounds || neighbour_held(had->rounds)) : !had;
        if (near && lacking) out.push_back(p);
    }
    return out;
}

std::size_t keep_better_points(SweepFile& after, const SweepFile& before, const std::vector<LoopPoint>& again) {
    std::size_t kept = 0;
    for (const LoopPoint& p : again) {
        if (!p.again) continue;
        const SectionPoint* old = point_of(before, p.series, p.cache, p.bytes);
        if (!old || neighbour_held(old->rounds)) continue;
        const std::string state = std::string(name(p.cache));
        for (SectionPoint& now : after.sections)
            if (now.kernel == p.series && now.cache == state && now.bytes == p.bytes &&
                now.unsettled_rounds > old->unsettled_rounds) {
                now = *old;
                ++kept;
            }
    }
    return kept;
}

namespace {

// A point's bound statistic as check_constant judges it, in seconds at the question's minimum clock (0: none).
double judged_s(const SectionPoint& p, const LoopConstant& c, const BudgetQuestion& q) {
    if (!p.cycles.samples) return 0;
    const VerifyBound b = verify_bound(p.cycles, p.rounds, &c.contention);
    const double cycles = q.quantile == Quantile::p99 ? b.adjusted_p99 : b.adjusted_p90;
    return cycles > 0 ? cycles / q.min_freq_hz : 0;
}

}  // namespace

std::vector<std::uint64_t> bracket_gap(const SweepFile& f, const LoopConstant& c, const BudgetQuestion& q) {
    std::vector<std::uint64_t> out;
    if (c.sources || !(q.min_freq_hz > 0)) return out;
    const std::string state = std::string(name(c.cache));
    const double budget = effective_budget_s(q);
    std::vector<std::pair<std::uint64_t, double>> measured;  // (bytes, judged seconds), by size
    for (const SectionPoint& p : f.sections)
        if (p.kernel == c.series && p.cache == state)
            if (const double s = judged_s(p, c, q); s > 0) measured.emplace_back(p.bytes, s);
    std::sort(measured.begin(), measured.end());
    std::size_t within = measured.size();  // the largest size within the budget
    for (std::size_t i = 0; i < measured.size(); ++i)
        if (measured[i].second <= budget) within = i;
    if (within + 1 >= measured.size()) return out;
    const std::uint64_t lo = measured[within].first, hi = measured[within + 1].first;
    const double ratio = static_cast<double>(hi) / static_cast<double>(lo);
    if (ratio < kBracketGap) return out;
    const std::size_t inside =
        std::min(kBracketMost, static_cast<std::size_t>(std::ceil(std::log(ratio) / std::log(kBracketStep))) - 1);
    const std::uint64_t block = std::max<std::uint32_t>(c.block_bytes, 1);
    for (std::size_t i = 1; i <= inside; ++i) {
        const double step = static_cast<double>(i) / static_cast<double>(inside + 1);
        const double at = static_cast<double>(lo) * std::pow(ratio, step);
        const std::uint64_t b = static_cast<std::uint64_t>(std::llround(at / static_cast<double>(block))) * block;
        if (b > lo && b < hi && std::find(out.begin(), out.end(), b) == out.end()) out.push_back(b);
    }
    return out;
}

LoopCheck check_constant(const SweepFile& f, const LoopConstant& c, const BudgetQuestion& q) {
    LoopCheck out;
    const SectionPoint* p = c.sources ? point_of(f, c.series, c.cache, c.bytes) : nearest_point(f, c);
    if (!p || !p->cycles.samples) return out;
    out.exact = p->bytes == c.bytes;
    out.at_bytes = p->bytes;
    out.measured_s = judged_s(*p, c, q);
    if (!(out.measured_s > 0)) return out;
    out.measured = true;
    const double budget = effective_budget_s(q);
    if (c.sources) {
        out.implied = static_cast<double>(c.sources) * budget / out.measured_s;
        out.agrees = out.measured_s <= budget;
        return out;
    }
    out.implied = static_cast<double>(p->bytes) * budget / out.measured_s;
    out.agrees = out.implied >= 0.95 * c.lo_bytes && out.implied <= 1.05 * std::max(c.hi_bytes, c.lo_bytes);
    return out;
}

namespace {

// The points the constant depends on (kDependsLo..kDependsHi times a limit; a count: its series' points), and
// how many of them settled (every round met the sampling rule).
std::pair<std::size_t, std::size_t> near_points(const SweepFile& f, const LoopConstant& c) {
    std::size_t total = 0, settled = 0;
    const std::string state = std::string(name(c.cache));
    for (const SectionPoint& p : f.sections) {
        if (p.kernel != c.series || p.cache != state) continue;
        const double at = static_cast<double>(p.bytes) / static_cast<double>(c.bytes);
        if (!c.sources && (at < kDependsLo || at > kDependsHi)) continue;
        ++total;
        settled += p.unsettled_rounds == 0;
    }
    return {total, settled};
}

}  // namespace

nlohmann::json closed_loop_json(const BudgetQuestion& q, const std::vector<LoopConstant>& first,
                                const std::vector<LoopConstant>& last, const SweepFile& f, int passes,
                                const std::string& stopped) {
    nlohmann::json j = {{"budget_s", q.budget_s},
                        {"min_freq_hz", q.min_freq_hz},
                        {"margin", q.margin},
                        {"cache", std::string(name(q.cache))},
                        {"quantile", std::string(name(q.quantile))},
                        {"contention", q.contention},
                        {"passes", passes},
                        {"stopped", stopped}};
    std::size_t total = 0, settled = 0, measured = 0, exact = 0, agreed = 0;
    j["constants"] = nlohmann::json::array();
    for (const LoopConstant& c : last) {
        const LoopCheck k = check_constant(f, c, q);
        const auto [near, near_settled] = near_points(f, c);
        total += near;
        settled += near_settled;
        measured += k.measured;
        exact += k.exact;
        agreed += k.agrees;
        nlohmann::json e = {{"series", c.series},     {"cache", std::string(name(c.cache))}, {"bytes", c.bytes},
                            {"predicted_s", c.predicted_s}, {"measured", k.measured}, {"agrees", k.agrees},
                            {"points_near", near},    {"points_near_settled", near_settled}};
        if (c.sources) e["sources"] = c.sources;
        if (k.measured) {
            e["measured_s"] = k.measured_s;
            e["measured_bytes"] = k.at_bytes;
            e["exact"] = k.exact;
        }
        // The same constant after the first pass: a limit of the same series, or the count of the same kernel.
        for (const LoopConstant& p : first)
            if (p.cache == c.cache && (c.sources ? p.sources && p.kernel == c.kernel : !p.sources && p.series == c.series))
                e["first"] = c.sources ? p.sources : p.bytes;
        j["constants"].push_back(std::move(e));
    }
    j["measured"] = measured;
    j["measured_exact"] = exact;
    j["agreed"] = agreed;
    j["points_near"] = total;
    j["points_near_settled"] = settled;
    return j;
}

}  // namespace fputune
