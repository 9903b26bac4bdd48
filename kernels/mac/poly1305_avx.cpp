// SPDX-License-Identifier: MIT
// Poly1305 with AVX (VEX-encoded 128-bit integer ops): two blocks per xmm step in base 2^26 (vpmuludq),
// one accumulator taking two steps per carry (h r^4 + m r^2, as cryptogams' poly1305_blocks_avx), key powers
// r^1..r^4 computed on first use. Requires AVX.
#include <immintrin.h>

#include "poly1305_body.hpp"

namespace fputune::mac {
namespace {

struct Xmm {
    using V = __m128i;
    static constexpr int kLanes = 2;
    static constexpr int kChains = 2;
    static constexpr bool kPairs = true;  // one accumulator, two groups per carry (absorb_pairs)
    static V add(V a, V b) noexcept { return _mm_add_epi64(a, b); }
    static V and_(V a, V b) noexcept { return _mm_and_si128(a, b); }
    static V or_(V a, V b) noexcept { return _mm_or_si128(a, b); }
    static V mul(V a, V b) noexcept { return _mm_mul_epu32(a, b); }
    static V shr(V a, int n) noexcept { return _mm_srli_epi64(a, n); }
    static V shl(V a, int n) noexcept { return _mm_slli_epi64(a, n); }
    static V set1(u64 x) noexcept { return _mm_set1_epi64x(static_cast<long long>(x)); }
    static V load(const std::uint8_t* p) noexcept { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
    static V load_lanes(const u64* p) noexcept { return _mm_load_si128(reinterpret_cast<const __m128i*>(p)); }
    static V lane0(u64 x) noexcept { return _mm_cvtsi64_si128(static_cast<long long>(x)); }
    static V unpacklo(V a, V b) noexcept { return _mm_unpacklo_epi64(a, b); }
    static V unpackhi(V a, V b) noexcept { return _mm_unpackhi_epi64(a, b); }
    static u64 sum(V a) noexcept {
        return static_cast<u64>(_mm_cvtsi128_si64(a)) + static_cast<u64>(_mm_extract_epi64(a, 1));
    }
};

}  // namespace

void poly1305_blocks_avx(Poly1305Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept {
    poly1305_blocks_body<Base26<Xmm>>(c, data, nblocks);
}

}  // namespace fputune::mac
