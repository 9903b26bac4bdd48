// SPDX-License-Identifier: MIT
// SHA-1 block function, two blocks at a time: both blocks' message schedules in one ymm register (one per
// 128-bit lane), rounds in scalar registers with rorx (sha1_body.hpp). Requires AVX2, BMI1 (andn), BMI2.
#include <immintrin.h>

#include "sha1_body.hpp"

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
    template <int kBytes>
    static V alignr8(V a, V b) noexcept { return _mm256_alignr_epi8(a, b, kBytes); }
    template <int kBytes>
    static V shr_bytes(V a) noexcept { return _mm256_srli_si256(a, kBytes); }
    template <int kBytes>
    static V shl_bytes(V a) noexcept { return _mm256_slli_si256(a, kBytes); }
    static V set1(std::uint32_t x) noexcept { return _mm256_set1_epi32(static_cast<int>(x)); }
    static void store(std::uint32_t* p, V a) noexcept { _mm256_store_si256(reinterpret_cast<__m256i*>(p), a); }
    // 16 bytes of the first block in the low lane, of the second (or the first again) in the high lane.
    static V load_be(const std::uint8_t* p, std::size_t blocks) noexcept {
        const V bswap = _mm256_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL,
                                          0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
        const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(blocks >= 2 ? p + 64 : p));
        return _mm256_shuffle_epi8(_mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1), bswap);
    }
};

}  // namespace

void sha1_blocks_avx2(std::uint32_t state[5], const std::uint8_t* data, std::size_t nblocks) noexcept {
    sha1_blocks_body<Ymm>(state, data, nblocks);
}

}  // namespace fputune::sha
