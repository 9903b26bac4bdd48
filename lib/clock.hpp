// SPDX-License-Identifier: MIT
// The TSC as a clock: ordered reads, overhead and granularity, its frequency, and core cycles per tick.
#pragma once

#include <x86intrin.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace fputune {

// lfence before rdtsc: earlier instructions finish before the clock is read.
inline std::uint64_t tsc_begin() noexcept {
    _mm_lfence();
    std::uint64_t t = __rdtsc();
    _mm_lfence();
    return t;
}
// rdtscp waits for earlier instructions; lfence keeps later ones from starting before it.
inline std::uint64_t tsc_end() noexcept {
    unsigned aux;
    std::uint64_t t = __rdtscp(&aux);
    _mm_lfence();
    return t;
}

// The TSC as a timeline. A read behind the last one, or more than `max_gap` ticks past it, is a step of the
// clock, not time that passed: a VM paused, restored from a snapshot or moved to another host (one such restore
// put this guest's TSC 5.6 hours back in the middle of a sweep; the unsigned difference then made its elapsed
// time 8.8e9 s). Returns what to add to every earlier anchor so that the step counts as no time (modulo 2^64,
// like the TSC: an anchor d ticks before `last` ends d ticks before `now`), or 0 where there was no step.
constexpr std::uint64_t tsc_step(std::uint64_t last, std::uint64_t now, std::uint64_t max_gap) noexcept {
    return now >= last && now - last <= max_gap ? 0 : now - last;
}
// Seconds from t0 to t1 on the TSC at hz, never negative (a TSC behind t0 stepped back: no time known to pass).
constexpr double tsc_seconds(std::uint64_t t0, std::uint64_t t1, double hz) noexcept {
    return t1 > t0 ? static_cast<double>(t1 - t0) / hz : 0.0;
}

// Spins until `ticks` have passed on the TSC, or it stepped back (never the hours of a step).
inline void spin_ticks(std::uint64_t ticks) noexcept {
    const std::uint64_t t0 = tsc_begin();
    for (std::uint64_t now = t0; now >= t0 && now - t0 < ticks; now = tsc_begin()) _mm_pause();
}

struct TscInfo {
    double hz = 0;
    std::string source;  // "cpuid 0x15", "hypervisor leaf 0x40000010", "calibrated against CLOCK_MONOTONIC_RAW"
    double calibrated_hz = 0;  // always measured, as a cross-check
    bool invariant = false;  // CPUID 0x80000007 EDX[8]
    double overhead_ticks = 0;  // median of an empty timed section (subtracted from every sample)
    double granularity_ticks = 0;  // smallest non-zero step between two reads
};
// Measured once per process (about 60 ms) and cached. The overhead and granularity here describe the
// start only: on a shared VM both move within seconds (62-832 ticks of overhead were seen), so code that
// corrects samples probes them beside the samples (probe_timer) instead.
const TscInfo& tsc_info();

// The timer as it is right now: the median of 7 empty timed sections (what a timed sample contains on
// top of the work) and the smallest positive step of 8 back-to-back reads (what it can resolve). ~1 us.
struct TimerProbe {
    double overhead_ticks = 0;
    double step_ticks = 0;
};
TimerProbe probe_timer() noexcept;

// Core cycles per TSC tick, from a chain of dependent adds (one core cycle each).
struct CoreRatio {
    double best = 0;  // the estimate: the fastest repeat (noise only adds time)
    double median = 0, min = 0, max = 0;
    int repeats = 0;
    double spread() const noexcept { return best > 0 ? (best - median) / best : 0; }  // best vs typical
};
CoreRatio measure_core_per_tsc(int repeats = 31);
// One quick probe of the same: a chain of 20 000 dependent adds (~6 us here, ~12 000 ticks, so the
// TSC step is ~0.2 %). An interrupt inside it makes it low; take the larger of two neighbours.
double probe_core_per_tsc() noexcept;

// The contention probe: a fixed block of independent work, 8 SSE2 integer-vector chains (add, xor, shuffle)
// and 4 scalar integer chains, 800 iterations (~2 000 core cycles on one thread). It is throughput-bound:
// it fills the vector and integer ALU ports our kernels use, so it slows when the core's other hardware
// thread takes those ports, which the latency-bound ratio probe cannot see (a dependent chain leaves the
// other ports idle). SSE2 is in every x86-64: nothing to check first. The faster of two tries (an interrupt
// only adds time), in TSC ticks; times the core/TSC ratio, core cycles.
double probe_contention_ticks() noexcept;

// The memory probe: one read of kMemoryProbeBytes that are in no cache (SSE2 loads, a line at a time, from
// the next stretch of a 32 MiB buffer backed by 2 MiB pages, as the sweep's cold buffer is, each stretch
// flushed from the caches first), in TSC ticks.
// Where the contention probe sees a sibling take the core's ports, this one sees other tenants take the
// memory's bandwidth: on a 2-vCPU Intel Xeon VM (2026-12-02) the cold sections of every kernel moved by up to
// 10 % between sweeps minutes apart, all at once, while the contention probe held still; over ten minutes a
// cold CRC section's per-second median followed the same kind of read's with a correlation of 0.97. The
// buffer is mapped on the first call, or by prepare_memory_probe: mapping and filling it took 10-230 ms on that
// VM, so whatever times its own course (the sampler's rounds) prepares it before its clock starts.
inline constexpr std::size_t kMemoryProbeBytes = 8192;
double probe_memory_ticks();
void prepare_memory_probe();
// A block of `probes` memory probes, kMemoryBlockGapS apart, with no section between them: what other tenants
// leave of the memory, not what our own sections left behind (probed amid a default sweep's sections, the same
// read took 16-20 % longer than on the other, idle vCPU at the same time, and a `verify`'s mix of sections moved
// it by another 2-6 %; 2-vCPU Intel Xeon VM, 2026-12-02). The sampler takes one as each round begins, the
// doctor one as it ends. Probes that read 0 are left out.
inline constexpr int kMemoryBlockProbes = 128;
inline constexpr double kMemoryBlockGapS = 10e-6;
std::vector<double> probe_memory_block(int probes = kMemoryBlockProbes);

// Spins for about `cycles` core cycles (a dependent add chain): the emulated per-section overhead.
void spin_core_cycles(std::uint64_t cycles) noexcept;

// Pins the calling thread to one CPU; returns false (and leaves affinity alone) if not allowed.
bool pin_to_cpu(int cpu) noexcept;
int last_allowed_cpu() noexcept;
std::vector<int> allowed_cpus();  // the CPUs this thread may run on (taskset, cgroup), ascending

}  // namespace fputune
