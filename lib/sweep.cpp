// SPDX-License-Identifier: MIT
// Sweep engine: the kernel's glue loop (docs/design.md), timed per section with the TSC, every point in one pool.
#include "sweep.hpp"

#include <alloca.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <tuple>

#include <emmintrin.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "buffers.hpp"
#include "clock.hpp"
#include "contention_levels.hpp"
#include "cpu.hpp"
#include "probe.hpp"
#include "registry.hpp"
#include "stats.hpp"

namespace fputune {

void SweepOptions::apply_quick(bool max_bytes_given) {
    quick = true;
    if (!max_bytes_given) max_section_bytes = 256u << 10;
    points_per_doubling = 2;
    budget_s = 25;
    sampling.rounds = 2;
    sampling.point_cap_s = 0.1;
    sampling.min_samples = 9;
    sampling.target_rel_ci = 0.02;
    sampling.target_rel_ci_long = 0.04;
    sampling.min_samples90 = 40;
    sampling.target_rel_ci90 = 0.03;
    sampling.min_samples99 = 100;
    sampling.target_rel_ci99 = 0.10;
}

nlohmann::json SweepOptions::to_json() const {
    std::vector<std::string> tdirty;
    for (DirtyState d : threshold_dirty) tdirty.push_back(dirty_name(d));
    const SamplingRules& r = sampling;
    nlohmann::json j = {{"kernels", kernel_patterns},
                        {"dirty", dirty_name(dirty)},
                        {"section_overhead_cycles", section_overhead_cycles},
                        {"cache", hot && cold ? "both"
                                  : hot       ? "hot"
                                              : "cold"},
                        {"quick", quick},
                        {"max_section_bytes", max_section_bytes},
                        {"points_per_doubling", points_per_doubling},
                        {"thresholds", thresholds},
                        {"cpu", cpu},
                        {"threshold_dirty", tdirty},
                        {"time_budget_s", budget_s},
                        {"rounds", r.rounds},
                        {"point_cap_s", r.point_cap_s},
                        {"target_rel_ci", r.target_rel_ci},
                        {"target_rel_ci_long", r.target_rel_ci_long},
                        {"target_rel_ci90", r.target_rel_ci90},
                        {"min_samples", r.min_samples},
                        {"min_samples90", r.min_samples90},
                        {"tail_max_s", r.tail_max_s},
                        {"min_samples99", r.min_samples99},
                        {"target_rel_ci99", r.target_rel_ci99},
                        {"max_wait_s", r.max_wait_s},
                        {"wait_share", r.wait_share},
                        {"masked_features", feature_list_string(disabled_features() & detected_features())}};
    if (!sizes.empty()) j["sizes"] = sizes;
    if (zmm_idle_s > 0) j["zmm_idle_s"] = zmm_idle_s;
    j["closed_loop"] = closed_loop ? nlohmann::json{{"budget_s", loop_budget_s},
                                                    {"min_freq_hz", loop_min_freq_hz},
                                                    {"share", loop_share}}
                                   : nlohmann::json(false);
    return j;
}

std::vector<std::uint64_t> default_section_sizes(std::uint32_t block_bytes, std::uint64_t max_bytes,
                                                 int points_per_doubling, std::uint64_t dense_max_bytes) {
    std::set<std::uint64_t> sizes;
    const double step = std::pow(2.0, 1.0 / points_per_doubling);
    const double sparse_step = std::pow(2.0, 1.0 / std::max(1, points_per_doubling / 2));
    for (double x = block_bytes;; x *= x < static_cast<double>(dense_max_bytes) ? step : sparse_step) {
        // The last one is max_bytes itself (in whole blocks), not the next step past it.
        std::uint64_t n = std::min(static_cast<std::uint64_t>(std::llround(x / block_bytes)) * block_bytes,
                                   (max_bytes + block_bytes - 1) / block_bytes * block_bytes);
        sizes.insert(std::max<std::uint64_t>(n, block_bytes));
        if (n >= max_bytes) break;
    }
    for (std::uint64_t upstream : {1024u, 4096u})
        if (upstream >= block_bytes && upstream <= max_bytes) sizes.insert(upstream / block_bytes * block_bytes);
    return {sizes.begin(), sizes.end()};
}

std::vector<const Kernel*> select_kernels_or_kinds(const std::vector<std::string>& patterns) {
    auto is_kind = [](const std::string& p) {
        return p == "all" ||
               std::any_of(std::begin(kKernelKinds), std::end(kKernelKinds), [&](const char* k) { return p == k; });
    };
    std::vector<std::string> globs;
    std::vector<std::string> kinds;
    for (const std::string& p : patterns) (is_kind(p) ? kinds : globs).push_back(p);
    if (kinds.empty()) return select_kernels(globs);
    std::vector<const Kernel*> globbed = globs.empty() ? std::vector<const Kernel*>{} : select_kernels(globs);
    for (const std::string& kind : kinds)
        if (kind != "all" && std::none_of(all_kernels().begin(), all_kernels().end(),
                                          [&](const Kernel* k) { return kind == kernel_kind(*k); }))
            throw std::invalid_argument("kernel kind '" + kind + "' selects no kernel in this build");
    std::vector<const Kernel*> out;
    for (const Kernel* k : all_kernels()) {
        const bool by_kind = std::any_of(kinds.begin(), kinds.end(), [&](const std::string& kind) {
            return kind == "all" || kind == kernel_kind(*k);
        });
        if (by_kind || std::find(globbed.begin(), globbed.end(), k) != globbed.end()) out.push_back(k);
    }
    return out;
}

std::vector<SeriesSpec> section_series(const Kernel& k, const SweepOptions& opt) {
    std::vector<SeriesSpec> out;
    if (!k.needs_fpu) return out;
    if (is_multisource(k)) {
        // One series per number of sources (kernel.hpp kStripeSources), within what the kernel takes.
        for (std::uint32_t n : kStripeSources) {
            const std::uint32_t sources = std::clamp(n, std::max(1u, k.min_sources), k.max_sources ? k.max_sources : n);
            if (std::none_of(out.begin(), out.end(), [&](const SeriesSpec& s) { return s.sources == sources; }))
                out.push_back({SectionShape::stripe, sources});
        }
    } else {
        out.push_back({primary_shape(k)});
    }
    if (has_aad_shape(k)) out.push_back({SectionShape::aad});
    // Intel powers the upper vector units down after ~0.7 ms without 512-bit code; the first 512-bit code
    // after that runs ~4x slower for ~2 us (published-2024-2026.csv). Kernels that may run 512-bit code
    // (they need AVX-512F) get that state too; those that only use the VL forms on ymm show no change.
    if (opt.zmm_idle_s > 0 && (k.required & feature_bit(Feature::avx512f))) {
        const std::size_t warm = out.size();
        for (std::size_t i = 0; i < warm; ++i) {
            SeriesSpec s = out[i];
            s.idle_s = opt.zmm_idle_s;
            out.push_back(s);
        }
    }
    return out;
}

std::string series_name(const Kernel& k, const SeriesSpec& s) {
    std::string name = k.name;
    if (s.shape == SectionShape::aad) name += ".aad";
    if (s.sources) name += fmt::format(".x{}", s.sources);
    if (s.idle_s > 0) name += ".idle";
    return name;
}

std::string section_summary(const Kernel& k) {
    if (!k.needs_fpu) return k.reference_only ? "(reference)" : "no FPU";
    if (is_multisource(k)) return "N x bytes";
    if (primary_shape(k) == SectionShape::message) return "whole message";
    if (!is_cipher(k)) return "blocks";
    return has_aad_shape(k) ? "walk step + aad" : "walk step";
}

KernelInfo series_info(const Kernel& k, const SeriesSpec& s) {
    KernelInfo info{series_name(k, s), k.algorithm, k.isa, k.provider, k.block_bytes, k.needs_fpu};
    if (s.shape == SectionShape::aad) info.algorithm += ".aad";
    if (s.sources) info.algorithm += fmt::format(".x{}", s.sources);
    if (info.name != k.name) info.of = k.name;
    if (s.shape != SectionShape::bulk) info.shape = shape_name(s.shape);
    info.sources = s.sources;
    if (s.sources) {
        info.dest_count = k.dest_count;
        info.max_sources = k.max_sources;
    }
    info.idle_s = s.idle_s;
    return info;
}

std::vector<std::uint64_t> series_sizes(const Kernel& k, const SeriesSpec& s, const SweepOptions& opt) {
    const std::uint64_t block = k.block_bytes;
    std::vector<std::uint64_t> sizes;
    if (!opt.sizes.empty()) {
        for (std::uint64_t sz : opt.sizes) sizes.push_back(std::max<std::uint64_t>(1, sz / block) * block);
    } else {
        // A multi-source section holds N x bytes: the same data at most as a single-stream one.
        std::uint64_t max_bytes = opt.max_section_bytes / std::max<std::uint32_t>(1, s.sources);
        if (s.idle_s > 0) max_bytes = std::min(max_bytes, kIdleMaxBytes);
        max_bytes = std::max(max_bytes, block);
        // Dense (points_per_doubling) only where a bulk series' limits lie; see kDenseMaxBytes. The series of
        // more than kStripeDenseSources sources half as dense again (see there).
        const int per_doubling =
            s.sources > kStripeDenseSources ? std::max(1, opt.points_per_doubling / 2) : opt.points_per_doubling;
        sizes = default_section_sizes(k.block_bytes, max_bytes, per_doubling,
                                      s.shape == SectionShape::bulk && !s.sources ? kDenseMaxBytes : 0);
        if (s.shape == SectionShape::message) {
            // dm-crypt and fscrypt never encrypt a message shorter than a 512-byte sector (kept even when
            // --max-bytes is below it: it is the shortest message there is).
            const std::uint64_t min_message = (kXtsMinMessageBytes + block - 1) / block * block;
            std::erase_if(sizes, [&](std::uint64_t n) { return n < min_message; });
            sizes.push_back(min_message);
        }
    }
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    return sizes;
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
            if (!is_peer(*o) && !o->reference_only && std::strcmp(o->algorithm, k->algorithm) == 0)
                (o->needs_fpu ? simd : scalar) = true;
        if (scalar && simd) out.emplace_back(k->algorithm);
    }
    return out;
}

