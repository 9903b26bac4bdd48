// SPDX-License-Identifier: MIT
// xor_gen on ymm with vxorps (Linux xor_block_avx). Requires AVX.
#include "vec_avx.hpp"
#include "xor_body.hpp"

namespace fputune::raid {

void xor_gen_avx(std::size_t sources, std::size_t bytes, const std::uint8_t* const* src,
                 std::uint8_t* const* dst) noexcept {
    xor_gen<Vec256Avx>(sources, bytes, src, dst);
}

}  // namespace fputune::raid
