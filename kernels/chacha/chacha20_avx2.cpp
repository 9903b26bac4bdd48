// SPDX-License-Identifier: MIT
// ChaCha20 on ymm: 8 blocks across lanes, 4 and 2 in rows (Linux chacha-avx2-x86_64.S). Requires AVX2.
#include "vec_avx2.hpp"

namespace fputune::chacha {

void chacha20_xor_avx2(std::uint32_t state[16], std::uint8_t* dst, const std::uint8_t* src,
                       std::size_t bytes) noexcept {
    chacha20_xor<VecAvx2>(state, dst, src, bytes);
}

}  // namespace fputune::chacha
