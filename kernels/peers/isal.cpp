// SPDX-License-Identifier: MIT
// Peers: ISA-L's crc32c (crc32_iscsi), crc32 (crc32_gzip_refl) and crct10dif (crc16_t10dif), each
// dispatching itself to its best code for the CPU, behind our register convention; and the ISA-specific
// functions behind those dispatchers, so that each of our variants meets ISA-L's code for the same ISA.
#include <isa-l/crc.h>

#include <cassert>
#include <climits>

#include "crc/crc_peers.hpp"

// ISA-L's per-ISA entry points (what its dispatchers choose from): exported by libisal but not declared in
// its headers; same arguments as the dispatched functions. Read from libisal 2.30's disassembly:
// crc32_iscsi_00 = three crc32q streams of 640 bytes, no PCLMULQDQ; _01 = three crc32q streams joined with
// PCLMULQDQ; *_by8 / crc16_t10dif_01 = 128-bit PCLMULQDQ folding (legacy SSE); *_by16_10 = VPCLMULQDQ on zmm.
extern "C" {
unsigned int crc32_iscsi_00(unsigned char* buffer, int len, unsigned int init_crc);
unsigned int crc32_iscsi_01(unsigned char* buffer, int len, unsigned int init_crc);
unsigned int crc32_iscsi_by16_10(unsigned char* buffer, int len, unsigned int init_crc);
std::uint32_t crc32_gzip_refl_by8(std::uint32_t init_crc, const unsigned char* buf, std::uint64_t len);
std::uint32_t crc32_gzip_refl_by16_10(std::uint32_t init_crc, const unsigned char* buf, std::uint64_t len);
std::uint16_t crc16_t10dif_01(std::uint16_t init_crc, const unsigned char* buf, std::uint64_t len);
std::uint16_t crc16_t10dif_by16_10(std::uint16_t init_crc, const unsigned char* buf, std::uint64_t len);
}

namespace fputune::peers {

namespace {

// crc32_iscsi neither inverts its seed nor its result: it continues the reflected register directly.
// Its length is an int, so very long inputs go in pieces.
template <unsigned (*Fn)(unsigned char*, int, unsigned)>
std::uint64_t iscsi(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept {
    assert(data != nullptr || len == 0);
    auto c = static_cast<unsigned>(crc);
    while (len) {
        const std::size_t n = len < std::size_t{INT_MAX} ? len : std::size_t{1} << 30;
        c = Fn(const_cast<unsigned char*>(data), static_cast<int>(n), c);
        data += n;
        len -= n;
    }
    return c;
}

// crc32_gzip_refl inverts the seed on entry and the result on exit (zlib's crc32 convention), so the
// register is inverted around it: the same CRC as Linux crc32_le with init ~0 and a final xor.
template <std::uint32_t (*Fn)(std::uint32_t, const unsigned char*, std::uint64_t)>
std::uint64_t gzip_refl(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept {
    assert(data != nullptr || len == 0);
    return static_cast<std::uint32_t>(~Fn(~static_cast<std::uint32_t>(crc), data, len));
}

// crc16_t10dif continues the msb-first 16-bit register directly (init 0, no final xor).
template <std::uint16_t (*Fn)(std::uint16_t, const unsigned char*, std::uint64_t)>
std::uint64_t t10dif(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept {
    assert(data != nullptr || len == 0);
    return Fn(static_cast<std::uint16_t>(crc), data, len);
}

unsigned iscsi_dispatched(unsigned char* b, int n, unsigned c) { return crc32_iscsi(b, n, c); }
std::uint32_t gzip_dispatched(std::uint32_t c, const unsigned char* b, std::uint64_t n) {
    return crc32_gzip_refl(c, b, n);
}
std::uint16_t t10dif_dispatched(std::uint16_t c, const unsigned char* b, std::uint64_t n) {
    return crc16_t10dif(c, b, n);
}

}  // namespace

std::uint64_t crc32c_update_isal(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept {
    return iscsi<iscsi_dispatched>(crc, data, len);
}
std::uint64_t crc32c_update_sse42_3stream_isal(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept {
    return iscsi<crc32_iscsi_00>(crc, data, len);
}
std::uint64_t crc32c_update_3way_isal(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept {
    return iscsi<crc32_iscsi_01>(crc, data, len);
}
std::uint64_t crc32c_update_vpclmul_avx512_isal(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept {
    return iscsi<crc32_iscsi_by16_10>(crc, data, len);
}
std::uint64_t crc32_update_isal(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept {
    return gzip_refl<gzip_dispatched>(crc, data, len);
}
std::uint64_t crc32_update_pclmul_isal(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept {
    return gzip_refl<crc32_gzip_refl_by8>(crc, data, len);
}
std::uint64_t crc32_update_vpclmul_avx512_isal(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept {
    return gzip_refl<crc32_gzip_refl_by16_10>(crc, data, len);
}
std::uint64_t crct10dif_update_isal(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept {
    return t10dif<t10dif_dispatched>(crc, data, len);
}
std::uint64_t crct10dif_update_pclmul_isal(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept {
    return t10dif<crc16_t10dif_01>(crc, data, len);
}
std::uint64_t crct10dif_update_vpclmul_avx512_isal(std::uint64_t crc, const std::uint8_t* data,
                                                   std::size_t len) noexcept {
    return t10dif<crc16_t10dif_by16_10>(crc, data, len);
}

}  // namespace fputune::peers
