// SPDX-License-Identifier: MIT
// SHA-384/512 block function, message schedule in xmm registers (2 words at a time), scalar rounds
// (sha512_xmm.hpp). Requires AVX, as the kernel's sha512-avx-asm.S: the ssse3 variant's code, VEX-encoded,
// with the rounds' rotates made by shld, as that file makes them.
#define FPUTUNE_SHA_KERNEL_ROUNDS
#define FPUTUNE_SHA_ROTATE_SHLD
#include "sha512_xmm.hpp"

void fputune::sha::sha512_blocks_avx(std::uint64_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept {
    sha512_blocks_xmm(state, data, nblocks);
}
