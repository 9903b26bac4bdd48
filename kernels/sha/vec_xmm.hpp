// SPDX-License-Identifier: MIT
// The xmm width for the vector-schedule bodies (sha1_body.hpp, sha256_body.hpp): one block per register.
// For the files built with -mssse3 (SSE encoding) or -mavx (VEX encoding) only.
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

namespace fputune::sha {
namespace {

struct Xmm {
    using V = __m128i;
    static constexpr int kBlocks = 1;
    static V xor_(V a, V b) noexcept { return _mm_xor_si128(a, b); }
    static V or_(V a, V b) noexcept { return _mm_or_si128(a, b); }
    static V add32(V a, V b) noexcept { return _mm_add_epi32(a, b); }
    static V shl32(V a, int n) noexcept { return _mm_slli_epi32(a, n); }
    static V shr32(V a, int n) noexcept { return _mm_srli_epi32(a, n); }
    static V shr64(V a, int n) noexcept { return _mm_srli_epi64(a, n); }
    template <int kBytes>
    static V alignr8(V a, V b) noexcept {
        return _mm_alignr_epi8(a, b, kBytes);
    }
    template <int kBytes>
    static V shr_bytes(V a) noexcept {
        return _mm_srli_si128(a, kBytes);
    }
    template <int kBytes>
    static V shl_bytes(V a) noexcept {
        return _mm_slli_si128(a, kBytes);
    }
    template <int kImm>
    static V shuffle32(V a) noexcept {
        return _mm_shuffle_epi32(a, kImm);
    }
    static V shuffle8(V a, V m) noexcept { return _mm_shuffle_epi8(a, m); }
    static V set1(std::uint32_t x) noexcept { return _mm_set1_epi32(static_cast<int>(x)); }
    static V per_lane(long long hi, long long lo) noexcept { return _mm_set_epi64x(hi, lo); }
    static V k4(const std::uint32_t* k) noexcept { return _mm_load_si128(reinterpret_cast<const __m128i*>(k)); }
    static void store(std::uint32_t* p, V a) noexcept { _mm_store_si128(reinterpret_cast<__m128i*>(p), a); }
    // 16 bytes of the block as big-endian words.
    static V load_be(const std::uint8_t* p, std::size_t) noexcept {
        return _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)),
                                per_lane(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL));
    }
};

}  // namespace
}  // namespace fputune::sha
