// SPDX-License-Identifier: MIT
// The 256-bit vectors for chacha20_body.hpp: 8 blocks across lanes, 2 blocks in rows (one per 16-byte lane).
// VecAvx2 rotates by 16 and 8 with byte shuffles (vpshufb), by 12 and 7 with shifts; VecAvx512vl is the same
// vector with AVX-512VL's rotate (vprold) and 32 registers, as Linux's avx512vl code. For chacha20_avx2.cpp
// (AVX2 flags) and chacha20_avx512vl.cpp (AVX-512F/VL/BW flags) only.
#pragma once

#include <immintrin.h>

#include "chacha20_body.hpp"

namespace fputune::chacha {
namespace {

template <bool kVprold>
struct Vec256 {
    using T = __m256i;
    static constexpr bool kUnrollRounds = !kVprold;  // chacha20_body.hpp says why
    static constexpr std::size_t kLanes = 8;
    static T load(const u8* p) noexcept { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
    static void store(u8* p, T v) noexcept { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
    static T add(T a, T b) noexcept { return _mm256_add_epi32(a, b); }
    static T xor_(T a, T b) noexcept { return _mm256_xor_si256(a, b); }
    static T set1(u32 x) noexcept { return _mm256_set1_epi32(static_cast<int>(x)); }
    template <int N>
    static T rotl(T x) noexcept {
#ifdef __AVX512VL__
        if constexpr (kVprold) return _mm256_rol_epi32(x, N);
#endif
        if constexpr (N == 16)
            return _mm256_shuffle_epi8(x, _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3,
                                                           0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13));
        else if constexpr (N == 8)
            return _mm256_shuffle_epi8(x, _mm256_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, 3, 0,
                                                           1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14));
        else
            return _mm256_or_si256(_mm256_slli_epi32(x, N), _mm256_srli_epi32(x, 32 - N));
    }
    static T lane_index() noexcept { return _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7); }
    static T row(const u32* w) noexcept {
        return _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w)));
    }
    static T row_counter(u32 n) noexcept {
        return _mm256_setr_epi32(static_cast<int>(n), 0, 0, 0, static_cast<int>(n + 1), 0, 0, 0);
    }
    template <int kImm>
    static T shuffle(T x) noexcept {
        return _mm256_shuffle_epi32(x, kImm);
    }
    static void transpose4(T& a, T& b, T& c, T& d) noexcept {
        const T ab0 = _mm256_unpacklo_epi32(a, b), ab1 = _mm256_unpackhi_epi32(a, b);
        const T cd0 = _mm256_unpacklo_epi32(c, d), cd1 = _mm256_unpackhi_epi32(c, d);
        a = _mm256_unpacklo_epi64(ab0, cd0);
        b = _mm256_unpackhi_epi64(ab0, cd0);
        c = _mm256_unpacklo_epi64(ab1, cd1);
        d = _mm256_unpackhi_epi64(ab1, cd1);
    }
    static void put(u8* out, const u8* src, T v) noexcept { store(out, src ? xor_(v, load(src)) : v); }
    // After transpose4, g[q][j] holds words 4q..4q+3 of block j in its low lane and of block j + 4 in its high
    // lane: a block's two 32-byte halves are the low (or high) lanes of g[0][j], g[1][j] and g[2][j], g[3][j].
    static void store_across(const T (&g)[4][4], u8* out, const u8* src) noexcept {
        for (int j = 0; j < 4; ++j)
            for (int h = 0; h < 2; ++h) {
                const T lo = _mm256_permute2x128_si256(g[2 * h][j], g[2 * h + 1][j], 0x20);
                const T hi = _mm256_permute2x128_si256(g[2 * h][j], g[2 * h + 1][j], 0x31);
                const std::size_t at_lo = 64 * j + 32 * h, at_hi = 64 * (j + 4) + 32 * h;
                put(out + at_lo, src ? src + at_lo : nullptr, lo);
                put(out + at_hi, src ? src + at_hi : nullptr, hi);
            }
    }
    // Rows of two blocks: block 0 in the low lanes, block 1 in the high lanes.
    static void store_rows(const T (&r)[4], u8* out, const u8* src) noexcept {
        for (int h = 0; h < 2; ++h) {
            const T lo = _mm256_permute2x128_si256(r[2 * h], r[2 * h + 1], 0x20);
            const T hi = _mm256_permute2x128_si256(r[2 * h], r[2 * h + 1], 0x31);
            put(out + 32 * h, src ? src + 32 * h : nullptr, lo);
            put(out + 64 + 32 * h, src ? src + 64 + 32 * h : nullptr, hi);
        }
    }
};
using VecAvx2 = Vec256<false>;
using VecAvx512vl = Vec256<true>;

}  // namespace
}  // namespace fputune::chacha
