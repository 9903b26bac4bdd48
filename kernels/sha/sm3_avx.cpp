// SPDX-License-Identifier: MIT
// SM3 block function with the message expansion (W and W') in xmm registers, 4 words at a time, one
// block ahead of the compression rounds, which run in scalar registers with rorx. Requires AVX, BMI1
// and BMI2 (as Linux's sm3-avx).
//
// The SM3 round is latency-bound: E -> E' is an add, a rotate, an add and P0 (three deep), plus one
// more add where GG is Ch (rounds 16..63), about 7 cycles, whatever the width. Moving the expansion
// to vectors frees ALU slots this loop barely needs, so the gain over a good scalar version is small
// (a few percent here); it only shows when the expansion's own serial chain is off the rounds' path.
//
// Compiled with -fschedule-insns (kernels/sha/CMakeLists.txt): GCC's default -O3 does not schedule
// before register allocation on x86, and the rounds as it then lays them out ran 1.12x the kernel's
// sm3-avx-asm_64.S (Emerald Rapids, 16 KiB); scheduled first, 1.06x. With the expansion taken out
// (wrong digests, timing only) the scheduled rounds alone ran 1.03x: most of the rest is the expansion,
// 4 words per xmm with a fix-up of lane 3, where the kernel computes 3 words per xmm.
#include <immintrin.h>

#include "sha.hpp"
#include "sha_consts.hpp"

