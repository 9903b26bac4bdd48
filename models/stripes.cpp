// SPDX-License-Identifier: MIT
// Multi-source kernels: their series gathered per kernel, the cost linear in N between them, and the most
// sources that fit a budget at a stripe size.
#include "stripes.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "header.hpp"
#include "upstream.hpp"

namespace fputune {

StripeUnit stripe_unit(const KernelInfo& k) {
    const UpstreamLimit* u = find_upstream_limit(k.algorithm);
    if (u && u->count == "disks") return {"disks", k.dest_count};
    return {"sources", 0};
}

std::vector<StripeSeries> stripe_series(const ModelFile& m, Cache preferred) {
    std::vector<StripeSeries> out;
    for (const KernelInfo& k : m.kernels) {
        if (!k.sources || !k.needs_fpu) continue;
        const CacheModel* cm = m.model(k.name, preferred);
        Cache cache = preferred;
        if (!cm) cm = m.model(k.name, cache = other(preferred));
        if (!cm) continue;
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
        it->by_sources[k.sources].push_back(cm);
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
    r.measured_min = s.by_sources.begin()->first;
    r.measured_max = s.by_sources.rbegin()->first;
    const double budget = effective_budget_s(o.question), bytes = static_cast<double>(stripe_bytes);
    r.one_source_s = stripe_time_s(s, 1, bytes, o);
    // The time grows with N (each source is one more stream): the largest N that fits, searched up to the
    // kernel's most (raid6: 255) or, when none is recorded, 64 x the largest measured.
    const std::uint32_t cap = s.max_sources ? s.max_sources : 64 * r.measured_max;
    for (std::uint32_t n = 1; n <= cap; ++n) {
        bool extrapolated = false;
        const double t = stripe_time_s(s, n, bytes, o, &extrapolated);
        if (t > budget) break;
        r.max_sources = n;
        r.time_s = t;
        r.extrapolated = extrapolated && n > r.measured_max;
    }
    return r;
}

std::string stripe_count_stem(const std::string& kernel_or_algorithm, const StripeUnit& unit,
                              std::uint64_t stripe_bytes) {
    const std::string size =
        stripe_bytes % 1024 == 0 ? fmt::format("{}K", stripe_bytes / 1024) : fmt::format("{}", stripe_bytes);
    return macro_stem(kernel_or_algorithm) + "_MAX_" + macro_stem(unit.word) + "_" + size;
}

}  // namespace fputune
