// SPDX-License-Identifier: MIT
// XSAVEC/XRSTOR emulation of the kernel's user-state save; the asm runs only after CPUID checks.
#include "fpu.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "clock.hpp"
#include "cpu.hpp"

namespace fputune {

void fpu_dirty_zmm() noexcept;  // fpu_dirty_avx512.cpp (built with -mavx512f)

namespace {
// XRSTOR of every enabled component from an XSAVE area (64-byte aligned, >= 4096 bytes).
void xrstor_all(const unsigned char* area, std::uint64_t mask) noexcept {
    const std::uint32_t lo = static_cast<std::uint32_t>(mask), hi = static_cast<std::uint32_t>(mask >> 32);
    __asm__ volatile("xrstor64 %0"
                     :
                     : "m"(*reinterpret_cast<const unsigned char(*)[4096]>(area)), "a"(lo), "d"(hi)
                     : "memory");
}
}  // namespace

std::string dirty_name(DirtyState d) {
    switch (d) {
        case DirtyState::none: return "none";
        case DirtyState::xmm: return "xmm";
        case DirtyState::ymm: return "ymm";
        case DirtyState::zmm: return "zmm";
    }
    return "?";
}

DirtyState parse_dirty(const std::string& s) {
    if (s == "xmm") return DirtyState::xmm;
    if (s == "ymm") return DirtyState::ymm;
    if (s == "zmm") return DirtyState::zmm;
    throw std::invalid_argument("--dirty: unknown state '" + s + "'; accepted: xmm, ymm, zmm");
}

bool dirty_supported(DirtyState d) noexcept {
    const FeatureSet f = usable_features();
    switch (d) {
        case DirtyState::none:
        case DirtyState::xmm: return true;
        case DirtyState::ymm: return f & feature_bit(Feature::avx);
        case DirtyState::zmm: return f & feature_bit(Feature::avx512f);
    }
    return false;
}

const XsaveLayout& xsave_layout() {
    static const XsaveLayout layout = [] {
        XsaveLayout l;
        l.xcr0 = xgetbv0();
        if (!l.xcr0 || cpuid(0).eax < 0xd) return l;
        l.save_mask = l.xcr0 & ~((1ull << 17) | (1ull << 18));  // AMX TILECFG/TILEDATA
        CpuId d0 = cpuid(0xd, 0), d1 = cpuid(0xd, 1);
        l.standard_bytes = d0.ebx;
        l.has_xsaveopt = d1.eax & 1;
        l.has_xsavec = d1.eax & 2;
        static const char* names[] = {"x87",        "sse (xmm)",     "avx (ymm upper)",  "mpx bndregs",
                                      "mpx bndcsr", "avx512 opmask", "avx512 zmm_hi256", "avx512 hi16_zmm",
                                      "pt",         "pkru"};
        std::uint32_t compacted = 576;  // legacy region 512 + XSAVE header 64
        for (unsigned i = 0; i < 19; ++i) {
            if (!(l.save_mask & (1ull << i))) continue;
            XsaveComponent c{i, i < 10 ? names[i] : "component " + std::to_string(i), 0, 0, false};
            if (i < 2) {
                c.size_bytes = i == 0 ? 160 : 256;  // x87 and xmm live in the legacy region
                c.standard_offset = i == 0 ? 0 : 160;
            } else {
                CpuId s = cpuid(0xd, i);
                c.size_bytes = s.eax;
                c.standard_offset = s.ebx;
                c.align64 = s.ecx & 2;
                if (c.align64) compacted = (compacted + 63) & ~63u;
                compacted += c.size_bytes;
            }
            l.components.push_back(c);
        }
        l.compacted_bytes = compacted;
        return l;
    }();
    return layout;
}

FpuEmulator::FpuEmulator() {
    const std::size_t bytes = std::max<std::size_t>(4096, (xsave_layout().standard_bytes + 4095) & ~std::size_t{4095});
    area_ = static_cast<unsigned char*>(std::aligned_alloc(64, bytes));
    if (!area_) throw std::bad_alloc();
    std::memset(area_, 0, bytes);
    init_area_ = static_cast<unsigned char*>(std::aligned_alloc(64, bytes));
    if (!init_area_) throw std::bad_alloc();
    std::memset(init_area_, 0, bytes);
    const std::uint32_t mxcsr_default = 0x1f80;
    std::memcpy(init_area_ + 24, &mxcsr_default, 4);
    const XsaveLayout& l = xsave_layout();
    if (l.has_xsavec) {
        const std::uint64_t xcomp_bv = (1ull << 63) | l.save_mask;  // compacted format, XSTATE_BV = 0
        std::memcpy(init_area_ + 520, &xcomp_bv, 8);
    }
    save();  // a valid image, so that restore() before any save() is harmless
}

FpuEmulator::~FpuEmulator() {
    std::free(area_);
    std::free(init_area_);
}

void FpuEmulator::dirty(DirtyState d) noexcept {
    if (const std::uint64_t mask = xsave_layout().save_mask) xrstor_all(init_area_, mask);
    switch (d) {
        case DirtyState::none: return;
        case DirtyState::xmm:
            __asm__ volatile(
                "pcmpeqd %%xmm8, %%xmm8\n\tpcmpeqd %%xmm9, %%xmm9\n\tpcmpeqd %%xmm10, %%xmm10\n\t"
                "pcmpeqd %%xmm11, %%xmm11\n\tpcmpeqd %%xmm12, %%xmm12\n\tpcmpeqd %%xmm13, %%xmm13\n\t"
                "pcmpeqd %%xmm14, %%xmm14\n\tpcmpeqd %%xmm15, %%xmm15" ::
                    : "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
            return;
        case DirtyState::ymm:
            if (!dirty_supported(d)) return;
            __asm__ volatile(
                "vpcmpeqd %%ymm8, %%ymm8, %%ymm8\n\tvpcmpeqd %%ymm9, %%ymm9, %%ymm9\n\t"
                "vpcmpeqd %%ymm10, %%ymm10, %%ymm10\n\tvpcmpeqd %%ymm11, %%ymm11, %%ymm11\n\t"
                "vpcmpeqd %%ymm12, %%ymm12, %%ymm12\n\tvpcmpeqd %%ymm13, %%ymm13, %%ymm13\n\t"
                "vpcmpeqd %%ymm14, %%ymm14, %%ymm14\n\tvpcmpeqd %%ymm15, %%ymm15, %%ymm15" ::
                    : "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
            return;
        case DirtyState::zmm:
            if (!dirty_supported(d)) return;
            fpu_dirty_zmm();
            return;
    }
}

void FpuEmulator::save() noexcept {
    const XsaveLayout& l = xsave_layout();
    if (!l.save_mask) return;
    const std::uint32_t lo = static_cast<std::uint32_t>(l.save_mask),
                        hi = static_cast<std::uint32_t>(l.save_mask >> 32);
    if (l.has_xsavec)
        __asm__ volatile("xsavec64 %0"
                         : "+m"(*reinterpret_cast<unsigned char(*)[4096]>(area_))
                         : "a"(lo), "d"(hi)
                         : "memory");
    else
        __asm__ volatile("xsave64 %0"
                         : "+m"(*reinterpret_cast<unsigned char(*)[4096]>(area_))
                         : "a"(lo), "d"(hi)
                         : "memory");
}

void FpuEmulator::restore() noexcept {
    if (const std::uint64_t mask = xsave_layout().save_mask) xrstor_all(area_, mask);
}

std::vector<XsaveCost> measure_xsave_costs(int repeats) {
    std::vector<XsaveCost> out;
    FpuEmulator fpu;
    for (DirtyState d : {DirtyState::xmm, DirtyState::ymm, DirtyState::zmm}) {
        if (!dirty_supported(d)) continue;
        const double overhead = probe_timer().overhead_ticks;  // the timer as it is now, not at start-up
        std::vector<double> save, restore, pair;
        // save and restore alone: single timings (coarse: the TSC steps ~20 ticks here).
        for (int i = 0; i < repeats; ++i) {
            fpu.dirty(d);
            std::uint64_t t0 = tsc_begin();
            fpu.save();
            std::uint64_t t1 = tsc_end();
            fpu.restore();
            std::uint64_t t2 = tsc_end();
            save.push_back(static_cast<double>(t1 - t0) - overhead);
            restore.push_back(static_cast<double>(t2 - t1) - overhead);
        }
        // the pair, batched 32 at a time to resolve below the TSC step: (dirty+save+restore) - (dirty).
        constexpr int kBatch = 32;
        for (int i = 0; i < repeats / 8; ++i) {
            std::uint64_t t0 = tsc_begin();
            for (int b = 0; b < kBatch; ++b) {
                fpu.dirty(d);
                fpu.save();
                fpu.restore();
            }
            std::uint64_t t1 = tsc_end();
            for (int b = 0; b < kBatch; ++b) fpu.dirty(d);
            std::uint64_t t2 = tsc_end();
            pair.push_back((static_cast<double>(t1 - t0) - static_cast<double>(t2 - t1)) / kBatch);
        }
        auto med = [](std::vector<double>& v) {
            std::sort(v.begin(), v.end());
            return std::max(0.0, v[v.size() / 2]);
        };
        out.push_back({d, med(save), med(restore), med(pair)});
    }
    return out;
}

}  // namespace fputune
