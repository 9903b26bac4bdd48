// SPDX-License-Identifier: MIT
// NH with AVX2: two 16-byte units per ymm step (nh_body.hpp). Requires AVX2.
#include "nh_body.hpp"

namespace fputune::mac {
namespace {

struct Ymm {
    using V = __m256i;
    static constexpr std::size_t kUnits = 2;
    static V zero() noexcept { return _mm256_setzero_si256(); }
    static V load(const void* p) noexcept { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }
    static V add32(V a, V b) noexcept { return _mm256_add_epi32(a, b); }
    static V add64(V a, V b) noexcept { return _mm256_add_epi64(a, b); }
    static V mul32(V a, V b) noexcept { return _mm256_mul_epu32(a, b); }
    template <int kImm>
    static V shuffle32(V a) noexcept {
        return _mm256_shuffle_epi32(a, kImm);
    }
    static V from_lane(__m128i x) noexcept { return _mm256_zextsi128_si256(x); }
    // (sum p, sum q): lanes paired by unpacks, then the two halves added.
    static __m128i sum2(V p, V q) noexcept {
        const V s = _mm256_add_epi64(_mm256_unpacklo_epi64(p, q), _mm256_unpackhi_epi64(p, q));
        return _mm_add_epi64(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
    }
};

}  // namespace

void nh_core_avx2(const std::uint32_t* key, const std::uint8_t* m, std::size_t len, std::uint64_t sums[4]) noexcept {
    nh_core_body<Ymm>(key, m, len, sums);
}

}  // namespace fputune::mac
