// SPDX-License-Identifier: MIT
// POLYVAL with PCLMULQDQ on xmm, VEX-encoded: the same body as gf128_pclmul.cpp built with -mavx, as
// Linux's polyval-clmulni_asm.S (clmul_polyval_update) is written with VEX instructions and its glue
// enables it only with AVX. The encoding is part of what a section costs: legacy-SSE code run with dirty
// upper ymm state pays for it, VEX code does not. Requires PCLMUL and AVX.
#include "gf128_body.hpp"

namespace fputune::mac {

void polyval_blocks_pclmul_avx(Gf128Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept {
    gf128_blocks_body<Lane, false>(c, data, nblocks);
}

}  // namespace fputune::mac
