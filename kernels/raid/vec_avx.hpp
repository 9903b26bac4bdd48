// SPDX-License-Identifier: MIT
// The 256-bit vector of AVX without AVX2 for xor_body.hpp: xor as vxorps on ymm, as Linux's xor_avx code does
// (AVX has no 256-bit integer xor). For xor_avx.cpp only (AVX).
#pragma once

#include <immintrin.h>

#include <cstdint>

namespace fputune::raid {
namespace {

struct Vec256Avx {
    using T = __m256;
    static constexpr std::size_t kBytes = 32;
    static constexpr std::size_t kPass = 16;  // 512 bytes per step, as xor_avx_*()
    static T load(const std::uint8_t* p) noexcept { return _mm256_loadu_ps(reinterpret_cast<const float*>(p)); }
    static void store(std::uint8_t* p, T v) noexcept { _mm256_storeu_ps(reinterpret_cast<float*>(p), v); }
    static T xor_(T a, T b) noexcept { return _mm256_xor_ps(a, b); }
};

}  // namespace
}  // namespace fputune::raid
