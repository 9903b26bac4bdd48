// SPDX-License-Identifier: MIT
// POLYVAL and GHASH with VPCLMULQDQ on zmm, four blocks per vector (gf128_body.hpp). Requires
// AVX-512F/VL/BW, VPCLMULQDQ and PCLMUL.
#include "gf128_body.hpp"

namespace fputune::mac {
namespace {

struct Zmm {
    using V = __m512i;
    static constexpr int kBlocks = 4;
    static V zero() noexcept { return _mm512_setzero_si512(); }
    static V xor_(V a, V b) noexcept { return _mm512_xor_si512(a, b); }
    template <int kImm>
    static V clmul(V a, V b) noexcept {
        return _mm512_clmulepi64_epi128(a, b, kImm);
    }
    static V swap_qwords(V a) noexcept { return _mm512_shuffle_epi32(a, _MM_PERM_BADC); }
    template <bool kGhash>
    static V load(const std::uint8_t* p) noexcept {
        const V x = _mm512_loadu_si512(p);
        if constexpr (!kGhash) return x;
        return _mm512_shuffle_epi8(
            x, _mm512_broadcast_i32x4(_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)));
    }
    static V load_power(const std::uint64_t (*p)[2]) noexcept { return _mm512_loadu_si512(p); }
    static V from_lane(__m128i x) noexcept { return _mm512_zextsi128_si512(x); }
    static __m128i fold(V a) noexcept {
        const __m256i y = _mm256_xor_si256(_mm512_castsi512_si256(a), _mm512_extracti64x4_epi64(a, 1));
        return _mm_xor_si128(_mm256_castsi256_si128(y), _mm256_extracti128_si256(y, 1));
    }
};

}  // namespace

void polyval_blocks_vpclmul_avx512(Gf128Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept {
    gf128_blocks_body<Zmm, false>(c, data, nblocks);
}
void ghash_blocks_vpclmul_avx512(Gf128Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept {
    gf128_blocks_body<Zmm, true>(c, data, nblocks);
}

}  // namespace fputune::mac
