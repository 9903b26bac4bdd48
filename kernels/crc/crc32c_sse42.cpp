// SPDX-License-Identifier: MIT
// crc32c with the SSE4.2 crc32 instruction, one chain: Linux's no-FPU crc32c path (6.12
// crc32c-intel_glue.c crc32c_intel_le_hw, below its 512-byte break-even and wherever the FPU is not
// usable), and so the baseline every crc32c SIMD threshold is measured against. crc32q has a latency of
// 3 cycles, so the one dependent chain runs at 8 bytes per 3 cycles. No vector registers: no FPU section
// needed. Requires SSE4.2.
#include <nmmintrin.h>

#include <cassert>
#include <cstring>

#include "crc.hpp"
#include "crc_spec.hpp"

namespace fputune::crc {

std::uint64_t crc32c_update_sse42(std::uint64_t crc, const std::uint8_t* p, std::size_t len) noexcept {
    assert(p != nullptr || len == 0);
    u64 c = static_cast<u32>(crc);
    for (; len >= 8; p += 8, len -= 8) {
        u64 v;
        std::memcpy(&v, p, 8);
        c = _mm_crc32_u64(c, v);
    }
    for (; len; --len, ++p) c = _mm_crc32_u8(static_cast<u32>(c), *p);
    return c;
}

}  // namespace fputune::crc
