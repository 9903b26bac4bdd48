// SPDX-License-Identifier: MIT
// SHA-384/512 block function, message schedule in xmm registers (2 words at a time), scalar rounds.
// Requires SSSE3.
#include <immintrin.h>

#include "sha.hpp"
#include "sha_consts.hpp"

namespace fputune::sha {
namespace {
#include "sha512_xmm.inc"
}  // namespace

void sha512_blocks_ssse3(std::uint64_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept {
    sha512_blocks_xmm(state, data, nblocks);
}

}  // namespace fputune::sha
