// SPDX-License-Identifier: MIT
// RAID6 P+Q on zmm (Linux lib/raid6/avx512.c, raid6_avx5124). Requires AVX-512F and AVX-512BW.
#include "vec_avx512.hpp"
#include "raid6_body.hpp"

namespace fputune::raid {

void raid6_gen_avx512(std::size_t sources, std::size_t bytes, const std::uint8_t* const* src,
                      std::uint8_t* const* dst) noexcept {
    raid6_gen<Vec512>(sources, bytes, src, dst);
}

}  // namespace fputune::raid
