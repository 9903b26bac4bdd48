// SPDX-License-Identifier: MIT
// Dirties the AVX-512 user state (zmm upper halves, zmm16-31, opmasks). Requires AVX-512F; built with
// -mavx512f only so the compiler accepts those registers as clobbers; called after dirty_supported().
namespace fputune {

void fpu_dirty_zmm() noexcept {
    __asm__ volatile(
        "vpternlogd $0xff, %%zmm8, %%zmm8, %%zmm8\n\tvpternlogd $0xff, %%zmm15, %%zmm15, %%zmm15\n\t"
        "vpternlogd $0xff, %%zmm16, %%zmm16, %%zmm16\n\tvpternlogd $0xff, %%zmm20, %%zmm20, %%zmm20\n\t"
        "vpternlogd $0xff, %%zmm24, %%zmm24, %%zmm24\n\tvpternlogd $0xff, %%zmm31, %%zmm31, %%zmm31\n\t"
        "kxnorw %%k1, %%k1, %%k1\n\tkxnorw %%k7, %%k7, %%k7" ::
            : "xmm8", "xmm15", "xmm16", "xmm20", "xmm24", "xmm31", "k1", "k7");
}

}  // namespace fputune
