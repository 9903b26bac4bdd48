// SPDX-License-Identifier: MIT
// Sweep engine: the glue loop of DESIGN.md, timed per section with the TSC, sizes interleaved.
#include "sweep.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <set>

#include <fmt/format.h>

#include "clock.hpp"
#include "cpu.hpp"
#include "registry.hpp"
#include "stats.hpp"

namespace fputune {

std::vector<std::uint64_t> default_section_sizes(std::uint32_t block_bytes, std::uint64_t max_bytes, int points_per_doubling) {
    std::set<std::uint64_t> sizes;
    const double step = std::pow(2.0, 1.0 / points_per_doubling);
    for (double x = block_bytes;; x *= step) {
        std::uint64_t n = static_cast<std::uint64_t>(std::llround(x / block_bytes)) * block_bytes;
        sizes.insert(std::max<std::uint64_t>(n, block_bytes));
        if (n >= max_bytes) break;
    }
    for (std::uint64_t upstream : {1024u, 4096u})
        if (upstream >= block_bytes && upstream <= max_bytes) sizes.insert(upstream / block_bytes * block_bytes);
    return {sizes.begin(), sizes.end()};
}

std::vector<std::uint64_t> default_threshold_lengths() {
    std::vector<std::uint64_t> v = {1, 8};
    for (std::uint64_t n = 16; n <= 512; n += 16) v.push_back(n);
    for (std::uint64_t n = 544; n <= 1024; n += 32) v.push_back(n);
    for (std::uint64_t n = 1152; n <= 4096; n += 128) v.push_back(n);
    return v;
}

std::vector<std::string> threshold_algorithms(const std::vector<const Kernel*>& kernels) {
    std::vector<std::string> out;
    for (const Kernel* k : kernels) {
        if (is_peer(*k) || std::find(out.begin(), out.end(), k->algorithm) != out.end()) continue;
        bool scalar = false, simd = false;
        for (const Kernel* o : kernels)
            if (!is_peer(*o) && !o->reference_only && std::strcmp(o->algorithm, k->algorithm) == 0) (o->needs_fpu ? simd : scalar) = true;
        if (scalar && simd) out.emplace_back(k->algorithm);
    }
    return out;
}

namespace {

struct AlignedBuffer {
    std::uint8_t* p = nullptr;
    std::size_t n = 0;
    explicit AlignedBuffer(std::size_t bytes) : n(bytes) {
        p = static_cast<std::uint8_t*>(std::aligned_alloc(4096, (bytes + 4095) & ~std::size_t{4095}));
        if (!p) throw std::bad_alloc();
        std::uint64_t x = 0x9e3779b97f4a7c15ull;  // xorshift64: fast enough for a GiB of filler
        for (std::size_t i = 0; i < bytes; i += 8) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            std::memcpy(p + i, &x, std::min<std::size_t>(8, bytes - i));
        }
    }
    ~AlignedBuffer() { std::free(p); }
    AlignedBuffer(const AlignedBuffer&) = delete;
    AlignedBuffer& operator=(const AlignedBuffer&) = delete;
};

std::size_t cold_buffer_bytes() {
    // 256 MiB: 8x the L3 of one Zen 4/5 CCD, 4x that of large Intel parts. sysconf's L3 is no help on
    // VMs, which report the sum of every L3 on the host (508 MiB here).
    return std::size_t{256} << 20;
}

bool has_threshold_group(const SweepFile& f, const std::string& kernel, const std::string& dirty) {
    return std::any_of(f.thresholds.begin(), f.thresholds.end(), [&](const ThresholdPoint& p) { return p.kernel == kernel && p.dirty == dirty; });
}

// Samples every point round-robin in shuffled order (so drift and the host's noisy phases spread over
// all of them) until each is settled: its median known to target_rel_ci (and, with need90, its p90 to
// target_rel_ci90) or its share of pool_budget_s spent (what settled points left over is shared by
// the rest; at most opt.point_cap_s each). sample(i) returns one sample of point i in ticks.
// Every ~0.25 ms of sampling the core/TSC ratio is probed (probe_core_per_tsc, into `ratios`); each
// sample since the last probe is converted to core cycles with the larger of the two probes around
// it. The core clock here moves by 5-10 % within milliseconds: a ratio measured once per sweep
// leaves that in every p90, a ratio per sample takes it out. Settling is judged on the cycles.
// Returns false when stopped; `settled` then says which points are complete.
template <typename SampleFn>
bool sample_interleaved(std::size_t npoints, const SweepOptions& opt, double pool_budget_s, bool need90,
                        const std::atomic<bool>& stop, SampleFn sample, std::vector<std::vector<double>>& ticks,
                        std::vector<std::vector<double>>& cycles, std::vector<bool>& settled, std::vector<double>& ratios,
                        const std::function<void(std::size_t)>& on_progress = {}) {
    const double hz = tsc_info().hz;
    const auto probe_every = static_cast<std::uint64_t>(0.25e-3 * hz);
    ticks.assign(npoints, {});
    cycles.assign(npoints, {});
    std::vector<double> spent(npoints, 0);
    std::vector<std::size_t> next_check(npoints, std::max(opt.min_samples, need90 ? opt.min_samples90 : 0));
    double spent_settled = 0;  // by settled points: what is left of the pool goes to the others
    settled.assign(npoints, false);
    std::size_t left = npoints;
    std::vector<std::size_t> order(npoints);
    for (std::size_t i = 0; i < npoints; ++i) order[i] = i;
    std::mt19937 rng(3);
    std::uint64_t last_report = tsc_begin();
    double ratio_before = probe_core_per_tsc();
    ratios.push_back(ratio_before);
    std::uint64_t last_probe = tsc_end();
    std::vector<std::pair<std::size_t, double>> pending;  // samples waiting for the probe after them
    auto flush = [&] {
        const double ratio_after = probe_core_per_tsc();
        last_probe = tsc_end();
        ratios.push_back(ratio_after);
        const double r = std::max(ratio_before, ratio_after);
        ratio_before = ratio_after;
        for (const auto& [i, t] : pending) cycles[i].push_back(t * r);
        for (const auto& [i, t] : pending) {
            if (settled[i]) continue;
            const std::size_t n = cycles[i].size();
            const double cap = std::min(opt.point_cap_s, (pool_budget_s - spent_settled) / static_cast<double>(left));
            bool finished = n >= opt.max_samples || (spent[i] > cap && n >= 5);
            if (!finished && n >= next_check[i]) {
                next_check[i] = n + std::max<std::size_t>(4, n / 16);  // sorting is not free: look again after ~6 % more
                std::vector<double> sorted = cycles[i];
                std::sort(sorted.begin(), sorted.end());
                finished = median_rel_ci(sorted) < opt.target_rel_ci &&
                           (!need90 || quantile_rel_ci(sorted, 0.9) < opt.target_rel_ci90);
                // A short section's p99 of uninterrupted samples (what the bounds are fitted on).
                const double p50_s = sorted[n / 2] / ratio_before / hz;
                if (finished && need90 && p50_s <= opt.tail_max_s) {
                    const std::vector<double> clean(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(clean_count(sorted)));
                    finished = n >= opt.min_samples99 && quantile_rel_ci(clean, 0.99) < opt.target_rel_ci99;
                }
            }
            if (finished) {
                settled[i] = true;
                spent_settled += spent[i];
                --left;
            }
        }
        pending.clear();
    };
    while (left) {
        std::shuffle(order.begin(), order.end(), rng);
        for (std::size_t i : order) {
            if (settled[i]) continue;
            if (stop.load(std::memory_order_relaxed)) {
                if (!pending.empty()) flush();
                return false;
            }
            const std::uint64_t t0 = tsc_begin();
            const double t = sample(i);
            const std::uint64_t t1 = tsc_end();
            ticks[i].push_back(t);
            pending.emplace_back(i, t);
            spent[i] += static_cast<double>(t1 - t0) / hz;
            if (t1 - last_probe >= probe_every) flush();
            if (on_progress && static_cast<double>(t1 - last_report) > 0.5 * hz) {
                on_progress(npoints - left);
                last_report = t1;
            }
        }
        if (!pending.empty()) flush();
    }
    return true;
}

bool has_point(const SweepFile& f, const std::string& kernel, const std::string& cache, std::uint64_t bytes) {
    return std::any_of(f.sections.begin(), f.sections.end(), [&](const SectionPoint& p) {
        return p.settled && p.kernel == kernel && p.cache == cache && p.bytes == bytes;
    });
}

}  // namespace

