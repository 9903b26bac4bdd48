// SPDX-License-Identifier: MIT
// Quantiles by nearest rank on sorted samples; the median's CI from the binomial order statistics.
#include "stats.hpp"

#include <algorithm>
#include <cmath>

namespace fputune {

namespace {
double quantile(const std::vector<double>& sorted, double q) {
    if (sorted.empty()) return 0;
    const double pos = q * static_cast<double>(sorted.size() - 1);
    const std::size_t lo = static_cast<std::size_t>(std::floor(pos));
    const std::size_t hi = std::min(sorted.size() - 1, lo + 1);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - static_cast<double>(lo));
}
}  // namespace

double quantile_rel_ci(const std::vector<double>& sorted, double q) {
    const double n = static_cast<double>(sorted.size());
    if (n < 3) return 1.0;
    const double half = 1.96 * std::sqrt(n * q * (1 - q));
    const auto lo = static_cast<std::size_t>(std::max(0.0, std::floor(n * q - half)));
    const auto hi = static_cast<std::size_t>(std::min(n - 1, std::ceil(n * q + half)));
    const double v = quantile(sorted, q);
    return v > 0 ? (sorted[hi] - sorted[lo]) / 2 / v : 1.0;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double median_rel_ci(const std::vector<double>& sorted) { return quantile_rel_ci(sorted, 0.5); }

double interrupted_above(const PointStats& s) {
    return std::min(s.p50 + std::max({8 * (s.p50 - s.p10), 0.1 * s.p50, 1000.0}), 1.5 * s.p50 + 2000);
}

std::size_t clean_count(const std::vector<double>& sorted) {
    PointStats s;
    s.p10 = quantile(sorted, 0.10);
    s.p50 = quantile(sorted, 0.50);
    return static_cast<std::size_t>(std::upper_bound(sorted.begin(), sorted.end(), interrupted_above(s)) -
                                    sorted.begin());
}

PointStats summarize(std::vector<double> samples) {
    PointStats s;
    std::sort(samples.begin(), samples.end());
    s.samples = samples.size();
    if (samples.empty()) return s;
    s.min = samples.front();
    s.max = samples.back();
    s.p10 = quantile(samples, 0.10);
    s.p50 = quantile(samples, 0.50);
    s.p90 = quantile(samples, 0.90);
    s.p99 = quantile(samples, 0.99);
    s.p999 = quantile(samples, 0.999);
    const std::size_t clean = clean_count(samples);
    s.interrupted = samples.size() - clean;
    s.p99_clean =
        quantile(std::vector<double>(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(clean)), 0.99);
    s.rel_ci50 = median_rel_ci(samples);
    return s;
}

double binomial_at_least(std::size_t n, double p, std::size_t k) {
    if (k == 0) return 1;
    if (k > n) return 0;
    if (!(p > 0)) return 0;
    if (!(p < 1)) return 1;
    // The terms k..n, each from the log of its binomial coefficient (lgamma): no overflow at n of thousands.
    const double N = static_cast<double>(n), lp = std::log(p), lq = std::log1p(-p);
    double sum = 0;
    for (std::size_t i = k; i <= n; ++i) {
        const double x = static_cast<double>(i);
        const double term =
            std::exp(std::lgamma(N + 1) - std::lgamma(x + 1) - std::lgamma(N - x + 1) + x * lp + (N - x) * lq);
        sum += term;
        if (term < sum * 1e-17 && x > N * p) break;  // past the mode the terms only shrink
    }
    return std::min(1.0, sum);
}

std::vector<bool> holm_rejects(const std::vector<double>& p, double alpha) {
    std::vector<std::size_t> order(p.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });
    std::vector<bool> out(p.size(), false);
    for (std::size_t i = 0; i < order.size(); ++i) {
        if (!(p[order[i]] < alpha / static_cast<double>(order.size() - i))) break;
        out[order[i]] = true;
    }
    return out;
}

}  // namespace fputune
