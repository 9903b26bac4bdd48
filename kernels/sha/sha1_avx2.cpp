// SPDX-License-Identifier: MIT
// SHA-1 block function, two blocks at a time: both blocks' message schedules in one ymm register
// (one per 128-bit lane), rounds in scalar registers with rorx. Requires AVX2, BMI1 (andn) and BMI2.
#include <immintrin.h>

#include "sha.hpp"
#include "sha_consts.hpp"

namespace fputune::sha {
namespace {

#include "sha1_rounds.inc"

inline __m256i rol_epi32(__m256i x, int n) { return _mm256_or_si256(_mm256_slli_epi32(x, n), _mm256_srli_epi32(x, 32 - n)); }

// Group g (words 4g..4g+3) of the schedule, W+K stored. Groups 4..7: W[t] = rol1(W[t-3]^W[t-8]^
// W[t-14]^W[t-16]), where lane 3 needs W[t] of lane 0: computed with 0 there, then fixed by
// xoring rol2 of lane 0's pre-rotate value (rol1 of rol1). Groups 8..19 use the equivalent
// W[t] = rol2(W[t-6]^W[t-16]^W[t-28]^W[t-32]) (Locktyukhin, Intel 2010), which has no lane dependency.
#define FPUTUNE_SHA1_SCHED(g)                                                                               \
    do {                                                                                                    \
        if constexpr ((g) < 20) {                                                                                   \
            if constexpr ((g) < 8) {                                                                                \
                const __m256i t = _mm256_xor_si256(_mm256_xor_si256(w[(g) - 4], _mm256_alignr_epi8(w[(g) - 3], w[(g) - 4], 8)), \
                                                _mm256_xor_si256(w[(g) - 2], _mm256_srli_si256(w[(g) - 1], 4)));   \
                w[g] = _mm256_xor_si256(rol_epi32(t, 1), rol_epi32(_mm256_slli_si256(t, 12), 2));                 \
            } else {                                                                                        \
                const __m256i t = _mm256_xor_si256(_mm256_xor_si256(_mm256_alignr_epi8(w[(g) - 1], w[(g) - 2], 8), w[(g) - 4]), \
                                                _mm256_xor_si256(w[(g) - 7], w[(g) - 8]));                     \
                w[g] = rol_epi32(t, 2);                                                                     \
            }                                                                                               \
            _mm256_store_si256(reinterpret_cast<__m256i*>(wk + 8 * (g)), _mm256_add_epi32(w[g], _mm256_set1_epi32(static_cast<int>(kSha1K[(g) / 5])))); \
        }                                                                                                   \
    } while (0)

// W+K of round i: group i/4 holds block 1's four words, then block 2's.
#define FPUTUNE_WK(i) wkr[8 * ((i) / 4) + (i) % 4]
#define FPUTUNE_WK2(i) wkr[8 * ((i) / 4) + (i) % 4 + 4]
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

void sha1_blocks_avx2(std::uint32_t state[5], const std::uint8_t* data, std::size_t nblocks) noexcept {
    const __m256i bswap = _mm256_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL,
                                            0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    alignas(32) std::uint32_t wk[160];
    // Rounds read W+K through a pointer the compiler cannot see through: otherwise it forwards the
    // vector stores to the rounds with vpextrd (slow, and it runs out of registers doing so).
    const std::uint32_t* wkr = wk;
    asm("" : "+r"(wkr));
    std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3], e = state[4];
    while (nblocks) {
        // With one block left, its data fills both lanes and only the first is used.
        const std::uint8_t* second = nblocks >= 2 ? data + 64 : data;
        __m256i w[24];
        for (int i = 0; i < 4; ++i) {
            const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 16 * i));
            const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(second + 16 * i));
            w[i] = _mm256_shuffle_epi8(_mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1), bswap);
            _mm256_store_si256(reinterpret_cast<__m256i*>(wk + 8 * i), _mm256_add_epi32(w[i], _mm256_set1_epi32(static_cast<int>(kSha1K[0]))));
        }
        // Block 1, the schedule of both blocks threaded between its rounds.
        FPUTUNE_SHA1_CHUNK(FPUTUNE_SHA1_CH, 0)
        FPUTUNE_SHA1_CHUNK(FPUTUNE_SHA1_PAR, 1)
        FPUTUNE_SHA1_CHUNK(FPUTUNE_SHA1_MAJ, 2)
        FPUTUNE_SHA1_CHUNK(FPUTUNE_SHA1_PAR, 3)
        a = state[0] += a;
        b = state[1] += b;
        c = state[2] += c;
        d = state[3] += d;
        e = state[4] += e;
        if (nblocks < 2) break;

        // Block 2: its schedule is already in wk.
        FPUTUNE_SHA1_ROUNDS20(FPUTUNE_SHA1_CH, FPUTUNE_WK2, 0)
        FPUTUNE_SHA1_ROUNDS20(FPUTUNE_SHA1_PAR, FPUTUNE_WK2, 20)
        FPUTUNE_SHA1_ROUNDS20(FPUTUNE_SHA1_MAJ, FPUTUNE_WK2, 40)
        FPUTUNE_SHA1_ROUNDS20(FPUTUNE_SHA1_PAR, FPUTUNE_WK2, 60)
        a = state[0] += a;
        b = state[1] += b;
        c = state[2] += c;
        d = state[3] += d;
        e = state[4] += e;
        data += 128;
        nblocks -= 2;
    }
}

#undef FPUTUNE_SHA1_SCHED
#undef FPUTUNE_SHA1_CHUNK
#undef FPUTUNE_WK
#undef FPUTUNE_WK2

}  // namespace fputune::sha
