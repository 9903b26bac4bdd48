// SPDX-License-Identifier: MIT
// Poly1305 with AVX2: four blocks per ymm step in base 2^26 (vpmuludq), two accumulators (step r^8):
// one step is a chain of dependent multiplies and carries, and two independent chains keep the vector
// units busy. Key powers r^1..r^8 computed on first use. Requires AVX2.
#include <immintrin.h>

#include "poly1305_body.hpp"

namespace fputune::mac {
namespace {

struct Ymm {
    using V = __m256i;
    static constexpr int kLanes = 4;
    static constexpr int kChains = 2;
    static V add(V a, V b) noexcept { return _mm256_add_epi64(a, b); }
    static V and_(V a, V b) noexcept { return _mm256_and_si256(a, b); }
    static V or_(V a, V b) noexcept { return _mm256_or_si256(a, b); }
    static V mul(V a, V b) noexcept { return _mm256_mul_epu32(a, b); }
    static V shr(V a, int n) noexcept { return _mm256_srli_epi64(a, n); }
    static V shl(V a, int n) noexcept { return _mm256_slli_epi64(a, n); }
    static V set1(u64 x) noexcept { return _mm256_set1_epi64x(static_cast<long long>(x)); }
    static V load(const std::uint8_t* p) noexcept { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
    static V load_lanes(const u64* p) noexcept { return _mm256_load_si256(reinterpret_cast<const __m256i*>(p)); }
    static V lane0(u64 x) noexcept { return _mm256_set_epi64x(0, 0, 0, static_cast<long long>(x)); }
    static V unpacklo(V a, V b) noexcept { return _mm256_unpacklo_epi64(a, b); }
    static V unpackhi(V a, V b) noexcept { return _mm256_unpackhi_epi64(a, b); }
    static u64 sum(V a) noexcept {
        alignas(32) u64 lanes[4];
        _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), a);
        return lanes[0] + lanes[1] + lanes[2] + lanes[3];
    }
};

}  // namespace

void poly1305_blocks_avx2(Poly1305Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept {
    poly1305_blocks_body<Base26<Ymm>>(c, data, nblocks);
}

}  // namespace fputune::mac
