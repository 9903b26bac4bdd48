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

inline void half_g(__m128i& a, __m128i& b, __m128i& c, __m128i& d, __m128i m, bool first) noexcept {
    a = _mm_add_epi32(_mm_add_epi32(a, b), m);
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
        u32 m[16];
        std::memcpy(m, block, 64);
        __m128i a = h0, b = h1, c = iv0;
        __m128i d = _mm_xor_si128(iv1, _mm_set_epi32(0, static_cast<int>(f0), static_cast<int>(t1), static_cast<int>(t0)));
        for (int r = 0; r < 10; ++r) {
            const std::uint8_t* s = kBlake2sSigma[r];
            const __m128i m0 = _mm_set_epi32(static_cast<int>(m[s[6]]), static_cast<int>(m[s[4]]), static_cast<int>(m[s[2]]), static_cast<int>(m[s[0]]));
            const __m128i m1 = _mm_set_epi32(static_cast<int>(m[s[7]]), static_cast<int>(m[s[5]]), static_cast<int>(m[s[3]]), static_cast<int>(m[s[1]]));
            const __m128i m2 = _mm_set_epi32(static_cast<int>(m[s[14]]), static_cast<int>(m[s[12]]), static_cast<int>(m[s[10]]), static_cast<int>(m[s[8]]));
            const __m128i m3 = _mm_set_epi32(static_cast<int>(m[s[15]]), static_cast<int>(m[s[13]]), static_cast<int>(m[s[11]]), static_cast<int>(m[s[9]]));
            half_g(a, b, c, d, m0, true);
            half_g(a, b, c, d, m1, false);
            // Rotate rows so the diagonals line up as columns.
            b = _mm_shuffle_epi32(b, 0x39);
            c = _mm_shuffle_epi32(c, 0x4e);
            d = _mm_shuffle_epi32(d, 0x93);
            half_g(a, b, c, d, m2, true);
            half_g(a, b, c, d, m3, false);
            b = _mm_shuffle_epi32(b, 0x93);
            c = _mm_shuffle_epi32(c, 0x4e);
            d = _mm_shuffle_epi32(d, 0x39);
        }
        h0 = _mm_xor_si128(h0, _mm_xor_si128(a, c));
        h1 = _mm_xor_si128(h1, _mm_xor_si128(b, d));
    }
    _mm_storeu_si128(reinterpret_cast<__m128i*>(st->h), h0);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(st->h + 4), h1);
    st->t[0] = t0;
    st->t[1] = t1;
}

void blake2s_init_ssse3(void* ctx, const std::uint8_t* key) noexcept { blake2s_glue_init(ctx, key); }
void blake2s_blocks_ssse3(void* ctx, const std::uint8_t* data, std::size_t nblocks) noexcept {
    blake2s_glue_blocks(ctx, data, nblocks, blake2s_compress_ssse3);
}
void blake2s_final_ssse3(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out) noexcept {
    blake2s_glue_final(ctx, data, len, out, blake2s_compress_ssse3);
}

}  // namespace fputune::mac
