// SPDX-License-Identifier: MIT
// SM3 block function with the message expansion (W and W') in xmm registers, 4 words at a time, and
// the compression rounds in scalar registers with rorx. Requires AVX, BMI1 and BMI2 (as Linux's sm3-avx).
#include <immintrin.h>

#include "sha_blocks.hpp"
#include "sha_consts.hpp"

namespace fputune::sha {
namespace {

inline std::uint32_t rol32(std::uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }
inline __m128i rol_epi32(__m128i x, int n) { return _mm_or_si128(_mm_slli_epi32(x, n), _mm_srli_epi32(x, 32 - n)); }
inline __m128i p1_epi32(__m128i x) { return _mm_xor_si128(x, _mm_xor_si128(rol_epi32(x, 15), rol_epi32(x, 23))); }

// W[j..j+3] into x0 from x0..x3 = W[j-16..j-1]:
//   W[j] = P1(W[j-16] ^ W[j-9] ^ (W[j-3] <<< 15)) ^ (W[j-13] <<< 7) ^ W[j-6].
// Lane 3 needs W[j] (lane 0) through W[j-3]: computed with 0 there, then fixed by xoring
// P1(W[j] <<< 15) into it, since P1 is linear over xor. W' of the previous group (W ^ W of the next)
// is stored with it.
#define FPUTUNE_SM3_EXPAND(x0, x1, x2, x3, grp)                                                            \
    do {                                                                                                   \
        const __m128i a_ = _mm_xor_si128(_mm_xor_si128(x0, _mm_alignr_epi8(x2, x1, 12)),                   \
                                         rol_epi32(_mm_srli_si128(x3, 4), 15));                            \
        __m128i w_ = _mm_xor_si128(_mm_xor_si128(p1_epi32(a_), rol_epi32(_mm_alignr_epi8(x1, x0, 12), 7)), \
                                   _mm_alignr_epi8(x3, x2, 8));                                            \
        w_ = _mm_xor_si128(w_, p1_epi32(rol_epi32(_mm_slli_si128(w_, 12), 15)));                           \
        x0 = w_;                                                                                           \
        _mm_store_si128(reinterpret_cast<__m128i*>(w + 4 * (grp)), w_);                                    \
        _mm_store_si128(reinterpret_cast<__m128i*>(wp + 4 * (grp) - 4), _mm_xor_si128(x3, w_));            \
    } while (0)

// One round; the caller rotates the names (A B C D E F G H) -> (D A B C H E F G) each round, so only
// B, D, F, H are written: D takes the new A, H the new E.
#define FPUTUNE_SM3_ROUND(a, b, c, d, e, f, g, h, j, FF, GG)                   \
    do {                                                                       \
        const std::uint32_t a12 = rol32(a, 12);                                \
        const std::uint32_t ss1 = rol32(a12 + e + kSm3Tj[j], 7);               \
        const std::uint32_t ss2 = ss1 ^ a12;                                   \
        d += FF(a, b, c) + ss2 + wr[68 + (j)];                                        \
        h += GG(e, f, g) + ss1 + wr[j];                                         \
        h = h ^ rol32(h, 9) ^ rol32(h, 17);                                    \
        b = rol32(b, 9);                                                       \
        f = rol32(f, 19);                                                      \
    } while (0)
#define FPUTUNE_SM3_XOR3(x, y, z) ((x) ^ (y) ^ (z))
// Maj and Ch as sums of terms with disjoint bits, so the adds may reassociate.
#define FPUTUNE_SM3_MAJ(x, y, z) (((x) & (y)) + (((x) ^ (y)) & (z)))
#define FPUTUNE_SM3_CH(x, y, z) (((x) & (y)) + (~(x) & (z)))
#define FPUTUNE_SM3_ROUNDS4(j, FF, GG)                                        \
    FPUTUNE_SM3_ROUND(a, b, c, d, e, f, g, h, (j) + 0, FF, GG);               \
    FPUTUNE_SM3_ROUND(d, a, b, c, h, e, f, g, (j) + 1, FF, GG);               \
    FPUTUNE_SM3_ROUND(c, d, a, b, g, h, e, f, (j) + 2, FF, GG);               \
    FPUTUNE_SM3_ROUND(b, c, d, a, f, g, h, e, (j) + 3, FF, GG);
#define FPUTUNE_SM3_R4_LOW(j) FPUTUNE_SM3_ROUNDS4(j, FPUTUNE_SM3_XOR3, FPUTUNE_SM3_XOR3)
#define FPUTUNE_SM3_R4_HIGH(j) FPUTUNE_SM3_ROUNDS4(j, FPUTUNE_SM3_MAJ, FPUTUNE_SM3_CH)

}  // namespace

void sm3_blocks_avx(std::uint32_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept {
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    // W[0..67], then W'[j] = W[j] ^ W[j+4] at [68 + j].
    alignas(16) std::uint32_t w[68 + 64];
    std::uint32_t* const wp = w + 68;
    // Rounds read W and W' through a pointer the compiler cannot see through: otherwise it forwards the
    // vector stores to the rounds with vpextrd (slow, and it runs out of registers doing so).
    const std::uint32_t* wr = w;
    asm("" : "+r"(wr));
    std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    std::uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
    for (; nblocks; --nblocks, data += 64) {
        __m128i x0 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data)), bswap);
        __m128i x1 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 16)), bswap);
        __m128i x2 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 32)), bswap);
        __m128i x3 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 48)), bswap);
        _mm_store_si128(reinterpret_cast<__m128i*>(w), x0);
        _mm_store_si128(reinterpret_cast<__m128i*>(w + 4), x1);
        _mm_store_si128(reinterpret_cast<__m128i*>(w + 8), x2);
        _mm_store_si128(reinterpret_cast<__m128i*>(w + 12), x3);
        _mm_store_si128(reinterpret_cast<__m128i*>(wp), _mm_xor_si128(x0, x1));
        _mm_store_si128(reinterpret_cast<__m128i*>(wp + 4), _mm_xor_si128(x1, x2));
        _mm_store_si128(reinterpret_cast<__m128i*>(wp + 8), _mm_xor_si128(x2, x3));

        // Rounds of group r with the expansion of group r+4 (and W' of group r+3) threaded between.
        FPUTUNE_SM3_EXPAND(x0, x1, x2, x3, 4);
        FPUTUNE_SM3_R4_LOW(0)
        FPUTUNE_SM3_EXPAND(x1, x2, x3, x0, 5);
        FPUTUNE_SM3_R4_LOW(4)
        FPUTUNE_SM3_EXPAND(x2, x3, x0, x1, 6);
        FPUTUNE_SM3_R4_LOW(8)
        FPUTUNE_SM3_EXPAND(x3, x0, x1, x2, 7);
        FPUTUNE_SM3_R4_LOW(12)
        for (int j = 16; j < 64; j += 16) {
            FPUTUNE_SM3_EXPAND(x0, x1, x2, x3, j / 4 + 4);
            FPUTUNE_SM3_R4_HIGH(j)
            if (j < 48) {
                FPUTUNE_SM3_EXPAND(x1, x2, x3, x0, j / 4 + 5);
                FPUTUNE_SM3_EXPAND(x2, x3, x0, x1, j / 4 + 6);
                FPUTUNE_SM3_EXPAND(x3, x0, x1, x2, j / 4 + 7);
            }
            FPUTUNE_SM3_R4_HIGH(j + 4)
            FPUTUNE_SM3_R4_HIGH(j + 8)
            FPUTUNE_SM3_R4_HIGH(j + 12)
        }
        a = state[0] ^= a;
        b = state[1] ^= b;
        c = state[2] ^= c;
        d = state[3] ^= d;
        e = state[4] ^= e;
        f = state[5] ^= f;
        g = state[6] ^= g;
        h = state[7] ^= h;
    }
}

#undef FPUTUNE_SM3_EXPAND
#undef FPUTUNE_SM3_ROUND
#undef FPUTUNE_SM3_XOR3
#undef FPUTUNE_SM3_MAJ
#undef FPUTUNE_SM3_CH
#undef FPUTUNE_SM3_ROUNDS4
#undef FPUTUNE_SM3_R4_LOW
#undef FPUTUNE_SM3_R4_HIGH

}  // namespace fputune::sha
