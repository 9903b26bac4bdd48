// SPDX-License-Identifier: MIT
// Robust statistics of timing samples: quantiles, interrupted samples, how sure the median is.
#pragma once

#include <vector>

#include "sweep_file.hpp"

namespace fputune {

// Samples in ticks. A sample is "interrupted" when it exceeds 1.5 x p50 + 2000 ticks: an interrupt or
// VM exit costs microseconds, far above the spread of an undisturbed point.
PointStats summarize(std::vector<double> samples);

// Half-width of the 95 % confidence interval of the median (order statistics), relative to the median.
double median_rel_ci(const std::vector<double>& sorted);
// The same for the quantile q (0 < q < 1): binomial order statistics n·q ± 1.96·sqrt(n·q·(1-q)).
double quantile_rel_ci(const std::vector<double>& sorted, double q);

}  // namespace fputune
