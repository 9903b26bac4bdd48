// SPDX-License-Identifier: MIT
// POLYVAL and GHASH with VPCLMULQDQ on ymm, two blocks per vector (gf128_body.hpp). Requires AVX2,
// VPCLMULQDQ and PCLMUL.
#include "gf128_body.hpp"

namespace fputune::mac {
namespace {

struct Ymm {
    using V = __m256i;
    static constexpr int kBlocks = 2;
    static V zero() noexcept { return _mm256_setzero_si256(); }
    static V xor_(V a, V b) noexcept { return _mm256_xor_si256(a, b); }
    template <int kImm>
    static V clmul(V a, V b) noexcept {
        return _mm256_clmulepi64_epi128(a, b, kImm);
    }
    static V swap_qwords(V a) noexcept { return _mm256_shuffle_epi32(a, 0x4e); }
    template <bool kGhash>
    static V load(const std::uint8_t* p) noexcept {
        const V x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
        if constexpr (!kGhash) return x;
        return _mm256_shuffle_epi8(
            x, _mm256_broadcastsi128_si256(_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)));
    }
    static V load_power(const std::uint64_t (*p)[2]) noexcept {
        return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    }
    static V from_lane(__m128i x) noexcept { return _mm256_zextsi128_si256(x); }
    static __m128i fold(V a) noexcept {
        return _mm_xor_si128(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
    }
};

}  // namespace

void polyval_blocks_vpclmul_avx2(Gf128Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept {
    gf128_blocks_body<Ymm, false>(c, data, nblocks);
}
void ghash_blocks_vpclmul_avx2(Gf128Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept {
    gf128_blocks_body<Ymm, true>(c, data, nblocks);
}

}  // namespace fputune::mac