namespace {

// Spins on the TSC for `seconds` with integer instructions only: the vector units stay idle.
void idle_vector_units(double seconds) noexcept {
    spin_ticks(static_cast<std::uint64_t>(seconds * tsc_info().hz));  // clock.hpp: integer only, ends on a step back
}

// A buffer's bytes rounded up to whole pages: where the next one starts.
std::uint64_t page_stretch(std::uint64_t bytes) { return (bytes + 4095) & ~std::uint64_t{4095}; }

// Whether the CPU has CLFLUSHOPT (CPUID leaf 7, EBX bit 23).
bool has_clflushopt() {
    static const bool has = cpuid(0).eax >= 7 && (cpuid(7, 0).ebx & (1u << 23)) != 0;
    return has;
}

// What a cold section wrote into the cold buffer goes to memory before the next sample, untimed. Left dirty in
// the caches, it was written back during whichever cold sections came next, and each paid for it by how many of
// the samples around it wrote: their mix, not its code (`verify` measures only cold sections, a third of them
// ciphers'; a sweep's are half hot). On the 2-vCPU Intel Xeon VM (2026-12-02) cold nh-sse2 at 19 KiB took
// 7-10 % longer among a header's cipher constants than among its hashes, and as long once this was done.
// CLFLUSHOPT only: its write-backs overlap (90 us per MiB there), where CLFLUSH waits for each line (3.1 ms per
// MiB), which would take a sweep's time from its samples; without it nothing is flushed, and the file says so.
void write_back(const std::uint8_t* p, std::uint64_t bytes) {
    if (!has_clflushopt()) return;
    for (std::uint64_t i = 0; i < bytes; i += 64)
        __asm__ volatile("clflushopt %0" : "+m"(*const_cast<volatile std::uint8_t*>(p + i)));
    _mm_sfence();
}

std::size_t cold_buffer_bytes() {
    // 256 MiB: 8x the L3 of one Zen 4/5 CCD, 4x that of large Intel parts. sysconf's L3 is no help on
    // VMs, which report the sum of every L3 on the host (508 MiB here).
    return std::size_t{256} << 20;
}

bool has_threshold_group(const SweepFile& f, const std::string& kernel, const std::string& dirty) {
    return std::any_of(f.thresholds.begin(), f.thresholds.end(),
                       [&](const ThresholdPoint& p) { return p.kernel == kernel && p.dirty == dirty; });
}

bool has_point(const SweepFile& f, const std::string& kernel, const std::string& cache, std::uint64_t bytes) {
    return std::any_of(f.sections.begin(), f.sections.end(), [&](const SectionPoint& p) {
        return p.settled && p.kernel == kernel && p.cache == cache && p.bytes == bytes;
    });
}

// The emulated glue loop: buffers, keys and the user state, and one timed sample of a point.
class GlueLoop {
public:
    GlueLoop(const SweepPlan& plan, const SweepOptions& opt) : opt_(opt) {
        std::uint64_t max_bytes = 4096, max_src = 4096, max_dst = 4096;
        bool any_cold = false;
        for (const SectionTarget& t : plan.sections) {
            max_bytes = std::max(max_bytes, t.bytes);
            // A multi-source section: `sources` stretches of the bytes, and dest_count more to write.
            max_src = std::max(max_src, std::max(1u, t.series.sources) * page_stretch(t.bytes));
            max_dst =
                std::max(max_dst, std::max(1u, t.series.sources ? t.kernel->dest_count : 1u) * page_stretch(t.bytes));
            any_cold |= t.cold;
        }
        for (const ThresholdTarget& t : plan.thresholds) max_bytes = std::max(max_bytes, t.bytes);
        max_src = std::max(max_src, max_bytes);
        max_dst = std::max(max_dst, max_bytes);
        out_.resize(max_bytes + 256);  // a digest, or a cipher's one-shot output: the message and its tag
        hot_ = std::make_unique<MappedBuffer>(max_src + 4096, false);
        dst_ = std::make_unique<MappedBuffer>(max_dst + 4096, false);  // where a cipher's section writes (kept resident)
        if (any_cold) {
            // 2 MiB pages, as the kernel's direct map has: with 4 KiB pages a cold section would also pay a
            // page walk (two-dimensional under a hypervisor) every 4 KiB, which no kernel request pays
            // (measured: ~10 % of a fast kernel's cold p50 at 32 KiB).
            cold_ = std::make_unique<MappedBuffer>(
                std::max<std::size_t>(cold_buffer_bytes(), 4 * std::max(max_src, max_dst)), true);
            cold_huge_bytes_ = anon_huge_bytes(cold_->p, cold_->n);
        }
        std::mt19937_64 rng(5);
        for (const Kernel* k : plan.kernels) {
            std::vector<std::uint8_t>& key = keys_[k];
            key.resize(k->key_bytes);
            for (auto& b : key) b = static_cast<std::uint8_t>(rng());
        }
    }

