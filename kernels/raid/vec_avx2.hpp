// SPDX-License-Identifier: MIT
// The 256-bit integer vector for raid6_body.hpp (Linux's avx2 RAID6 code). For raid6_avx2.cpp only (AVX2).
#pragma once

#include <immintrin.h>

#include <cstdint>

namespace fputune::raid {
namespace {

struct Vec256 {
    using T = __m256i;
    static constexpr std::size_t kBytes = 32;
    static T load(const std::uint8_t* p) noexcept { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
    static void store(std::uint8_t* p, T v) noexcept { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
    static void stream(std::uint8_t* p, T v) noexcept { _mm256_stream_si256(reinterpret_cast<__m256i*>(p), v); }
    static void fence() noexcept { _mm_sfence(); }
    static T xor_(T a, T b) noexcept { return _mm256_xor_si256(a, b); }
    static T mul2(T q) noexcept {
        const T top = _mm256_cmpgt_epi8(_mm256_setzero_si256(), q);
        return _mm256_xor_si256(_mm256_add_epi8(q, q), _mm256_and_si256(top, _mm256_set1_epi8(0x1d)));
    }
};

}  // namespace
}  // namespace fputune::raid
