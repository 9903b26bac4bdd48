// SPDX-License-Identifier: MIT
// The co-runner's loads and the thread that runs them on the sibling.
#include "sibling.hpp"

#include <emmintrin.h>
#include <time.h>

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "clock.hpp"
#include "cpu.hpp"
#include "doctor.hpp"
#include "registry.hpp"

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

// The `same` load's sections: about this many bytes of data per source.
constexpr std::size_t kSameBytes = 4096;
// The most sources a `same` section of a multi-source kernel may take (it takes its fewest, at least 2 where it
// takes 2), and the most destinations; a kernel that needs more is left out.
constexpr std::size_t kSameSources = 32, kSameDests = 4;

// Bytes per source of one `same` section of `k`: whole blocks, about kSameBytes.
std::size_t same_bytes(const Kernel& k) noexcept {
    const std::size_t block = std::max<std::size_t>(k.block_bytes, 1);
    return std::max<std::size_t>(1, kSameBytes / block) * block;
}

std::size_t same_sources(const Kernel& k) noexcept {
    return std::max<std::size_t>(k.min_sources, std::min<std::size_t>(2, k.max_sources ? k.max_sources : 2));
}

// One pass over 64 KiB of the stream (it walks the whole buffer over successive calls).
// 8 KiB copied from one half of the buffer to the other, the next 8 KiB each time: a read and a write stream
// through memory, as a neighbour's bulk work (or a kernel's cold section) makes them.
std::uint64_t mem_load(std::vector<std::uint64_t>& v, std::size_t& at) noexcept {
    const std::size_t n = 1024, half = v.size() / 2;  // words
    if (at + n > half) at = 0;
    std::memcpy(v.data() + half + at, v.data() + at, n * sizeof(std::uint64_t));
    const std::uint64_t sum = v[half + at];
    at += n;
    return sum;
}

}  // namespace

const char* sibling_load_name(SiblingLoad l) noexcept {
    switch (l) {
        case SiblingLoad::int_alu: return "int";
        case SiblingLoad::vec_alu: return "vec";
        case SiblingLoad::mem: return "mem";
        case SiblingLoad::same: return "same";
    }
    return "?";
}

std::optional<SiblingLoad> parse_sibling_option(std::string_view text) noexcept {
    if (text == "busy" || text == "busy:vec") return SiblingLoad::vec_alu;
    if (text == "busy:int") return SiblingLoad::int_alu;
    if (text == "busy:mem") return SiblingLoad::mem;
    if (text == "busy:same") return SiblingLoad::same;
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

std::optional<int> neighbour_to_load(const std::string& root, int cpu, const std::vector<int>& allowed,
                                     std::string& why) {
    const std::vector<int> siblings = smt_siblings(root, cpu);
    for (auto it = allowed.rbegin(); it != allowed.rend(); ++it)
        if (*it != cpu && std::find(siblings.begin(), siblings.end(), *it) == siblings.end()) return *it;
    why = siblings.empty()
              ? fmt::format("CPU {} is the only CPU this process may run on (taskset, cgroup, or a machine of one CPU)",
                            cpu)
              : fmt::format("every CPU this process may run on is CPU {} or its SMT sibling (taskset, cgroup, or a "
                            "machine of one core)",
                            cpu);
    return std::nullopt;
}

SiblingRunner::SiblingRunner(int cpu, SiblingLoad load, const std::vector<const Kernel*>& kernels)
    : cpu_(cpu), load_(load) {
    // 512 MiB: beyond the L3 of any part we know (a 2-vCPU Intel Xeon VM's 64 MiB read stream moved cold
    // sections by 1-3 %, where a copy over 512 MiB on the other vCPU moved a fast cold kernel by 5-23 %).
    if (load_ == SiblingLoad::mem) stream_.assign((std::size_t{512} << 20) / sizeof(std::uint64_t), 1);
    if (load_ == SiblingLoad::same) {
        std::size_t area = 0, key = 0;
        for (const Kernel* k : kernels) {
            // Ours that this CPU runs, as a sweep's plan takes them: never an instruction the CPU lacks, and no
            // peer (never swept; its contexts hold allocations a section's init does not free).
            if (!k || !k->needs_fpu || k->reference_only || is_peer(*k) || missing_features(*k, usable_features()))
                continue;
            if (is_multisource(*k) && (same_sources(*k) > kSameSources || k->dest_count > kSameDests)) continue;
            kernels_.push_back(k);
            const std::size_t streams = is_multisource(*k) ? same_sources(*k) + k->dest_count : 2;
            area = std::max(area, streams * same_bytes(*k));
            key = std::max<std::size_t>(key, k->key_bytes);
        }
        runs_ = std::make_unique<std::atomic<std::uint64_t>[]>(kernels_.size());
        key_.resize(key);
        for (std::size_t i = 0; i < key_.size(); ++i) key_[i] = static_cast<std::uint8_t>(i * 37 + 11);
        buffer_.assign(area + 4096, 0x5a);
        const auto at = reinterpret_cast<std::uintptr_t>(buffer_.data());
        area_ = buffer_.data() + ((4096 - at % 4096) % 4096);  // page-aligned: every kernel's alignment
    }
    thread_ = std::thread([this] { loop(); });
}

std::function<void(std::size_t, std::size_t)> same_kernel_hook(SiblingRunner& runner, SweepPlan plan) {
    if (runner.load() != SiblingLoad::same) return {};
    return [&runner, plan = std::move(plan)](std::size_t i, std::size_t points) {
        const std::size_t n = plan.sections.size();
        if (points != n + plan.thresholds.size() || i >= points)
            runner.set_kernel(nullptr);
        else
            runner.set_kernel(i < n ? plan.sections[i].kernel : plan.thresholds[i - n].kernel);
    };
}

std::uint64_t SiblingRunner::runs_of(const Kernel* k) const noexcept {
    for (std::size_t i = 0; i < kernels_.size(); ++i)
        if (kernels_[i] == k) return runs_[i].load(std::memory_order_relaxed);
    return 0;
}

// One section of the named kernel, or of the next one in turn; the vector load when there is none.
std::uint64_t SiblingRunner::same_load(std::size_t& next) noexcept {
    if (kernels_.empty()) return vec_load(next++);
    const Kernel* named = current_.load(std::memory_order_relaxed);
    std::size_t i = kernels_.size();
    for (std::size_t j = 0; named && j < kernels_.size(); ++j)
        if (kernels_[j] == named) i = j;
    if (i == kernels_.size()) i = next++ % kernels_.size();
    const Kernel& k = *kernels_[i];
    const std::size_t bytes = same_bytes(k);
    if (is_multisource(k)) {
        const std::size_t n = same_sources(k);
        std::uint8_t* src[kSameSources];
        std::uint8_t* dst[kSameDests];
        for (std::size_t s = 0; s < n; ++s) src[s] = area_ + s * bytes;
        for (std::size_t d = 0; d < k.dest_count; ++d) dst[d] = area_ + (n + d) * bytes;
        k.stripe(n, bytes, src, dst);
    } else {
        k.init(ctx_, key_.empty() ? nullptr : key_.data());
        run_section(k, ctx_, area_, area_ + bytes, bytes / std::max<std::uint32_t>(k.block_bytes, 1));
    }
    runs_[i].fetch_add(1, std::memory_order_relaxed);
    return area_[bytes] ^ ctx_[0];
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
            case SiblingLoad::same: sink += same_load(at); break;
        }
        work_.fetch_add(1, std::memory_order_relaxed);
    }
    sink_.store(sink, std::memory_order_relaxed);  // the loads' results are used: nothing is optimised away
}

}  // namespace fputune
