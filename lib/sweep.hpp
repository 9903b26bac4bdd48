// SPDX-License-Identifier: MIT
// The sweep engine: sections of every size in the emulated kernel glue loop, and one-shot costs by
// length for the SIMD-vs-scalar thresholds. It reads top to bottom: plan -> measure -> summarise.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
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
    std::vector<const Kernel*> kernels;  // the selection; kernels that need no FPU get no section sweep
    std::vector<std::uint64_t> sizes;  // explicit section sizes (rounded down to whole blocks); empty = default
    std::uint64_t max_section_bytes = 1u << 20;
    int points_per_doubling = 4;
    DirtyState dirty = DirtyState::ymm;
    std::uint64_t section_overhead_cycles = 0;  // added per section (core cycles), e.g. 50 for begin/end
    bool hot = true, cold = true;
    bool thresholds = true;
    std::vector<DirtyState> threshold_dirty;  // default: the section sweep's dirty state; none = state already saved
    double budget_s = 150;  // the whole sweep
    bool quick = false;
    double zmm_idle_s = 0;  // > 0: also the ZMM warm-up state, AVX-512 kernels' first section after this long idle
    int cpu = -1;  // pinned to (recorded)
    SamplingRules sampling;  // rounds, and when a point has enough samples
    // The closed loop (apps/sweep_loop.hpp): the first pass gets budget_s x (1 - loop_share), then the
    // constants for this question (a section budget at a minimum clock) are measured at their exact size in
    // what is left, at least budget_s x loop_share (a first pass that ran over does not eat it). Off with explicit sizes (--sizes: exactly those) or --no-closed-loop.
    bool closed_loop = true;
    double loop_budget_s = 30e-6, loop_min_freq_hz = 1e9;
    double loop_share = 0.2;

    // --quick: to 256 KiB (unless max_bytes_given), 2 points per doubling, 2 rounds, looser intervals, 25 s.
    void apply_quick(bool max_bytes_given);
    // The options as the sweep file records them.
    nlohmann::json to_json() const;
};

// The kernels of -k patterns (registry.hpp select_kernels), where a pattern may also be a kind (kernel.hpp
// kernel_kind: "hash", "cipher", "raid") or "all": every kernel of that kind, in table order. Throws
// std::invalid_argument naming a pattern or kind that selects nothing.
std::vector<const Kernel*> select_kernels_or_kinds(const std::vector<std::string>& patterns);

// The default section sizes of a kernel: whole blocks from one block to >= max_bytes, geometric
// with points_per_doubling per doubling up to dense_max_bytes and half as many (at least one) above it,
// plus the upstream constants 1 KiB and 4 KiB.
std::vector<std::uint64_t> default_section_sizes(std::uint32_t block_bytes, std::uint64_t max_bytes,
                                                 int points_per_doubling, std::uint64_t dense_max_bytes = UINT64_MAX);
// The default threshold lengths: 1 .. 4096, dense below 1 KiB.
std::vector<std::uint64_t> default_threshold_lengths();

// Algorithms that have a path without the FPU and one with it, among the selection.
std::vector<std::string> threshold_algorithms(const std::vector<const Kernel*>& kernels);

