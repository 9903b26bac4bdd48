// SPDX-License-Identifier: MIT
// crc32c (Castagnoli) by folding 16-byte lanes with PCLMULQDQ on xmm. Requires PCLMULQDQ and SSE4.1 (SSE4.2 for inputs
// under 16 bytes).
#include "crc.hpp"
#include "fold_core.hpp"

namespace fputune::crc {
namespace {
// 8 registers of 16 bytes in flight in the main loop.
constexpr unsigned kVecs = 8;
constexpr FoldConsts kConsts = fold_consts(kCrc32c, 16, kVecs);
}  // namespace

// Folds from 16 bytes on; below that there is nothing to fold and the crc32 instruction does it.
std::uint64_t crc32c_update_pclmul(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept {
    if (len < 16) return crc32c_update_sse42(crc, data, len);
    return fold_update<Vec128, kConsts, kVecs>(crc, data, len);
}

}  // namespace fputune::crc