    // One section: the XSAVEC of the dirty user state, the per-section overhead, then what the series' shape
    // runs (kernel.hpp): run_section() on the bytes (a hash's blocks(), a cipher's crypt() into a
    // destination: a walk step, or XTS's whole message with its tweak encryption, the first section after
    // init), or a cipher's associated data through blocks(); then the XRSTOR of the return to user space.
    // Cold: the source streams from the cold buffer and a cipher writes the next stretch of it (out of
    // place, as dm-crypt and IPsec write another page); hot: both resident.
    RawSample section(const SectionTarget& pt) {
        const Kernel* k = pt.kernel;
        if (is_multisource(*k)) return stripe_section(pt);
        const bool aad = pt.series.shape == SectionShape::aad;
        const std::uint64_t stretch = (pt.bytes + 4095) & ~std::uint64_t{4095};
        const std::uint8_t* data = hot_->p;
        std::uint8_t* dst = dst_->p;
        if (pt.cold) {
            const std::uint64_t need = is_cipher(*k) && !aad ? 2 * stretch : stretch;
            if (cold_offset_ + need > cold_->n) cold_offset_ = 0;
            data = cold_->p + cold_offset_;
            if (need > stretch) dst = cold_->p + cold_offset_ + stretch;
            cold_offset_ += need;
        }
        const std::uint8_t* key = key_of(k);
        auto run = [&](const std::uint8_t* src, std::uint8_t* out, std::size_t nblocks) {
            if (aad)
                k->blocks(ctx_, src, nblocks);
            else
                run_section(*k, ctx_, src, out, nblocks);
        };
        // Warm the kernel's code and constant tables (resident data, untimed): the section is one of a
        // request's loop of sections, as when hashing a module, not the first call after other code ran.
        // Without it each sample pays for whatever the previous point evicted, which is a property of the
        // pool's order, not of the kernel (p99 20-40 % over p50 instead of ~1 %). The warm-up runs the
        // section's own length (to 8 KiB; beyond, 4 KiB plus the length's remainder mod 4 KiB), so it takes
        // the code paths the section takes: a batch kernel's tail is other code than its first block. Warmed
        // with one block, cold chacha20-avx2 at 448 B took 13 000 TSC cycles instead of 1600 for whole rounds
        // of sweeps that had the RAID kernels in them (AMD EPYC Zen 5 VM, 2026-12-03): ~850 per vector the
        // tail stored: its code and stack frame were not in the caches.
        k->init(ctx_, key);
        const std::uint64_t warm = pt.bytes <= 8192 ? pt.bytes : 4096 + pt.bytes % 4096;
        const std::uint64_t warm_blocks = std::max<std::uint64_t>(1, warm / k->block_bytes);
        run(hot_->p + hot_->n - warm_blocks * k->block_bytes, dst_->p, warm_blocks);
        k->final(ctx_, nullptr, 0, out_.data());
        k->init(ctx_, key);
        // The ZMM warm-up state: the vector units idle for idle_s (integer code only, no call into a library
        // that might use them) before the user state is dirtied and the section runs.
        if (pt.series.idle_s > 0) idle_vector_units(pt.series.idle_s);
        fpu_.dirty(opt_.dirty);
        const std::uint64_t t0 = tsc_begin();
        fpu_.save();  // kernel_fpu_begin: the user state
        spin_core_cycles(opt_.section_overhead_cycles);  // the rest of begin/end
        run(data, dst, pt.bytes / k->block_bytes);
        const std::uint64_t t1 = tsc_end();
        fpu_.restore();  // return to user space
        const std::uint64_t t2 = tsc_end();
        k->final(ctx_, nullptr, 0, out_.data());  // end the request (frees a peer's context)
        if (pt.cold && dst != dst_->p) write_back(dst, pt.bytes);
        return {static_cast<double>(t1 - t0), 1, 1, static_cast<double>(t2 - t0)};
    }

