// SPDX-License-Identifier: MIT
// The 128-bit vector for chacha20_body.hpp: 4 blocks across lanes, 1 block in rows; rotations by 16 and 8 as
// byte shuffles (pshufb). For chacha20_ssse3.cpp only (SSSE3 flags).
#pragma once

#include <immintrin.h>

#include "chacha20_body.hpp"

namespace fputune::chacha {
namespace {

struct VecSsse3 {
    using T = __m128i;
    static constexpr bool kUnrollRounds = true;  // chacha20_body.hpp says why
    static constexpr std::size_t kLanes = 4;
    static T load(const u8* p) noexcept { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
    static void store(u8* p, T v) noexcept { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v); }
    static T add(T a, T b) noexcept { return _mm_add_epi32(a, b); }
    static T xor_(T a, T b) noexcept { return _mm_xor_si128(a, b); }
    static T set1(u32 x) noexcept { return _mm_set1_epi32(static_cast<int>(x)); }
    template <int N>
    static T rotl(T x) noexcept {
        if constexpr (N == 16)
            return _mm_shuffle_epi8(x, _mm_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13));
        else if constexpr (N == 8)
            return _mm_shuffle_epi8(x, _mm_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14));
        else
            return _mm_or_si128(_mm_slli_epi32(x, N), _mm_srli_epi32(x, 32 - N));
    }
    static T lane_index() noexcept { return _mm_setr_epi32(0, 1, 2, 3); }
    static T row(const u32* w) noexcept { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(w)); }
    static T row_counter(u32 n) noexcept { return _mm_setr_epi32(static_cast<int>(n), 0, 0, 0); }
    template <int kImm>
    static T shuffle(T x) noexcept {
        return _mm_shuffle_epi32(x, kImm);
    }
    static void transpose4(T& a, T& b, T& c, T& d) noexcept {
        const T ab0 = _mm_unpacklo_epi32(a, b), ab1 = _mm_unpackhi_epi32(a, b);
        const T cd0 = _mm_unpacklo_epi32(c, d), cd1 = _mm_unpackhi_epi32(c, d);
        a = _mm_unpacklo_epi64(ab0, cd0);
        b = _mm_unpackhi_epi64(ab0, cd0);
        c = _mm_unpacklo_epi64(ab1, cd1);
        d = _mm_unpackhi_epi64(ab1, cd1);
    }
    static void put(u8* out, const u8* src, T v) noexcept { store(out, src ? xor_(v, load(src)) : v); }
    // After transpose4, g[q][j] holds words 4q..4q+3 of block j.
    static void store_across(const T (&g)[4][4], u8* out, const u8* src) noexcept {
        for (int j = 0; j < 4; ++j)
            for (int q = 0; q < 4; ++q) put(out + 64 * j + 16 * q, src ? src + 64 * j + 16 * q : nullptr, g[q][j]);
    }
    static void store_rows(const T (&r)[4], u8* out, const u8* src) noexcept {
        for (int q = 0; q < 4; ++q) put(out + 16 * q, src ? src + 16 * q : nullptr, r[q]);
    }
};

}  // namespace
}  // namespace fputune::chacha
