// SPDX-License-Identifier: MIT
// Poly1305 with AVX-512F: eight blocks per zmm step in base 2^26 (vpmuludq), one accumulator (step r^8),
// key powers r^1..r^8 computed on first use. Requires AVX-512F.
#include <immintrin.h>

#include "poly1305_body.hpp"

namespace fputune::mac {
namespace {

struct Zmm {
    using V = __m512i;
    static constexpr int kLanes = 8;
    static constexpr int kChains = 1;
    static V add(V a, V b) noexcept { return _mm512_add_epi64(a, b); }
    static V and_(V a, V b) noexcept { return _mm512_and_si512(a, b); }
    static V or_(V a, V b) noexcept { return _mm512_or_si512(a, b); }
    static V mul(V a, V b) noexcept { return _mm512_mul_epu32(a, b); }
    static V shr(V a, int n) noexcept { return _mm512_srli_epi64(a, n); }
    static V shl(V a, int n) noexcept { return _mm512_slli_epi64(a, n); }
    static V set1(u64 x) noexcept { return _mm512_set1_epi64(static_cast<long long>(x)); }
    static V load(const std::uint8_t* p) noexcept { return _mm512_loadu_si512(p); }
    static V load_lanes(const u64* p) noexcept { return _mm512_load_si512(p); }
    static V lane0(u64 x) noexcept { return _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, static_cast<long long>(x)); }
    static V unpacklo(V a, V b) noexcept { return _mm512_unpacklo_epi64(a, b); }
    static V unpackhi(V a, V b) noexcept { return _mm512_unpackhi_epi64(a, b); }
    static u64 sum(V a) noexcept { return static_cast<u64>(_mm512_reduce_add_epi64(a)); }
};

}  // namespace

void poly1305_blocks_avx512(Poly1305Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept {
    poly1305_blocks_body<Base26<Zmm>>(c, data, nblocks);
}

}  // namespace fputune::mac
