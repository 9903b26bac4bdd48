// SPDX-License-Identifier: MIT
// BLAKE2s compression with AVX-512VL (blake2s_body.hpp): every rotation one vprord, and each round's
// message order made by one vpermd of the block held in a zmm. Requires AVX-512F and AVX-512VL.
#include "blake2s_body.hpp"

namespace fputune::mac {
namespace {

struct Avx512 {
    static __m128i rotr16(__m128i x) noexcept { return _mm_ror_epi32(x, 16); }
    static __m128i rotr8(__m128i x) noexcept { return _mm_ror_epi32(x, 8); }
    static __m128i rotr12(__m128i x) noexcept { return _mm_ror_epi32(x, 12); }
    static __m128i rotr7(__m128i x) noexcept { return _mm_ror_epi32(x, 7); }

    struct Message {
        __m512i block;
        explicit Message(const std::uint8_t* p) noexcept : block(_mm512_loadu_si512(p)) {}
        void round(int r, __m128i m[4]) const noexcept {
            const __m512i p = _mm512_permutexvar_epi32(_mm512_load_si512(kRoundWords.w[r]), block);
            m[0] = _mm512_castsi512_si128(p);
            m[1] = _mm512_extracti32x4_epi32(p, 1);
            m[2] = _mm512_extracti32x4_epi32(p, 2);
            m[3] = _mm512_extracti32x4_epi32(p, 3);
        }
    };
};

}  // namespace

void blake2s_compress_avx512(Blake2sState* st, const std::uint8_t* block, std::size_t nblocks, u32 inc,
                             u32 f0) noexcept {
    blake2s_compress_body<Avx512>(st, block, nblocks, inc, f0);
}

}  // namespace fputune::mac
