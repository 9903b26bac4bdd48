// SPDX-License-Identifier: MIT
// The TSC as a clock: ordered reads, overhead and granularity, its frequency, and core cycles per tick.
#pragma once

#include <x86intrin.h>

#include <cstdint>
#include <string>

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

// Spins for about `cycles` core cycles (a dependent add chain): the emulated per-section overhead.
void spin_core_cycles(std::uint64_t cycles) noexcept;

// Pins the calling thread to one CPU; returns false (and leaves affinity alone) if not allowed.
bool pin_to_cpu(int cpu) noexcept;
int last_allowed_cpu() noexcept;

}  // namespace fputune
