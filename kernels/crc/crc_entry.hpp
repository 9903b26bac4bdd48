// SPDX-License-Identifier: MIT
// The entry points of the crc ISA files: each continues a CRC register over len bytes (any len).
#pragma once

#include <cstddef>
#include <cstdint>

namespace fputune::crc {

// The register is the CRC before the final xor, in the low bits: reflected for crc32c, crc32 and
// crc64 (as Linux crc32c()/crc32_le()/crc64_nvme() pass it), msb-first for crct10dif.
using UpdateFn = std::uint64_t (*)(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept;

#define FPUTUNE_CRC_ENTRY(name) std::uint64_t name(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept

FPUTUNE_CRC_ENTRY(crc32c_update_generic);
FPUTUNE_CRC_ENTRY(crc32c_update_sse42);
FPUTUNE_CRC_ENTRY(crc32c_update_pclmul);
FPUTUNE_CRC_ENTRY(crc32c_update_vpclmul_avx2);
FPUTUNE_CRC_ENTRY(crc32c_update_vpclmul_avx512);

FPUTUNE_CRC_ENTRY(crc32_update_generic);
FPUTUNE_CRC_ENTRY(crc32_update_pclmul);
FPUTUNE_CRC_ENTRY(crc32_update_vpclmul_avx2);
FPUTUNE_CRC_ENTRY(crc32_update_vpclmul_avx512);

FPUTUNE_CRC_ENTRY(crct10dif_update_generic);
FPUTUNE_CRC_ENTRY(crct10dif_update_pclmul);
FPUTUNE_CRC_ENTRY(crct10dif_update_vpclmul_avx2);
FPUTUNE_CRC_ENTRY(crct10dif_update_vpclmul_avx512);

FPUTUNE_CRC_ENTRY(crc64_update_generic);
FPUTUNE_CRC_ENTRY(crc64_update_pclmul);
FPUTUNE_CRC_ENTRY(crc64_update_vpclmul_avx2);
FPUTUNE_CRC_ENTRY(crc64_update_vpclmul_avx512);

// Peers (kernels/peers/crc_isal.cpp), the same register convention around ISA-L's functions.
FPUTUNE_CRC_ENTRY(crc32c_update_isal);
FPUTUNE_CRC_ENTRY(crc32_update_isal);
FPUTUNE_CRC_ENTRY(crct10dif_update_isal);

#undef FPUTUNE_CRC_ENTRY

}  // namespace fputune::crc
