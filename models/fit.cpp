// SPDX-License-Identifier: MIT
// The line fit behind every model: weighted least squares with Eigen, intervals from Student's t.
#include "fit.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include <Eigen/Dense>
#include <fmt/format.h>

namespace fputune {

double student_t95(std::size_t df) {
    // Exact table for small df (where the normal approximation is poor), Cornish–Fisher expansion after.
    static constexpr double table[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                       2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                       2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
    if (df == 0) throw std::invalid_argument("student_t95: df must be >= 1");
    if (df <= 30) return table[df - 1];
    const double z = 1.959963984540054, n = static_cast<double>(df);
    const double z3 = z * z * z, z5 = z3 * z * z;
    return z + (z3 + z) / (4 * n) + (5 * z5 + 16 * z3 + 3 * z) / (96 * n * n);
}

LineFit fit_line(const std::vector<double>& xs, const std::vector<double>& ys) {
    if (xs.empty() || xs.size() != ys.size()) throw std::invalid_argument("fit_line: need as many y as x, at least one");
    for (double y : ys)
        if (!(y > 0) || !std::isfinite(y)) throw std::invalid_argument(fmt::format("fit_line: y = {} is not > 0", y));
    const std::size_t n = xs.size();
    LineFit f;
    f.points = n;
    auto residuals = [&] {
        f.max_rel_residual = 0;
        for (std::size_t i = 0; i < n; ++i) {
            double r = std::abs(ys[i] - f.at(xs[i])) / ys[i];
            if (r > f.max_rel_residual) {
                f.max_rel_residual = r;
                f.max_residual_bytes = static_cast<std::uint64_t>(xs[i]);
            }
        }
    };
    const std::set<double> distinct(xs.begin(), xs.end());
    if (distinct.size() < 2) {
        // One size: no fixed cost can be told apart from the per-byte cost; through the origin.
        double sum = 0;
        for (std::size_t i = 0; i < n; ++i) sum += ys[i] / xs[i];
        f.a = 0;
        f.b = sum / static_cast<double>(n);
        f.a_lo = f.a_hi = f.a;
        f.b_lo = f.b_hi = f.b;
        residuals();
        f.r2 = 1;
        f.note = "one size only: line through the origin (A = 0), no confidence interval";
        f.straight = f.max_rel_residual <= kMaxRelResidualForLine;
        return f;
    }
    // Rows scaled by sqrt(w) = 1/y: ordinary least squares on the scaled system.
    Eigen::MatrixXd X(n, 2);
    Eigen::VectorXd y(n);
    for (std::size_t i = 0; i < n; ++i) {
        X(i, 0) = 1 / ys[i];
        X(i, 1) = xs[i] / ys[i];
        y(i) = 1;
    }
    const Eigen::Vector2d beta = X.colPivHouseholderQr().solve(y);
    f.a = beta(0);
    f.b = beta(1);
    const Eigen::VectorXd r = y - X * beta;
    const double ss_res = r.squaredNorm();
    // Weighted total sum of squares about the weighted mean.
    double sw = 0, swy = 0;
    for (std::size_t i = 0; i < n; ++i) {
        sw += 1 / (ys[i] * ys[i]);
        swy += 1 / ys[i];
    }
    const double ybar = swy / sw;
    double ss_tot = 0;
    for (std::size_t i = 0; i < n; ++i) ss_tot += (ys[i] - ybar) * (ys[i] - ybar) / (ys[i] * ys[i]);
    f.r2 = ss_tot > 0 ? 1 - ss_res / ss_tot : 1;
    if (n > 2) {
        const double s2 = ss_res / static_cast<double>(n - 2);
        const Eigen::Matrix2d cov = s2 * (X.transpose() * X).inverse();
        const double t = student_t95(n - 2);
        const double ha = t * std::sqrt(std::max(0.0, cov(0, 0))), hb = t * std::sqrt(std::max(0.0, cov(1, 1)));
        f.a_lo = f.a - ha;
        f.a_hi = f.a + ha;
        f.b_lo = f.b - hb;
        f.b_hi = f.b + hb;
    } else {
        f.a_lo = f.a_hi = f.a;
        f.b_lo = f.b_hi = f.b;
        f.note = "two sizes only: exact line, no confidence interval";
    }
    residuals();
    f.straight = f.max_rel_residual <= kMaxRelResidualForLine;
    if (!f.straight)
        f.note = fmt::format("not a straight line: {:.0f}% off at {} B (cache-size step?)", 100 * f.max_rel_residual,
                             f.max_residual_bytes);
    return f;
}

}  // namespace fputune
