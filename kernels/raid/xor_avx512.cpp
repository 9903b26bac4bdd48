// SPDX-License-Identifier: MIT
// xor_gen on zmm (the avx512 template of Linux 7.1's x86 xor_gen, linux-x86-fpu-users-v7.1.csv). Requires AVX-512F.
#include "vec_avx512.hpp"
#include "xor_body.hpp"

namespace fputune::raid {

void xor_gen_avx512(std::size_t sources, std::size_t bytes, const std::uint8_t* const* src,
                    std::uint8_t* const* dst) noexcept {
    xor_gen<Vec512>(sources, bytes, src, dst);
}

}  // namespace fputune::raid
