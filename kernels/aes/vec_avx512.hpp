// SPDX-License-Identifier: MIT
// The 512-bit vector for aes_core.hpp: four AES blocks per zmm with VAES and VPCLMULQDQ; partial vectors
// by byte masks (never touching bytes past the message), three-way xors by vpternlogq 0x96.
// For the vaes-avx512 file only (AVX512F/VL/BW + VAES + VPCLMULQDQ + AES + PCLMUL flags).
#pragma once

#include "aes_core.hpp"

namespace fputune::aes {
namespace {

struct Vec512 {
    using T = __m512i;
    static constexpr std::size_t kBytes = 64;
    static constexpr unsigned kLanes = 4;
    static constexpr bool kKaratsuba =
        false;  // schoolbook and ternary xors: GCM ~4 % faster than Karatsuba (Emerald Rapids)
    static constexpr bool kGhashLate = true;  // GCM: where the GHASH steps go (aes_core.hpp step_round)
    static __mmask64 mask(std::size_t n) noexcept { return n >= 64 ? ~__mmask64{0} : (__mmask64{1} << n) - 1; }
    static T load(const u8* p) noexcept { return _mm512_loadu_si512(p); }
    static void store(u8* p, T x) noexcept { _mm512_storeu_si512(p, x); }
    static T load_n(const u8* p, std::size_t n) noexcept { return _mm512_maskz_loadu_epi8(mask(n), p); }
    static void store_n(u8* p, T x, std::size_t n) noexcept { _mm512_mask_storeu_epi8(p, mask(n), x); }
    static T mask_n(T x, std::size_t n) noexcept { return _mm512_maskz_mov_epi8(mask(n), x); }
    static T load_key(const u8* p) noexcept { return load(p); }
    static T bcast(__m128i x) noexcept { return _mm512_broadcast_i32x4(x); }
    static T from_lane0(__m128i x) noexcept { return _mm512_zextsi128_si512(x); }
    static T from_lanes(const __m128i (&l)[kLanes]) noexcept {
        return _mm512_inserti32x4(
            _mm512_inserti32x4(_mm512_inserti32x4(_mm512_zextsi128_si512(l[0]), l[1], 1), l[2], 2), l[3], 3);
    }
    static __m128i fold(T x) noexcept {
        // (maskz forms: the plain extracts trip GCC 12's -Wmaybe-uninitialized inside its own headers)
        const __m256i h =
            _mm256_xor_si256(_mm512_maskz_extracti64x4_epi64(0xf, x, 0), _mm512_maskz_extracti64x4_epi64(0xf, x, 1));
        return _mm_xor_si128(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
    }
    static __m128i lane0(T x) noexcept { return _mm512_castsi512_si128(x); }
    static T iota() noexcept { return _mm512_set_epi64(0, 3, 0, 2, 0, 1, 0, 0); }
    static T xor_(T a, T b) noexcept { return _mm512_xor_si512(a, b); }
    static T xor3(T a, T b, T c) noexcept { return _mm512_ternarylogic_epi64(a, b, c, 0x96); }
    static T aesenc(T x, T k) noexcept { return _mm512_aesenc_epi128(x, k); }
    static T aesenclast(T x, T k) noexcept { return _mm512_aesenclast_epi128(x, k); }
    template <int kImm>
    static T clmul(T a, T b) noexcept {
        return _mm512_clmulepi64_epi128(a, b, kImm);
    }
    static T shuffle(T x, T m) noexcept { return _mm512_shuffle_epi8(x, m); }
    static T add32(T a, T b) noexcept { return _mm512_add_epi32(a, b); }
    static T add64(T a, T b) noexcept { return _mm512_add_epi64(a, b); }
    template <int kBits>
    static T slli64(T x) noexcept {
        return _mm512_slli_epi64(x, kBits);
    }
    template <int kBits>
    static T srli64(T x) noexcept {
        return _mm512_srli_epi64(x, kBits);
    }
    static T bslli8(T x) noexcept { return _mm512_bslli_epi128(x, 8); }
    static T bsrli8(T x) noexcept { return _mm512_bsrli_epi128(x, 8); }
    template <int kN>
    static T bslli(T x) noexcept {
        return _mm512_bslli_epi128(x, kN);
    }
    template <int kN>
    static T bsrli(T x) noexcept {
        return _mm512_bsrli_epi128(x, kN);
    }
    static T swap64(T x) noexcept { return _mm512_shuffle_epi32(x, _MM_PERM_BADC); }
};

}  // namespace
}  // namespace fputune::aes
