// SPDX-License-Identifier: MIT
// Per algorithm, each SIMD kernel's one-shot cost against the best no-FPU kernel at every length measured.
#include "thresholds.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "sweep_cycles.hpp"

namespace fputune {

std::vector<SimdThreshold> compute_thresholds(const SweepFile& sweep) {
    // p50 one-shot cost per (kernel, dirty) and length; a repeated point keeps its lowest median.
    std::map<std::pair<std::string, Dirty>, std::map<std::uint64_t, double>> cost;
    for (const auto& p : sweep.thresholds) {
        const std::optional<Dirty> dirty = parse_dirty_state(p.dirty);
        if (!dirty)
            throw std::invalid_argument("threshold point of '" + p.kernel + "' with dirty '" + p.dirty +
                                        "' (expected xmm, ymm, zmm or none)");
        auto& slot = cost[{p.kernel, *dirty}];
        auto it = slot.find(p.bytes);
        const double p50 = point_cycles(sweep, p.ticks, p.cycles).p50;
        if (it == slot.end() || p50 < it->second) slot[p.bytes] = p50;
    }
    std::vector<SimdThreshold> out;
    std::set<std::string> algorithms;
    for (const auto& k : sweep.kernels) algorithms.insert(k.algorithm);
    for (const auto& alg : algorithms) {
        // The no-FPU baseline: the best of our no-FPU kernels at each length.
        std::map<std::uint64_t, double> scalar;
        std::string scalar_names;
        for (const auto& k : sweep.kernels) {
            if (k.algorithm != alg || k.needs_fpu || is_peer(k)) continue;
            bool used = false;
            for (const auto& [key, points] : cost) {
                if (key.first != k.name) continue;
                for (const auto& [len, cycles] : points) {
                    auto it = scalar.find(len);
                    if (it == scalar.end() || cycles < it->second) scalar[len] = cycles;
                    used = true;
                }
            }
            if (used) scalar_names += (scalar_names.empty() ? "" : " ") + k.name;
        }
        if (scalar.empty()) continue;
        for (const auto& k : sweep.kernels) {
            if (k.algorithm != alg || !k.needs_fpu) continue;
            for (const auto& [key, points] : cost) {
                if (key.first != k.name) continue;
                std::vector<std::uint64_t> lengths;
                for (const auto& [len, cycles] : points)
                    if (scalar.count(len)) lengths.push_back(len);
                if (lengths.empty()) continue;
                SimdThreshold t;
                t.algorithm = alg;
                t.kernel = k.name;
                t.dirty = key.second;
                t.scalar_kernels = scalar_names;
                t.measured_from = lengths.front();
                t.measured_to = lengths.back();
                t.simd_cycles_at_max = points.at(lengths.back());
                std::ptrdiff_t last_loss = -1;
                for (std::size_t i = 0; i < lengths.size(); ++i)
                    if (points.at(lengths[i]) >= scalar.at(lengths[i])) last_loss = static_cast<std::ptrdiff_t>(i);
                const std::uint64_t block = std::max<std::uint32_t>(1, k.block_bytes);
                if (last_loss < 0) {
                    t.kind = ThresholdKind::always;
                    t.bytes = block;
                } else if (static_cast<std::size_t>(last_loss) + 1 == lengths.size()) {
                    t.kind = ThresholdKind::never;
                    t.bytes = 0;
                } else {
                    t.kind = ThresholdKind::bytes;
                    t.bytes = (lengths[static_cast<std::size_t>(last_loss) + 1] + block - 1) / block * block;
                }
                out.push_back(t);
            }
        }
    }
    return out;
}

}  // namespace fputune
