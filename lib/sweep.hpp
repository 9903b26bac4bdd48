// SPDX-License-Identifier: MIT
// The sweep engine: sections of every size in the emulated kernel glue loop, and one-shot costs by
// length for the SIMD-vs-scalar thresholds. It reads top to bottom: plan -> measure -> summarise.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fpu.hpp"
#include "kernel.hpp"
#include "sampler.hpp"
#include "sweep_file.hpp"

namespace fputune {

struct SweepOptions {
    std::vector<std::string> kernel_patterns;  // -k as given (recorded); empty = all of ours
    std::vector<const Kernel*> kernels;     // the selection; kernels that need no FPU get no section sweep
    std::vector<std::uint64_t> sizes;       // explicit section sizes (rounded down to whole blocks); empty = default
    std::uint64_t max_section_bytes = 1u << 20;
    int points_per_doubling = 4;
    DirtyState dirty = DirtyState::ymm;
    std::uint64_t section_overhead_cycles = 0;  // added per section (core cycles), e.g. 50 for begin/end
    bool hot = true, cold = true;
    bool thresholds = true;
    std::vector<DirtyState> threshold_dirty;    // default: the section sweep's dirty state; none = state already saved
    double budget_s = 150;                  // the whole sweep
    bool quick = false;
    int cpu = -1;                           // pinned to (recorded)
    SamplingRules sampling;                 // rounds, and when a point has enough samples

    // --quick: to 256 KiB (unless max_bytes_given), 2 points per doubling, 2 rounds, looser intervals, 25 s.
    void apply_quick(bool max_bytes_given);
    // The options as the sweep file records them.
    nlohmann::json to_json() const;
};

// The default section sizes of a kernel: whole blocks from one block to >= max_bytes, geometric
// with points_per_doubling per doubling, plus the upstream constants 1 KiB and 4 KiB.
std::vector<std::uint64_t> default_section_sizes(std::uint32_t block_bytes, std::uint64_t max_bytes, int points_per_doubling);
// The default threshold lengths: 1 .. 4096, dense below 1 KiB.
std::vector<std::uint64_t> default_threshold_lengths();

// Algorithms that have a path without the FPU and one with it, among the selection.
std::vector<std::string> threshold_algorithms(const std::vector<const Kernel*>& kernels);

// What to measure: every point, before any is measured.
struct SectionTarget {
    const Kernel* kernel;
    bool cold;
    std::uint64_t bytes;  // whole blocks
};
struct ThresholdTarget {
    const Kernel* kernel;
    DirtyState dirty;     // none for kernels that need no FPU, or the state already saved
    std::uint64_t bytes;
};
struct SweepPlan {
    std::vector<const Kernel*> kernels;  // ours that this CPU can run: the file's kernel list
    std::vector<SectionTarget> sections;
    std::vector<ThresholdTarget> thresholds;
};
// The points of the options, less those `resume` (may be null) already holds complete.
SweepPlan plan_sweep(const SweepOptions& opt, const SweepFile* resume);

// What measuring a plan gave: the pool's samples (sections first, then thresholds) and the core clock
// at the start and the end.
struct SweepMeasurement {
    PoolResult pool;
    double core_per_tsc_start = 0, core_per_tsc_end = 0;
};
// Measures every point of the plan in one interleaved pool, in rounds (see sample_pool). `calm`
// seeds the disturbance monitor (calm.tsc == 0: measured here).
SweepMeasurement measure_plan(const SweepPlan& plan, const SweepOptions& opt, const Calibration& calm, const PoolHooks& hooks);

// Besides the measurements, what the file records.
struct SweepInputs {
    nlohmann::json cpu;                 // probe_cpu()
    nlohmann::json doctor;              // the quick doctor's verdict (null: none)
    Calibration calm;                   // starting levels of the timer and clock (tsc == 0: none)
    const SweepFile* resume = nullptr;  // a partial file to continue
    std::function<std::string()> stop_reason;  // why a stopped sweep stopped ("SIGHUP"), for its warning
};
// The sweep file: provenance, options, clocks, disturbances and every point's statistics, filled here
// and nowhere else. Points with fewer than 3 samples are left out (a warning names them).
SweepFile summarise_sweep(const SweepOptions& opt, const SweepInputs& in, const SweepPlan& plan, const SweepMeasurement& m);

// plan -> measure -> summarise. A stop (hooks.stop) gives a file marked partial.
SweepFile measure_sweep(const SweepOptions& opt, const SweepInputs& in, const PoolHooks& hooks);

}  // namespace fputune
