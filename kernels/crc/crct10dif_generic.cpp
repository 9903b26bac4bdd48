// SPDX-License-Identifier: MIT
// crct10dif (T10 DIF, msb-first): portable slice-by-8, the reference the other variants are tested against. No ISA flags.
#include "crc.hpp"
#include "slice8.hpp"

namespace fputune::crc {
namespace {
constexpr Slice8Tables kTables = slice8_tables(kCrcT10dif);
}  // namespace

std::uint64_t crct10dif_update_generic(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept {
    return update_slice8<kCrcT10dif, kTables>(crc, data, len);
}

}  // namespace fputune::crc
