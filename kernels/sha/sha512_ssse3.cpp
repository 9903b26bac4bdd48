// SPDX-License-Identifier: MIT
// SHA-384/512 block function, message schedule in xmm registers (2 words at a time), scalar rounds
// (sha512_xmm.hpp), in the kernel's form (sha512-ssse3-asm.S: chained rotates, see sha512_rounds.inc).
// Requires SSSE3.
#define FPUTUNE_SHA_KERNEL_ROUNDS
#include "sha512_xmm.hpp"

void fputune::sha::sha512_blocks_ssse3(std::uint64_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept {
    sha512_blocks_xmm(state, data, nblocks);
}
