// SPDX-License-Identifier: MIT
// SHA-256 block function for two independent chains at once with the SHA extensions: the rounds of the two
// are interleaved so that a core with more than one SHA unit (AMD: two sha256rnds2 in flight on Zen 1 and
// Zen 5, four on Zen 4, Biggers 2025) overlaps them; one chain alone waits on each sha256rnds2's latency.
// Every step is done for chain a, then for chain b.
// Requires SHA, SSSE3, SSE4.1.
#include <immintrin.h>

#include "sha.hpp"
#include "sha_consts.hpp"

namespace fputune::sha {
namespace {

struct Chain {
    __m128i abef, cdgh;
};

inline __m128i load_be(const std::uint8_t* p, __m128i bswap) noexcept {
    return _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), bswap);
}

inline Chain load_chain(const std::uint32_t* state) noexcept {
    const __m128i dcba = _mm_loadu_si128(reinterpret_cast<const __m128i*>(state));
    const __m128i hgfe = _mm_loadu_si128(reinterpret_cast<const __m128i*>(state + 4));
    const __m128i cdab = _mm_shuffle_epi32(dcba, 0xb1);
    const __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1b);
    return {_mm_alignr_epi8(cdab, efgh, 8), _mm_blend_epi16(efgh, cdab, 0xf0)};
}

inline void store_chain(const Chain& c, std::uint32_t* state) noexcept {
    const __m128i feba = _mm_shuffle_epi32(c.abef, 0x1b);
    const __m128i dchg = _mm_shuffle_epi32(c.cdgh, 0xb1);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(state), _mm_blend_epi16(feba, dchg, 0xf0));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(state + 4), _mm_alignr_epi8(dchg, feba, 8));
}

// Round group g (four rounds) of both chains on their message groups w0 (= group g); w1..w3 hold groups g+1..g+3.
// While the rounds run, w0 becomes group g+4 (groups g..g+3 give it: msg1 on g and g+1, W[t-7..t-4] from g+2
// and g+3, msg2 with g+3), so the schedule runs four groups ahead of the rounds and sha256msg2's latency is
// off their chain; group 12 on needs no more schedule.
#define FPUTUNE_GROUP_2X(g, w0, w1, w2, w3)                                                            \
    do {                                                                                               \
        const __m128i k = _mm_load_si128(reinterpret_cast<const __m128i*>(kSha256K + 4 * (g)));        \
        __m128i ka = _mm_add_epi32(w0##a, k), kb = _mm_add_epi32(w0##b, k);                            \
        if ((g) < 12) {                                                                                \
            w0##a = _mm_sha256msg1_epu32(w0##a, w1##a);                                                \
            w0##b = _mm_sha256msg1_epu32(w0##b, w1##b);                                                \
        }                                                                                              \
        a.cdgh = _mm_sha256rnds2_epu32(a.cdgh, a.abef, ka);                                            \
        b.cdgh = _mm_sha256rnds2_epu32(b.cdgh, b.abef, kb);                                            \
        ka = _mm_shuffle_epi32(ka, 0x0e);                                                              \
        kb = _mm_shuffle_epi32(kb, 0x0e);                                                              \
        a.abef = _mm_sha256rnds2_epu32(a.abef, a.cdgh, ka);                                            \
        b.abef = _mm_sha256rnds2_epu32(b.abef, b.cdgh, kb);                                            \
        if ((g) < 12) {                                                                                \
            w0##a = _mm_sha256msg2_epu32(_mm_add_epi32(w0##a, _mm_alignr_epi8(w3##a, w2##a, 4)), w3##a); \
            w0##b = _mm_sha256msg2_epu32(_mm_add_epi32(w0##b, _mm_alignr_epi8(w3##b, w2##b, 4)), w3##b); \
        }                                                                                              \
    } while (0)
#define FPUTUNE_FOUR_GROUPS_2X(g)                \
    FPUTUNE_GROUP_2X((g), m0, m1, m2, m3);       \
    FPUTUNE_GROUP_2X((g) + 1, m1, m2, m3, m0);   \
    FPUTUNE_GROUP_2X((g) + 2, m2, m3, m0, m1);   \
    FPUTUNE_GROUP_2X((g) + 3, m3, m0, m1, m2)

}  // namespace

void sha256_blocks_shani_2x(std::uint32_t state_a[8], std::uint32_t state_b[8], const std::uint8_t* data_a,
                            const std::uint8_t* data_b, std::size_t nblocks) noexcept {
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    Chain a = load_chain(state_a), b = load_chain(state_b);
    for (; nblocks; --nblocks, data_a += 64, data_b += 64) {
        const Chain a_saved = a, b_saved = b;
        __m128i m0a = load_be(data_a, bswap), m0b = load_be(data_b, bswap);
        __m128i m1a = load_be(data_a + 16, bswap), m1b = load_be(data_b + 16, bswap);
        __m128i m2a = load_be(data_a + 32, bswap), m2b = load_be(data_b + 32, bswap);
        __m128i m3a = load_be(data_a + 48, bswap), m3b = load_be(data_b + 48, bswap);
        FPUTUNE_FOUR_GROUPS_2X(0);
        FPUTUNE_FOUR_GROUPS_2X(4);
        FPUTUNE_FOUR_GROUPS_2X(8);
        FPUTUNE_FOUR_GROUPS_2X(12);
        a.abef = _mm_add_epi32(a.abef, a_saved.abef);
        a.cdgh = _mm_add_epi32(a.cdgh, a_saved.cdgh);
        b.abef = _mm_add_epi32(b.abef, b_saved.abef);
        b.cdgh = _mm_add_epi32(b.cdgh, b_saved.cdgh);
    }
    store_chain(a, state_a);
    store_chain(b, state_b);
}

#undef FPUTUNE_GROUP_2X
#undef FPUTUNE_FOUR_GROUPS_2X

}  // namespace fputune::sha
