// SPDX-License-Identifier: MIT
// SHA-1 block function, message schedule in xmm registers (4 words at a time), scalar rounds
// (sha1_body.hpp, vec_xmm.hpp). Requires SSSE3.
#include "sha1_body.hpp"
#include "vec_xmm.hpp"

void fputune::sha::sha1_blocks_ssse3(std::uint32_t state[5], const std::uint8_t* data, std::size_t nblocks) noexcept {
    sha1_blocks_body<Xmm>(state, data, nblocks);
}
