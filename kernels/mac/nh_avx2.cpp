// SPDX-License-Identifier: MIT
// NH and NHPoly1305 with AVX2: two 16-byte units per ymm step (their keys for one pass are 8 consecutive
// words), four pass accumulators, as the kernel's nh-avx2. Requires AVX2.
#include <immintrin.h>

#include <cassert>

#include "mac.hpp"

namespace fputune::mac {

namespace {

inline __m256i pass(__m256i m, const std::uint32_t* key) noexcept {
    const __m256i t = _mm256_add_epi32(m, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(key)));
    return _mm256_mul_epu32(_mm256_shuffle_epi32(t, 0x10), _mm256_shuffle_epi32(t, 0x32));
}

inline __m128i pass1(__m128i m, const std::uint32_t* key) noexcept {
    const __m128i t = _mm_add_epi32(m, _mm_loadu_si128(reinterpret_cast<const __m128i*>(key)));
    return _mm_mul_epu32(_mm_shuffle_epi32(t, 0x10), _mm_shuffle_epi32(t, 0x32));
}

inline std::uint64_t hsum(__m256i x) noexcept {
    const __m128i s = _mm_add_epi64(_mm256_castsi256_si128(x), _mm256_extracti128_si256(x, 1));
    return static_cast<std::uint64_t>(_mm_cvtsi128_si64(s)) + static_cast<std::uint64_t>(_mm_extract_epi64(s, 1));
}

}  // namespace

void nh_core_avx2(const std::uint32_t* key, const std::uint8_t* m, std::size_t len, std::uint64_t sums[4]) noexcept {
    assert(len % kNhMessageUnit == 0);
    __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
    for (; len >= 32; len -= 32, m += 32, key += 8) {
        const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(m));
        a0 = _mm256_add_epi64(a0, pass(x, key));
        a1 = _mm256_add_epi64(a1, pass(x, key + 4));
        a2 = _mm256_add_epi64(a2, pass(x, key + 8));
        a3 = _mm256_add_epi64(a3, pass(x, key + 12));
    }
    if (len) {  // one unit left: the low halves only
        const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(m));
        a0 = _mm256_add_epi64(a0, _mm256_zextsi128_si256(pass1(x, key)));
        a1 = _mm256_add_epi64(a1, _mm256_zextsi128_si256(pass1(x, key + 4)));
        a2 = _mm256_add_epi64(a2, _mm256_zextsi128_si256(pass1(x, key + 8)));
        a3 = _mm256_add_epi64(a3, _mm256_zextsi128_si256(pass1(x, key + 12)));
    }
    sums[0] += hsum(a0);
    sums[1] += hsum(a1);
    sums[2] += hsum(a2);
    sums[3] += hsum(a3);
}

}  // namespace fputune::mac
