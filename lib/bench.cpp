// SPDX-License-Identifier: MIT
// The bulk-throughput measurement behind `fputune bench`: points side by side, one batch of each in turn.
#include "bench.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <memory>
#include <numeric>
#include <random>
#include <vector>

#include <fmt/format.h>

#include "clock.hpp"
#include "sampler.hpp"
#include "stats.hpp"

namespace fputune {

namespace {

// A page-aligned stretch of `bytes` random bytes inside `storage`: where a buffer begins within its page is then
// the same in every run, as it is for the kernel's pages. 64-byte aligned, it was where malloc put it, and ISA-L's
// SSE xor at 4 x 2048 B took 0.035 TSC cycles/byte in some processes and 0.082 in others of one build (AMD Zen 5
// VM, 2026-12-04); page-aligned, 0.104-0.113 in six.
std::uint8_t* random_buffer(std::vector<std::uint8_t>& storage, std::uint64_t bytes, std::mt19937_64& rng) {
    storage.resize(bytes + 4096);
    std::uint8_t* p = storage.data() + (4096 - reinterpret_cast<std::uintptr_t>(storage.data()) % 4096) % 4096;
    for (std::uint64_t i = 0; i < bytes; ++i) p[i] = static_cast<std::uint8_t>(rng());
    return p;
}

// One point ready to be called: its buffers, its context, and its batch.
class Prepared {
public:
    Prepared(const Kernel& k, std::uint64_t size_bytes) : k_(k) {
        std::mt19937_64 rng(1);
        if (is_multisource(k)) {
            // stripe() over kStripeSources[0] sources of size_bytes each (whole blocks), every buffer
            // page-aligned, as Linux passes pages and the sweep lays them out, and resident; bytes = sources x
            // stripe bytes, the data one call reads (as Linux's raid6 and xor boot benchmarks and ISA-L count
            // throughput).
            sources_ = std::clamp<std::size_t>(kStripeSources[0], k.min_sources, k.max_sources);
            stripe_ = bench_size_bytes(k, size_bytes);
            result.bytes = sources_ * stripe_;
            result.size_bytes = stripe_;
            result.sources = static_cast<std::uint32_t>(sources_);
            storage_.resize(sources_ + k.dest_count);
            for (std::size_t i = 0; i < storage_.size(); ++i) {
                std::uint8_t* p = random_buffer(storage_[i], stripe_, rng);
                if (i < sources_)
                    src_.push_back(p);
                else
                    dst_.push_back(p);
            }
            return;
        }
        nblocks_ = bench_size_bytes(k, size_bytes) / k.block_bytes;
        result.bytes = nblocks_ * k.block_bytes;
        result.size_bytes = result.bytes;
        storage_.resize(2);
        data_ = random_buffer(storage_[0], result.bytes, rng);
        std::vector<std::uint8_t> key(k.key_bytes);
        for (auto& b : key) b = static_cast<std::uint8_t>(rng());
        // A cipher writes a destination of the section's size (out of place, as dm-crypt and IPsec do).
        out_ = is_cipher(k) ? random_buffer(storage_[1], result.bytes, rng) : nullptr;
        ctx_storage_.resize(kMaxCtxBytes + kCtxAlign);
        ctx_ = ctx_storage_.data() +
               (kCtxAlign - reinterpret_cast<std::uintptr_t>(ctx_storage_.data()) % kCtxAlign) % kCtxAlign;
        k.init(ctx_, key.empty() ? nullptr : key.data());
        started_ = true;
    }
    Prepared(const Prepared&) = delete;
    Prepared& operator=(const Prepared&) = delete;
    ~Prepared() {
        if (!started_) return;
        std::vector<std::uint8_t> digest(k_.out_bytes);
        k_.final(ctx_, nullptr, 0, digest.data());  // end the request (frees a peer's context)
    }

    void call() const noexcept {
        if (sources_)
            k_.stripe(sources_, stripe_, src_.data(), dst_.data());
        else
            run_section(k_, ctx_, data_, out_, nblocks_);
    }
    // TSC ticks of one batch, raw.
    std::uint64_t time_batch() const noexcept {
        const std::uint64_t t0 = tsc_begin();
        for (std::uint64_t i = 0; i < result.calls_per_sample; ++i) call();
        return tsc_end() - t0;
    }
    // Doubles the batch until one takes >= ~20 000 ticks (warming the point up).
    void size_batch() noexcept {
        result.calls_per_sample = 1;
        while (time_batch() < 20000 && result.calls_per_sample < (1u << 20)) result.calls_per_sample *= 2;
    }

