// SPDX-License-Identifier: MIT
// SHA-224/256 block function, two blocks at a time: both blocks' message schedules in one ymm register
// (one per 128-bit lane), rounds in scalar registers with rorx (sha256_body.hpp, vec_ymm.hpp). Requires
// AVX2, BMI1 (andn) and BMI2.
#include "sha256_body.hpp"
#include "vec_ymm.hpp"

void fputune::sha::sha256_blocks_avx2(std::uint32_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept {
    sha256_blocks_body<Ymm>(state, data, nblocks);
}
