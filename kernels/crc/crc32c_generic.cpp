// SPDX-License-Identifier: MIT
// crc32c (Castagnoli): portable slice-by-8, the reference the other variants are tested against. No ISA flags.
#include "crc.hpp"
#include "slice8.hpp"

namespace fputune::crc {
namespace {
constexpr Slice8Tables kTables = slice8_tables(kCrc32c);
}  // namespace

std::uint64_t crc32c_update_generic(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept {
    return update_slice8<kCrc32c, kTables>(crc, data, len);
}

}  // namespace fputune::crc