// One series of section points of a kernel: one shape (kernel.hpp), for a multi-source kernel one number of
// sources, and one state of the vector units. A series is what gets a cost line and a limit; the sweep file
// lists it as a kernel of its own (series_info), so every reader fits and judges it like any kernel.
struct SeriesSpec {
    SectionShape shape = SectionShape::bulk;
    std::uint32_t sources = 0;  // multi-source kernels: N sources of `bytes` each per section (0: not one)
    double idle_s = 0;  // > 0: the first section after this long without vector code (ZMM warm-up)
};
// The series a sweep measures of a kernel that needs the FPU: its primary shape, GCM's AAD too, each of
// kStripeSources for a multi-source kernel, and with --zmm-idle the warm-up state of AVX-512 kernels.
std::vector<SeriesSpec> section_series(const Kernel& k, const SweepOptions& opt);
// Its name: the kernel's for the primary shape, else "<kernel>.aad", "<kernel>.x<N>" (N sources), then ".idle"
// for the warm-up state ("aes-256-gcm-vaes-avx512.aad", "raid6-avx512.x8", "aes-256-xts-vaes-avx512.idle"):
// '.' is in no registry name, and every reader accepts it in names.
std::string series_name(const Kernel& k, const SeriesSpec& s);
// In words, for `list`: what one section of the kernel covers ("blocks", "walk step", "whole message",
// "walk step + aad", "N x bytes"; "no FPU" for a kernel without sections).
std::string section_summary(const Kernel& k);
// What the sweep file records of it: name and algorithm as above ("aes-256-gcm.aad", "raid6.x8"; an idle
// series keeps its kernel's algorithm), the kernel it is a series of, the shape, sources, idle time.
KernelInfo series_info(const Kernel& k, const SeriesSpec& s);
// The default section sizes of a series (bytes per source for a multi-source kernel): whole blocks from one
// block (an XTS message: from kXtsMinMessageBytes) to max_section_bytes (in all sources together), plus 1
// and 4 KiB; with --zmm-idle's state at most kIdleMaxBytes; or opt.sizes rounded down to whole blocks.
// A bulk series (a hash's or MAC's blocks, a cipher's walk step) has points_per_doubling up to
// kDenseMaxBytes and half as many above; every other series (GCM's AAD, XTS's whole messages, each number of
// sources of a multi-source kernel) half as many throughout, and one of more than kStripeDenseSources
// sources a quarter as many.
std::vector<std::uint64_t> series_sizes(const Kernel& k, const SeriesSpec& s, const SweepOptions& opt);
// Where the default sweep's sizes thin out: every limit for budgets up to ~30 us at >= 1 GHz lies below it
// (the largest on Emerald Rapids and Zen 5: ~58 KiB, crc32 vpclmul), and the bound lines are fitted on
// sections of at most ~50 us (kBoundFitMaxSeconds), a few hundred KiB only on the fastest kernels; above it
// the points mostly feed the median line, for which 2 per doubling are plenty.
inline constexpr std::uint64_t kDenseMaxBytes = 64u << 10;
// A multi-source series of more sources than this (kernel.hpp kStripeSources: 24, 32) gets half the sizes of the
// others (one per doubling by default): those series are there for the count at 4 KiB stripes, which the line
// through a few sizes pins. They add 128 points to the 5342 of the default sweep of an AMD EPYC Milan (Zen 3) VM
// (2.4 %; at the others' density 4.5 %), which shares its fixed time budget.
inline constexpr std::uint32_t kStripeDenseSources = 16;
inline constexpr std::uint64_t kXtsMinMessageBytes = 512;  // the smallest dm-crypt sector / fscrypt data unit
inline constexpr std::uint64_t kIdleMaxBytes = 256u << 10;  // the warm-up lasts ~2 us: long sections only dilute it

// What to measure: every point, before any is measured.
struct SectionTarget {
    const Kernel* kernel;
    bool cold;
    std::uint64_t bytes;  // whole blocks (multi-source: per source)
    SeriesSpec series = {};
    std::string name;  // the series' name (series_name), as the file writes it
};
struct ThresholdTarget {
    const Kernel* kernel;
    DirtyState dirty;  // none for kernels that need no FPU, or the state already saved
    std::uint64_t bytes;
};
struct SweepPlan {
    std::vector<const Kernel*> kernels;  // ours that this CPU can run
    // The file's kernel list: each series of sections as a kernel of its own (series_info; a kernel's
    // primary series carries its name), and the kernels without sections that thresholds compare against.
    std::vector<KernelInfo> listed;
    std::vector<SectionTarget> sections;
    std::vector<ThresholdTarget> thresholds;
};
// The points of the options, less those `resume` (may be null) already holds complete.
SweepPlan plan_sweep(const SweepOptions& opt, const SweepFile* resume);

// What `verify` measures: one section size of one series of a kernel.
struct VerifyTarget {
    const Kernel* kernel;
    SeriesSpec series;
    std::uint64_t bytes;  // whole blocks (multi-source: per source)
};
// The plan that measures each target once, in opt's cold state (opt.cold) or else hot: targets of the same
// series and size share one point; points[i] is targets[i]'s index into plan.sections. No thresholds.
SweepPlan plan_verify(const std::vector<VerifyTarget>& targets, const SweepOptions& opt,
                      std::vector<std::size_t>& points);

