// SPDX-License-Identifier: MIT
// ChaCha20 on xmm: 4 blocks across lanes, 1 in rows (Linux chacha-ssse3-x86_64.S). Requires SSSE3.
#include "vec_ssse3.hpp"

namespace fputune::chacha {

void chacha20_xor_ssse3(std::uint32_t state[16], std::uint8_t* dst, const std::uint8_t* src,
                        std::size_t bytes) noexcept {
    chacha20_xor<VecSsse3>(state, dst, src, bytes);
}

}  // namespace fputune::chacha