    // One-shot cost of a length: a batch of 8 requests (they resolve below the TSC step). FPU kernels
    // pay dirty + save + restore per request; the dirty() calls are timed alone and subtracted (they
    // stand for what user space did, not for the kernel's cost).
    RawSample threshold(const ThresholdTarget& pt) {
        constexpr int kBatch = 8;
        const Kernel* k = pt.kernel;
        const std::uint8_t* key = key_of(k);
        // dirty "none" on an FPU kernel: the user state was already saved earlier in the same syscall
        // (or there is none, a kernel thread), so kernel_fpu_begin() saves nothing.
        const bool pays_save = k->needs_fpu && pt.dirty != DirtyState::none;
        kernel_digest(*k, key, hot_->p, pt.bytes, out_.data());  // warm code, as for sections (untimed)
        const std::uint64_t t0 = tsc_begin();
        for (int b = 0; b < kBatch; ++b) {
            if (pays_save) {
                fpu_.dirty(pt.dirty);
                fpu_.save();
            }
            kernel_digest(*k, key, hot_->p, pt.bytes, out_.data());
            if (pays_save) fpu_.restore();
        }
        const std::uint64_t t1 = tsc_end();
        if (!pays_save) return {static_cast<double>(t1 - t0), 1, kBatch};
        for (int b = 0; b < kBatch; ++b) fpu_.dirty(pt.dirty);
        const std::uint64_t t2 = tsc_end();
        // Both intervals hold one timer overhead: they cancel.
        return {static_cast<double>(t1 - t0) - static_cast<double>(t2 - t1), 0, kBatch};
    }

    // The cold buffer's size (0: no cold point) and how much of it 2 MiB pages back (nullopt: unknown).
    std::uint64_t cold_bytes() const { return cold_ ? cold_->n : 0; }
    std::optional<std::uint64_t> cold_huge_bytes() const { return cold_huge_bytes_; }

private:
    // A multi-source section (RAID6 gen_syndrome, xor_gen): stripe() over N sources of `bytes` each into
    // dest_count destinations, as Linux runs one call in one section (no init, no final: nothing streams).
    // Hot: distinct resident stretches of hot_ (sources) and dst_ (destinations); cold: N + dest_count
    // consecutive stretches of the cold buffer, every buffer page-aligned (Linux passes pages).
    RawSample stripe_section(const SectionTarget& pt) {
        const Kernel* k = pt.kernel;
        const std::uint32_t n = std::max(1u, pt.series.sources);
        const std::uint64_t stretch = page_stretch(pt.bytes);
        src_.assign(n, nullptr);
        dsts_.assign(k->dest_count, nullptr);
        auto place = [&](std::uint8_t* src_base, std::uint8_t* dst_base) {
            for (std::uint32_t i = 0; i < n; ++i) src_[i] = src_base + i * stretch;
            for (std::uint32_t i = 0; i < k->dest_count; ++i) dsts_[i] = dst_base + i * stretch;
        };
        // Warm the code (one block per source, untimed) on the resident buffers, as a single-stream section
        // does: on a cold point's own stretches it would bring the first block of every source into the cache
        // (and start the prefetchers on each): xor-sse.x32 cold at one block (512 B) took what it took hot.
        place(hot_->p, dst_->p);  // max_src / max_dst hold every point's layout
        k->stripe(n, k->block_bytes, src_.data(), dsts_.data());
        if (pt.cold) {
            const std::uint64_t need = (n + k->dest_count) * stretch;
            if (cold_offset_ + need > cold_->n) cold_offset_ = 0;
            place(cold_->p + cold_offset_, cold_->p + cold_offset_ + n * stretch);
            cold_offset_ += need;
        }
        if (pt.series.idle_s > 0) idle_vector_units(pt.series.idle_s);
        fpu_.dirty(opt_.dirty);
        const std::uint64_t t0 = tsc_begin();
        fpu_.save();
        spin_core_cycles(opt_.section_overhead_cycles);
        k->stripe(n, pt.bytes, src_.data(), dsts_.data());
        const std::uint64_t t1 = tsc_end();
        fpu_.restore();
        const std::uint64_t t2 = tsc_end();
        if (pt.cold)
            for (std::uint8_t* d : dsts_) write_back(d, pt.bytes);
        return {static_cast<double>(t1 - t0), 1, 1, static_cast<double>(t2 - t0)};
    }