// Points a finished sweep lacks, to measure into it (the closed loop, apps/sweep_loop.hpp): a series of a
// kernel, a new one too (raid6-avx2.x21, one more count of sources), at some sizes in one cache state.
struct ExtraPoints {
    const Kernel* kernel;
    SeriesSpec series;
    bool cold;
    std::vector<std::uint64_t> bytes;  // whole blocks (multi-source: per source)
    bool count_only = false;  // a series of its own only for a count (KernelInfo::count_only)
    bool again = false;  // measured again where `have` holds them: their new statistics replace the old
};
// The plan of the points of `extra` that `have` lacks (or holds, with `again`), each once. No thresholds.
SweepPlan plan_extra(const std::vector<ExtraPoints>& extra, const SweepFile& have);

// What measuring a plan gave: the pool's samples (sections first, then thresholds) and the core clock
// at the start and the end.
struct SweepMeasurement {
    PoolResult pool;
    double core_per_tsc_start = 0, core_per_tsc_end = 0;
    std::uint64_t cold_bytes = 0;  // the cold buffer (0: no cold point)
    std::optional<std::uint64_t> cold_huge_bytes;  // of it backed by 2 MiB pages (nullopt: /proc/self/smaps unread)
    bool cold_writes_flushed = false;  // what cold sections wrote went to memory after each sample (CLFLUSHOPT)
    std::uint32_t stack_spread_bytes = 0;  // each sample ran with the stack moved down by a random 16-byte step below this
};
// Each sample of a plan runs with the stack moved down by a random multiple of 16 bytes below this, drawn afresh
// for every sample, so that a point's samples meet every placement of the kernel's stack frame within a page
// against its data, and not the one this process happened to get. Cold poly1305-avx at 12 KiB took 1.6 or
// 2.1 cycles per byte from one process to the next with address randomisation on, 2.0-2.1 in every process
// with it off, and from 1.23 to 2.06 as the environment's size alone moved the stack; with the stack moved for
// every sample, six processes gave 1.79-1.92 (2-vCPU Intel Xeon VM, 2026-12-02). Linux moves its kernel stack
// by a random offset at each system call (randomize_kstack_offset, up to 1 KiB); a page covers every task's.
inline constexpr std::uint32_t kStackSpreadBytes = 4096;
// Measures every point of the plan in one interleaved pool, in rounds (see sample_pool). `calm`
// seeds the disturbance monitor (calm.tsc == 0: measured here).
SweepMeasurement measure_plan(const SweepPlan& plan, const SweepOptions& opt, const Calibration& calm,
                              const PoolHooks& hooks);

// Besides the measurements, what the file records.
struct SweepInputs {
    nlohmann::json cpu;  // probe_cpu()
    nlohmann::json doctor;  // the quick doctor's verdict (null: none)
    Calibration calm;  // starting levels of the timer and clock (tsc == 0: none)
    const SweepFile* resume = nullptr;  // a partial file to continue
    std::function<std::string()> stop_reason;  // why a stopped sweep stopped ("SIGHUP"), for its warning
};
// The sweep file: provenance, options, clocks, disturbances and every point's statistics, filled here
// and nowhere else. Points with fewer than 3 samples are left out (a warning names them).
SweepFile summarise_sweep(const SweepOptions& opt, const SweepInputs& in, const SweepPlan& plan,
                          const SweepMeasurement& m);

// The sweep's warning when 2 MiB pages backed less than 90 % of the cold buffer ("" otherwise or unknown).
std::string cold_buffer_warning(const ColdBuffer& c);

// plan -> measure -> summarise. A stop (hooks.stop) gives a file marked partial.
SweepFile measure_sweep(const SweepOptions& opt, const SweepInputs& in, const PoolHooks& hooks);
// measure -> summarise of a plan made elsewhere (plan_extra), into in.resume's file when it is set.
SweepFile measure_into(const SweepPlan& plan, const SweepOptions& opt, const SweepInputs& in, const PoolHooks& hooks);

}  // namespace fputune
