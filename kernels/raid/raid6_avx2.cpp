// SPDX-License-Identifier: MIT
// RAID6 P+Q on ymm (Linux lib/raid6/avx2.c, raid6_avx24). Requires AVX2.
#include "vec_avx2.hpp"
#include "raid6_body.hpp"

namespace fputune::raid {

void raid6_gen_avx2(std::size_t sources, std::size_t bytes, const std::uint8_t* const* src,
                    std::uint8_t* const* dst) noexcept {
    raid6_gen<Vec256>(sources, bytes, src, dst);
}

}  // namespace fputune::raid
