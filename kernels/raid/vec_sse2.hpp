// SPDX-License-Identifier: MIT
// The 128-bit vector for raid6_body.hpp and xor_body.hpp (Linux's sse2 RAID6 and sse xor code). For
// raid6_sse2.cpp and xor_sse.cpp only (SSE2, the x86-64 baseline).
#pragma once

#include <immintrin.h>

#include <cstdint>

namespace fputune::raid {
namespace {

struct Vec128 {
    using T = __m128i;
    static constexpr std::size_t kBytes = 16;
    static constexpr std::size_t kPass = 16;  // xor: 256 bytes per step, as xor_sse_*()
    static T load(const std::uint8_t* p) noexcept { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
    static void store(std::uint8_t* p, T v) noexcept { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v); }
    static void stream(std::uint8_t* p, T v) noexcept { _mm_stream_si128(reinterpret_cast<__m128i*>(p), v); }
    static void fence() noexcept { _mm_sfence(); }
    static T xor_(T a, T b) noexcept { return _mm_xor_si128(a, b); }
    // GF(2^8) doubling of every byte: pcmpgtb finds the bytes whose top bit is set, paddb shifts, 0x1d folds.
    static T mul2(T q) noexcept {
        const T top = _mm_cmpgt_epi8(_mm_setzero_si128(), q);
        return _mm_xor_si128(_mm_add_epi8(q, q), _mm_and_si128(top, _mm_set1_epi8(0x1d)));
    }
};

}  // namespace
}  // namespace fputune::raid
