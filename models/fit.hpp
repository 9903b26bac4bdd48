// SPDX-License-Identifier: MIT
// Weighted least-squares fit of a straight line cost(n) = A + B·n, with confidence intervals (any unit:
// models fit core cycles).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace fputune {

// Above this largest relative residual a straight line is said not to fit (a cache-size step, a
// frequency change mid-sweep): 10 % is several times the ~1 % to which the sweep knows each median,
// and a limit computed from such a line may be off by as much.
inline constexpr double kMaxRelResidualForLine = 0.10;

struct LineFit {
    double a = 0, b = 0;  // cost(n) = a + b·n
    double a_lo = 0, a_hi = 0;  // 95 % confidence intervals (equal to a, b when none can be computed)
    double b_lo = 0, b_hi = 0;
    double r2 = 1;  // weighted R² (weights h/y², so every size counts by its relative error)
    double max_rel_residual = 0;  // max |y - fit| / y over the points
    std::uint64_t max_residual_bytes = 0;  // where it is
    std::size_t points = 0;
    bool straight = true;  // max_rel_residual <= kMaxRelResidualForLine
    std::string note;  // why not straight, or why there is no confidence interval

    double at(double n) const { return a + b * n; }
    double upper_at(double n) const { return a_hi + b_hi * n; }  // the bound recommendations use
};

// Fits y = a + b·x minimising Σ h·(y - a - b·x)² / y², so that small and large sections both count;
// h are Huber weights (iteratively reweighted), so one point hit by interruptions moves the line little.
// Intervals: Student's t on s²(XᵀWX)⁻¹ of the final weights. R² is weighted the same way.
// With one distinct x the line goes through the origin (b = y/x) and the note says so; with two
// points it is exact and has no confidence interval. Throws std::invalid_argument when xs is empty,
// the sizes differ, or a y is not > 0.
LineFit fit_line(const std::vector<double>& xs, const std::vector<double>& ys);

// Two-sided 95 % quantile of Student's t with `df` degrees of freedom (df >= 1).
double student_t95(std::size_t df);

}  // namespace fputune
