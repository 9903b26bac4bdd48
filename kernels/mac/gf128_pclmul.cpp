// SPDX-License-Identifier: MIT
// POLYVAL and GHASH with PCLMULQDQ on xmm, one block per vector (gf128_body.hpp). Requires PCLMUL and
// SSSE3 (pshufb for GHASH's byte order).
#include "gf128_body.hpp"

namespace fputune::mac {

void polyval_blocks_pclmul(Gf128Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept {
    gf128_blocks_body<Lane, false>(c, data, nblocks);
}
void ghash_blocks_pclmul(Gf128Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept {
    gf128_blocks_body<Lane, true>(c, data, nblocks);
}

}  // namespace fputune::mac
