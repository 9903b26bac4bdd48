// SPDX-License-Identifier: MIT
// Per algorithm, each SIMD kernel's one-shot cost against the kernel's no-FPU path (else the best of our no-FPU
// kernels) at every length measured.
#include "thresholds.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

#include "fit.hpp"
#include "selection.hpp"
#include "stats.hpp"
#include "sweep_cycles.hpp"

namespace fputune {

namespace {

// Sets kind, bytes and simd_cycles_at_max from the curve, the SIMD path costing `simd` per length: the
// threshold is the first length after the last one where the SIMD path did not win, in whole blocks.
void read_curve(SimdThreshold& t, const std::vector<double>& simd) {
    t.simd_cycles_at_max = simd.back();
    std::ptrdiff_t last_loss = -1;
    for (std::size_t i = 0; i < t.lengths.size(); ++i)
        if (simd[i] >= t.scalar_cycles[i]) last_loss = static_cast<std::ptrdiff_t>(i);
    const std::uint64_t block = std::max<std::uint32_t>(1, t.block_bytes);
    if (last_loss < 0) {
        t.kind = ThresholdKind::always;
        t.bytes = block;
    } else if (static_cast<std::size_t>(last_loss) + 1 == t.lengths.size()) {
        t.kind = ThresholdKind::never;
        t.bytes = 0;
    } else {
        t.kind = ThresholdKind::bytes;
        t.bytes = (t.lengths[static_cast<std::size_t>(last_loss) + 1] + block - 1) / block * block;
    }
}

// The save + restore pair of `dirty` from the sweep's XSAVE probe, in core cycles (0 when not probed).
double probed_save_cycles(const SweepFile& sweep, Dirty dirty) {
    const auto& cpu = sweep.cpu;
    if (!cpu.is_object() || !cpu.contains("xsave") || !cpu["xsave"].is_object()) return 0;
    const auto& xs = cpu["xsave"];
    if (!xs.contains("costs") || !xs["costs"].is_array()) return 0;
    for (const auto& c : xs["costs"]) {
        if (!c.is_object() || !c.contains("dirty") || !c["dirty"].is_string() ||
            c["dirty"].get<std::string>() != name(dirty))
            continue;
        if (!c.contains("pair_ticks") || !c["pair_ticks"].is_number()) return 0;
        const double ticks = c["pair_ticks"].get<double>();
        const double ratio = model_core_per_tsc(sweep);
        return std::isfinite(ticks) && ticks > 0 && std::isfinite(ratio) && ratio > 0 ? ticks * ratio : 0;
    }
    return 0;
}

}  // namespace

namespace {

using Costs = std::map<std::pair<std::string, Dirty>, std::map<std::uint64_t, double>>;

// p50 one-shot cost per (kernel, dirty) and length; a repeated point keeps its lowest median.
Costs one_shot_costs(const SweepFile& sweep) {
    Costs cost;
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
    return cost;
}

// The no-FPU baseline of an algorithm per length, and the kernels it is the best of.
struct Baseline {
    std::map<std::uint64_t, double> scalar;
    std::string scalar_names;
};
Baseline no_fpu_baseline(const SweepFile& sweep, const Costs& cost, const std::string& alg) {
    // The no-FPU baseline: the no-FPU kernel Linux runs where we name one and the sweep has it
    // (crc32c: the one-chain crc32c-sse42, not the faster crc32c-sse42-3stream), else the best of our
    // no-FPU kernels at each length.
    const char* kernel_no_fpu = kernel_no_fpu_variant(alg);
    const bool have_kernel_no_fpu = kernel_no_fpu && std::any_of(cost.begin(), cost.end(), [&](const auto& c) {
                                        return c.first.first == kernel_no_fpu;
                                    });
    std::map<std::uint64_t, double> scalar;
    std::string scalar_names;
    for (const auto& k : sweep.kernels) {
        if (k.algorithm != alg || k.needs_fpu || is_peer(k)) continue;
        if (have_kernel_no_fpu && k.name != kernel_no_fpu) continue;
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
    return {scalar, scalar_names};
}

// What the state save costs: this state's points over the same kernel's unsaved ones, else the probe's.
void set_save_cost(SimdThreshold& t, const SweepFile& sweep, const Costs& cost) {
    const auto none = cost.find({t.kernel, Dirty::none});
    if (t.dirty != Dirty::none) {
        // What the save costs: this state's points over the same kernel's unsaved ones.
        std::vector<double> diff;
        if (none != cost.end())
            for (std::size_t i = 0; i < t.lengths.size(); ++i)
                if (auto it = none->second.find(t.lengths[i]); it != none->second.end())
                    diff.push_back(t.simd_cycles[i] - it->second);
        if (!diff.empty()) {
            t.save_cycles = std::max(0.0, median(diff));
            t.save_from = "threshold points";
        } else if (const double probed = probed_save_cycles(sweep, t.dirty); probed > 0) {
            t.save_cycles = probed;
            t.save_from = "xsave probe";
        }
    }
}

}  // namespace

std::vector<SimdThreshold> compute_thresholds(const SweepFile& sweep) {
    const Costs cost = one_shot_costs(sweep);
    std::vector<SimdThreshold> out;
    std::set<std::string> algorithms;
    for (const auto& k : sweep.kernels) algorithms.insert(k.algorithm);
    for (const auto& alg : algorithms) {
        const auto [scalar, scalar_names] = no_fpu_baseline(sweep, cost, alg);
        if (scalar.empty()) continue;
        for (const auto& k : sweep.kernels) {
            if (k.algorithm != alg || !k.needs_fpu) continue;
            for (const auto& [key, points] : cost) {
                if (key.first != k.name) continue;
                SimdThreshold t;
                t.algorithm = alg;
                t.kernel = k.name;
                t.dirty = key.second;
                t.scalar_kernels = scalar_names;
                t.block_bytes = k.block_bytes;
                for (const auto& [len, cycles] : points)
                    if (scalar.count(len)) {
                        t.lengths.push_back(len);
                        t.simd_cycles.push_back(cycles);
                        t.scalar_cycles.push_back(scalar.at(len));
                    }
                if (t.lengths.empty()) continue;
                t.measured_from = t.lengths.front();
                t.measured_to = t.lengths.back();
                set_save_cost(t, sweep, cost);
                read_curve(t, t.simd_cycles);
                out.push_back(std::move(t));
            }
        }
    }
    return out;
}

SimdThreshold amortised(const SimdThreshold& t, std::uint64_t save_every) {
    if (t.dirty == Dirty::none || t.lengths.empty() || t.lengths.size() != t.simd_cycles.size() ||
        t.lengths.size() != t.scalar_cycles.size())
        return t;
    SimdThreshold a = t;
    a.save_every = save_every;
    const double unpaid = save_every == kSaveNever ? 1.0 : 1.0 - 1.0 / static_cast<double>(save_every);
    std::vector<double> simd = t.simd_cycles;
    for (double& c : simd) c -= t.save_cycles * unpaid;
    read_curve(a, simd);
    return a;
}

std::optional<ThresholdParts> threshold_parts(const SimdThreshold& t) {
    if (t.lengths.size() != t.simd_cycles.size() || t.lengths.size() != t.scalar_cycles.size()) return std::nullopt;
    const double from = std::max<double>(64, t.block_bytes);
    std::vector<double> xs, simd, scalar;
    for (std::size_t i = 0; i < t.lengths.size(); ++i) {
        const double unsaved = t.simd_cycles[i] - t.save_cycles;
        if (t.lengths[i] < from || !(unsaved > 0) || !(t.scalar_cycles[i] > 0)) continue;
        xs.push_back(static_cast<double>(t.lengths[i]));
        simd.push_back(unsaved);
        scalar.push_back(t.scalar_cycles[i]);
    }
    if (xs.size() < 2) return std::nullopt;
    const LineFit s = fit_line(xs, simd), n = fit_line(xs, scalar);
    ThresholdParts p;
    p.save_cycles = t.save_cycles;
    p.setup_cycles = s.a - n.a;
    p.gap_cycles_per_byte = n.b - s.b;
    p.save_every = t.save_every;
    const double save = t.save_every == kSaveNever ? 0.0 : t.save_cycles / static_cast<double>(t.save_every);
    p.break_even_bytes = p.gap_cycles_per_byte > 0 ? std::max(0.0, (p.setup_cycles + save) / p.gap_cycles_per_byte)
                                                   : std::numeric_limits<double>::infinity();
    return p;
}

}  // namespace fputune
