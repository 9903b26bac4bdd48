// SPDX-License-Identifier: MIT
// The four CRCs in portable slice-by-8 (slice8.hpp): the references the other variants are tested
// against, and the scalar baselines of the thresholds. No ISA flags.
#include "crc.hpp"
#include "slice8.hpp"

namespace fputune::crc {

#define FPUTUNE_SLICE8_ENTRY(name, spec)                                                        \
    std::uint64_t name(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept { \
        static constexpr Slice8Tables kTables = slice8_tables(spec);                            \
        return update_slice8<spec, kTables>(crc, data, len);                                    \
    }

FPUTUNE_SLICE8_ENTRY(crc32c_update_generic, kCrc32c)
FPUTUNE_SLICE8_ENTRY(crc32_update_generic, kCrc32)
FPUTUNE_SLICE8_ENTRY(crct10dif_update_generic, kCrcT10dif)
FPUTUNE_SLICE8_ENTRY(crc64_update_generic, kCrc64Nvme)

#undef FPUTUNE_SLICE8_ENTRY

}  // namespace fputune::crc