    const std::uint8_t* key_of(const Kernel* k) const {
        const auto& key = keys_.at(k);
        return key.empty() ? nullptr : key.data();
    }
    const SweepOptions& opt_;
    std::unique_ptr<MappedBuffer> hot_, cold_, dst_;
    std::optional<std::uint64_t> cold_huge_bytes_;
    std::size_t cold_offset_ = 0;
    std::map<const Kernel*, std::vector<std::uint8_t>> keys_;
    FpuEmulator fpu_;
    alignas(kCtxAlign) std::uint8_t ctx_[kMaxCtxBytes];
    std::vector<std::uint8_t> out_;
    std::vector<const std::uint8_t*> src_;  // a multi-source section's buffers
    std::vector<std::uint8_t*> dsts_;
};

}  // namespace

namespace {

// A kernel in the file's list, once.
void list_kernel(SweepPlan& plan, KernelInfo info) {
    if (std::none_of(plan.listed.begin(), plan.listed.end(), [&](const KernelInfo& i) { return i.name == info.name; }))
        plan.listed.push_back(std::move(info));
}

}  // namespace

SweepPlan plan_sweep(const SweepOptions& opt, const SweepFile* resume) {
    SweepPlan plan;
    std::vector<DirtyState> tdirty = opt.threshold_dirty;
    if (tdirty.empty()) tdirty.push_back(opt.dirty);
    // Our kernels this CPU can run (peers are never swept), the ones with sections, and the ones
    // whose algorithm has both a no-FPU and an FPU path among them (thresholds).
    for (const Kernel* k : opt.kernels)
        if (!is_peer(*k) && !missing_features(*k, usable_features())) plan.kernels.push_back(k);
    const std::vector<std::string> talgs =
        opt.thresholds ? threshold_algorithms(plan.kernels) : std::vector<std::string>{};
    const std::vector<std::uint64_t> lengths = default_threshold_lengths();
    for (const Kernel* k : plan.kernels) {
        const std::vector<SeriesSpec> all_series = section_series(*k, opt);
        if (all_series.empty()) list_kernel(plan, {k->name, k->algorithm, k->isa, k->provider, k->block_bytes, k->needs_fpu});
        for (const SeriesSpec& series : all_series) {
            list_kernel(plan, series_info(*k, series));
            const std::vector<std::uint64_t> sizes = series_sizes(*k, series, opt);
            const std::string name = series_name(*k, series);
            for (bool cold : {false, true}) {
                if (cold ? !opt.cold : !opt.hot) continue;
                for (std::uint64_t bytes : sizes)
                    if (!resume || !has_point(*resume, name, cold ? "cold" : "hot", bytes))
                        plan.sections.push_back({k, cold, bytes, series, name});
            }
        }
        // A multi-source kernel has no one-shot path to compare (sha256-shani-2x's is the one-stream kernel's).
        if (is_multisource(*k) || std::find(talgs.begin(), talgs.end(), k->algorithm) == talgs.end()) continue;
        for (DirtyState d : k->needs_fpu ? tdirty : std::vector<DirtyState>{DirtyState::none}) {
            if (resume && has_threshold_group(*resume, k->name, dirty_name(d))) continue;
            for (std::uint64_t len : lengths) plan.thresholds.push_back({k, d, len});
        }
    }
    return plan;
}

SweepPlan plan_verify(const std::vector<VerifyTarget>& targets, const SweepOptions& opt,
                      std::vector<std::size_t>& points) {
    SweepPlan plan;
    std::map<std::pair<std::string, std::uint64_t>, std::size_t> index;  // (series, bytes) -> point
    points.clear();
    for (const VerifyTarget& t : targets) {
        const std::string name = series_name(*t.kernel, t.series);
        auto [it, fresh] = index.emplace(std::make_pair(name, t.bytes), plan.sections.size());
        if (fresh) {
            plan.sections.push_back({t.kernel, opt.cold, t.bytes, t.series, name});
            if (std::find(plan.kernels.begin(), plan.kernels.end(), t.kernel) == plan.kernels.end())
                plan.kernels.push_back(t.kernel);
            list_kernel(plan, series_info(*t.kernel, t.series));
        }
        points.push_back(it->second);
    }
    return plan;
}

SweepPlan plan_extra(const std::vector<ExtraPoints>& extra, const SweepFile& have) {
    SweepPlan plan;
    std::set<std::tuple<std::string, bool, std::uint64_t>> planned;
    for (const ExtraPoints& e : extra) {
        const std::string name = series_name(*e.kernel, e.series);
        for (std::uint64_t bytes : e.bytes) {
            if ((!e.again && has_point(have, name, e.cold ? "cold" : "hot", bytes)) ||
                !planned.emplace(name, e.cold, bytes).second)
                continue;
            plan.sections.push_back({e.kernel, e.cold, bytes, e.series, name});
            if (std::find(plan.kernels.begin(), plan.kernels.end(), e.kernel) == plan.kernels.end())
                plan.kernels.push_back(e.kernel);
            KernelInfo info = series_info(*e.kernel, e.series);
            info.count_only = e.count_only;
            list_kernel(plan, std::move(info));
        }
    }
    return plan;
}

namespace {

// Runs f with the stack `bytes` lower than it would be (kStackSpreadBytes): every frame f calls lies below.
template <class F>
[[gnu::noinline]] RawSample at_stack_offset(std::size_t bytes, const F& f) {
    void* moved = alloca(bytes);
    __asm__ volatile("" : : "r"(moved) : "memory");  // the area is kept, and the calls below it
    return f();
}

}  // namespace

