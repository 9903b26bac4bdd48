// SPDX-License-Identifier: MIT
// crc32c (Castagnoli) by folding 64-byte vectors with VPCLMULQDQ on zmm. Requires AVX512F/VL/BW and VPCLMULQDQ (SSE4.2
// for inputs under 16 bytes).
#include "crc.hpp"
#include "vec_avx512.hpp"

namespace fputune::crc {
namespace {
// 4 registers of 64 bytes in flight in the main loop.
constexpr unsigned kVecs = 4;
constexpr FoldConsts kConsts = fold_consts(kCrc32c, 64, kVecs);
}  // namespace

// Folds from 16 bytes on; below that there is nothing to fold and the crc32 instruction does it.
std::uint64_t crc32c_update_vpclmul_avx512(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept {
    if (len < 16) return crc32c_update_sse42(crc, data, len);
    return fold_update<Vec512, kConsts, kVecs>(crc, data, len);
}

}  // namespace fputune::crc
