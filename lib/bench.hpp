// SPDX-License-Identifier: MIT
// Throughput of kernels' bulk entries at a size, hot cache, side by side, like `openssl speed`.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernel.hpp"
#include "sweep_file.hpp"

namespace fputune {

struct BenchResult {
    std::uint64_t bytes = 0;  // whole blocks actually hashed per call (multi-source: sources x stripe bytes)
    std::uint64_t size_bytes = 0;  // the size asked for, in whole blocks: per source for a multi-source kernel
    std::uint32_t sources = 0;  // a multi-source kernel's sources per call; 0 for the others
    std::uint64_t calls_per_sample = 0;
    PointStats ticks_per_call;  // per section call (timer overhead subtracted, batch-averaged)
    // Ticks per call in each round of its group (bench_group), 0 where that round's sample was impossible (at or
    // below the timer's step): a ratio to another point of the group is taken round by round (paired_ratio).
    std::vector<double> round_ticks;
    // The contention probe (clock.hpp probe_contention_ticks) as each round began, core cycles (0: not probed),
    // one per round, the same for every point of the group: lib/contention_levels.hpp turns them into levels.
    std::vector<double> round_contention_cycles;
    // The core/TSC ratio as each round began (0: its probe was rejected), the same for every point of the group:
    // the host moves the core clock within seconds (1.73 to 1.66 between two runs 20 s apart on an AMD Zen 5 VM,
    // 2026-12-04), so a run-wide ratio turns a clock move into a change of the code's core cycles.
    std::vector<double> round_core_per_tsc;
};

// The bytes a bench call of k covers for a size asked for (per source for a multi-source kernel): whole blocks,
// at least one. Two sizes that give the same are one point.
std::uint64_t bench_size_bytes(const Kernel& k, std::uint64_t size_bytes);

// One kernel at one size, as `--sizes` gives it (per source for a multi-source kernel).
struct BenchPoint {
    const Kernel* k = nullptr;
    std::uint64_t size_bytes = 0;
};

// Times one section per call (blocks(), a cipher's crypt(), a multi-source kernel's stripe() over
// kStripeSources[0] sources) of each point on hot buffers, side by side: each point's batch of calls is sized
// alone (>= ~20k ticks, to resolve the TSC's steps; warming it up), then one batch of every point in turn, in a
// new random order each round, until every point's median is known to ~1 % (31 samples or more) or the group's
// time (time_cap_s x points) is spent. A phase of the host (another tenant on the core's other thread, which
// slowed SSSE3 SHA-256 up to 2.3x for seconds at a time on an AMD Zen 3 VM, 2026-12-01, while SHA-NI held) then falls on every point
// of the group alike. Results in the order of `points`.
std::vector<BenchResult> bench_group(const std::vector<BenchPoint>& points, double time_cap_s);

// One point alone (bench_group of one).
BenchResult bench_kernel(const Kernel& k, std::uint64_t size_bytes, double time_cap_s);

// a's ticks per byte over b's, two points of one bench_group: the median over the rounds both sampled of the
// ratio within each round, so what the host did in a round cancels; nullopt where they share fewer than 3.
std::optional<double> paired_ratio(const BenchResult& a, const BenchResult& b);

// Core cycles per call: the median over the rounds with a sample and a ratio of that round's ticks x its core/TSC
// ratio; nullopt where fewer than 3 rounds have both.
std::optional<double> core_cycles_per_call(const BenchResult& r);

// What one bench call of a kernel runs, in words, for the table's header: "blocks()" (hashes, MACs, CRCs),
// "crypt() into a second buffer" (ciphers), stripe() over N sources (RAID6, xor).
std::string bench_call(const Kernel& k);

}  // namespace fputune
