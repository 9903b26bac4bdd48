// SPDX-License-Identifier: MIT
// Peers: ISA-L's crc32c (crc32_iscsi), crc32 (crc32_gzip_refl) and crct10dif (crc16_t10dif), each
// dispatching itself to its best code for the CPU, behind our register convention.
#include <isa-l/crc.h>

#include <cassert>
#include <climits>

#include "peers.hpp"

namespace fputune::peers {

// crc32_iscsi neither inverts its seed nor its result: it continues the reflected register directly.
// Its length is an int, so very long inputs go in pieces.
std::uint64_t crc32c_update_isal(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept {
    assert(data != nullptr || len == 0);
    auto c = static_cast<unsigned>(crc);
    while (len) {
        const std::size_t n = len < std::size_t{INT_MAX} ? len : std::size_t{1} << 30;
        c = crc32_iscsi(const_cast<unsigned char*>(data), static_cast<int>(n), c);
        data += n;
        len -= n;
    }
    return c;
}

// crc32_gzip_refl inverts the seed on entry and the result on exit (zlib's crc32 convention), so the
// register is inverted around it: the same CRC as Linux crc32_le with init ~0 and a final xor.
std::uint64_t crc32_update_isal(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept {
    assert(data != nullptr || len == 0);
    return static_cast<std::uint32_t>(~crc32_gzip_refl(~static_cast<std::uint32_t>(crc), data, len));
}

// crc16_t10dif continues the msb-first 16-bit register directly (init 0, no final xor).
std::uint64_t crct10dif_update_isal(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept {
    assert(data != nullptr || len == 0);
    return crc16_t10dif(static_cast<std::uint16_t>(crc), data, len);
}

}  // namespace fputune::peers
