// SPDX-License-Identifier: MIT
// SHA-224/256 block function, message schedule in xmm registers (4 words at a time), scalar rounds
// (sha256_body.hpp, vec_xmm.hpp). Requires AVX, as the kernel's sha256-avx-asm.S: the ssse3 variant's code,
// VEX-encoded, with the rounds' rotates made by shld, as that file makes them.
#define FPUTUNE_SHA_KERNEL_ROUNDS
#define FPUTUNE_SHA_ROTATE_SHLD
#include "sha256_body.hpp"
#include "vec_xmm.hpp"

void fputune::sha::sha256_blocks_avx(std::uint32_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept {
    sha256_blocks_body<Xmm>(state, data, nblocks);
}
