// SPDX-License-Identifier: MIT
// The co-runner's loads and the thread that runs them on the sibling.
#include "sibling.hpp"

#include <emmintrin.h>
#include <time.h>

#include <fmt/format.h>

#include "clock.hpp"
#include "doctor.hpp"

namespace fputune {

namespace {

// ~2 us of 4 independent scalar chains.
std::uint64_t int_load(std::uint64_t seed) noexcept {
    std::uint64_t a = seed, b = seed + 1, c = seed + 2, d = seed + 3, n = 2000;
    const std::uint64_t k = 0x9e3779b97f4a7c15ull;
    __asm__ volatile(
        "1:\n\tadd %[k], %[a]\n\txor %[k], %[b]\n\tadd %[k], %[c]\n\txor %[k], %[d]\n\t"
        "add %[k], %[a]\n\txor %[k], %[b]\n\tadd %[k], %[c]\n\txor %[k], %[d]\n\tdec %[n]\n\tjnz 1b"
        : [a] "+r"(a), [b] "+r"(b), [c] "+r"(c), [d] "+r"(d), [n] "+r"(n)
        : [k] "r"(k)
        : "cc");
    return a ^ b ^ c ^ d;
}

// ~2 us of 8 independent SSE2 integer-vector chains.
std::uint64_t vec_load(std::uint64_t seed) noexcept {
    __m128i a = _mm_set1_epi64x(static_cast<long long>(seed)), b = a, c = a, d = a, e = a, f = a, g = a, h = a;
    const __m128i k = _mm_set1_epi32(0x7f4a7c15);
    std::uint64_t n = 2000;
    __asm__ volatile(
        "1:\n\tpaddd %[k], %[a]\n\tpxor %[k], %[b]\n\tpaddd %[k], %[c]\n\tpxor %[k], %[d]\n\t"
        "pshufd $0x39, %[e], %[e]\n\tpaddd %[k], %[f]\n\tpxor %[k], %[g]\n\tpaddd %[k], %[h]\n\tdec %[n]\n\tjnz 1b"
        : [a] "+x"(a), [b] "+x"(b), [c] "+x"(c), [d] "+x"(d), [e] "+x"(e), [f] "+x"(f), [g] "+x"(g), [h] "+x"(h),
          [n] "+r"(n)
        : [k] "x"(k)
        : "cc");
    a = _mm_xor_si128(_mm_xor_si128(a, b), _mm_xor_si128(c, d));
    a = _mm_xor_si128(a, _mm_xor_si128(_mm_xor_si128(e, f), _mm_xor_si128(g, h)));
    return static_cast<std::uint64_t>(_mm_cvtsi128_si64(a));
}

// One pass over 64 KiB of the stream (it walks the whole buffer over successive calls).
std::uint64_t mem_load(const std::vector<std::uint64_t>& v, std::size_t& at) noexcept {
    std::uint64_t sum = 0;
    const std::size_t n = 8192;
    for (std::size_t i = 0; i < n; i += 8) sum += v[(at + i) % v.size()];
    at = (at + n) % v.size();
    return sum;
}

}  // namespace

const char* sibling_load_name(SiblingLoad l) noexcept {
    switch (l) {
        case SiblingLoad::int_alu: return "int";
        case SiblingLoad::vec_alu: return "vec";
        case SiblingLoad::mem: return "mem";
    }
    return "?";
}

std::optional<SiblingLoad> parse_sibling_option(std::string_view text) noexcept {
    if (text == "busy" || text == "busy:vec") return SiblingLoad::vec_alu;
    if (text == "busy:int") return SiblingLoad::int_alu;
    if (text == "busy:mem") return SiblingLoad::mem;
    return std::nullopt;
}

std::optional<int> sibling_to_load(const std::string& root, int cpu, std::string& why) {
    const std::vector<int> s = smt_siblings(root, cpu);
    if (!s.empty()) return s.front();
    why = fmt::format(
        "CPU {} has no SMT sibling (its topology/thread_siblings_list names only itself, or is "
        "missing: SMT is off, or a VM does not expose it)",
        cpu);
    return std::nullopt;
}

SiblingRunner::SiblingRunner(int cpu, SiblingLoad load) : cpu_(cpu), load_(load) {
    if (load_ == SiblingLoad::mem) stream_.assign((64u << 20) / sizeof(std::uint64_t), 1);
    thread_ = std::thread([this] { loop(); });
}

SiblingRunner::~SiblingRunner() {
    quit_.store(true);
    if (thread_.joinable()) thread_.join();
}

void SiblingRunner::loop() {
    pinned_.store(pin_to_cpu(cpu_));
    std::uint64_t sink = 0;
    std::size_t at = 0;
    while (!quit_.load(std::memory_order_relaxed)) {
        if (!busy_.load(std::memory_order_relaxed)) {
            timespec ts{0, 200000};  // idle: look again in 0.2 ms
            nanosleep(&ts, nullptr);
            continue;
        }
        switch (load_) {
            case SiblingLoad::int_alu: sink += int_load(sink); break;
            case SiblingLoad::vec_alu: sink += vec_load(sink); break;
            case SiblingLoad::mem: sink += mem_load(stream_, at); break;
        }
        work_.fetch_add(1, std::memory_order_relaxed);
    }
    sink_.store(sink, std::memory_order_relaxed);  // the loads' results are used: nothing is optimised away
}

}  // namespace fputune
