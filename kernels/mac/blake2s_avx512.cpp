// SPDX-License-Identifier: MIT
// BLAKE2s compression with AVX-512VL (blake2s_body.hpp): every rotation one vprord, and each round's
// message order made by two vpermt2d of the block held in two ymm (no zmm: a 512-bit uop in flight
// takes port 1's vector ALUs on Intel, which the xmm rounds need). Requires AVX-512F and AVX-512VL.
#include "blake2s_body.hpp"

namespace fputune::mac {
namespace {

struct Avx512 {
    static __m128i rotr16(__m128i x) noexcept { return _mm_ror_epi32(x, 16); }
    static __m128i rotr8(__m128i x) noexcept { return _mm_ror_epi32(x, 8); }
    static __m128i rotr12(__m128i x) noexcept { return _mm_ror_epi32(x, 12); }
    static __m128i rotr7(__m128i x) noexcept { return _mm_ror_epi32(x, 7); }

    struct Message {
        __m256i lo, hi;  // words 0-7 and 8-15
        explicit Message(const std::uint8_t* p) noexcept
            : lo(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))),
              hi(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32))) {}
        void round(int r, __m128i m[4]) const noexcept {
            const auto* idx = reinterpret_cast<const __m256i*>(kRoundWords.w[r]);
            const __m256i p01 = _mm256_permutex2var_epi32(lo, _mm256_load_si256(idx), hi);
            const __m256i p23 = _mm256_permutex2var_epi32(lo, _mm256_load_si256(idx + 1), hi);
            m[0] = _mm256_castsi256_si128(p01);
            m[1] = _mm256_extracti32x4_epi32(p01, 1);
            m[2] = _mm256_castsi256_si128(p23);
            m[3] = _mm256_extracti32x4_epi32(p23, 1);
        }
    };
};

}  // namespace

void blake2s_compress_avx512(Blake2sState* st, const std::uint8_t* block, std::size_t nblocks, u32 inc,
                             u32 f0) noexcept {
    blake2s_compress_body<Avx512>(st, block, nblocks, inc, f0);
}

}  // namespace fputune::mac
