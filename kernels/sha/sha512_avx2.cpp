// SPDX-License-Identifier: MIT
// SHA-384/512 block function, two blocks at a time: both blocks' message schedules in ymm registers
// (two words of one block per 128-bit lane), rounds in scalar registers with rorx. Requires AVX2, BMI1 (andn), BMI2.
#include <immintrin.h>

#include "sha_blocks.hpp"
#include "sha_consts.hpp"

namespace fputune::sha {
namespace {

#include "sha512_rounds.inc"

// As sha512_xmm.inc, each 128-bit lane for its own block; W+K of words t, t+1 of block 1 at
// wk[2t..2t+1], of block 2 at wk[2t+2..2t+3].
#define FPUTUNE_SCHED512_YMM(x0, x1, x4, x5, x7, kidx)                                                    \
    do {                                                                                                  \
        const __m256i w15 = _mm256_alignr_epi8(x1, x0, 8);                                                \
        const __m256i w7 = _mm256_alignr_epi8(x5, x4, 8);                                                 \
        __m256i s0 = _mm256_xor_si256(_mm256_srli_epi64(w15, 1), _mm256_slli_epi64(w15, 63));             \
        s0 = _mm256_xor_si256(s0, _mm256_xor_si256(_mm256_srli_epi64(w15, 8), _mm256_slli_epi64(w15, 56))); \
        s0 = _mm256_xor_si256(s0, _mm256_srli_epi64(w15, 7));                                             \
        __m256i s1 = _mm256_xor_si256(_mm256_srli_epi64(x7, 19), _mm256_slli_epi64(x7, 45));              \
        s1 = _mm256_xor_si256(s1, _mm256_xor_si256(_mm256_srli_epi64(x7, 61), _mm256_slli_epi64(x7, 3))); \
        s1 = _mm256_xor_si256(s1, _mm256_srli_epi64(x7, 6));                                              \
        x0 = _mm256_add_epi64(_mm256_add_epi64(x0, w7), _mm256_add_epi64(s0, s1));                        \
        _mm256_store_si256(reinterpret_cast<__m256i*>(wk + 2 * (kidx)),                                   \
                           _mm256_add_epi64(x0, _mm256_broadcastsi128_si256(_mm_load_si128(              \
                                                    reinterpret_cast<const __m128i*>(kSha512K + (kidx)))))); \
    } while (0)

#define FPUTUNE_WK(i) wk[2 * (i) - (i) % 2]
#define FPUTUNE_WK2(i) wk[2 * (i) - (i) % 2 + 2]

}  // namespace

void sha512_blocks_avx2(std::uint64_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept {
    const __m256i bswap = _mm256_set_epi64x(0x08090a0b0c0d0e0fULL, 0x0001020304050607ULL,
                                            0x08090a0b0c0d0e0fULL, 0x0001020304050607ULL);
    alignas(32) std::uint64_t wk[160];

    std::uint64_t a = state[0], b = state[1], c = state[2], d = state[3];
    std::uint64_t e = state[4], f = state[5], g = state[6], h = state[7];
    while (nblocks) {
        // With one block left, its data fills both lanes and only the first is used.
        const std::uint8_t* second = nblocks >= 2 ? data + 128 : data;
        __m256i x[8];
        for (int i = 0; i < 8; ++i) {
            const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 16 * i));
            const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(second + 16 * i));
            x[i] = _mm256_shuffle_epi8(_mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1), bswap);
            _mm256_store_si256(reinterpret_cast<__m256i*>(wk + 4 * i),
                               _mm256_add_epi64(x[i], _mm256_broadcastsi128_si256(_mm_load_si128(
                                                          reinterpret_cast<const __m128i*>(kSha512K + 2 * i)))));
        }
        __m256i x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3], x4 = x[4], x5 = x[5], x6 = x[6], x7 = x[7];

        // Block 1: rounds i..i+15 with the schedule of words i+16..i+31 (both blocks) threaded between.
        std::uint64_t bc = b ^ c;
        for (int i = 0; i < 64; i += 16) {
            FPUTUNE_SCHED512_YMM(x0, x1, x4, x5, x7, i + 16);
            FPUTUNE_SCHED512_YMM(x1, x2, x5, x6, x0, i + 18);
            FPUTUNE_SCHED512_YMM(x2, x3, x6, x7, x1, i + 20);
            FPUTUNE_SCHED512_YMM(x3, x4, x7, x0, x2, i + 22);
            FPUTUNE_SHA512_ROUNDS8(FPUTUNE_WK, i)
            FPUTUNE_SCHED512_YMM(x4, x5, x0, x1, x3, i + 24);
            FPUTUNE_SCHED512_YMM(x5, x6, x1, x2, x4, i + 26);
            FPUTUNE_SCHED512_YMM(x6, x7, x2, x3, x5, i + 28);
            FPUTUNE_SCHED512_YMM(x7, x0, x3, x4, x6, i + 30);
            FPUTUNE_SHA512_ROUNDS8(FPUTUNE_WK, i + 8)
        }
        FPUTUNE_SHA512_ROUNDS8(FPUTUNE_WK, 64)
        FPUTUNE_SHA512_ROUNDS8(FPUTUNE_WK, 72)
        a = state[0] += a;
        b = state[1] += b;
        c = state[2] += c;
        d = state[3] += d;
        e = state[4] += e;
        f = state[5] += f;
        g = state[6] += g;
        h = state[7] += h;
        if (nblocks < 2) break;

        // Block 2: its schedule is already in wk.
        bc = b ^ c;
        for (int i = 0; i < 80; i += 16) {
            FPUTUNE_SHA512_ROUNDS8(FPUTUNE_WK2, i)
            FPUTUNE_SHA512_ROUNDS8(FPUTUNE_WK2, i + 8)
        }
        a = state[0] += a;
        b = state[1] += b;
        c = state[2] += c;
        d = state[3] += d;
        e = state[4] += e;
        f = state[5] += f;
        g = state[6] += g;
        h = state[7] += h;
        data += 256;
        nblocks -= 2;
    }
}

#undef FPUTUNE_SCHED512_YMM
#undef FPUTUNE_WK
#undef FPUTUNE_WK2

}  // namespace fputune::sha