namespace fputune::sha {
namespace {

inline std::uint32_t rol32(std::uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }
inline __m128i rol_epi32(__m128i x, int n) { return _mm_or_si128(_mm_slli_epi32(x, n), _mm_srli_epi32(x, 32 - n)); }
inline __m128i p1_epi32(__m128i x) { return _mm_xor_si128(x, _mm_xor_si128(rol_epi32(x, 15), rol_epi32(x, 23))); }
// P1(x <<< 15) = (x <<< 15) ^ (x <<< 30) ^ (x <<< 6): six independent shifts, a shallow xor tree.
inline __m128i p1rol15_epi32(__m128i x) {
    const __m128i a = _mm_xor_si128(_mm_slli_epi32(x, 15), _mm_srli_epi32(x, 17));
    const __m128i b = _mm_xor_si128(_mm_slli_epi32(x, 30), _mm_srli_epi32(x, 2));
    const __m128i c = _mm_xor_si128(_mm_slli_epi32(x, 6), _mm_srli_epi32(x, 26));
    return _mm_xor_si128(_mm_xor_si128(a, b), c);
}

// W[j..j+3] into x0 from x0..x3 = W[j-16..j-1]:
//   W[j] = P1(W[j-16] ^ W[j-9] ^ (W[j-3] <<< 15)) ^ (W[j-13] <<< 7) ^ W[j-6].
// P1 is linear over xor, so the term from the previous group (the serial chain) is taken apart as
// P1(W[j-3] <<< 15) and computed in one shallow step; the rest does not wait for it. Lane 3 needs W[j]
// (lane 0) through W[j-3]: computed with 0 there, then fixed by xoring P1(W[j] <<< 15) into it.
// W' of the previous group (W ^ W of the next) is stored with it.
#define FPUTUNE_SM3_EXPAND(x0, x1, x2, x3, grp)                                                                      \
    do {                                                                                                             \
        const __m128i xoff = _mm_xor_si128(x0, _mm_alignr_epi8(x2, x1, 12));                                         \
        const __m128i zoff = _mm_xor_si128(_mm_xor_si128(p1_epi32(xoff), rol_epi32(_mm_alignr_epi8(x1, x0, 12), 7)), \
                                           _mm_alignr_epi8(x3, x2, 8));                                              \
        __m128i w_ = _mm_xor_si128(zoff, p1rol15_epi32(_mm_srli_si128(x3, 4)));                                      \
        w_ = _mm_xor_si128(w_, p1rol15_epi32(_mm_slli_si128(w_, 12)));                                               \
        x0 = w_;                                                                                                     \
        _mm_store_si128(reinterpret_cast<__m128i*>(w + 4 * (grp)), w_);                                              \
        _mm_store_si128(reinterpret_cast<__m128i*>(wp + 4 * (grp)-4), _mm_xor_si128(x3, w_));                        \
    } while (0)

// One round; the caller rotates the names (A B C D E F G H) -> (D A B C H E F G) each round, so only
// B, D, F, H are written: D takes the new A, H the new E.
#define FPUTUNE_SM3_ROUND(a, b, c, d, e, f, g, h, j, FF, GG)       \
    do {                                                           \
        const std::uint32_t a12 = rol32(a, 12);                    \
        /* e arrives last: add it last, and SS1 last into TT2 */   \
        const std::uint32_t ss1 = rol32((a12 + kSm3Tj[j]) + e, 7); \
        d += FF(a, b, c) + (ss1 ^ a12) + wr[68 + (j)];             \
        h += GG(e, f, g) + wr[j];                                  \
        h += ss1;                                                  \
        h = h ^ rol32(h, 9) ^ rol32(h, 17);                        \
        b = rol32(b, 9);                                           \
        f = rol32(f, 19);                                          \
    } while (0)
#define FPUTUNE_SM3_XOR3(x, y, z) ((x) ^ (y) ^ (z))
#define FPUTUNE_SM3_MAJ(x, y, z) (((x) & (y)) | (((x) | (y)) & (z)))
#define FPUTUNE_SM3_CH(x, y, z) ((((y) ^ (z)) & (x)) ^ (z))
#define FPUTUNE_SM3_ROUNDS4(j, FF, GG)                          \
    FPUTUNE_SM3_ROUND(a, b, c, d, e, f, g, h, (j) + 0, FF, GG); \
    FPUTUNE_SM3_ROUND(d, a, b, c, h, e, f, g, (j) + 1, FF, GG); \
    FPUTUNE_SM3_ROUND(c, d, a, b, g, h, e, f, (j) + 2, FF, GG); \
    FPUTUNE_SM3_ROUND(b, c, d, a, f, g, h, e, (j) + 3, FF, GG);
#define FPUTUNE_SM3_R4_LOW(j) FPUTUNE_SM3_ROUNDS4(j, FPUTUNE_SM3_XOR3, FPUTUNE_SM3_XOR3)
#define FPUTUNE_SM3_R4_HIGH(j) FPUTUNE_SM3_ROUNDS4(j, FPUTUNE_SM3_MAJ, FPUTUNE_SM3_CH)

}  // namespace

// Loads a block into x0..x3 and stores its first 16 words and the first 12 of W' into w / wp.
#define FPUTUNE_SM3_LOAD(p)                                                                        \
    do {                                                                                           \
        x0 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), bswap);        \
        x1 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>((p) + 16)), bswap); \
        x2 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>((p) + 32)), bswap); \
        x3 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>((p) + 48)), bswap); \
        _mm_store_si128(reinterpret_cast<__m128i*>(w), x0);                                        \
        _mm_store_si128(reinterpret_cast<__m128i*>(w + 4), x1);                                    \
        _mm_store_si128(reinterpret_cast<__m128i*>(w + 8), x2);                                    \
        _mm_store_si128(reinterpret_cast<__m128i*>(w + 12), x3);                                   \
        _mm_store_si128(reinterpret_cast<__m128i*>(wp), _mm_xor_si128(x0, x1));                    \
        _mm_store_si128(reinterpret_cast<__m128i*>(wp + 4), _mm_xor_si128(x1, x2));                \
        _mm_store_si128(reinterpret_cast<__m128i*>(wp + 8), _mm_xor_si128(x2, x3));                \
    } while (0)

