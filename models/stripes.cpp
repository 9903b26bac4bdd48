// SPDX-License-Identifier: MIT
// Multi-source kernels: their series gathered per kernel, the cost linear in N between them, and the most
// sources that fit a budget at a stripe size.
#include "stripes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>

#include <fmt/format.h>

#include "select_models.hpp"

namespace fputune {

std::vector<StripeSeries> stripe_series(const ModelFile& m, Cache preferred) {
    std::vector<StripeSeries> out;
    BudgetQuestion q;
    q.cache = preferred;
    const std::vector<ModelChoice> choices = select_models(std::span(&m, 1), q).choices;
    auto multi_source = [](const KernelInfo& k) { return k.sources && k.needs_fpu; };  // peers have their own row
    // One cache state per kernel, for all its series: the preferred one where any series has it. A series
    // measured in the other state only (the closed loop's count series, measured in its question's state) would
    // set a count in this state from the other's costs.
    std::set<std::string> has_preferred;  // the kernels any of whose series has the preferred state
    for (const ModelChoice& c : choices)
        if (multi_source(*c.kernel) && c.cache == preferred) has_preferred.insert(c.kernel->kernel());
    for (const ModelChoice& c : choices) {
        const KernelInfo& k = *c.kernel;
        if (!multi_source(k)) continue;
        const Cache cache = has_preferred.count(k.kernel()) ? preferred : other(preferred);
        if (c.cache != cache) continue;
        auto it = std::find_if(out.begin(), out.end(), [&](const StripeSeries& s) { return s.kernel == k.kernel(); });
        if (it == out.end()) {
            StripeSeries s;
            s.source = &m;
            s.kernel = k.kernel();
            s.algorithm = k.algorithm.substr(0, k.algorithm.find(".x"));
            s.unit = stripe_unit(k);
            s.max_sources = k.max_sources;
            s.cache = cache;
            out.push_back(s);
            it = out.end() - 1;
        }
        it->by_sources[k.sources].push_back(c.model);
    }
    return out;
}

double stripe_time_s(const StripeSeries& s, std::uint32_t sources, double bytes, const RecommendOptions& o,
                     bool* extrapolated) {
    auto at = [&](std::uint32_t n) {
        double t = 0;
        for (const CacheModel* cm : s.by_sources.at(n))
            t = std::max(t, predict_upper_s(*cm, bytes, o.question.min_freq_hz, o.question.quantile));
        return t;
    };
    if (extrapolated) *extrapolated = false;
    if (s.by_sources.empty()) return std::numeric_limits<double>::infinity();
    if (s.by_sources.count(sources)) return at(sources);
    const std::uint32_t lo_n = s.by_sources.begin()->first, hi_n = s.by_sources.rbegin()->first;
    if (extrapolated) *extrapolated = sources > hi_n || sources < lo_n;
    if (s.by_sources.size() == 1) return at(lo_n) * sources / lo_n;  // one N: proportional to the data
    // The two measured N around `sources`, or the two nearest when it is outside them.
    auto upper = s.by_sources.upper_bound(sources);
    if (upper == s.by_sources.end()) --upper;
    if (upper == s.by_sources.begin()) ++upper;
    auto lower = std::prev(upper);
    const double n0 = lower->first, n1 = upper->first, t0 = at(lower->first), t1 = at(upper->first);
    return t0 + (t1 - t0) * (static_cast<double>(sources) - n0) / (n1 - n0);
}

StripeResult solve_stripe_count(const StripeSeries& s, const RecommendOptions& o, std::uint64_t stripe_bytes) {
    StripeResult r;
    r.kernel = s.kernel;
    r.algorithm = s.algorithm;
    r.machine = s.source ? s.source->machine : "";
    r.source = s.source ? s.source->source : "";
    r.cache = s.cache;
    r.unit = s.unit;
    r.stripe_bytes = stripe_bytes;
    r.cap = s.max_sources;
    if (s.by_sources.empty()) return r;
    for (const auto& [n, lines] : s.by_sources) r.measured.push_back(n);
    r.measured_min = r.measured.front();
    r.measured_max = r.measured.back();
    const double budget = effective_budget_s(o.question), bytes = static_cast<double>(stripe_bytes);
    r.one_source_s = stripe_time_s(s, 1, bytes, o);
    // The time grows with N (each source is one more stream): the largest N that fits, searched up to the
    // largest measured N, never beyond it (nor beyond the kernel's most, raid6: 255).
    const std::uint32_t last = s.max_sources ? std::min(s.max_sources, r.measured_max) : r.measured_max;
    for (std::uint32_t n = 1; n <= last; ++n) {
        const double t = stripe_time_s(s, n, bytes, o);
        if (t > budget) break;
        r.max_sources = n;
        r.time_s = t;
    }
    for (std::uint32_t n : r.measured) {
        if (n <= r.max_sources) r.fits_measured = n;
        if (n > r.max_sources && !r.over_measured) r.over_measured = n;
    }
    // Every measured N fits and the kernel takes more: more would fit by the line, but that count is not measured.
    r.capped = r.max_sources == r.measured_max && !r.over_measured && (!r.cap || r.cap > r.measured_max);
    if (r.capped && r.max_sources) {
        const double n_min = r.measured_min, n_max = r.measured_max, t_max = stripe_time_s(s, r.measured_max, bytes, o);
        const double per_source =
            n_min < n_max ? (t_max - stripe_time_s(s, r.measured_min, bytes, o)) / (n_max - n_min) : t_max / n_max;
        const double most = std::min<double>(r.cap ? r.cap : std::numeric_limits<std::uint32_t>::max(), 4 * n_max);
        if (per_source > 0) {
            const double n = std::min(most, std::floor(n_max + (budget - t_max) / per_source));
            if (n > n_max) {
                r.line_sources = static_cast<std::uint32_t>(n);
                r.line_time_s = t_max + per_source * (n - n_max);
            }
        }
    }
    if (r.max_sources && r.max_sources < r.measured_min) {
        // Fewer than the smallest measured N fit: that count is not measured either; none is emitted.
        r.below_measured = r.max_sources;
        r.max_sources = 0;
    }
    return r;
}

std::string stripe_count_text(const StripeResult& r, std::uint32_t sources) {
    if (!r.unit.extra) return fmt::format("{} {}", sources, r.unit.word);
    return fmt::format("{} sources ({} {})", sources, sources + r.unit.extra, r.unit.word);
}

std::string stripe_bracket_text(const StripeResult& r) {
    const std::string what = r.unit.extra ? "sources" : r.unit.word;
    if (r.fits_measured == r.max_sources || !r.over_measured)
        return fmt::format("measured at {} {}", r.fits_measured, what);
    return fmt::format("between {} and {} {} measured", r.fits_measured, r.over_measured, what);
}

}  // namespace fputune
