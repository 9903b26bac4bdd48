// SPDX-License-Identifier: MIT
// The bulk-throughput measurement behind `fputune bench`.
#include "bench.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "clock.hpp"
#include "stats.hpp"

namespace fputune {

BenchResult bench_kernel(const Kernel& k, std::uint64_t size_bytes, double time_cap_s) {
    BenchResult r;
    const std::uint64_t nblocks = std::max<std::uint64_t>(1, size_bytes / k.block_bytes);
    r.bytes = nblocks * k.block_bytes;
    std::vector<std::uint8_t> storage(r.bytes + 64);
    std::uint8_t* data = storage.data() + (64 - reinterpret_cast<std::uintptr_t>(storage.data()) % 64) % 64;
    std::mt19937_64 rng(1);
    for (std::uint64_t i = 0; i < r.bytes; ++i) data[i] = static_cast<std::uint8_t>(rng());
    std::vector<std::uint8_t> key(k.key_bytes);
    for (auto& b : key) b = static_cast<std::uint8_t>(rng());
    alignas(kCtxAlign) static thread_local std::uint8_t ctx[kMaxCtxBytes];
    std::vector<std::uint8_t> out(k.out_bytes);
    k.init(ctx, key.empty() ? nullptr : key.data());

    const TscInfo& tsc = tsc_info();
    // Warm up and size the batch so one sample is >= ~20 000 ticks.
    std::uint64_t batch = 1;
    for (;;) {
        std::uint64_t t0 = tsc_begin();
        for (std::uint64_t i = 0; i < batch; ++i) k.blocks(ctx, data, nblocks);
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
        for (std::uint64_t i = 0; i < batch; ++i) k.blocks(ctx, data, nblocks);
        std::uint64_t t1 = tsc_end();
        const double corrected = static_cast<double>(t1 - t0) - timer.overhead_ticks;
        if (corrected > timer.step_ticks) samples.push_back(corrected / static_cast<double>(batch));  // else impossible: taken again
        if (samples.size() >= 15 && samples.size() % 8 == 0) {
            std::vector<double> sorted = samples;
            std::sort(sorted.begin(), sorted.end());
            if (median_rel_ci(sorted) < 0.01 && samples.size() >= 31) break;
        }
        if (t1 - start > cap_ticks && (samples.size() >= 5 || t1 - start > 4 * cap_ticks)) break;
    }
    k.final(ctx, nullptr, 0, out.data());  // end the request (frees a peer's context)
    r.ticks_per_call = summarize(samples);
    return r;
}

}  // namespace fputune
