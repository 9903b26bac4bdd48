// SPDX-License-Identifier: MIT
// TSC frequency, overhead, granularity and the core/TSC ratio (uarch-bench's dependent add chain).
#include "clock.hpp"

#include <sched.h>
#include <time.h>

#include <emmintrin.h>

#include <algorithm>
#include <vector>

#include "buffers.hpp"
#include "cpu.hpp"

namespace fputune {

namespace {

double monotonic_raw_s() noexcept {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

double calibrate_hz() {
    std::vector<double> rates;
    for (int i = 0; i < 5; ++i) {
        double s0 = monotonic_raw_s();
        std::uint64_t t0 = tsc_begin();
        double s1;
        do s1 = monotonic_raw_s();
        while (s1 - s0 < 0.010);
        std::uint64_t t1 = tsc_end();
        rates.push_back(static_cast<double>(t1 - t0) / (s1 - s0));
    }
    return median_of(rates);
}

// 100 dependent register-register adds per iteration: each needs the previous result, so one per
// core cycle. Not "add $1": Intel's Golden Cove and later fold add-immediate chains at rename
// (an Emerald Rapids host measured 7.9 "cycles" per tick with them).
#define FPUTUNE_ADD10      \
    "add %[one], %[x]\n\t" \
    "add %[one], %[x]\n\t" \
    "add %[one], %[x]\n\t" \
    "add %[one], %[x]\n\t" \
    "add %[one], %[x]\n\t" \
    "add %[one], %[x]\n\t" \
    "add %[one], %[x]\n\t" \
    "add %[one], %[x]\n\t" \
    "add %[one], %[x]\n\t" \
    "add %[one], %[x]\n\t"
void add_chain(std::uint64_t iterations) noexcept {
    std::uint64_t x = 0, one = 1;
    __asm__ volatile("1:\n\t" FPUTUNE_ADD10 FPUTUNE_ADD10 FPUTUNE_ADD10 FPUTUNE_ADD10 FPUTUNE_ADD10 FPUTUNE_ADD10
                         FPUTUNE_ADD10 FPUTUNE_ADD10 FPUTUNE_ADD10 FPUTUNE_ADD10 "dec %[n]\n\tjnz 1b"
                     : [x] "+r"(x), [n] "+r"(iterations)
                     : [one] "r"(one)
                     : "cc");
}

// 10 dependent register-register adds per iteration: about 10 core cycles.
void add_chain10(std::uint64_t iterations) noexcept {
    std::uint64_t x = 0, one = 1;
    __asm__ volatile("1:\n\t" FPUTUNE_ADD10 "dec %[n]\n\tjnz 1b"
                     : [x] "+r"(x), [n] "+r"(iterations)
                     : [one] "r"(one)
                     : "cc");
}
#undef FPUTUNE_ADD10

// One pass of the contention block: per iteration 8 independent vector operations and 4 independent scalar
// ones, no chain depending on another, so the block runs at the ports' throughput, not at any latency.
std::uint64_t contention_block(std::uint64_t iterations) noexcept {
    __m128i a = _mm_set1_epi32(1), b = _mm_set1_epi32(2), c = _mm_set1_epi32(3), d = _mm_set1_epi32(4);
    __m128i e = _mm_set1_epi32(5), f = _mm_set1_epi32(6), g = _mm_set1_epi32(7), h = _mm_set1_epi32(8);
    const __m128i k = _mm_set1_epi32(0x9e3779b9);
    std::uint64_t w = 1, x = 2, y = 3, z = 4;
    const std::uint64_t seven = 7;
    const std::uint64_t t0 = tsc_begin();
    __asm__ volatile(
        "1:\n\t"
        "paddd %[k], %[a]\n\t"
        "pxor %[k], %[b]\n\t"
        "paddd %[k], %[c]\n\t"
        "pxor %[k], %[d]\n\t"
        "pshufd $0x39, %[e], %[e]\n\t"
        "paddd %[k], %[f]\n\t"
        "pxor %[k], %[g]\n\t"
        "paddd %[k], %[h]\n\t"
        "add %[s], %[w]\n\t"
        "xor %[s], %[x]\n\t"
        "add %[s], %[y]\n\t"
        "xor %[s], %[z]\n\t"
        "dec %[n]\n\t"
        "jnz 1b"
        : [a] "+x"(a), [b] "+x"(b), [c] "+x"(c), [d] "+x"(d), [e] "+x"(e), [f] "+x"(f), [g] "+x"(g), [h] "+x"(h),
          [w] "+r"(w), [x] "+r"(x), [y] "+r"(y), [z] "+r"(z), [n] "+r"(iterations)
        : [k] "x"(k), [s] "r"(seven)
        : "cc");
    const std::uint64_t t1 = tsc_end();
    return t1 > t0 ? t1 - t0 : 0;
}

// The smallest positive difference of `pairs` back-to-back reads (0 when the TSC never moved).
double smallest_step(int pairs) noexcept {
    std::uint64_t step = ~0ull;
    for (int i = 0; i < pairs; ++i) {
        std::uint64_t a = __rdtsc(), b = __rdtsc();
        if (b > a) step = std::min(step, b - a);
    }
    return step == ~0ull ? 0 : static_cast<double>(step);
}

}  // namespace

TimerProbe probe_timer() noexcept {
    double empty[7];
    for (double& e : empty) {
        const std::uint64_t a = tsc_begin();
        const std::uint64_t b = tsc_end();
        e = static_cast<double>(b - a);
    }
    std::sort(std::begin(empty), std::end(empty));
    return {empty[3], smallest_step(8)};
}

const TscInfo& tsc_info() {
    static const TscInfo info = [] {
        TscInfo t;
        t.invariant = cpuid(0x80000000).eax >= 0x80000007 && (cpuid(0x80000007).edx & (1u << 8));
        t.calibrated_hz = calibrate_hz();
        const std::uint32_t max_leaf = cpuid(0).eax;
        if (max_leaf >= 0x15) {
            CpuId l = cpuid(0x15);
            if (l.eax && l.ebx && l.ecx) {
                t.hz = static_cast<double>(l.ecx) * l.ebx / l.eax;
                t.source = "cpuid 0x15 (crystal x ratio)";
            }
        }
        if (!t.hz && (cpuid(1).ecx & (1u << 31)) && cpuid(0x40000000).eax >= 0x40000010) {
            CpuId l = cpuid(0x40000010);  // VMware/KVM timing leaf: EAX = TSC kHz
            if (l.eax) {
                t.hz = l.eax * 1e3;
                t.source = "hypervisor cpuid leaf 0x40000010";
            }
        }
        // A stated frequency more than 1 % away from the measured one is not trusted.
        if (!t.hz || std::abs(t.hz - t.calibrated_hz) > 0.01 * t.calibrated_hz) {
            t.hz = t.calibrated_hz;
            t.source = "calibrated against CLOCK_MONOTONIC_RAW (5 x 10 ms)";
        }
        std::vector<double> empty;
        for (int i = 0; i < 2001; ++i) {
            std::uint64_t a = tsc_begin();
            std::uint64_t b = tsc_end();
            empty.push_back(static_cast<double>(b - a));
        }
        t.overhead_ticks = median_of(empty);
        t.granularity_ticks = smallest_step(20000);
        return t;
    }();
    return info;
}

CoreRatio measure_core_per_tsc(int repeats) {
    const std::uint64_t iterations = 10000;  // 1 M adds: ~0.3 ms per repeat, rarely hit by an interrupt
    add_chain(iterations);  // warm up (and let the core leave any idle state)
    std::vector<double> ratios;
    for (int r = 0; r < repeats; ++r) {
        std::uint64_t t0 = tsc_begin();
        add_chain(iterations);
        std::uint64_t t1 = tsc_end();
        ratios.push_back(static_cast<double>(iterations * 100) / static_cast<double>(t1 - t0));
    }
    CoreRatio c;
    c.repeats = repeats;
    c.min = *std::min_element(ratios.begin(), ratios.end());
    c.max = *std::max_element(ratios.begin(), ratios.end());
    c.median = median_of(ratios);
    // Noise only adds time (uarch-bench): the fastest repeat is the estimate.
    c.best = c.max;
    return c;
}

double probe_core_per_tsc() noexcept {
    constexpr std::uint64_t iterations = 2000;  // x 10 adds
    const std::uint64_t t0 = tsc_begin();
    add_chain10(iterations);
    const std::uint64_t t1 = tsc_end();
    return t1 > t0 ? static_cast<double>(iterations * 10) / static_cast<double>(t1 - t0) : 0;
}

double probe_contention_ticks() noexcept {
    constexpr std::uint64_t iterations = 800;
    const std::uint64_t a = contention_block(iterations), b = contention_block(iterations);
    return static_cast<double>(std::min(a, b));
}

namespace {
const MappedBuffer& memory_probe_buffer() {
    static const MappedBuffer buffer(std::size_t{32} << 20, true);
    return buffer;
}
}  // namespace

void prepare_memory_probe() { memory_probe_buffer(); }

double probe_memory_ticks() {
    // Each stretch is flushed from every cache before it is read: a buffer larger than the L3 would not do on
    // every machine (a VM's L3 may hold hundreds of MiB, and right after the buffer is filled much of it is
    // there), nor would the prefetchers leave the stretch after the last one's alone.
    const MappedBuffer& buffer = memory_probe_buffer();
    static std::size_t offset = 0;
    if (offset + kMemoryProbeBytes > buffer.n) offset = 0;
    const std::uint8_t* p = buffer.p + offset;
    offset += kMemoryProbeBytes;
    for (std::size_t i = 0; i < kMemoryProbeBytes; i += 64) _mm_clflush(p + i);
    _mm_mfence();
    __m128i sum = _mm_setzero_si128();
    const std::uint64_t t0 = tsc_begin();
    for (std::size_t i = 0; i < kMemoryProbeBytes; i += 64) {
        const auto* q = reinterpret_cast<const __m128i*>(p + i);
        sum = _mm_add_epi64(sum, _mm_add_epi64(_mm_add_epi64(_mm_load_si128(q), _mm_load_si128(q + 1)),
                                               _mm_add_epi64(_mm_load_si128(q + 2), _mm_load_si128(q + 3))));
    }
    // The sum must be used before the timer stops, or the loads could be left unfinished (or out).
    __asm__ volatile("" : : "x"(sum));
    const std::uint64_t t1 = tsc_end();
    return t1 > t0 ? static_cast<double>(t1 - t0) : 0;
}

std::vector<double> probe_memory_block(int probes) {
    std::vector<double> out;
    const auto gap = static_cast<std::uint64_t>(kMemoryBlockGapS * tsc_info().hz);
    for (int i = 0; i < probes; ++i) {
        spin_ticks(gap);
        if (const double t = probe_memory_ticks(); t > 0) out.push_back(t);
    }
    return out;
}

void spin_core_cycles(std::uint64_t cycles) noexcept {
    if (cycles >= 10) add_chain10(cycles / 10);
}

bool pin_to_cpu(int cpu) noexcept {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set) == 0;
}

std::vector<int> allowed_cpus() {
    std::vector<int> out;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return out;
    for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &set)) out.push_back(c);
    return out;
}

int last_allowed_cpu() noexcept {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
    for (int c = CPU_SETSIZE - 1; c >= 0; --c)
        if (CPU_ISSET(c, &set)) return c;
    return 0;
}

}  // namespace fputune
