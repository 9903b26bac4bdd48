// SPDX-License-Identifier: MIT
// The 256-bit vector for fold_core.hpp: two 16-byte lanes folded at once with VPCLMULQDQ on ymm.
// For the vpclmul-avx2 files only (AVX2 + VPCLMULQDQ flags).
#pragma once

#include "fold_core.hpp"

namespace fputune::crc {
namespace {

struct Vec256 {
    using T = __m256i;
    static constexpr std::size_t kBytes = 32;
    template <FoldConsts C>
    static T load(const u8* p) noexcept {
        const T v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
        if constexpr (C.reflected) return v;
        return _mm256_shuffle_epi8(v, _mm256_broadcastsi128_si256(load_bytes(kByteReverse)));
    }
    static T xor_(T a, T b) noexcept { return _mm256_xor_si256(a, b); }
    static T fold(T a, T k, T data) noexcept {
        return _mm256_xor_si256(
            _mm256_xor_si256(_mm256_clmulepi64_epi128(a, k, 0x00), _mm256_clmulepi64_epi128(a, k, 0x11)), data);
    }
    static T broadcast(U64x2 k) noexcept { return _mm256_broadcastsi128_si256(pair(k)); }
    static T from_lane(__m128i x) noexcept { return _mm256_set_m128i(_mm_setzero_si128(), x); }
    // Lane 0 lies 128 bits before the end of lane 1.
    template <FoldConsts C>
    static __m128i to_lane(T a) noexcept {
        return fold_lane(_mm256_castsi256_si128(a), pair(C.fold_lane[0]), _mm256_extracti128_si256(a, 1));
    }
};

}  // namespace
}  // namespace fputune::crc
