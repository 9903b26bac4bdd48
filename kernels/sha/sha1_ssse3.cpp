// SPDX-License-Identifier: MIT
// SHA-1 block function, message schedule in xmm registers (4 words at a time), scalar rounds
// (sha1_body.hpp). Requires SSSE3.
#include <immintrin.h>

#include "sha1_body.hpp"

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
    template <int kBytes>
    static V alignr8(V a, V b) noexcept { return _mm_alignr_epi8(a, b, kBytes); }
    template <int kBytes>
    static V shr_bytes(V a) noexcept { return _mm_srli_si128(a, kBytes); }
    template <int kBytes>
    static V shl_bytes(V a) noexcept { return _mm_slli_si128(a, kBytes); }
    static V set1(std::uint32_t x) noexcept { return _mm_set1_epi32(static_cast<int>(x)); }
    static void store(std::uint32_t* p, V a) noexcept { _mm_store_si128(reinterpret_cast<__m128i*>(p), a); }
    static V load_be(const std::uint8_t* p, std::size_t) noexcept {
        const V bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
        return _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), bswap);
    }
};

}  // namespace

void sha1_blocks_ssse3(std::uint32_t state[5], const std::uint8_t* data, std::size_t nblocks) noexcept {
    sha1_blocks_body<Xmm>(state, data, nblocks);
}

}  // namespace fputune::sha