    BenchResult result;
    std::vector<double> samples;  // possible ones, per call

private:
    const Kernel& k_;
    std::vector<std::vector<std::uint8_t>> storage_;
    std::vector<std::uint8_t> ctx_storage_;
    void* ctx_ = nullptr;
    bool started_ = false;
    const std::uint8_t* data_ = nullptr;
    std::uint8_t* out_ = nullptr;
    std::uint64_t nblocks_ = 0;
    std::size_t sources_ = 0;
    std::uint64_t stripe_ = 0;
    std::vector<const std::uint8_t*> src_;
    std::vector<std::uint8_t*> dst_;
};

bool settled(std::vector<double> samples) {
    if (samples.size() < 31) return false;
    std::sort(samples.begin(), samples.end());
    return median_rel_ci(samples) < 0.01;
}

}  // namespace

std::uint64_t bench_size_bytes(const Kernel& k, std::uint64_t size_bytes) {
    return std::max<std::uint64_t>(1, size_bytes / k.block_bytes) * k.block_bytes;
}

std::vector<BenchResult> bench_group(const std::vector<BenchPoint>& points, double time_cap_s) {
    std::vector<std::unique_ptr<Prepared>> ps;
    for (const BenchPoint& p : points) ps.push_back(std::make_unique<Prepared>(*p.k, p.size_bytes));
    for (auto& p : ps) p->size_batch();
    const std::size_t n = ps.size();
    const std::uint64_t cap_ticks = static_cast<std::uint64_t>(time_cap_s * static_cast<double>(n) * tsc_info().hz);
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::mt19937_64 shuffle_rng(2);
    const std::uint64_t start = tsc_begin();
    // Each turn begins with a calibration: the timer's overhead (it moves within seconds) and the contention
    // probe, whose level says what else ran on the core while the turn's batches did.
    // A ratio probe below the floor was interrupted; the floor from the larger of two probes (an interrupt only
    // lowers one), so the first turn's ratio is held to it too.
    const Calibration probe0 = calibrate_now(0);
    const double ratio_floor = 0.8 * std::max(probe0.core_per_tsc, probe_core_per_tsc());
    const Calibration first = probe0.core_per_tsc > ratio_floor ? probe0 : calibrate_now(ratio_floor);
    std::vector<double> contention, ratios;
    for (std::size_t round = 0; n > 0; ++round) {
        const Calibration cal = round == 0 ? first : calibrate_now(ratio_floor);
        const TimerProbe timer{cal.overhead_ticks, cal.step_ticks};
        contention.push_back(cal.contention_cycles);
        ratios.push_back(cal.core_per_tsc);
        std::shuffle(order.begin(), order.end(), shuffle_rng);
        for (std::size_t i : order) {
            Prepared& p = *ps[i];
            const double batch = static_cast<double>(p.result.calls_per_sample);
            // One call untimed first: the points before it in the turn evicted its buffers, and a bench is of
            // hot buffers, as it was when each point was timed alone.
            p.call();
            const double corrected = static_cast<double>(p.time_batch()) - timer.overhead_ticks;
            // At or below the timer's step: impossible, a round without this point's sample.
            const double per_call = corrected > timer.step_ticks ? corrected / batch : 0;
            if (per_call > 0) p.samples.push_back(per_call);
            p.result.round_ticks.push_back(per_call);
        }
        std::size_t fewest = SIZE_MAX;
        for (const auto& p : ps) fewest = std::min(fewest, p->samples.size());
        if (fewest >= 31 && round % 8 == 7 &&
            std::all_of(ps.begin(), ps.end(), [](const auto& p) { return settled(p->samples); }))
            break;
        const std::uint64_t spent = tsc_end() - start;
        if (spent > cap_ticks && (fewest >= 5 || spent > 4 * cap_ticks)) break;
    }
    std::vector<BenchResult> out;
    for (auto& p : ps) {
        p->result.ticks_per_call = summarize(p->samples);
        p->result.round_contention_cycles = contention;
        p->result.round_core_per_tsc = ratios;
        out.push_back(p->result);
    }
    return out;
}

BenchResult bench_kernel(const Kernel& k, std::uint64_t size_bytes, double time_cap_s) {
    return bench_group({{&k, size_bytes}}, time_cap_s).at(0);
}

namespace {
// The median (stats.hpp) of at least 3 values, else none.
std::optional<double> median_of(std::vector<double> v) {
    if (v.size() < 3) return std::nullopt;
    return median(std::move(v));
}
}  // namespace

std::optional<double> core_cycles_per_call(const BenchResult& r) {
    std::vector<double> cycles;
    for (std::size_t i = 0; i < std::min(r.round_ticks.size(), r.round_core_per_tsc.size()); ++i)
        if (r.round_ticks[i] > 0 && r.round_core_per_tsc[i] > 0)
            cycles.push_back(r.round_ticks[i] * r.round_core_per_tsc[i]);
    return median_of(std::move(cycles));
}

std::optional<double> paired_ratio(const BenchResult& a, const BenchResult& b) {
    if (!(a.bytes > 0 && b.bytes > 0)) return std::nullopt;
    std::vector<double> ratios;
    for (std::size_t r = 0; r < std::min(a.round_ticks.size(), b.round_ticks.size()); ++r)
        if (a.round_ticks[r] > 0 && b.round_ticks[r] > 0)
            ratios.push_back(a.round_ticks[r] / static_cast<double>(a.bytes) /
                             (b.round_ticks[r] / static_cast<double>(b.bytes)));
    return median_of(std::move(ratios));
}

std::string bench_call(const Kernel& k) {
    if (is_multisource(k))
        return fmt::format("stripe() over {} sources into {} (bytes = sources x size)", kStripeSources[0],
                           k.dest_count);
    return is_cipher(k) ? "crypt() into a second buffer" : "blocks()";
}

}  // namespace fputune
