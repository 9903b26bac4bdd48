// SPDX-License-Identifier: MIT
// SHA-384/512 block function, message schedule in xmm registers (2 words at a time), scalar rounds
// (sha512_xmm.hpp). Requires SSSE3.
#include "sha512_xmm.hpp"

void fputune::sha::sha512_blocks_ssse3(std::uint64_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept {
    sha512_blocks_xmm(state, data, nblocks);
}
