// SPDX-License-Identifier: MIT
// The crc family's peers: ISA-L's CRC functions (peers/isal.cpp), wrapped by the crc glue as ours are.
#pragma once

#include <cstddef>
#include <cstdint>

#include "crc.hpp"

namespace fputune::peers {

// ISA-L (isal.cpp): its CRC functions continue a register like our crc entry points (crc.hpp), so the
// crc glue wraps them; 16-byte blocks, the width its folding code works in.
std::uint64_t crc32c_update_isal(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept;
std::uint64_t crc32_update_isal(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept;
std::uint64_t crct10dif_update_isal(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept;
using Crc32cIsal = crc::Crc32c<crc32c_update_isal, 16>;
using Crc32Isal = crc::Crc32<crc32_update_isal, 16>;
using CrcT10difIsal = crc::CrcT10dif<crct10dif_update_isal, 16>;
// ISA-L's code for one ISA (isal.cpp), each named like the variant of ours it meets.
std::uint64_t crc32c_update_sse42_3stream_isal(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept;
std::uint64_t crc32c_update_3way_isal(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept;
std::uint64_t crc32c_update_vpclmul_avx512_isal(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept;
std::uint64_t crc32_update_pclmul_isal(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept;
std::uint64_t crc32_update_vpclmul_avx512_isal(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept;
std::uint64_t crct10dif_update_pclmul_isal(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept;
std::uint64_t crct10dif_update_vpclmul_avx512_isal(std::uint64_t crc, const std::uint8_t* data,
                                                   std::size_t len) noexcept;

}  // namespace fputune::peers
