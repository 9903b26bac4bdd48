// SPDX-License-Identifier: MIT
// The NH core, written once over a width's traits T: a vector V of kUnits 16-byte message units, the four
// passes in four accumulators; each pass adds the key to the unit and pairs words 0,2 and 1,3 with one
// pmuludq after two pshufd, as the kernel's nh-sse2/nh-avx2. Included by the sse2 and avx2 files, each
// compiled with its own flags; everything is in an anonymous namespace, so each keeps its own copy.
#pragma once

#include <immintrin.h>

#include <cassert>
#include <cstddef>
#include <cstdint>

#include "mac.hpp"

namespace fputune::mac {
namespace {

// One 16-byte unit in xmm (SSE2 only), also the last units of a wider core.
struct Lane {
    using V = __m128i;
    static constexpr std::size_t kUnits = 1;
    static V zero() noexcept { return _mm_setzero_si128(); }
    static V load(const void* p) noexcept { return _mm_loadu_si128(static_cast<const __m128i*>(p)); }
    static V add32(V a, V b) noexcept { return _mm_add_epi32(a, b); }
    static V add64(V a, V b) noexcept { return _mm_add_epi64(a, b); }
    static V mul32(V a, V b) noexcept { return _mm_mul_epu32(a, b); }
    template <int kImm>
    static V shuffle32(V a) noexcept {
        return _mm_shuffle_epi32(a, kImm);
    }
    static V from_lane(__m128i x) noexcept { return x; }
    // The lane sums of passes p and q, (sum p, sum q): the two 64-bit lanes of each added, in vectors.
    static __m128i sum2(V p, V q) noexcept { return _mm_add_epi64(_mm_unpacklo_epi64(p, q), _mm_unpackhi_epi64(p, q)); }
};

// sums[0..3] += the lane sums of the four passes, without a trip through general registers.
template <class T>
inline void add_sums(const typename T::V a[4], std::uint64_t sums[4]) noexcept {
    auto* s = reinterpret_cast<__m128i*>(sums);
    _mm_storeu_si128(s, _mm_add_epi64(_mm_loadu_si128(s), T::sum2(a[0], a[1])));
    _mm_storeu_si128(s + 1, _mm_add_epi64(_mm_loadu_si128(s + 1), T::sum2(a[2], a[3])));
}

// [t0 * t2, t1 * t3] of each unit, t = message + key.
template <class T>
inline typename T::V pass(typename T::V m, const std::uint32_t* key) noexcept {
    const typename T::V t = T::add32(m, T::load(key));
    return T::mul32(T::template shuffle32<0x10>(t), T::template shuffle32<0x32>(t));
}

template <class T>
void nh_core_body(const std::uint32_t* key, const std::uint8_t* m, std::size_t len, std::uint64_t sums[4]) noexcept {
    assert(len % kNhMessageUnit == 0);
    using V = typename T::V;
    constexpr std::size_t kBytes = 16 * T::kUnits;
    V a[4] = {T::zero(), T::zero(), T::zero(), T::zero()};
    // The keys of one pass for kUnits consecutive units are 4 * kUnits consecutive words.
    for (; len >= kBytes; len -= kBytes, m += kBytes, key += 4 * T::kUnits) {
        const V x = T::load(m);
#pragma GCC unroll 4
        for (int i = 0; i < 4; ++i) a[i] = T::add64(a[i], pass<T>(x, key + 4 * i));
    }
    for (; len; len -= 16, m += 16, key += 4) {  // the last units of a wider core, one at a time
        const __m128i x = Lane::load(m);
#pragma GCC unroll 4
        for (int i = 0; i < 4; ++i) a[i] = T::add64(a[i], T::from_lane(pass<Lane>(x, key + 4 * i)));
    }
    add_sums<T>(a, sums);
}

}  // namespace
}  // namespace fputune::mac
