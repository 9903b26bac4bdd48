// SPDX-License-Identifier: MIT
// The bulk-throughput measurement behind `fputune bench`.
#include "bench.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include <fmt/format.h>

#include "clock.hpp"
#include "stats.hpp"

namespace fputune {

namespace {

// Sizes a batch of calls so one sample is >= ~20 000 ticks (warming up), then samples batches, the timer's
// overhead probed beside them, until the median is known to ~1 % or the time cap is reached.
template <class Call>
void sample_calls(const Call& call, double time_cap_s, BenchResult& r) {
    const TscInfo& tsc = tsc_info();
    std::uint64_t batch = 1;
    for (;;) {
        std::uint64_t t0 = tsc_begin();
        for (std::uint64_t i = 0; i < batch; ++i) call();
        std::uint64_t t1 = tsc_end();
        if (t1 - t0 >= 20000 || batch >= (1u << 20)) break;
        batch *= 2;
    }
    r.calls_per_sample = batch;
    const std::uint64_t cap_ticks = static_cast<std::uint64_t>(time_cap_s * tsc.hz);
    const std::uint64_t start = tsc_begin();
    std::vector<double> samples;
    TimerProbe timer = probe_timer();  // the timer's overhead moves within seconds: probed beside the samples
    for (std::uint64_t n = 0;; ++n) {
        if (n % 8 == 7) timer = probe_timer();
        std::uint64_t t0 = tsc_begin();
        for (std::uint64_t i = 0; i < batch; ++i) call();
        std::uint64_t t1 = tsc_end();
        const double corrected = static_cast<double>(t1 - t0) - timer.overhead_ticks;
        if (corrected > timer.step_ticks)
            samples.push_back(corrected / static_cast<double>(batch));  // else impossible: taken again
        if (samples.size() >= 15 && samples.size() % 8 == 0) {
            std::vector<double> sorted = samples;
            std::sort(sorted.begin(), sorted.end());
            if (median_rel_ci(sorted) < 0.01 && samples.size() >= 31) break;
        }
        if (t1 - start > cap_ticks && (samples.size() >= 5 || t1 - start > 4 * cap_ticks)) break;
    }
    r.ticks_per_call = summarize(samples);
}

// A 64-byte aligned stretch of `bytes` random bytes inside `storage`.
std::uint8_t* random_buffer(std::vector<std::uint8_t>& storage, std::uint64_t bytes, std::mt19937_64& rng) {
    storage.resize(bytes + 64);
    std::uint8_t* p = storage.data() + (64 - reinterpret_cast<std::uintptr_t>(storage.data()) % 64) % 64;
    for (std::uint64_t i = 0; i < bytes; ++i) p[i] = static_cast<std::uint8_t>(rng());
    return p;
}

// A multi-source kernel (RAID6, xor): stripe() over kStripeSources[0] sources of size_bytes each (whole blocks),
// every buffer 64-byte aligned and resident; bytes = sources x stripe bytes, the data one call reads (as Linux's
// raid6 and xor boot benchmarks and ISA-L count throughput).
BenchResult bench_stripe(const Kernel& k, std::uint64_t size_bytes, double time_cap_s) {
    BenchResult r;
    const std::size_t n = std::clamp<std::size_t>(kStripeSources[0], k.min_sources, k.max_sources);
    const std::uint64_t bytes = std::max<std::uint64_t>(1, size_bytes / k.block_bytes) * k.block_bytes;
    r.bytes = n * bytes;
    r.size_bytes = bytes;
    r.sources = static_cast<std::uint32_t>(n);
    std::mt19937_64 rng(1);
    std::vector<std::vector<std::uint8_t>> storage(n + k.dest_count);
    std::vector<const std::uint8_t*> src;
    std::vector<std::uint8_t*> dst;
    for (std::size_t i = 0; i < storage.size(); ++i) {
        std::uint8_t* p = random_buffer(storage[i], bytes, rng);
        if (i < n)
            src.push_back(p);
        else
            dst.push_back(p);
    }
    sample_calls([&] { k.stripe(n, bytes, src.data(), dst.data()); }, time_cap_s, r);
    return r;
}

}  // namespace

BenchResult bench_kernel(const Kernel& k, std::uint64_t size_bytes, double time_cap_s) {
    if (is_multisource(k)) return bench_stripe(k, size_bytes, time_cap_s);
    BenchResult r;
    const std::uint64_t nblocks = std::max<std::uint64_t>(1, size_bytes / k.block_bytes);
    r.bytes = nblocks * k.block_bytes;
    r.size_bytes = r.bytes;
    std::mt19937_64 rng(1);
    std::vector<std::uint8_t> storage, dst_storage;
    const std::uint8_t* data = random_buffer(storage, r.bytes, rng);
    std::vector<std::uint8_t> key(k.key_bytes);
    for (auto& b : key) b = static_cast<std::uint8_t>(rng());
    alignas(kCtxAlign) static thread_local std::uint8_t ctx[kMaxCtxBytes];
    std::vector<std::uint8_t> out(k.out_bytes);
    // A cipher writes a destination of the section's size (out of place, as dm-crypt and IPsec do).
    std::uint8_t* dst = is_cipher(k) ? random_buffer(dst_storage, r.bytes, rng) : nullptr;
    k.init(ctx, key.empty() ? nullptr : key.data());
    sample_calls([&] { run_section(k, ctx, data, dst, nblocks); }, time_cap_s, r);
    k.final(ctx, nullptr, 0, out.data());  // end the request (frees a peer's context)
    return r;
}

std::string bench_call(const Kernel& k) {
    if (is_multisource(k))
        return fmt::format("stripe() over {} sources into {} (bytes = sources x size)", kStripeSources[0],
                           k.dest_count);
    return is_cipher(k) ? "crypt() into a second buffer" : "blocks()";
}

}  // namespace fputune
