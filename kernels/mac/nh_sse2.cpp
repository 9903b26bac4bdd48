// SPDX-License-Identifier: MIT
// NH and NHPoly1305 with SSE2: one 16-byte unit per step, the four passes in four xmm accumulators
// (pmuludq pairs words 0,2 and 1,3 after two pshufd, as the kernel's nh-sse2). Requires SSE2.
#include <immintrin.h>

#include <cassert>

#include "mac.hpp"

namespace fputune::mac {

namespace {

inline __m128i pass(__m128i m, const std::uint32_t* key) noexcept {
    const __m128i t = _mm_add_epi32(m, _mm_loadu_si128(reinterpret_cast<const __m128i*>(key)));
    return _mm_mul_epu32(_mm_shuffle_epi32(t, 0x10), _mm_shuffle_epi32(t, 0x32));  // [t0*t2, t1*t3]
}

inline std::uint64_t hsum(__m128i x) noexcept {
    return static_cast<std::uint64_t>(_mm_cvtsi128_si64(x)) +
           static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(x, x)));
}

}  // namespace

void nh_core_sse2(const std::uint32_t* key, const std::uint8_t* m, std::size_t len, std::uint64_t sums[4]) noexcept {
    assert(len % kNhMessageUnit == 0);
    __m128i a0 = _mm_setzero_si128(), a1 = a0, a2 = a0, a3 = a0;
    for (; len; len -= 16, m += 16, key += 4) {
        const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(m));
        a0 = _mm_add_epi64(a0, pass(x, key));
        a1 = _mm_add_epi64(a1, pass(x, key + 4));
        a2 = _mm_add_epi64(a2, pass(x, key + 8));
        a3 = _mm_add_epi64(a3, pass(x, key + 12));
    }
    sums[0] += hsum(a0);
    sums[1] += hsum(a1);
    sums[2] += hsum(a2);
    sums[3] += hsum(a3);
}

}  // namespace fputune::mac
