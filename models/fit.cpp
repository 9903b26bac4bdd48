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

namespace {

void set_residuals(LineFit& f, const std::vector<double>& xs, const std::vector<double>& ys) {
    f.max_rel_residual = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
        double r = std::abs(ys[i] - f.at(xs[i])) / ys[i];
        if (r > f.max_rel_residual) {
            f.max_rel_residual = r;
            f.max_residual_bytes = static_cast<std::uint64_t>(xs[i]);
        }
    }
}

// One size: no fixed cost can be told apart from the per-byte cost; through the origin.
LineFit through_origin(const std::vector<double>& xs, const std::vector<double>& ys) {
    const std::size_t n = xs.size();
    LineFit f;
    f.points = n;
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum += ys[i] / xs[i];
    f.a = 0;
    f.b = sum / static_cast<double>(n);
    f.a_lo = f.a_hi = f.a;
    f.b_lo = f.b_hi = f.b;
    set_residuals(f, xs, ys);
    f.r2 = 1;
    f.note = "one size only: line through the origin (A = 0), no confidence interval";
    f.straight = f.max_rel_residual <= kMaxRelResidualForLine;
    return f;
}

// Rows scaled by sqrt(w) = 1/y: ordinary least squares on the scaled system, where a residual is
// relative. Then Huber reweighting (IRLS, k = 1.345 robust sigmas, sigma from the MAD): a point hit
// by interrupts (p90 30 % high at one size) pulls the line less than a plain fit lets it.
struct HuberFit {
    Eigen::MatrixXd X0;  // the scaled rows
    Eigen::VectorXd h;  // Huber weights
    Eigen::MatrixXd X;  // X0 reweighted
    Eigen::VectorXd y;
    Eigen::Vector2d beta;
};
HuberFit huber_fit(const std::vector<double>& xs, const std::vector<double>& ys) {
    const std::size_t n = xs.size();
    HuberFit w;
    w.X0.resize(static_cast<Eigen::Index>(n), 2);
    for (std::size_t i = 0; i < n; ++i) {
        w.X0(i, 0) = 1 / ys[i];
        w.X0(i, 1) = xs[i] / ys[i];
    }
    w.h = Eigen::VectorXd::Ones(n);
    w.X = w.X0;
    w.y = Eigen::VectorXd::Ones(n);
    w.beta = w.X.colPivHouseholderQr().solve(w.y);
    for (int iter = 0; iter < 50 && n > 2; ++iter) {
        const Eigen::VectorXd r = Eigen::VectorXd::Ones(n) - w.X0 * w.beta;
        std::vector<double> abs_r(n);
        for (std::size_t i = 0; i < n; ++i) abs_r[i] = std::abs(r(i));
        std::nth_element(abs_r.begin(), abs_r.begin() + n / 2, abs_r.end());
        const double sigma = 1.4826 * abs_r[n / 2];
        if (!(sigma > 1e-12)) break;
        constexpr double k = 1.345;
        for (std::size_t i = 0; i < n; ++i) w.h(i) = std::abs(r(i)) <= k * sigma ? 1.0 : k * sigma / std::abs(r(i));
        for (std::size_t i = 0; i < n; ++i) {
            w.X.row(i) = w.X0.row(i) * std::sqrt(w.h(i));
            w.y(i) = std::sqrt(w.h(i));
        }
        const Eigen::Vector2d next = w.X.colPivHouseholderQr().solve(w.y);
        const bool done =
            (next - w.beta).cwiseAbs().maxCoeff() <= 1e-10 * std::max(1.0, w.beta.cwiseAbs().maxCoeff());
        w.beta = next;
        if (done) break;
    }
    return w;
}

// Weighted R² about the weighted mean.
double weighted_r2(const HuberFit& w, const std::vector<double>& ys) {
    const std::size_t n = ys.size();
    const Eigen::VectorXd r = w.y - w.X * w.beta;
    const double ss_res = r.squaredNorm();
    double sw = 0, swy = 0;
    for (std::size_t i = 0; i < n; ++i) {
        sw += w.h(i) / (ys[i] * ys[i]);
        swy += w.h(i) / ys[i];
    }
    const double ybar = swy / sw;
    double ss_tot = 0;
    for (std::size_t i = 0; i < n; ++i) ss_tot += w.h(i) * (ys[i] - ybar) * (ys[i] - ybar) / (ys[i] * ys[i]);
    return ss_tot > 0 ? 1 - ss_res / ss_tot : 1;
}

// The 95 % intervals of A and B. Huber's covariance: s² = Σψ² / (n-2) / (mean ψ')², ψ = h·r; the plain
// one when no point is down-weighted (h = 1 everywhere). Two sizes: an exact line, no interval.
void set_intervals(LineFit& f, const HuberFit& w, std::size_t n) {
    if (n <= 2) {
        f.a_lo = f.a_hi = f.a;
        f.b_lo = f.b_hi = f.b;
        f.note = "two sizes only: exact line, no confidence interval";
        return;
    }
    const Eigen::VectorXd r0 = Eigen::VectorXd::Ones(n) - w.X0 * w.beta;
    double sum_psi2 = 0, inliers = 0;
    for (std::size_t i = 0; i < n; ++i) {
        sum_psi2 += w.h(i) * w.h(i) * r0(i) * r0(i);
        inliers += w.h(i) >= 1 ? 1 : 0;
    }
    const double m = std::max(inliers, 2.0) / static_cast<double>(n);
    const double s2 = sum_psi2 / static_cast<double>(n - 2) / (m * m);
    const Eigen::Matrix2d cov = s2 * (w.X0.transpose() * w.X0).inverse();
    const double t = student_t95(n - 2);
    const double ha = t * std::sqrt(std::max(0.0, cov(0, 0))), hb = t * std::sqrt(std::max(0.0, cov(1, 1)));
    f.a_lo = f.a - ha;
    f.a_hi = f.a + ha;
    f.b_lo = f.b - hb;
    f.b_hi = f.b + hb;
}

}  // namespace

LineFit fit_line(const std::vector<double>& xs, const std::vector<double>& ys) {
    if (xs.empty() || xs.size() != ys.size())
        throw std::invalid_argument("fit_line: need as many y as x, at least one");
    for (double y : ys)
        if (!(y > 0) || !std::isfinite(y)) throw std::invalid_argument(fmt::format("fit_line: y = {} is not > 0", y));
    if (std::set<double>(xs.begin(), xs.end()).size() < 2) return through_origin(xs, ys);
    const std::size_t n = xs.size();
    const HuberFit w = huber_fit(xs, ys);
    LineFit f;
    f.points = n;
    f.a = w.beta(0);
    f.b = w.beta(1);
    f.r2 = weighted_r2(w, ys);
    set_intervals(f, w, n);
    set_residuals(f, xs, ys);
    f.straight = f.max_rel_residual <= kMaxRelResidualForLine;
    if (!f.straight)
        f.note =
            fmt::format("not a straight line: {:.0f}% off at {} B ({})", 100 * f.max_rel_residual, f.max_residual_bytes,
                        f.max_residual_bytes >= 16384 ? "a cache-size step?" : "small-size structure or noise?");
    return f;
}

}  // namespace fputune