SweepMeasurement measure_plan(const SweepPlan& plan, const SweepOptions& opt, const Calibration& calm,
                              const PoolHooks& hooks) {
    SweepMeasurement m;
    GlueLoop loop(plan, opt);
    // Every section point of every kernel and cache state and every threshold length, in one pool:
    // the host's phases (seconds to minutes on a shared VM) then fall on all of them alike, and the
    // rounds spread each point's samples over the whole sweep.
    std::vector<PointSpec> specs;
    for (std::size_t i = 0; i < plan.sections.size(); ++i) specs.push_back({true});
    for (std::size_t i = 0; i < plan.thresholds.size(); ++i) specs.push_back({false});
    const std::size_t nsections = plan.sections.size();
    std::mt19937 stack_rng(13);
    auto sample = [&](std::size_t i) {
        const std::size_t moved = 16 * (stack_rng() % (kStackSpreadBytes / 16));
        return at_stack_offset(moved, [&] {
            return i < nsections ? loop.section(plan.sections[i]) : loop.threshold(plan.thresholds[i - nsections]);
        });
    };
    m.core_per_tsc_start = measure_core_per_tsc().best;
    Calibration start = calm;
    if (!start.tsc) start = calm_level(64);
    if (!(start.core_per_tsc > 0)) start.core_per_tsc = m.core_per_tsc_start;
    m.cold_bytes = loop.cold_bytes();
    m.cold_huge_bytes = loop.cold_huge_bytes();
    m.cold_writes_flushed = has_clflushopt();
    m.stack_spread_bytes = kStackSpreadBytes;
    m.pool = sample_pool(specs, sample, opt.sampling, opt.budget_s, start, hooks);
    m.core_per_tsc_end = measure_core_per_tsc().best;
    return m;
}

namespace {

RoundStats round_stats(std::vector<double> cycles) {
    const PointStats s = summarize(std::move(cycles));
    return {s.samples, s.p10, s.p50, s.p90, s.p99_clean, s.interrupted};
}

RatioTrace ratio_trace_of(const ClockTrace& c) {
    std::vector<double> r = c.core_per_tsc;
    if (r.empty()) return {};
    std::sort(r.begin(), r.end());
    auto q = [&](double f) { return r[static_cast<std::size_t>(f * static_cast<double>(r.size() - 1))]; };
    return {r.size(), r.front(), q(0.1), q(0.5), q(0.9), r.back(), c.probes_rejected};
}

TimerTrace timer_trace_of(const ClockTrace& c) {
    std::vector<double> o = c.overhead_ticks, s = c.step_ticks;
    if (o.empty()) return {};
    std::sort(o.begin(), o.end());
    std::sort(s.begin(), s.end());
    auto q = [](const std::vector<double>& v, double f) {
        return v[static_cast<std::size_t>(f * static_cast<double>(v.size() - 1))];
    };
    return {o.size(), o.front(), q(o, 0.5), q(o, 0.99), o.back(), s.front(), q(s, 0.5), s.back()};
}

// A resumed file keeps its first reference ratio and adds this run's probes to its trace.
void merge_trace(RatioTrace& into, const RatioTrace& add) {
    if (!add.probes) return;
    if (!into.probes) {
        into = add;
        return;
    }
    into.probes += add.probes;
    into.rejected += add.rejected;
    into.min = std::min(into.min, add.min);
    into.max = std::max(into.max, add.max);
}

}  // namespace

std::string cold_buffer_warning(const ColdBuffer& c) {
    if (!c.bytes || c.huge_page_bytes < 0) return {};
    const double share = static_cast<double>(c.huge_page_bytes) / static_cast<double>(c.bytes);
    if (share >= 0.9) return {};
    return fmt::format(
        "only {:.0f} % of the cold buffer got 2 MiB pages (transparent huge pages off, or memory too fragmented): "
        "cold sections paid a page walk every 4 KiB, which the kernel's direct map does not, so their limits are "
        "low; as root, `echo madvise > /sys/kernel/mm/transparent_hugepage/enabled` (and `echo 1 > "
        "/proc/sys/vm/compact_memory`), then sweep again",
        100 * share);
}