void sm3_blocks_avx(std::uint32_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept {
    if (nblocks == 0) return;
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    // Two buffers of W[0..67] then W'[0..63]: the expansion of the next block runs during the rounds of
    // this one, so its serial latency is hidden.
    alignas(16) std::uint32_t wbuf[2][68 + 64];
    unsigned cur = 0;
    __m128i x0, x1, x2, x3;
    {
        std::uint32_t* const w = wbuf[0];
        std::uint32_t* const wp = w + 68;
        FPUTUNE_SM3_LOAD(data);
        FPUTUNE_SM3_EXPAND(x0, x1, x2, x3, 4);
        FPUTUNE_SM3_EXPAND(x1, x2, x3, x0, 5);
        FPUTUNE_SM3_EXPAND(x2, x3, x0, x1, 6);
        FPUTUNE_SM3_EXPAND(x3, x0, x1, x2, 7);
        FPUTUNE_SM3_EXPAND(x0, x1, x2, x3, 8);
        FPUTUNE_SM3_EXPAND(x1, x2, x3, x0, 9);
        FPUTUNE_SM3_EXPAND(x2, x3, x0, x1, 10);
        FPUTUNE_SM3_EXPAND(x3, x0, x1, x2, 11);
        FPUTUNE_SM3_EXPAND(x0, x1, x2, x3, 12);
        FPUTUNE_SM3_EXPAND(x1, x2, x3, x0, 13);
        FPUTUNE_SM3_EXPAND(x2, x3, x0, x1, 14);
        FPUTUNE_SM3_EXPAND(x3, x0, x1, x2, 15);
        FPUTUNE_SM3_EXPAND(x0, x1, x2, x3, 16);
    }
    std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    std::uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
    for (;;) {
        // Rounds read through a pointer the compiler cannot see through (no forwarding via vpextrd).
        const std::uint32_t* wr = wbuf[cur];
        asm("" : "+r"(wr));
        // The next block's expansion, or this block's again after the last (discarded, no read past
        // the input).
        std::uint32_t* const w = wbuf[cur ^ 1];
        std::uint32_t* const wp = w + 68;
        FPUTUNE_SM3_LOAD(nblocks > 1 ? data + 64 : data);
        FPUTUNE_SM3_R4_LOW(0)
        FPUTUNE_SM3_EXPAND(x0, x1, x2, x3, 4);
        FPUTUNE_SM3_R4_LOW(4)
        FPUTUNE_SM3_EXPAND(x1, x2, x3, x0, 5);
        FPUTUNE_SM3_R4_LOW(8)
        FPUTUNE_SM3_EXPAND(x2, x3, x0, x1, 6);
        FPUTUNE_SM3_R4_LOW(12)
        FPUTUNE_SM3_EXPAND(x3, x0, x1, x2, 7);
        FPUTUNE_SM3_R4_HIGH(16)
        FPUTUNE_SM3_EXPAND(x0, x1, x2, x3, 8);
        FPUTUNE_SM3_R4_HIGH(20)
        FPUTUNE_SM3_EXPAND(x1, x2, x3, x0, 9);
        FPUTUNE_SM3_R4_HIGH(24)
        FPUTUNE_SM3_EXPAND(x2, x3, x0, x1, 10);
        FPUTUNE_SM3_R4_HIGH(28)
        FPUTUNE_SM3_EXPAND(x3, x0, x1, x2, 11);
        FPUTUNE_SM3_R4_HIGH(32)
        FPUTUNE_SM3_EXPAND(x0, x1, x2, x3, 12);
        FPUTUNE_SM3_R4_HIGH(36)
        FPUTUNE_SM3_EXPAND(x1, x2, x3, x0, 13);
        FPUTUNE_SM3_R4_HIGH(40)
        FPUTUNE_SM3_EXPAND(x2, x3, x0, x1, 14);
        FPUTUNE_SM3_R4_HIGH(44)
        FPUTUNE_SM3_EXPAND(x3, x0, x1, x2, 15);
        FPUTUNE_SM3_R4_HIGH(48)
        FPUTUNE_SM3_EXPAND(x0, x1, x2, x3, 16);
        FPUTUNE_SM3_R4_HIGH(52)
        FPUTUNE_SM3_R4_HIGH(56)
        FPUTUNE_SM3_R4_HIGH(60)
        a = state[0] ^= a;
        b = state[1] ^= b;
        c = state[2] ^= c;
        d = state[3] ^= d;
        e = state[4] ^= e;
        f = state[5] ^= f;
        g = state[6] ^= g;
        h = state[7] ^= h;
        if (--nblocks == 0) break;
        data += 64;
        cur ^= 1;
    }
}

#undef FPUTUNE_SM3_LOAD
#undef FPUTUNE_SM3_EXPAND
#undef FPUTUNE_SM3_ROUND
#undef FPUTUNE_SM3_XOR3
#undef FPUTUNE_SM3_MAJ
#undef FPUTUNE_SM3_CH
#undef FPUTUNE_SM3_ROUNDS4
#undef FPUTUNE_SM3_R4_LOW
#undef FPUTUNE_SM3_R4_HIGH

}  // namespace fputune::sha
