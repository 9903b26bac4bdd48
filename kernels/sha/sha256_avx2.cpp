// SPDX-License-Identifier: MIT
// SHA-224/256 block function, two blocks at a time: both blocks' message schedules in one ymm register
// (one per 128-bit lane), rounds in scalar registers with rorx. Requires AVX2, BMI1 (andn) and BMI2.
#include <immintrin.h>

#include "sha.hpp"
#include "sha_consts.hpp"

namespace fputune::sha {
namespace {

#include "sha256_rounds.inc"

// Next four schedule words W[t..t+3] of each lane into x0, from x0..x3 = W[t-16..t-1], and their W+K
// into wk. sigma1 of W[t-2], W[t-1] gives words t, t+1; those give t+2, t+3. sigma1's rotates come
// from 64-bit shifts of each word duplicated into a qword (low dword = the rotate).
#define FPUTUNE_SCHED(x0, x1, x2, x3, kidx, wkout)                                                        \
    do {                                                                                                  \
        const __m256i w15 = _mm256_alignr_epi8(x1, x0, 4);                                                \
        const __m256i w7 = _mm256_alignr_epi8(x3, x2, 4);                                                 \
        __m256i s0a = _mm256_srli_epi32(w15, 7), s0b = _mm256_slli_epi32(w15, 14);                        \
        __m256i s0 = _mm256_xor_si256(_mm256_srli_epi32(w15, 3), s0a);                                    \
        s0 = _mm256_xor_si256(s0, _mm256_srli_epi32(s0a, 11));                                            \
        s0 = _mm256_xor_si256(s0, s0b);                                                                   \
        s0 = _mm256_xor_si256(s0, _mm256_slli_epi32(s0b, 11));                                            \
        __m256i t = _mm256_add_epi32(_mm256_add_epi32(x0, w7), s0);                                       \
        __m256i d = _mm256_shuffle_epi32(x3, 0xfa); /* W14 W14 W15 W15 */                                 \
        __m256i s1 = _mm256_xor_si256(_mm256_srli_epi64(d, 17), _mm256_srli_epi64(d, 19));                \
        s1 = _mm256_xor_si256(s1, _mm256_srli_epi32(d, 10));                                              \
        t = _mm256_add_epi32(t, _mm256_shuffle_epi8(s1, shuf_00ba));                                      \
        d = _mm256_shuffle_epi32(t, 0x50); /* W0 W0 W1 W1 */                                              \
        s1 = _mm256_xor_si256(_mm256_srli_epi64(d, 17), _mm256_srli_epi64(d, 19));                        \
        s1 = _mm256_xor_si256(s1, _mm256_srli_epi32(d, 10));                                              \
        x0 = _mm256_add_epi32(t, _mm256_shuffle_epi8(s1, shuf_dc00));                                     \
        _mm256_store_si256(reinterpret_cast<__m256i*>(wkout),                                             \
                           _mm256_add_epi32(x0, _mm256_broadcastsi128_si256(_mm_load_si128(              \
                                                    reinterpret_cast<const __m128i*>(kSha256K + (kidx)))))); \
    } while (0)

}  // namespace

void sha256_blocks_avx2(std::uint32_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept {
    const __m256i bswap = _mm256_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL,
                                            0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    // Pack dwords 0 and 2 into lanes 0,1 (00BA) or 2,3 (DC00), zeroing the rest (index bit 7 set).
    const __m256i shuf_00ba = _mm256_set_epi64x(-1, 0x0b0a090803020100LL, -1, 0x0b0a090803020100LL);
    const __m256i shuf_dc00 = _mm256_set_epi64x(0x0b0a090803020100LL, -1, 0x0b0a090803020100LL, -1);
    // W+K of both blocks: group g (4 words) of block 1 at [8g..8g+3], of block 2 at [8g+4..8g+7].
    alignas(32) std::uint32_t wk[128];

    std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    std::uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
    while (nblocks) {
        // With one block left, its data fills both lanes and only the first is used.
        const std::uint8_t* second = nblocks >= 2 ? data + 64 : data;
        __m256i x[4];
        for (int i = 0; i < 4; ++i) {
            const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 16 * i));
            const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(second + 16 * i));
            x[i] = _mm256_shuffle_epi8(_mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1), bswap);
            _mm256_store_si256(reinterpret_cast<__m256i*>(wk + 8 * i),
                               _mm256_add_epi32(x[i], _mm256_broadcastsi128_si256(_mm_load_si128(
                                                          reinterpret_cast<const __m128i*>(kSha256K + 4 * i)))));
        }
        __m256i x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3];

        // Block 1: rounds of group i interleaved with the schedule of group i+4 (both blocks).
        std::uint32_t bc = b ^ c;
        for (int i = 0; i < 48; i += 16) {
            FPUTUNE_SCHED(x0, x1, x2, x3, i + 16, wk + 2 * (i + 16));
            FPUTUNE_SHA256_ROUNDS4(wk, 2 * i + 0, 2 * i + 1, 2 * i + 2, 2 * i + 3)
            FPUTUNE_SCHED(x1, x2, x3, x0, i + 20, wk + 2 * (i + 20));
            FPUTUNE_SHA256_ROUNDS4B(wk, 2 * i + 8, 2 * i + 9, 2 * i + 10, 2 * i + 11)
            FPUTUNE_SCHED(x2, x3, x0, x1, i + 24, wk + 2 * (i + 24));
            FPUTUNE_SHA256_ROUNDS4(wk, 2 * i + 16, 2 * i + 17, 2 * i + 18, 2 * i + 19)
            FPUTUNE_SCHED(x3, x0, x1, x2, i + 28, wk + 2 * (i + 28));
            FPUTUNE_SHA256_ROUNDS4B(wk, 2 * i + 24, 2 * i + 25, 2 * i + 26, 2 * i + 27)
        }
        for (int i = 48; i < 64; i += 8) {
            FPUTUNE_SHA256_ROUNDS4(wk, 2 * i + 0, 2 * i + 1, 2 * i + 2, 2 * i + 3)
            FPUTUNE_SHA256_ROUNDS4B(wk, 2 * i + 8, 2 * i + 9, 2 * i + 10, 2 * i + 11)
        }
        FPUTUNE_SHA2_STATE_ADD()
        if (nblocks < 2) break;

        // Block 2: its schedule is already in wk.
        bc = b ^ c;
        for (int i = 0; i < 64; i += 8) {
            FPUTUNE_SHA256_ROUNDS4(wk, 2 * i + 4, 2 * i + 5, 2 * i + 6, 2 * i + 7)
            FPUTUNE_SHA256_ROUNDS4B(wk, 2 * i + 12, 2 * i + 13, 2 * i + 14, 2 * i + 15)
        }
        FPUTUNE_SHA2_STATE_ADD()
        data += 128;
        nblocks -= 2;
    }
}

#undef FPUTUNE_SCHED

}  // namespace fputune::sha