namespace {

// The file a sweep starts from: the resumed one (its points cut short dropped, its kernel patterns merged
// with this run's), or a new one with this machine's probe and the options.
SweepFile start_file(const SweepOptions& opt, const SweepInputs& in, const SweepMeasurement& m) {
    SweepFile f;
    if (in.resume) {
        f = *in.resume;
        // Points a stopped sweep cut short are in the plan again.
        std::erase_if(f.sections, [](const SectionPoint& p) { return !p.settled; });
        f.partial = false;
        // The merged file says what it holds: no stale "interrupted" warning, and every kernel pattern swept into it.
        std::erase_if(f.warnings, [](const std::string& w) { return w.rfind("interrupted", 0) == 0; });
        nlohmann::json kernels = nlohmann::json::array();
        for (const nlohmann::json& list :
             {f.options.value("kernels", nlohmann::json::array()), nlohmann::json(opt.kernel_patterns)}) {
            if (list.empty()) kernels.push_back("*");
            for (const auto& k : list)
                if (std::find(kernels.begin(), kernels.end(), k) == kernels.end()) kernels.push_back(k);
        }
        if (kernels == nlohmann::json::array({"*"})) kernels = nlohmann::json::array();
        f.options["kernels"] = kernels;
    } else {
        f.cpu = in.cpu;
        f.options = opt.to_json();
        f.dirty = dirty_name(opt.dirty);
        f.tsc_hz = tsc_info().hz;
        f.core_per_tsc = m.core_per_tsc_start;
        f.doctor = in.doctor;
    }
    f.tool_version = tool_version();
    f.tool_commit = tool_commit();
    f.date = utc_now_iso8601();
    f.section_overhead_ticks = static_cast<double>(opt.section_overhead_cycles) / f.core_per_tsc;
    return f;
}

// Points in plan order. Nothing measured is dropped on a stop: a point cut short is kept with what it has
// (>= 3 samples), marked unsettled, and --resume measures it again. Returns the points left out.
std::vector<std::string> add_points(SweepFile& f, const SweepPlan& plan, const PoolResult& pool) {
    std::vector<std::string> unmeasured;
    for (std::size_t i = 0; i < plan.sections.size(); ++i) {
        const PointSamples& s = pool.points[i];
        const SectionTarget& t = plan.sections[i];
        if (s.cycles.size() < 3) {
            if (pool.complete) unmeasured.push_back(fmt::format("{} {} B {}", t.name, t.bytes, t.cold ? "cold" : "hot"));
            continue;
        }
        std::vector<double> request = s.request_ticks;
        std::sort(request.begin(), request.end());
        SectionPoint p{t.name,
                       t.cold ? "cold" : "hot",
                       t.bytes,
                       summarize(s.ticks),
                       request.empty() ? 0 : request[request.size() / 2],
                       s.settled,
                       summarize(s.cycles),
                       {},
                       s.rejected,
                       s.retaken,
                       t.series.sources,
                       s.unsettled_rounds};
        for (std::size_t r = 0; r < s.round_begin.size(); ++r) {
            std::vector<double> c = s.round_cycles(r);
            if (!c.empty()) p.rounds.push_back(round_stats(std::move(c)));
        }
        f.sections.push_back(std::move(p));
    }
    for (std::size_t i = 0; i < plan.thresholds.size(); ++i) {
        const PointSamples& s = pool.points[plan.sections.size() + i];
        const ThresholdTarget& t = plan.thresholds[i];
        if (s.cycles.size() < 3) {
            if (pool.complete) unmeasured.push_back(fmt::format("{} {} B threshold", t.kernel->name, t.bytes));
            continue;
        }
        // A threshold group is complete or absent (--resume measures a whole group again).
        if (!pool.complete) continue;
        f.thresholds.push_back({t.kernel->name, dirty_name(t.dirty), t.bytes, summarize(s.ticks), summarize(s.cycles),
                                s.rejected, s.retaken, s.unsettled_rounds});
    }
    f.partial = !pool.complete;
    return unmeasured;
}

// The clock traces, the sampling summary, the disturbances and the cold buffer.
void add_sampling(SweepFile& f, const SweepOptions& opt, const SweepMeasurement& m) {
    const PoolResult& pool = m.pool;
    merge_trace(f.ratio_trace, ratio_trace_of(pool.clock));
    f.timer_trace = timer_trace_of(pool.clock);
    SamplingSummary& sm = f.sampling;
    sm.rounds = opt.sampling.rounds;
    sm.rejected += pool.rejected;
    sm.retaken += pool.retaken;
    sm.waited_s += pool.waited_s;
    sm.elapsed_s += pool.elapsed_s;
    sm.unsettled += pool.unsettled;
    for (const DisturbanceEvent& e : pool.events) {
        sm.disturbances += e.count;
        if (f.disturbances.size() < 500)
            f.disturbances.push_back({disturbance_name(e.kind), e.start_s, e.length_s, e.count, e.adopted, e.detail});
    }
    f.core_per_tsc_end = m.core_per_tsc_end;
    if (m.cold_bytes) {
        f.cold_buffer.bytes = m.cold_bytes;
        f.cold_buffer.huge_page_bytes =
            m.cold_huge_bytes ? static_cast<std::int64_t>(std::min<std::uint64_t>(*m.cold_huge_bytes, m.cold_bytes)) : -1;
        f.cold_buffer.writes_flushed = m.cold_writes_flushed ? 1 : 0;
    }
    f.sampling.stack_spread_bytes = m.stack_spread_bytes;
}

// "the host disturbed the sweep: ..." by kind.
std::string disturbance_warning(const PoolResult& pool) {
    std::map<std::string, std::pair<std::uint64_t, double>> by_kind;
    for (const DisturbanceEvent& e : pool.events) {
        auto& [n, s] = by_kind[disturbance_name(e.kind)];
        n += e.count;
        s += e.length_s;
    }
    std::string what;
    for (const auto& [kind, v] : by_kind)
        what += fmt::format("{}{} x{} ({:.2f} s)", what.empty() ? "" : ", ", kind, v.first, v.second);
    return fmt::format("the host disturbed the sweep: {}; {} samples were taken again (see \"disturbances\")", what,
                       pool.retaken);
}

// The unsettled points, named by series: which ones the time was too short for.
std::string unsettled_warning(const SweepPlan& plan, const PoolResult& pool) {
    std::map<std::string, std::size_t> by_series;
    for (std::size_t i = 0; i < pool.points.size(); ++i) {
        if (!pool.points[i].unsettled_rounds) continue;
        ++by_series[i < plan.sections.size() ? plan.sections[i].name
                                             : plan.thresholds[i - plan.sections.size()].kernel->name +
                                                   std::string(" thresholds")];
    }
    std::vector<std::pair<std::size_t, std::string>> worst;
    for (const auto& [name, n] : by_series) worst.emplace_back(n, name);
    std::sort(worst.rbegin(), worst.rend());
    std::string most;
    for (std::size_t i = 0; i < worst.size() && i < 5; ++i)
        most += fmt::format("{}{} ({})", i ? ", " : "", worst[i].second, worst[i].first);
    return fmt::format(
        "{} of {} points are unsettled: their time ran out before they met the sampling rule in every round "
        "(\"unsettled_rounds\"), most in {}{}; their quantiles are noisier than the rule asks, which widens "
        "the limits' intervals; give the sweep more time (--time-budget) or fewer kernels (-k)",
        pool.unsettled, pool.points.size(), most, worst.size() > 5 ? ", ..." : "");
}

// Warnings: what a reader must know to trust the numbers.
void add_warnings(SweepFile& f, const SweepPlan& plan, const PoolResult& pool,
                  const std::vector<std::string>& unmeasured, const SweepInputs& in) {
    const double drift = std::abs(f.core_per_tsc_end - f.core_per_tsc) / f.core_per_tsc;
    if (drift > 0.03)
        f.warnings.push_back(fmt::format(
            "core/TSC ratio changed from {:.3f} to {:.3f} ({:.1f}%) during the sweep (probed {:.3f}..{:.3f}): the core "
            "clock moved (frequency scaling, thermal limits or a busy host); each sample was converted to cycles "
            "with the ratio probed around it",
            f.core_per_tsc, f.core_per_tsc_end, 100 * drift, f.ratio_trace.min, f.ratio_trace.max));
    if (const std::string w = cold_buffer_warning(f.cold_buffer); !w.empty()) f.warnings.push_back(w);
    if (pool.rejected)
        f.warnings.push_back(fmt::format(
            "{} samples were at or below the timer's floor (impossible: the timer's overhead moved under them); "
            "they were measured again",
            pool.rejected));
    if (!pool.events.empty()) f.warnings.push_back(disturbance_warning(pool));
    if (pool.unsettled) f.warnings.push_back(unsettled_warning(plan, pool));
    if (!unmeasured.empty())
        f.warnings.push_back(fmt::format(
            "{} points got fewer than 3 possible samples and are left out: {}{}", unmeasured.size(),
            fmt::join(unmeasured.begin(),
                      unmeasured.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(5, unmeasured.size())),
                      ", "),
            unmeasured.size() > 5 ? ", ..." : ""));
    if (f.partial) {
        const std::string why = in.stop_reason ? in.stop_reason() : std::string();
        f.warnings.push_back(fmt::format("interrupted: partial sweep{}; continue it with --resume",
                                         why.empty() ? "" : " (" + why + ")"));
    }
}

