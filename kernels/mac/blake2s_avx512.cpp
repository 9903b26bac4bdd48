// SPDX-License-Identifier: MIT
// BLAKE2s compression with AVX-512VL: the 4x4 state as four rows in xmm, G on four columns at once, the
// diagonals by rotating rows (pshufd), every rotation one vprord, and each round's message order made
// by one vpermd of the block held in a zmm. Requires AVX-512F and AVX-512VL.
#include <immintrin.h>

#include <cstring>

#include "mac.hpp"

namespace fputune::mac {

namespace {

using u32 = std::uint32_t;

inline __m128i rotr16(__m128i x) noexcept { return _mm_ror_epi32(x, 16); }
inline __m128i rotr8(__m128i x) noexcept { return _mm_ror_epi32(x, 8); }
inline __m128i rotr12(__m128i x) noexcept { return _mm_ror_epi32(x, 12); }
inline __m128i rotr7(__m128i x) noexcept { return _mm_ror_epi32(x, 7); }

// Per round, the sigma permutation regrouped as the four vectors G takes: even then odd words of the
// column step, even then odd words of the diagonal step (lane i on the diagonal of a[(i + 3) % 4]).
constexpr std::uint32_t kRoundIndex[10][16] = {
    {0, 2, 4, 6, 1, 3, 5, 7, 14, 8, 10, 12, 15, 9, 11, 13},
    {14, 4, 9, 13, 10, 8, 15, 6, 5, 1, 0, 11, 3, 12, 2, 7},
    {11, 12, 5, 15, 8, 0, 2, 13, 9, 10, 3, 7, 4, 14, 6, 1},
    {7, 3, 13, 11, 9, 1, 12, 14, 15, 2, 5, 4, 8, 6, 10, 0},
    {9, 5, 2, 10, 0, 7, 4, 15, 3, 14, 11, 6, 13, 1, 12, 8},
    {2, 6, 0, 8, 12, 10, 11, 3, 1, 4, 7, 15, 9, 13, 5, 14},
    {12, 1, 14, 4, 5, 15, 13, 10, 8, 0, 6, 9, 11, 7, 3, 2},
    {13, 7, 12, 3, 11, 14, 1, 9, 2, 5, 15, 8, 10, 0, 4, 6},
    {6, 14, 11, 0, 15, 9, 3, 8, 10, 12, 13, 1, 5, 2, 7, 4},
    {10, 8, 7, 1, 2, 4, 6, 5, 13, 15, 9, 3, 0, 11, 14, 12}};

inline void half_g(__m128i& a, __m128i& b, __m128i& c, __m128i& d, __m128i m, bool first) noexcept {
    a = _mm_add_epi32(_mm_add_epi32(a, m), b);  // b arrives last: one add after it, not two
    d = _mm_xor_si128(d, a);
    d = first ? rotr16(d) : rotr8(d);
    c = _mm_add_epi32(c, d);
    b = _mm_xor_si128(b, c);
    b = first ? rotr12(b) : rotr7(b);
}

}  // namespace

void blake2s_compress_avx512(Blake2sState* st, const std::uint8_t* block, std::size_t nblocks, u32 inc,
                            u32 f0) noexcept {
    __m128i h0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(st->h));
    __m128i h1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(st->h + 4));
    const __m128i iv0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kBlake2sIv));
    const __m128i iv1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kBlake2sIv + 4));
    u32 t0 = st->t[0], t1 = st->t[1];
    for (; nblocks; --nblocks, block += 64) {
        t0 += inc;
        t1 += t0 < inc;
        const __m512i msg = _mm512_loadu_si512(block);
        __m128i a = h0, b = h1, c = iv0;
        __m128i d = _mm_xor_si128(iv1, _mm_set_epi32(0, static_cast<int>(f0), static_cast<int>(t1), static_cast<int>(t0)));
#pragma GCC unroll 10
        for (int r = 0; r < 10; ++r) {
            const __m512i p = _mm512_permutexvar_epi32(_mm512_loadu_si512(kRoundIndex[r]), msg);
            const __m128i m0 = _mm512_castsi512_si128(p);
            const __m128i m1 = _mm512_extracti32x4_epi32(p, 1);
            const __m128i m2 = _mm512_extracti32x4_epi32(p, 2);
            const __m128i m3 = _mm512_extracti32x4_epi32(p, 3);
            half_g(a, b, c, d, m0, true);
            half_g(a, b, c, d, m1, false);
            // Rotate rows a, c, d (not b) so the diagonals line up as columns: b is the value the next
            // step waits for, and the others are ready early, so the rotations cost no latency.
            // Lane i then works on the diagonal that starts at a[(i + 3) % 4].
            a = _mm_shuffle_epi32(a, 0x93);
            c = _mm_shuffle_epi32(c, 0x39);
            d = _mm_shuffle_epi32(d, 0x4e);
            half_g(a, b, c, d, m2, true);
            half_g(a, b, c, d, m3, false);
            a = _mm_shuffle_epi32(a, 0x39);
            c = _mm_shuffle_epi32(c, 0x93);
            d = _mm_shuffle_epi32(d, 0x4e);
        }
        h0 = _mm_xor_si128(h0, _mm_xor_si128(a, c));
        h1 = _mm_xor_si128(h1, _mm_xor_si128(b, d));
    }
    _mm_storeu_si128(reinterpret_cast<__m128i*>(st->h), h0);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(st->h + 4), h1);
    st->t[0] = t0;
    st->t[1] = t1;
}

}  // namespace fputune::mac
