// SPDX-License-Identifier: MIT
// SHA-224/256 block function with the SHA extensions (sha256rnds2/msg1/msg2). Requires SHA, SSSE3, SSE4.1.
#include <immintrin.h>

#include "sha.hpp"
#include "sha_consts.hpp"

namespace fputune::sha {
namespace {

// Four rounds on message group c: sha256rnds2 does two rounds with the low two words of msg+K, the
// shuffle moves the high two down for the next two.
#define FPUTUNE_RNDS4(c, g)                                                                                  \
    do {                                                                                                     \
        __m128i wk = _mm_add_epi32(c, _mm_load_si128(reinterpret_cast<const __m128i*>(kSha256K + 4 * (g)))); \
        cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);                                                        \
        wk = _mm_shuffle_epi32(wk, 0x0e);                                                                    \
        abef = _mm_sha256rnds2_epu32(abef, cdgh, wk);                                                        \
    } while (0)
// Completes group n (= g+1) from c (group g) and p (group g-1): W[t-7..t-4] is alignr(c, p, 4); msg2
// adds sigma1 of the two previous words.
#define FPUTUNE_NEXT(n, c, p)                           \
    do {                                                \
        n = _mm_add_epi32(n, _mm_alignr_epi8(c, p, 4)); \
        n = _mm_sha256msg2_epu32(n, c);                 \
    } while (0)

}  // namespace

void sha256_blocks_shani(std::uint32_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept {
    // Big-endian words within each 16-byte load.
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    // The instructions keep the state as ABEF / CDGH (A in the high word).
    __m128i dcba = _mm_loadu_si128(reinterpret_cast<const __m128i*>(state));
    __m128i hgfe = _mm_loadu_si128(reinterpret_cast<const __m128i*>(state + 4));
    __m128i cdab = _mm_shuffle_epi32(dcba, 0xb1);
    __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1b);
    __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
    __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xf0);

    for (; nblocks; --nblocks, data += 64) {
        const __m128i abef_saved = abef, cdgh_saved = cdgh;
        __m128i m0 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data)), bswap);
        __m128i m1 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 16)), bswap);
        __m128i m2 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 32)), bswap);
        __m128i m3 = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 48)), bswap);

        FPUTUNE_RNDS4(m0, 0);
        FPUTUNE_RNDS4(m1, 1);
        m0 = _mm_sha256msg1_epu32(m0, m1);
        FPUTUNE_RNDS4(m2, 2);
        m1 = _mm_sha256msg1_epu32(m1, m2);
        // Groups 3..12: rounds on c, complete the next group, start the one three ahead (msg1 on p).
        FPUTUNE_RNDS4(m3, 3);
        FPUTUNE_NEXT(m0, m3, m2);
        m2 = _mm_sha256msg1_epu32(m2, m3);
        FPUTUNE_RNDS4(m0, 4);
        FPUTUNE_NEXT(m1, m0, m3);
        m3 = _mm_sha256msg1_epu32(m3, m0);
        FPUTUNE_RNDS4(m1, 5);
        FPUTUNE_NEXT(m2, m1, m0);
        m0 = _mm_sha256msg1_epu32(m0, m1);
        FPUTUNE_RNDS4(m2, 6);
        FPUTUNE_NEXT(m3, m2, m1);
        m1 = _mm_sha256msg1_epu32(m1, m2);
        FPUTUNE_RNDS4(m3, 7);
        FPUTUNE_NEXT(m0, m3, m2);
        m2 = _mm_sha256msg1_epu32(m2, m3);
        FPUTUNE_RNDS4(m0, 8);
        FPUTUNE_NEXT(m1, m0, m3);
        m3 = _mm_sha256msg1_epu32(m3, m0);
        FPUTUNE_RNDS4(m1, 9);
        FPUTUNE_NEXT(m2, m1, m0);
        m0 = _mm_sha256msg1_epu32(m0, m1);
        FPUTUNE_RNDS4(m2, 10);
        FPUTUNE_NEXT(m3, m2, m1);
        m1 = _mm_sha256msg1_epu32(m1, m2);
        FPUTUNE_RNDS4(m3, 11);
        FPUTUNE_NEXT(m0, m3, m2);
        m2 = _mm_sha256msg1_epu32(m2, m3);
        FPUTUNE_RNDS4(m0, 12);
        FPUTUNE_NEXT(m1, m0, m3);
        m3 = _mm_sha256msg1_epu32(m3, m0);
        FPUTUNE_RNDS4(m1, 13);
        FPUTUNE_NEXT(m2, m1, m0);
        FPUTUNE_RNDS4(m2, 14);
        FPUTUNE_NEXT(m3, m2, m1);
        FPUTUNE_RNDS4(m3, 15);

        abef = _mm_add_epi32(abef, abef_saved);
        cdgh = _mm_add_epi32(cdgh, cdgh_saved);
    }

    const __m128i feba = _mm_shuffle_epi32(abef, 0x1b);
    const __m128i dchg = _mm_shuffle_epi32(cdgh, 0xb1);
    dcba = _mm_blend_epi16(feba, dchg, 0xf0);
    hgfe = _mm_alignr_epi8(dchg, feba, 8);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(state), dcba);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(state + 4), hgfe);
}

#undef FPUTUNE_RNDS4
#undef FPUTUNE_NEXT

}  // namespace fputune::sha