// Never a point no reader could use: a quantile <= 0 or not finite means a bug above, not a measurement.
void drop_impossible(SweepFile& f) {
    const std::vector<std::string> bad = impossible_points(f);
    if (bad.empty()) return;
    std::erase_if(f.sections, [](const SectionPoint& p) { return !possible_point(p.ticks, p.cycles); });
    std::erase_if(f.thresholds, [](const ThresholdPoint& p) { return !possible_point(p.ticks, p.cycles); });
    f.warnings.push_back(
        fmt::format("{} points had impossible statistics and are left out: {}", bad.size(), fmt::join(bad, ", ")));
}

}  // namespace

SweepFile summarise_sweep(const SweepOptions& opt, const SweepInputs& in, const SweepPlan& plan,
                          const SweepMeasurement& m) {
    SweepFile f = start_file(opt, in, m);
    // A point of the file planned again (plan_extra's `again`) is replaced by its new measurement.
    std::erase_if(f.sections, [&](const SectionPoint& p) {
        return std::any_of(plan.sections.begin(), plan.sections.end(), [&](const SectionTarget& t) {
            return t.name == p.kernel && t.bytes == p.bytes && (t.cold ? "cold" : "hot") == p.cache;
        });
    });
    for (const KernelInfo& info : plan.listed)
        if (std::none_of(f.kernels.begin(), f.kernels.end(), [&](const KernelInfo& i) { return i.name == info.name; }))
            f.kernels.push_back(info);
    const std::vector<std::string> unmeasured = add_points(f, plan, m.pool);
    add_sampling(f, opt, m);
    add_warnings(f, plan, m.pool, unmeasured, in);
    drop_impossible(f);
    // The points the file holds with unsettled rounds: one measured again (--resume, the closed loop) replaced
    // the one its earlier pass had counted (in a sweep of 75 s the count said 4786 of the file's 4434).
    f.sampling.unsettled =
        static_cast<std::uint64_t>(std::count_if(f.sections.begin(), f.sections.end(),
                                                 [](const SectionPoint& p) { return p.unsettled_rounds > 0; }) +
                                   std::count_if(f.thresholds.begin(), f.thresholds.end(),
                                                 [](const ThresholdPoint& p) { return p.unsettled_rounds > 0; }));
    return f;
}

namespace {

// The pool's samples of a section point of the file, found by (series, cache, bytes).
std::function<const PointSamples*(const SectionPoint&)> section_samples_of(const SweepPlan& plan,
                                                                          const PoolResult& pool) {
    auto index = std::make_shared<std::map<std::tuple<std::string, std::string, std::uint64_t>, std::size_t>>();
    for (std::size_t i = 0; i < plan.sections.size() && i < pool.points.size(); ++i) {
        const SectionTarget& t = plan.sections[i];
        index->emplace(std::make_tuple(series_name(*t.kernel, t.series), t.cold ? "cold" : "hot", t.bytes), i);
    }
    return [index, &pool](const SectionPoint& p) -> const PointSamples* {
        const auto it = index->find(std::make_tuple(p.kernel, p.cache, p.bytes));
        return it == index->end() ? nullptr : &pool.points[it->second];
    };
}

}  // namespace

SweepFile measure_sweep(const SweepOptions& opt, const SweepInputs& in, const PoolHooks& hooks) {
    return measure_into(plan_sweep(opt, in.resume), opt, in, hooks);
}

SweepFile measure_into(const SweepPlan& plan, const SweepOptions& opt, const SweepInputs& in, const PoolHooks& hooks) {
    const SweepMeasurement m = measure_plan(plan, opt, in.calm, hooks);
    SweepFile f = summarise_sweep(opt, in, plan, m);
    record_contention(f, m.pool, section_samples_of(plan, m.pool));
    return f;
}

}  // namespace fputune
