// SPDX-License-Identifier: MIT
// SHA-224/256 block function, message schedule in xmm registers (4 words at a time), scalar rounds.
// Requires SSSE3.
#include <immintrin.h>

#include "sha.hpp"
#include "sha_consts.hpp"

namespace fputune::sha {
namespace {
#include "sha256_xmm.inc"
}  // namespace

void sha256_blocks_ssse3(std::uint32_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept {
    sha256_blocks_xmm(state, data, nblocks);
}

}  // namespace fputune::sha
