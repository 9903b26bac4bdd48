// SPDX-License-Identifier: MIT
// Emulation of what kernel_fpu_begin()/end() cost: XSAVEC of the dirty user state, XRSTOR on return.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace fputune {

enum class DirtyState { none, xmm, ymm, zmm };
std::string dirty_name(DirtyState d);
DirtyState parse_dirty(const std::string& s);  // throws std::invalid_argument listing xmm|ymm|zmm
bool dirty_supported(DirtyState d) noexcept;  // ymm needs AVX, zmm needs AVX-512 (usable, not masked)

struct XsaveComponent {
    unsigned index;
    std::string name;
    std::uint32_t size_bytes, standard_offset;
    bool align64;  // aligned to 64 bytes in the compacted format
};
struct XsaveLayout {
    std::uint64_t xcr0 = 0;
    std::uint64_t save_mask = 0;  // xcr0 less AMX tile state (never in use here)
    std::uint32_t standard_bytes = 0;  // CPUID 0xD.0 EBX: size for the enabled state, standard format
    std::uint32_t compacted_bytes = 0;  // computed for save_mask
    bool has_xsavec = false, has_xsaveopt = false;
    std::vector<XsaveComponent> components;
    std::string instruction() const { return has_xsavec ? "xsavec" : "xsave"; }
};
const XsaveLayout& xsave_layout();

// The user-state save area and the two halves of the emulation. One per thread.
class FpuEmulator {
public:
    FpuEmulator();
    ~FpuEmulator();
    FpuEmulator(const FpuEmulator&) = delete;
    FpuEmulator& operator=(const FpuEmulator&) = delete;

    // Leaves exactly that state in use, as user space would have: first every component back to its
    // init state (XRSTOR of an empty image: glibc's EVEX string functions leave zmm16-31 and the
    // opmasks in use), then non-zero values in xmm8-15, their ymm upper halves, or zmm upper halves,
    // zmm16-31 and k1/k7. Inline asm (and -mno-vzeroupper for the AVX-512 file), so the compiler's
    // automatic vzeroupper cannot clean what we meant to dirty. Call right before save().
    void dirty(DirtyState d) noexcept;
    // kernel_fpu_begin's first-time cost: XSAVEC (or XSAVE) of every enabled component.
    void save() noexcept;
    // the return to user space: XRSTOR of what save() stored.
    void restore() noexcept;

private:
    unsigned char* area_;
    unsigned char* init_area_;  // compacted image with XSTATE_BV = 0: restores every component to init
};

struct XsaveCost {
    DirtyState dirty;
    double save_ticks, restore_ticks, pair_ticks;  // medians, timer overhead subtracted
};
// Median costs over `repeats` pairs for each state this CPU supports.
std::vector<XsaveCost> measure_xsave_costs(int repeats = 2001);

}  // namespace fputune
