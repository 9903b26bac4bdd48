// SPDX-License-Identifier: MIT
// Throughput of one kernel's bulk entry at one size, hot cache, like `openssl speed`.
#pragma once
#include <cstdint>
#include <string>

#include "kernel.hpp"
#include "sweep_file.hpp"

namespace fputune {

struct BenchResult {
    std::uint64_t bytes = 0;  // whole blocks actually hashed per call (multi-source: sources x stripe bytes)
    std::uint64_t size_bytes = 0;  // the size asked for, in whole blocks: per source for a multi-source kernel
    std::uint32_t sources = 0;  // a multi-source kernel's sources per call; 0 for the others
    std::uint64_t calls_per_sample = 0;
    PointStats ticks_per_call;  // per section call (timer overhead subtracted, batch-averaged)
};

// Times one section (blocks(), a cipher's crypt(), a multi-source kernel's stripe() over kStripeSources[0]
// sources) on hot buffers: init once, then batches of calls long enough (>= ~20k ticks) to resolve the TSC's
// steps; samples until the median is known to ~1 % or the time cap is reached.
BenchResult bench_kernel(const Kernel& k, std::uint64_t size_bytes, double time_cap_s);

// What one bench call of a kernel runs, in words, for the table's header: "blocks()" (hashes, MACs, CRCs),
// "crypt() into a second buffer" (ciphers), stripe() over N sources (RAID6, xor).
std::string bench_call(const Kernel& k);

}  // namespace fputune
