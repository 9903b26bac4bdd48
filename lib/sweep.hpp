// SPDX-License-Identifier: MIT
// The sweep engine: sections of every size in the emulated kernel glue loop, and one-shot costs by
// length for the SIMD-vs-scalar thresholds.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "fpu.hpp"
#include "kernel.hpp"
#include "sweep_file.hpp"

namespace fputune {

struct SweepOptions {
    std::vector<const Kernel*> kernels;     // the selection; kernels that need no FPU get no section sweep
    std::vector<std::uint64_t> sizes;       // explicit section sizes (rounded down to whole blocks); empty = default
    std::uint64_t max_section_bytes = 1u << 20;
    int points_per_doubling = 4;
    DirtyState dirty = DirtyState::ymm;
    std::uint64_t section_overhead_cycles = 0;  // added per section (core cycles), e.g. 50 for begin/end
    bool hot = true, cold = true;
    bool thresholds = true;
    std::vector<DirtyState> threshold_dirty;    // default: the section sweep's dirty state; none = state already saved
    double budget_s = 150;                  // whole sweep: each group gets an even share of what is left...
    double point_cap_s = 0.25;              // ...and each point at most this, spread over the group's points...
    double target_rel_ci = 0.01;            // ...or once the median is known to ~1 %
    double target_rel_ci90 = 0.01;          // and the p90 (the bound recommend uses) to ~1 %
    std::uint64_t min_samples = 21, max_samples = 2000;
    std::uint64_t min_samples90 = 100;      // the p90's interval means little below this
    // Sections short enough for the bound fits (p50 <= tail_max_s, see models' kBoundFitMaxSeconds)
    // also need their p99 of uninterrupted samples: >= min_samples99 and its CI within target_rel_ci99.
    double tail_max_s = 50e-6;
    std::uint64_t min_samples99 = 500;
    double target_rel_ci99 = 0.03;
};

// The default section sizes of a kernel: whole blocks from one block to >= max_bytes, geometric
// with points_per_doubling per doubling, plus the upstream constants 1 KiB and 4 KiB.
std::vector<std::uint64_t> default_section_sizes(std::uint32_t block_bytes, std::uint64_t max_bytes, int points_per_doubling);
// The default threshold lengths: 1 .. 4096, dense below 1 KiB.
std::vector<std::uint64_t> default_threshold_lengths();

// Algorithms that have a path without the FPU and one with it, among the selection.
std::vector<std::string> threshold_algorithms(const std::vector<const Kernel*>& kernels);

struct SweepProgress {
    std::size_t done = 0, total = 0;  // groups (kernel x cache, or kernel x dirty for thresholds)
    std::string what;
};

// Measures into `out`, skipping groups `out` already holds (--resume). Checks `stop` between
// samples; when set, the group in progress is dropped, out.partial = true, and it returns.
void run_sweep(const SweepOptions& opt, SweepFile& out, const std::function<void(const SweepProgress&)>& progress,
               const std::atomic<bool>& stop);

}  // namespace fputune
