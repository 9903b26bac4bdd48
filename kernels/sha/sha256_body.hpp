// SPDX-License-Identifier: MIT
// SHA-256 block function body with the message schedule in one xmm register (4 words at a time) and
// the rounds in scalar registers: shared by sha256_ssse3.cpp (-mssse3, SSE encoding) and
// sha256_avx.cpp (-mavx, VEX encoding). Included inside an anonymous namespace.

#include "sha256_rounds.inc"

// Next four schedule words into x0 (see sha256_avx2.cpp for the sigma tricks) and their W+K into wk.
#define FPUTUNE_SCHED_XMM(x0, x1, x2, x3, kidx, wkout)                                                    \
    do {                                                                                                  \
        const __m128i w15 = _mm_alignr_epi8(x1, x0, 4);                                                   \
        const __m128i w7 = _mm_alignr_epi8(x3, x2, 4);                                                    \
        __m128i s0a = _mm_srli_epi32(w15, 7), s0b = _mm_slli_epi32(w15, 14);                              \
        __m128i s0 = _mm_xor_si128(_mm_srli_epi32(w15, 3), s0a);                                          \
        s0 = _mm_xor_si128(s0, _mm_srli_epi32(s0a, 11));                                                  \
        s0 = _mm_xor_si128(s0, s0b);                                                                      \
        s0 = _mm_xor_si128(s0, _mm_slli_epi32(s0b, 11));                                                  \
        __m128i t = _mm_add_epi32(_mm_add_epi32(x0, w7), s0);                                             \
        __m128i d = _mm_shuffle_epi32(x3, 0xfa);                                                          \
        __m128i s1 = _mm_xor_si128(_mm_srli_epi64(d, 17), _mm_srli_epi64(d, 19));                         \
        s1 = _mm_xor_si128(s1, _mm_srli_epi32(d, 10));                                                    \
        t = _mm_add_epi32(t, _mm_shuffle_epi8(s1, shuf_00ba));                                            \
        d = _mm_shuffle_epi32(t, 0x50);                                                                   \
        s1 = _mm_xor_si128(_mm_srli_epi64(d, 17), _mm_srli_epi64(d, 19));                                 \
        s1 = _mm_xor_si128(s1, _mm_srli_epi32(d, 10));                                                    \
        x0 = _mm_add_epi32(t, _mm_shuffle_epi8(s1, shuf_dc00));                                           \
        _mm_store_si128(reinterpret_cast<__m128i*>(wkout),                                                \
                        _mm_add_epi32(x0, _mm_load_si128(reinterpret_cast<const __m128i*>(kSha256K + (kidx))))); \
    } while (0)

void sha256_blocks_xmm(std::uint32_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept {
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    const __m128i shuf_00ba = _mm_set_epi64x(-1, 0x0b0a090803020100LL);
    const __m128i shuf_dc00 = _mm_set_epi64x(0x0b0a090803020100LL, -1);
    alignas(16) std::uint32_t wk[64];

    std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    std::uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
    for (; nblocks; --nblocks, data += 64) {
        __m128i x0 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data)), bswap);
        __m128i x1 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 16)), bswap);
        __m128i x2 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 32)), bswap);
        __m128i x3 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 48)), bswap);
        _mm_store_si128(reinterpret_cast<__m128i*>(wk), _mm_add_epi32(x0, _mm_load_si128(reinterpret_cast<const __m128i*>(kSha256K))));
        _mm_store_si128(reinterpret_cast<__m128i*>(wk + 4), _mm_add_epi32(x1, _mm_load_si128(reinterpret_cast<const __m128i*>(kSha256K + 4))));
        _mm_store_si128(reinterpret_cast<__m128i*>(wk + 8), _mm_add_epi32(x2, _mm_load_si128(reinterpret_cast<const __m128i*>(kSha256K + 8))));
        _mm_store_si128(reinterpret_cast<__m128i*>(wk + 12), _mm_add_epi32(x3, _mm_load_si128(reinterpret_cast<const __m128i*>(kSha256K + 12))));

        std::uint32_t bc = b ^ c;
        for (int i = 0; i < 48; i += 16) {
            FPUTUNE_SCHED_XMM(x0, x1, x2, x3, i + 16, wk + i + 16);
            FPUTUNE_SHA256_ROUNDS4(wk, i + 0, i + 1, i + 2, i + 3)
            FPUTUNE_SCHED_XMM(x1, x2, x3, x0, i + 20, wk + i + 20);
            FPUTUNE_SHA256_ROUNDS4B(wk, i + 4, i + 5, i + 6, i + 7)
            FPUTUNE_SCHED_XMM(x2, x3, x0, x1, i + 24, wk + i + 24);
            FPUTUNE_SHA256_ROUNDS4(wk, i + 8, i + 9, i + 10, i + 11)
            FPUTUNE_SCHED_XMM(x3, x0, x1, x2, i + 28, wk + i + 28);
            FPUTUNE_SHA256_ROUNDS4B(wk, i + 12, i + 13, i + 14, i + 15)
        }
        for (int i = 48; i < 64; i += 8) {
            FPUTUNE_SHA256_ROUNDS4(wk, i + 0, i + 1, i + 2, i + 3)
            FPUTUNE_SHA256_ROUNDS4B(wk, i + 4, i + 5, i + 6, i + 7)
        }
        FPUTUNE_SHA2_STATE_ADD()
    }
}

#undef FPUTUNE_SCHED_XMM
