// SPDX-License-Identifier: MIT
// SHA-224/256 block function, message schedule in xmm registers (4 words at a time), scalar rounds
// (sha256_body.hpp, vec_xmm.hpp), in the kernel's form (sha256-ssse3-asm.S: chained rotates, see
// sha256_body.hpp). Requires SSSE3.
#define FPUTUNE_SHA_KERNEL_ROUNDS
#include "sha256_body.hpp"
#include "vec_xmm.hpp"

void fputune::sha::sha256_blocks_ssse3(std::uint32_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept {
    sha256_blocks_body<Xmm>(state, data, nblocks);
}
