// SPDX-License-Identifier: MIT
// The ymm width for the vector-schedule bodies (sha1_body.hpp, sha256_body.hpp): two blocks per
// register, one per 128-bit lane. For the files built with -mavx2 only.
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

namespace fputune::sha {
namespace {

struct Ymm {
    using V = __m256i;
    static constexpr int kBlocks = 2;
    static V xor_(V a, V b) noexcept { return _mm256_xor_si256(a, b); }
    static V or_(V a, V b) noexcept { return _mm256_or_si256(a, b); }
    static V add32(V a, V b) noexcept { return _mm256_add_epi32(a, b); }
    static V shl32(V a, int n) noexcept { return _mm256_slli_epi32(a, n); }
    static V shr32(V a, int n) noexcept { return _mm256_srli_epi32(a, n); }
    static V shr64(V a, int n) noexcept { return _mm256_srli_epi64(a, n); }
    template <int kBytes>
    static V alignr8(V a, V b) noexcept {
        return _mm256_alignr_epi8(a, b, kBytes);
    }
    template <int kBytes>
    static V shr_bytes(V a) noexcept {
        return _mm256_srli_si256(a, kBytes);
    }
    template <int kBytes>
    static V shl_bytes(V a) noexcept {
        return _mm256_slli_si256(a, kBytes);
    }
    template <int kImm>
    static V shuffle32(V a) noexcept {
        return _mm256_shuffle_epi32(a, kImm);
    }
    static V shuffle8(V a, V m) noexcept { return _mm256_shuffle_epi8(a, m); }
    static V set1(std::uint32_t x) noexcept { return _mm256_set1_epi32(static_cast<int>(x)); }
    static V per_lane(long long hi, long long lo) noexcept { return _mm256_set_epi64x(hi, lo, hi, lo); }
    static V k4(const std::uint32_t* k) noexcept {
        return _mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i*>(k)));
    }
    static void store(std::uint32_t* p, V a) noexcept { _mm256_store_si256(reinterpret_cast<__m256i*>(p), a); }
    // 16 bytes of the first block in the low lane, of the second (or the first again) in the high lane.
    static V load_be(const std::uint8_t* p, std::size_t blocks) noexcept {
        const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(blocks >= 2 ? p + 64 : p));
        return _mm256_shuffle_epi8(_mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1),
                                   per_lane(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL));
    }
};

}  // namespace
}  // namespace fputune::sha
