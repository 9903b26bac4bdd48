// SPDX-License-Identifier: MIT
// RAID6 P+Q on xmm (Linux lib/raid6/sse2.c, raid6_sse24). Requires SSE2.
#include "vec_sse2.hpp"
#include "raid6_body.hpp"

namespace fputune::raid {

void raid6_gen_sse2(std::size_t sources, std::size_t bytes, const std::uint8_t* const* src,
                    std::uint8_t* const* dst) noexcept {
    raid6_gen<Vec128>(sources, bytes, src, dst);
}

}  // namespace fputune::raid
