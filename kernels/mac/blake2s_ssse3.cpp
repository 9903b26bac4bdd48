// SPDX-License-Identifier: MIT
// BLAKE2s compression with SSSE3: the 4x4 state as four rows in xmm, G on four columns at once, the
// diagonals by rotating rows (pshufd), rotations by 16 and 8 as byte shuffles (pshufb). Requires SSSE3.
#include <immintrin.h>

#include <cstring>

#include "mac.hpp"

namespace fputune::mac {

namespace {

using u32 = std::uint32_t;

inline __m128i rotr16(__m128i x) noexcept {
    return _mm_shuffle_epi8(x, _mm_set_epi8(13, 12, 15, 14, 9, 8, 11, 10, 5, 4, 7, 6, 1, 0, 3, 2));
}
inline __m128i rotr8(__m128i x) noexcept {
    return _mm_shuffle_epi8(x, _mm_set_epi8(12, 15, 14, 13, 8, 11, 10, 9, 4, 7, 6, 5, 0, 3, 2, 1));
}
inline __m128i rotr12(__m128i x) noexcept { return _mm_or_si128(_mm_srli_epi32(x, 12), _mm_slli_epi32(x, 20)); }
inline __m128i rotr7(__m128i x) noexcept { return _mm_or_si128(_mm_srli_epi32(x, 7), _mm_slli_epi32(x, 25)); }

inline __m128i word(const std::uint8_t* block, int i) noexcept { return _mm_loadu_si32(block + 4 * i); }

// Four message words into one vector straight from memory (movd + unpacks): no trips through
// general registers, which the compiler otherwise makes when it loads two words at once.
inline __m128i gather(const std::uint8_t* block, int i0, int i1, int i2, int i3) noexcept {
    return _mm_unpacklo_epi64(_mm_unpacklo_epi32(word(block, i0), word(block, i1)),
                              _mm_unpacklo_epi32(word(block, i2), word(block, i3)));
}

inline void half_g(__m128i& a, __m128i& b, __m128i& c, __m128i& d, __m128i m, bool first) noexcept {
    a = _mm_add_epi32(_mm_add_epi32(a, m), b);  // b arrives last: one add after it, not two
    d = _mm_xor_si128(d, a);
    d = first ? rotr16(d) : rotr8(d);
    c = _mm_add_epi32(c, d);
    b = _mm_xor_si128(b, c);
    b = first ? rotr12(b) : rotr7(b);
}

}  // namespace

void blake2s_compress_ssse3(Blake2sState* st, const std::uint8_t* block, std::size_t nblocks, u32 inc,
                            u32 f0) noexcept {
    __m128i h0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(st->h));
    __m128i h1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(st->h + 4));
    const __m128i iv0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kBlake2sIv));
    const __m128i iv1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kBlake2sIv + 4));
    u32 t0 = st->t[0], t1 = st->t[1];
    for (; nblocks; --nblocks, block += 64) {
        t0 += inc;
        t1 += t0 < inc;
        __m128i a = h0, b = h1, c = iv0;
        __m128i d = _mm_xor_si128(iv1, _mm_set_epi32(0, static_cast<int>(f0), static_cast<int>(t1), static_cast<int>(t0)));
#pragma GCC unroll 10
        for (int r = 0; r < 10; ++r) {
            const std::uint8_t* s = kBlake2sSigma[r];
            const __m128i m0 = gather(block, s[0], s[2], s[4], s[6]);
            const __m128i m1 = gather(block, s[1], s[3], s[5], s[7]);
            const __m128i m2 = gather(block, s[14], s[8], s[10], s[12]);
            const __m128i m3 = gather(block, s[15], s[9], s[11], s[13]);
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
