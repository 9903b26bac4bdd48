// SPDX-License-Identifier: MIT
// Shared by the report and compare tests: synthetic sweeps with known lines (the scratch folder and the
// CLI run as a process are cli_test_util.hpp's).
#pragma once

#include <cmath>
#include <random>
#include <string>

#include "cli_test_util.hpp"
#include "sweep_file.hpp"

namespace fputune::report_test {

using namespace fputune::cli_test;

// A sweep of "fake-avx2" (64-byte blocks, ticks = a + b·n, relative noise, p90 = 1.05 p50, p99_clean =
// 1.1 p50) in both cache states, with a no-FPU "fake-generic" and one-shot points for the threshold
// (SIMD wins from 256 B on with ymm dirty, from 128 B with xmm), and an XSAVE cost table in its probe.
inline SweepFile synthetic_sweep(const std::string& brand, double a, double b, double noise = 0.003,
                                 std::uint64_t seed = 1, const std::string& kernel = "fake-avx2") {
    SweepFile f;
    f.tool_version = "test";
    f.tool_commit = "abc123";
    f.date = "2025-01-01T00:00:00Z";
    f.cpu = {{"brand", brand},
             {"vendor", "TestVendor"},
             {"tsc", {{"hz", 2.5e9}, {"source", "test"}}},
             {"xsave",
              {{"instruction", "xsavec"},
               {"costs",
                {{{"dirty", "xmm"}, {"save_ticks", 100.0}, {"restore_ticks", 150.0}, {"pair_ticks", 240.0}},
                 {{"dirty", "ymm"}, {"save_ticks", 200.0}, {"restore_ticks", 250.0}, {"pair_ticks", 440.0}}}}}}};
    f.options = {{"quick", false}, {"masked_features", ""}};
    f.tsc_hz = 2.5e9;
    f.core_per_tsc = f.core_per_tsc_end = 1.25;
    f.dirty = "ymm";
    f.kernels = {{kernel, "fake", "avx2", "fputune", 64, true},
                 {"fake-generic", "fake", "generic", "fputune", 64, false}};
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-noise, noise);
    for (const char* cache : {"hot", "cold"}) {
        const double scale = std::string(cache) == "cold" ? 1.1 : 1.0;
        for (double n = 64; n <= 1 << 20; n *= std::pow(2.0, 0.25)) {
            const std::uint64_t bytes = static_cast<std::uint64_t>(std::round(n / 64)) * 64;
            PointStats s;
            s.samples = 200;
            s.p50 = (a + b * scale * static_cast<double>(bytes)) * (1 + u(rng));
            s.p90 = s.p50 * 1.05;
            s.p99_clean = s.p50 * 1.1;
            s.p10 = s.min = s.p50 * 0.98;
            s.p99 = s.p999 = s.max = s.p50 * 1.2;
            f.sections.push_back({kernel, cache, bytes, s, s.p50, true, {}, {}});  // no per-sample cycles, no rounds
        }
    }
    for (std::uint64_t n = 1; n <= 4096; n *= 2) {
        PointStats s;
        s.samples = 20;
        s.p50 = 100 + 4.0 * static_cast<double>(n);
        f.thresholds.push_back({"fake-generic", "none", n, s, {}});
        s.p50 = 900 + 0.5 * static_cast<double>(n);
        f.thresholds.push_back({kernel, "ymm", n, s, {}});
        s.p50 = 500 + 0.5 * static_cast<double>(n);
        f.thresholds.push_back({kernel, "xmm", n, s, {}});
    }
    return f;
}

inline std::string write_temp_sweep(const std::string& name, const SweepFile& f) {
    const std::string p = (temp_dir() / name).string();
    write_sweep_file(p, f);
    return p;
}

}  // namespace fputune::report_test
