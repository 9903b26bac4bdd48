// SPDX-License-Identifier: MIT
// SHA-1 block function with the SHA extensions (sha1rnds4/nexte/msg1/msg2). Requires SHA, SSSE3, SSE4.1.
#include <immintrin.h>

#include "sha.hpp"

namespace fputune::sha {

// Group g = rounds 4g..4g+3 on message words c. The E value for the next four rounds is derived from
// the A of these (sha1nexte), so two E registers alternate. Message group G is built in three steps
// spread over groups G-3 (msg1: W[t-16]^W[t-14]), G-2 (xor W[t-8]) and G-1 (msg2: W[t-3], rotate).
#define FPUTUNE_SHA1_RNDS4(ecur, enext, c, f)      \
    do {                                           \
        ecur = _mm_sha1nexte_epu32(ecur, c);       \
        enext = abcd;                              \
        abcd = _mm_sha1rnds4_epu32(abcd, ecur, f); \
    } while (0)

void sha1_blocks_shani(std::uint32_t state[5], const std::uint8_t* data, std::size_t nblocks) noexcept {
    // Whole-register byte reversal: big-endian words, and W0 in the high lane as the instructions want.
    const __m128i bswap = _mm_set_epi64x(0x0001020304050607ULL, 0x08090a0b0c0d0e0fULL);
    __m128i abcd = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(state)), 0x1b);
    __m128i e0 = _mm_set_epi32(static_cast<int>(state[4]), 0, 0, 0);
    __m128i e1;

    for (; nblocks; --nblocks, data += 64) {
        const __m128i abcd_saved = abcd, e_saved = e0;
        __m128i m0 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data)), bswap);
        __m128i m1 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 16)), bswap);
        __m128i m2 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 32)), bswap);
        __m128i m3 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 48)), bswap);

        // Group 0: E is the saved e, added to W directly.
        e0 = _mm_add_epi32(e0, m0);
        e1 = abcd;
        abcd = _mm_sha1rnds4_epu32(abcd, e0, 0);
        FPUTUNE_SHA1_RNDS4(e1, e0, m1, 0);
        m0 = _mm_sha1msg1_epu32(m0, m1);
        FPUTUNE_SHA1_RNDS4(e0, e1, m2, 0);
        m1 = _mm_sha1msg1_epu32(m1, m2);
        m0 = _mm_xor_si128(m0, m2);
        // Groups 3..16: msg2 completes g+1, xor advances g+2, msg1 starts g+3.
#define FPUTUNE_SHA1_FULL(ecur, enext, c, n, x, p, f) \
    ecur = _mm_sha1nexte_epu32(ecur, c);              \
    enext = abcd;                                     \
    n = _mm_sha1msg2_epu32(n, c);                     \
    abcd = _mm_sha1rnds4_epu32(abcd, ecur, f);        \
    p = _mm_sha1msg1_epu32(p, c);                     \
    x = _mm_xor_si128(x, c);
        FPUTUNE_SHA1_FULL(e1, e0, m3, m0, m1, m2, 0)
        FPUTUNE_SHA1_FULL(e0, e1, m0, m1, m2, m3, 0)
        FPUTUNE_SHA1_FULL(e1, e0, m1, m2, m3, m0, 1)
        FPUTUNE_SHA1_FULL(e0, e1, m2, m3, m0, m1, 1)
        FPUTUNE_SHA1_FULL(e1, e0, m3, m0, m1, m2, 1)
        FPUTUNE_SHA1_FULL(e0, e1, m0, m1, m2, m3, 1)
        FPUTUNE_SHA1_FULL(e1, e0, m1, m2, m3, m0, 1)
        FPUTUNE_SHA1_FULL(e0, e1, m2, m3, m0, m1, 2)
        FPUTUNE_SHA1_FULL(e1, e0, m3, m0, m1, m2, 2)
        FPUTUNE_SHA1_FULL(e0, e1, m0, m1, m2, m3, 2)
        FPUTUNE_SHA1_FULL(e1, e0, m1, m2, m3, m0, 2)
        FPUTUNE_SHA1_FULL(e0, e1, m2, m3, m0, m1, 2)
        FPUTUNE_SHA1_FULL(e1, e0, m3, m0, m1, m2, 3)
        FPUTUNE_SHA1_FULL(e0, e1, m0, m1, m2, m3, 3)
#undef FPUTUNE_SHA1_FULL
        // Group 17: complete 18, advance 19.  Group 18: complete 19.  Group 19: rounds only.
        FPUTUNE_SHA1_RNDS4(e1, e0, m1, 3);
        m2 = _mm_sha1msg2_epu32(m2, m1);
        m3 = _mm_xor_si128(m3, m1);
        FPUTUNE_SHA1_RNDS4(e0, e1, m2, 3);
        m3 = _mm_sha1msg2_epu32(m3, m2);
        FPUTUNE_SHA1_RNDS4(e1, e0, m3, 3);

        e0 = _mm_sha1nexte_epu32(e0, e_saved);
        abcd = _mm_add_epi32(abcd, abcd_saved);
    }

    _mm_storeu_si128(reinterpret_cast<__m128i*>(state), _mm_shuffle_epi32(abcd, 0x1b));
    state[4] = static_cast<std::uint32_t>(_mm_extract_epi32(e0, 3));
}

#undef FPUTUNE_SHA1_RNDS4

}  // namespace fputune::sha
