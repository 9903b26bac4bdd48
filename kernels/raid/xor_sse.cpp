// SPDX-License-Identifier: MIT
// xor_gen on xmm (Linux xor_block_sse). Requires SSE2.
#include "vec_sse2.hpp"
#include "xor_body.hpp"

namespace fputune::raid {

void xor_gen_sse(std::size_t sources, std::size_t bytes, const std::uint8_t* const* src,
                 std::uint8_t* const* dst) noexcept {
    xor_gen<Vec128>(sources, bytes, src, dst);
}

}  // namespace fputune::raid
