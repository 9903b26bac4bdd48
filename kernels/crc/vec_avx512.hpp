// SPDX-License-Identifier: MIT
// The 512-bit vector for fold_core.hpp: four 16-byte lanes folded at once with VPCLMULQDQ on zmm,
// the two products and the data joined by one three-way xor (vpternlogq 0x96).
// For the vpclmul-avx512 files only (AVX512F/VL/BW + VPCLMULQDQ flags).
#pragma once

#include "fold_core.hpp"

namespace fputune::crc {
namespace {

struct Vec512 {
    using T = __m512i;
    static constexpr std::size_t kBytes = 64;
    template <FoldConsts C>
    static T load(const u8* p) noexcept {
        const T v = _mm512_loadu_si512(p);
        if constexpr (C.reflected) return v;
        return _mm512_shuffle_epi8(v, _mm512_maskz_broadcast_i32x4(0xffff, load_bytes(kByteReverse)));
    }
    static T xor_(T a, T b) noexcept { return _mm512_xor_si512(a, b); }
    static T fold(T a, T k, T data) noexcept {
        return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(a, k, 0x00), _mm512_clmulepi64_epi128(a, k, 0x11),
                                         data, 0x96);
    }
    static T broadcast(U64x2 k) noexcept { return _mm512_maskz_broadcast_i32x4(0xffff, pair(k)); }
    static T from_lane(__m128i x) noexcept { return _mm512_inserti32x4(_mm512_setzero_si512(), x, 0); }
    // Lanes 0, 1, 2 lie 384, 256, 128 bits before the end of lane 3: fold them with per-lane constants
    // (zero for lane 3, which is kept as it is), then xor the four lanes together.
    template <FoldConsts C>
    static __m128i to_lane(T a) noexcept {
        const T k =
            _mm512_set_epi64(0, 0, static_cast<long long>(C.fold_lane[2].q1), static_cast<long long>(C.fold_lane[2].q0),
                             static_cast<long long>(C.fold_lane[1].q1), static_cast<long long>(C.fold_lane[1].q0),
                             static_cast<long long>(C.fold_lane[0].q1), static_cast<long long>(C.fold_lane[0].q0));
        const T y =
            _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(a, k, 0x00), _mm512_clmulepi64_epi128(a, k, 0x11),
                                      _mm512_maskz_mov_epi64(0xC0, a), 0x96);
        // (maskz forms: the plain ones trip GCC 12's -Wmaybe-uninitialized inside its own headers)
        const __m256i h =
            _mm256_xor_si256(_mm512_maskz_extracti64x4_epi64(0xf, y, 0), _mm512_maskz_extracti64x4_epi64(0xf, y, 1));
        return _mm_xor_si128(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
    }
};

}  // namespace
}  // namespace fputune::crc
