// SPDX-License-Identifier: MIT
// SHA-1 block function, message schedule in xmm registers (4 words at a time), scalar rounds.
// Requires SSSE3.
#include <immintrin.h>

#include "sha.hpp"
#include "sha_consts.hpp"

namespace fputune::sha {
namespace {

#include "sha1_rounds.inc"

inline __m128i rol_epi32(__m128i x, int n) { return _mm_or_si128(_mm_slli_epi32(x, n), _mm_srli_epi32(x, 32 - n)); }

// Group g (words 4g..4g+3) of the schedule, W+K stored. Groups 4..7: W[t] = rol1(W[t-3]^W[t-8]^
// W[t-14]^W[t-16]), where lane 3 needs W[t] of lane 0: computed with 0 there, then fixed by
// xoring rol2 of lane 0's pre-rotate value (rol1 of rol1). Groups 8..19 use the equivalent
// W[t] = rol2(W[t-6]^W[t-16]^W[t-28]^W[t-32]) (Locktyukhin, Intel 2010), which has no lane dependency.
#define FPUTUNE_SHA1_SCHED(g)                                                                               \
    do {                                                                                                    \
        if constexpr ((g) < 20) {                                                                                   \
            if constexpr ((g) < 8) {                                                                                \
                const __m128i t = _mm_xor_si128(_mm_xor_si128(w[(g) - 4], _mm_alignr_epi8(w[(g) - 3], w[(g) - 4], 8)), \
                                                _mm_xor_si128(w[(g) - 2], _mm_srli_si128(w[(g) - 1], 4)));   \
                w[g] = _mm_xor_si128(rol_epi32(t, 1), rol_epi32(_mm_slli_si128(t, 12), 2));                 \
            } else {                                                                                        \
                const __m128i t = _mm_xor_si128(_mm_xor_si128(_mm_alignr_epi8(w[(g) - 1], w[(g) - 2], 8), w[(g) - 4]), \
                                                _mm_xor_si128(w[(g) - 7], w[(g) - 8]));                     \
                w[g] = rol_epi32(t, 2);                                                                     \
            }                                                                                               \
            _mm_store_si128(reinterpret_cast<__m128i*>(wk + 4 * (g)), _mm_add_epi32(w[g], _mm_set1_epi32(static_cast<int>(kSha1K[(g) / 5])))); \
        }                                                                                                   \
    } while (0)

#define FPUTUNE_WK(i) wkr[i]
// Twenty rounds with one function, the five schedule groups for later rounds threaded between.
#define FPUTUNE_SHA1_CHUNK(F, c)                                                        \
    FPUTUNE_SHA1_SCHED(5 * (c) + 4);                                                    \
    FPUTUNE_SHA1_ROUNDS5(F, FPUTUNE_WK, 20 * (c) + 0)                                   \
    FPUTUNE_SHA1_SCHED(5 * (c) + 5);                                                    \
    FPUTUNE_SHA1_ROUNDS5(F, FPUTUNE_WK, 20 * (c) + 5)                                   \
    FPUTUNE_SHA1_SCHED(5 * (c) + 6);                                                    \
    FPUTUNE_SHA1_ROUNDS5(F, FPUTUNE_WK, 20 * (c) + 10)                                  \
    FPUTUNE_SHA1_SCHED(5 * (c) + 7);                                                    \
    FPUTUNE_SHA1_ROUNDS5(F, FPUTUNE_WK, 20 * (c) + 15)                                  \
    FPUTUNE_SHA1_SCHED(5 * (c) + 8);

}  // namespace

void sha1_blocks_ssse3(std::uint32_t state[5], const std::uint8_t* data, std::size_t nblocks) noexcept {
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    alignas(16) std::uint32_t wk[80];
    // Rounds read W+K through a pointer the compiler cannot see through: otherwise it forwards the
    // vector stores to the rounds with vpextrd (slow, and it runs out of registers doing so).
    const std::uint32_t* wkr = wk;
    asm("" : "+r"(wkr));
    std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3], e = state[4];
    for (; nblocks; --nblocks, data += 64) {
        __m128i w[24];
        for (int i = 0; i < 4; ++i) {
            w[i] = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 16 * i)), bswap);
            _mm_store_si128(reinterpret_cast<__m128i*>(wk + 4 * i), _mm_add_epi32(w[i], _mm_set1_epi32(static_cast<int>(kSha1K[0]))));
        }
        FPUTUNE_SHA1_CHUNK(FPUTUNE_SHA1_CH, 0)
        FPUTUNE_SHA1_CHUNK(FPUTUNE_SHA1_PAR, 1)
        FPUTUNE_SHA1_CHUNK(FPUTUNE_SHA1_MAJ, 2)
        FPUTUNE_SHA1_CHUNK(FPUTUNE_SHA1_PAR, 3)
        a = state[0] += a;
        b = state[1] += b;
        c = state[2] += c;
        d = state[3] += d;
        e = state[4] += e;
    }
}

#undef FPUTUNE_SHA1_SCHED
#undef FPUTUNE_SHA1_CHUNK
#undef FPUTUNE_WK

}  // namespace fputune::sha
