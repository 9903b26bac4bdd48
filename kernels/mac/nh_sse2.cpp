// SPDX-License-Identifier: MIT
// NH with SSE2: one 16-byte unit per xmm step (nh_body.hpp). Requires SSE2.
#include "nh_body.hpp"

namespace fputune::mac {

void nh_core_sse2(const std::uint32_t* key, const std::uint8_t* m, std::size_t len, std::uint64_t sums[4]) noexcept {
    nh_core_body<Lane>(key, m, len, sums);
}

}  // namespace fputune::mac