void run_sweep(const SweepOptions& opt, SweepFile& out, const std::function<void(const SweepProgress&)>& progress,
               const std::atomic<bool>& stop) {
    const TscInfo& tsc = tsc_info();
    const double overhead = tsc.overhead_ticks;
    FpuEmulator fpu;
    std::vector<DirtyState> tdirty = opt.threshold_dirty;
    if (tdirty.empty()) tdirty.push_back(opt.dirty);
    // Our kernels this CPU can run (peers are never swept), the ones with sections, and the ones
    // whose algorithm has both a no-FPU and an FPU path among them (thresholds).
    std::vector<const Kernel*> ours, section_kernels, threshold_kernels;
    std::string multisource;  // RAID6/xor: their stripe sections (sources x bytes) are not swept yet (issue 14)
    for (const Kernel* k : opt.kernels)
        if (is_multisource(*k) && !is_peer(*k)) multisource += std::string(multisource.empty() ? "" : ", ") + k->name;
        else if (!is_peer(*k) && !missing_features(*k, usable_features())) ours.push_back(k);
    const std::string not_swept = "not swept: " + multisource + " (multi-source kernels: sources x bytes sections are not measured yet)";
    if (!multisource.empty() && std::find(out.warnings.begin(), out.warnings.end(), not_swept) == out.warnings.end())
        out.warnings.push_back(not_swept);
    const std::vector<std::string> talgs = opt.thresholds ? threshold_algorithms(ours) : std::vector<std::string>{};
    for (const Kernel* k : ours) {
        if (k->needs_fpu) section_kernels.push_back(k);
        if (std::find(talgs.begin(), talgs.end(), k->algorithm) != talgs.end()) threshold_kernels.push_back(k);
        if (std::none_of(out.kernels.begin(), out.kernels.end(), [&](const KernelInfo& i) { return i.name == k->name; }))
            out.kernels.push_back({k->name, k->algorithm, k->isa, k->provider, k->block_bytes, k->needs_fpu});
    }

    std::uint64_t max_bytes = opt.max_section_bytes;
    for (std::uint64_t s : opt.sizes) max_bytes = std::max(max_bytes, s);
    AlignedBuffer hot(max_bytes + 4096);
    std::unique_ptr<AlignedBuffer> cold;
    if (opt.cold && !section_kernels.empty()) cold = std::make_unique<AlignedBuffer>(std::max<std::size_t>(cold_buffer_bytes(), 4 * max_bytes));
    std::size_t cold_offset = 0;
    alignas(kCtxAlign) static thread_local std::uint8_t ctx[kMaxCtxBytes];
    std::uint8_t request_out[256];
    AlignedBuffer section_dst(max_bytes + 4096);  // where a cipher's section writes (kept resident)
    std::mt19937_64 rng(5);

    // Every section point of every kernel and cache state, sampled in one interleaved pool: the host's
    // noisy phases (seconds long on a shared VM) then fall on all kernels alike instead of on whichever
    // kernel was being measured at the time.
    struct Point {
        const Kernel* k;
        std::size_t key;
        bool cold;
        std::uint64_t bytes;
    };
    std::vector<Point> points;
    std::vector<std::vector<std::uint8_t>> keys;
    // Points a stopped sweep cut short are measured again (--resume).
    std::erase_if(out.sections, [](const SectionPoint& p) { return !p.settled; });
    for (const Kernel* k : section_kernels) {
        keys.emplace_back(k->key_bytes);
        for (auto& b : keys.back()) b = static_cast<std::uint8_t>(rng());
        std::vector<std::uint64_t> sizes;
        if (opt.sizes.empty()) sizes = default_section_sizes(k->block_bytes, opt.max_section_bytes, opt.points_per_doubling);
        else
            for (std::uint64_t sz : opt.sizes) sizes.push_back(std::max<std::uint64_t>(1, sz / k->block_bytes) * k->block_bytes);
        std::sort(sizes.begin(), sizes.end());
        sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
        for (bool is_cold : {false, true}) {
            if (is_cold ? !opt.cold : !opt.hot) continue;
            for (std::uint64_t bytes : sizes)
                if (!has_point(out, k->name, is_cold ? "cold" : "hot", bytes)) points.push_back({k, keys.size() - 1, is_cold, bytes});
        }
    }
    // The time budget, shared evenly by every point (sections and threshold lengths).
    std::size_t threshold_groups = 0;
    for (const Kernel* k : threshold_kernels) threshold_groups += k->needs_fpu ? tdirty.size() : 1;
    const std::vector<std::uint64_t> lengths = default_threshold_lengths();
    const std::size_t total_points = points.size() + threshold_groups * lengths.size();
    const double per_point_s = opt.budget_s / static_cast<double>(std::max<std::size_t>(1, total_points));
    SweepProgress prog;
    prog.total = points.size() + threshold_groups;
    prog.what = "sections";
    progress(prog);
    std::vector<std::vector<double>> request(points.size());
    auto sample = [&](std::size_t i) {
        const Point& pt = points[i];
        const Kernel* k = pt.k;
        const std::uint8_t* data = hot.p;
        if (pt.cold) {
            if (cold_offset + pt.bytes > cold->n) cold_offset = 0;
            data = cold->p + cold_offset;
            cold_offset += (pt.bytes + 4095) & ~std::uint64_t{4095};
        }
        const std::vector<std::uint8_t>& key = keys[pt.key];
        // Warm the kernel's code and constant tables (one block, resident data, untimed): the section is
        // one of a request's loop of sections, as when hashing a module, not the first call after
        // other code ran. Without it each sample pays for whatever the previous point evicted, which
        // is a property of the pool's order, not of the kernel (p99 20-40 % over p50 instead of ~1 %).
        k->init(ctx, key.empty() ? nullptr : key.data());
        run_section(*k, ctx, hot.p + hot.n - 4096, section_dst.p, 1);
        k->final(ctx, nullptr, 0, request_out);
        k->init(ctx, key.empty() ? nullptr : key.data());
        fpu.dirty(opt.dirty);
        const std::uint64_t t0 = tsc_begin();
        fpu.save();                                       // kernel_fpu_begin: the user state
        spin_core_cycles(opt.section_overhead_cycles);    // the rest of begin/end
        run_section(*k, ctx, data, section_dst.p, pt.bytes / k->block_bytes);
        const std::uint64_t t1 = tsc_end();
        fpu.restore();                                    // return to user space
        const std::uint64_t t2 = tsc_end();
        k->final(ctx, nullptr, 0, request_out);           // end the request (frees a peer's context)
        request[i].push_back(static_cast<double>(t2 - t0) - 2 * overhead);
        return static_cast<double>(t1 - t0) - overhead;
    };
    std::vector<std::vector<double>> samples, cycles;
    std::vector<bool> settled;
    std::vector<double> ratios;
    auto record_ratios = [&] {
        // The trace of this run (a resumed file keeps its first reference: its cycles are cycles either way).
        if (ratios.empty()) return;
        std::vector<double> r = ratios;
        std::sort(r.begin(), r.end());
        RatioTrace& t = out.ratio_trace;
        auto q = [&](double f) { return r[static_cast<std::size_t>(f * static_cast<double>(r.size() - 1))]; };
        if (!t.probes) t = {0, r.front(), q(0.1), q(0.5), q(0.9), r.back()};
        t.probes += r.size();
        t.min = std::min(t.min, r.front());
        t.max = std::max(t.max, r.back());
    };
    const std::uint64_t t_sections = tsc_begin();
    const bool complete = sample_interleaved(points.size(), opt, per_point_s * static_cast<double>(points.size()), true, stop, sample, samples,
                                             cycles, settled, ratios, [&](std::size_t n) {
        prog.done = n;
        prog.what = fmt::format("sections: {} of {} points settled", n, points.size());
        progress(prog);
    });
    // Points in table order. On a stop nothing measured is dropped: a point cut short is kept with
    // what it has (>= 3 samples), marked unsettled, and --resume measures it again.
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (!settled[i] && cycles[i].size() < 3) continue;
        std::sort(request[i].begin(), request[i].end());
        out.sections.push_back({points[i].k->name, points[i].cold ? "cold" : "hot", points[i].bytes, summarize(samples[i]),
                                request[i][request[i].size() / 2], static_cast<bool>(settled[i]), summarize(cycles[i])});
    }
    if (!complete) {
        record_ratios();
        out.partial = true;
        return;
    }
    prog.done = points.size();

    // Thresholds: one-shot cost by length; FPU kernels pay dirty + save + restore per request.
    // Batches of 8 requests resolve below the TSC step; the dirty() between them is timed alone
    // and subtracted (it stands for what user space did, not for the kernel's cost).
    constexpr int kBatch = 8;
    std::vector<std::uint8_t> outbuf(*std::max_element(lengths.begin(), lengths.end()) + 256);  // a cipher writes len + tag
    for (const Kernel* k : threshold_kernels) {
        std::vector<std::uint8_t> key(k->key_bytes);
        for (auto& b : key) b = static_cast<std::uint8_t>(rng());
        const std::vector<DirtyState> states = k->needs_fpu ? tdirty : std::vector<DirtyState>{DirtyState::none};
        for (DirtyState d : states) {
            const std::string dname = dirty_name(d);
            if (has_threshold_group(out, k->name, dname)) {
                ++prog.done;
                continue;
            }
            prog.what = std::string(k->name) + " threshold " + dname;
            progress(prog);
            // dirty "none" on an FPU kernel: the user state was already saved earlier in the same
            // syscall (or there is none, a kernel thread), so kernel_fpu_begin() saves nothing.
            const bool pays_save = k->needs_fpu && d != DirtyState::none;
            auto sample = [&](std::size_t i) {
                const std::uint64_t len = lengths[i];
                const std::uint64_t t0 = tsc_begin();
                for (int b = 0; b < kBatch; ++b) {
                    if (pays_save) {
                        fpu.dirty(d);
                        fpu.save();
                    }
                    kernel_digest(*k, key.empty() ? nullptr : key.data(), hot.p, len, outbuf.data());
                    if (pays_save) fpu.restore();
                }
                const std::uint64_t t1 = tsc_end();
                if (!pays_save) return (static_cast<double>(t1 - t0) - overhead) / kBatch;
                for (int b = 0; b < kBatch; ++b) fpu.dirty(d);
                const std::uint64_t t2 = tsc_end();
                return (static_cast<double>(t1 - t0) - static_cast<double>(t2 - t1)) / kBatch;
            };
            std::vector<std::vector<double>> samples, cycles;
            std::vector<bool> settled;
            const double elapsed = static_cast<double>(tsc_begin() - t_sections) / tsc.hz;
            const double pool = std::max(per_point_s * static_cast<double>(lengths.size()),
                                         (opt.budget_s - elapsed) / static_cast<double>(std::max<std::size_t>(1, prog.total - prog.done)));
            if (!sample_interleaved(lengths.size(), opt, pool, false, stop, sample, samples, cycles, settled, ratios)) {
                record_ratios();
                out.partial = true;
                return;
            }
            for (std::size_t i = 0; i < lengths.size(); ++i)
                out.thresholds.push_back({k->name, dname, lengths[i], summarize(samples[i]), summarize(cycles[i])});
            ++prog.done;
        }
    }
    record_ratios();
    prog.what = "done";
    progress(prog);
}

}  // namespace fputune
