// SPDX-License-Identifier: MIT
// SHA-1 block function, message schedule in xmm registers (4 words at a time), scalar rounds
// (sha1_body.hpp, vec_xmm.hpp). Requires AVX: the ssse3 variant's code VEX-encoded, as Linux's
// sha1_transform_avx is its sha1_transform_ssse3 (no BMI: the kernel enables sha1-avx on AVX alone).
#include "sha1_body.hpp"
#include "vec_xmm.hpp"

void fputune::sha::sha1_blocks_avx(std::uint32_t state[5], const std::uint8_t* data, std::size_t nblocks) noexcept {
    sha1_blocks_body<Xmm>(state, data, nblocks);
}
