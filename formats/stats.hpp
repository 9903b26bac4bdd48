// SPDX-License-Identifier: MIT
// Robust statistics of timing samples: quantiles, interrupted samples, how sure the median is.
#pragma once

#include <vector>

#include "sweep_file.hpp"

namespace fputune {

// Samples in ticks or cycles. A sample is "interrupted" when it exceeds interrupted_above(): an
// interrupt or VM exit costs microseconds, far above the spread of an undisturbed point. p99_clean is
// the p99 of the others.
PointStats summarize(std::vector<double> samples);

// p50 + max(8 x (p50 - p10), 10 % of p50, 1000), but never above 1.5 x p50 + 2000: eight times the
// point's lower spread (~10 sigma of a normal spread; the lower half, because interruptions only add
// time: when more than 10 % of the samples are hit, as in a host's slow phase, the p90 is theirs). So
// a 5 us interrupt on a 20 us section is one (1.5 x p50 alone kept those, and they set the p99 of
// 15-50 us sections); the floors keep quantized tiny sections from flagging; the cap keeps a wide
// lower spread (a point whose samples fall into two speeds, as when a neighbour shares the core)
// from letting a 38 us host stall on a 30 us section count as the section's own.
double interrupted_above(const PointStats& s);
// How many of the sorted samples are not hit by an interruption (they come first).
std::size_t clean_count(const std::vector<double>& sorted);

// The median of at least one value (of an even count, the mean of the middle two).
double median(std::vector<double> v);

// Half-width of the 95 % confidence interval of the median (order statistics), relative to the median.
double median_rel_ci(const std::vector<double>& sorted);
// The same for the quantile q (0 < q < 1): binomial order statistics n·q ± 1.96·sqrt(n·q·(1-q)).
double quantile_rel_ci(const std::vector<double>& sorted, double q);

// P(X >= k) for X ~ Binomial(n, p): how often k or more of n samples lie above a value whose share above it is
// p. A quantile test: if the q-quantile were at or below x, the count above x would be at most Binomial(n, 1 - q).
double binomial_at_least(std::size_t n, double p, std::size_t k);

// Holm's step-down over m tests: the i-th smallest p (0-based) must be below alpha / (m - i), up to the first
// that is not. Which tests are rejected; their family-wise error is then alpha.
std::vector<bool> holm_rejects(const std::vector<double>& p, double alpha);

}  // namespace fputune
