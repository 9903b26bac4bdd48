// SPDX-License-Identifier: MIT
// ChaCha20 on ymm with AVX-512VL's rotate and 32 vector registers (Linux chacha-avx512vl-x86_64.S, which stays
// on 256-bit vectors). Requires AVX-512F, AVX-512VL and AVX-512BW (as Linux's glue does).
#include "vec_avx2.hpp"

namespace fputune::chacha {

void chacha20_xor_avx512vl(std::uint32_t state[16], std::uint8_t* dst, const std::uint8_t* src,
                           std::size_t bytes) noexcept {
    chacha20_xor<VecAvx512vl>(state, dst, src, bytes);
}

}  // namespace fputune::chacha
