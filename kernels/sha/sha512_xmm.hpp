// SPDX-License-Identifier: MIT
// SHA-512 block function body with the message schedule in xmm registers (2 words at a time, no lane
// depends on the other) and the rounds in scalar registers: shared by sha512_ssse3.cpp (-mssse3) and
// sha512_avx.cpp (-mavx, VEX encoding). Everything is in an anonymous namespace: each keeps its own copy.
#pragma once

#include <immintrin.h>

#include "sha.hpp"
#include "sha_consts.hpp"

namespace fputune::sha {
namespace {

#include "sha512_rounds.inc"

// W[t..t+1] = sigma1(W[t-2..t-1]) + W[t-7..t-6] + sigma0(W[t-15..t-14]) + W[t-16..t-15] into x0, from
// x0..x7 = W[t-16..t-1]; W+K into wk. No 64-bit vector rotate before AVX-512: shift pairs.
#define FPUTUNE_SCHED512_XMM(x0, x1, x4, x5, x7, kidx)                                                           \
    do {                                                                                                         \
        const __m128i w15 = _mm_alignr_epi8(x1, x0, 8);                                                          \
        const __m128i w7 = _mm_alignr_epi8(x5, x4, 8);                                                           \
        __m128i s0 = _mm_xor_si128(_mm_srli_epi64(w15, 1), _mm_slli_epi64(w15, 63));                             \
        s0 = _mm_xor_si128(s0, _mm_xor_si128(_mm_srli_epi64(w15, 8), _mm_slli_epi64(w15, 56)));                  \
        s0 = _mm_xor_si128(s0, _mm_srli_epi64(w15, 7));                                                          \
        __m128i s1 = _mm_xor_si128(_mm_srli_epi64(x7, 19), _mm_slli_epi64(x7, 45));                              \
        s1 = _mm_xor_si128(s1, _mm_xor_si128(_mm_srli_epi64(x7, 61), _mm_slli_epi64(x7, 3)));                    \
        s1 = _mm_xor_si128(s1, _mm_srli_epi64(x7, 6));                                                           \
        x0 = _mm_add_epi64(_mm_add_epi64(x0, w7), _mm_add_epi64(s0, s1));                                        \
        _mm_store_si128(reinterpret_cast<__m128i*>(wk + (kidx)),                                                 \
                        _mm_add_epi64(x0, _mm_load_si128(reinterpret_cast<const __m128i*>(kSha512K + (kidx))))); \
    } while (0)

#define FPUTUNE_WK(i) wk[i]

void sha512_blocks_xmm(std::uint64_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept {
    const __m128i bswap = _mm_set_epi64x(0x08090a0b0c0d0e0fULL, 0x0001020304050607ULL);
    alignas(16) std::uint64_t wk[80];

    std::uint64_t a = state[0], b = state[1], c = state[2], d = state[3];
    std::uint64_t e = state[4], f = state[5], g = state[6], h = state[7];
    for (; nblocks; --nblocks, data += 128) {
        __m128i x[8];
        for (int i = 0; i < 8; ++i) {
            x[i] = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 16 * i)), bswap);
            _mm_store_si128(reinterpret_cast<__m128i*>(wk + 2 * i),
                            _mm_add_epi64(x[i], _mm_load_si128(reinterpret_cast<const __m128i*>(kSha512K + 2 * i))));
        }
        __m128i x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3], x4 = x[4], x5 = x[5], x6 = x[6], x7 = x[7];

        std::uint64_t bc = b ^ c;
        // Rounds i..i+15 with the schedule of words i+16..i+31 threaded between.
        for (int i = 0; i < 64; i += 16) {
            FPUTUNE_SCHED512_XMM(x0, x1, x4, x5, x7, i + 16);
            FPUTUNE_SCHED512_XMM(x1, x2, x5, x6, x0, i + 18);
            FPUTUNE_SCHED512_XMM(x2, x3, x6, x7, x1, i + 20);
            FPUTUNE_SCHED512_XMM(x3, x4, x7, x0, x2, i + 22);
            FPUTUNE_SHA512_ROUNDS8(FPUTUNE_WK, i)
            FPUTUNE_SCHED512_XMM(x4, x5, x0, x1, x3, i + 24);
            FPUTUNE_SCHED512_XMM(x5, x6, x1, x2, x4, i + 26);
            FPUTUNE_SCHED512_XMM(x6, x7, x2, x3, x5, i + 28);
            FPUTUNE_SCHED512_XMM(x7, x0, x3, x4, x6, i + 30);
            FPUTUNE_SHA512_ROUNDS8(FPUTUNE_WK, i + 8)
        }
        FPUTUNE_SHA512_ROUNDS8(FPUTUNE_WK, 64)
        FPUTUNE_SHA512_ROUNDS8(FPUTUNE_WK, 72)
        FPUTUNE_SHA2_STATE_ADD()
    }
}

#undef FPUTUNE_SCHED512_XMM
#undef FPUTUNE_WK

}  // namespace
}  // namespace fputune::sha
