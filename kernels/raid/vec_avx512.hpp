// SPDX-License-Identifier: MIT
// The 512-bit vector for raid6_body.hpp and xor_body.hpp (Linux's avx512 RAID6 and xor code). For
// raid6_avx512.cpp (AVX-512F/BW) and xor_avx512.cpp (AVX-512F) only.
#pragma once

#include <immintrin.h>

#include <cstdint>

namespace fputune::raid {
namespace {

struct Vec512 {
    using T = __m512i;
    static constexpr std::size_t kBytes = 64;
    static constexpr std::size_t kPass = 8;  // xor: 512 bytes per step
    static T load(const std::uint8_t* p) noexcept { return _mm512_loadu_si512(p); }
    static void store(std::uint8_t* p, T v) noexcept { _mm512_storeu_si512(p, v); }
    static void stream(std::uint8_t* p, T v) noexcept { _mm512_stream_si512(reinterpret_cast<__m512i*>(p), v); }
    static void fence() noexcept { _mm_sfence(); }
    static T xor_(T a, T b) noexcept { return _mm512_xor_si512(a, b); }
#ifdef __AVX512BW__
    // As Linux's avx512.c: vpcmpgtb into a mask register, vpmovm2b back to bytes, then as sse2.
    static T mul2(T q) noexcept {
        const T top = _mm512_movm_epi8(_mm512_cmpgt_epi8_mask(_mm512_setzero_si512(), q));
        return _mm512_xor_si512(_mm512_add_epi8(q, q), _mm512_and_si512(top, _mm512_set1_epi8(0x1d)));
    }
#endif
};

}  // namespace
}  // namespace fputune::raid
