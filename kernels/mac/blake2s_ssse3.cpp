// SPDX-License-Identifier: MIT
// BLAKE2s compression with SSSE3 (blake2s_body.hpp): rotations by 16 and 8 as byte shuffles (pshufb),
// each round's message words gathered from memory. Requires SSSE3.
#include "blake2s_body.hpp"

namespace fputune::mac {
namespace {

struct Ssse3 {
    static __m128i rotr16(__m128i x) noexcept {
        return _mm_shuffle_epi8(x, _mm_set_epi8(13, 12, 15, 14, 9, 8, 11, 10, 5, 4, 7, 6, 1, 0, 3, 2));
    }
    static __m128i rotr8(__m128i x) noexcept {
        return _mm_shuffle_epi8(x, _mm_set_epi8(12, 15, 14, 13, 8, 11, 10, 9, 4, 7, 6, 5, 0, 3, 2, 1));
    }
    static __m128i rotr12(__m128i x) noexcept { return _mm_or_si128(_mm_srli_epi32(x, 12), _mm_slli_epi32(x, 20)); }
    static __m128i rotr7(__m128i x) noexcept { return _mm_or_si128(_mm_srli_epi32(x, 7), _mm_slli_epi32(x, 25)); }

    // Four message words into one vector straight from memory (movd + unpacks): no trips through
    // general registers, which the compiler otherwise makes when it loads two words at once.
    struct Message {
        const std::uint8_t* block;
        explicit Message(const std::uint8_t* p) noexcept : block(p) {}
        __m128i word(u32 i) const noexcept { return _mm_loadu_si32(block + 4 * i); }
        __m128i gather(const u32* i) const noexcept {
            return _mm_unpacklo_epi64(_mm_unpacklo_epi32(word(i[0]), word(i[1])),
                                      _mm_unpacklo_epi32(word(i[2]), word(i[3])));
        }
        // Each round loads its words again (the asm hides that the block is the same): left to itself,
        // GCC loads each word once per block and keeps all 16, spilled, through the unrolled rounds.
        void round(int r, __m128i m[4]) const noexcept {
            const std::uint8_t* p = block;
            asm volatile("" : "+r"(p));  // volatile: GCC merges equal non-volatile asms
            for (int k = 0; k < 4; ++k) m[k] = Message(p).gather(kRoundWords.w[r] + 4 * k);
        }
    };
};

}  // namespace

void blake2s_compress_ssse3(Blake2sState* st, const std::uint8_t* block, std::size_t nblocks, u32 inc,
                            u32 f0) noexcept {
    blake2s_compress_body<Ssse3>(st, block, nblocks, inc, f0);
}

}  // namespace fputune::mac
