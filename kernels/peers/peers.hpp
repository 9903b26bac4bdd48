// SPDX-License-Identifier: MIT
// Peers: other people's implementations, measured side by side with ours. A peer is a glue type
// (glue.hpp) like ours, and its family's table builds it with kernel<...>() and .provider set; its isa
// is "auto" (the provider picks its own code for the CPU at run time). Where the provider has the shape
// of our ISA entry points (ISA-L's CRC update), the family glue wraps it, as it wraps ours; otherwise the
// peer's init/blocks/final are written in peers/<provider>.cpp, the only files that include the
// provider's headers.
#pragma once

#include <cstddef>
#include <cstdint>

#include "crc/crc.hpp"
#include "glue.hpp"
#include "mac/mac.hpp"
#include "sha/sha.hpp"

namespace fputune::peers {

// A peer's context holds the provider's own state (a low-level struct) or a pointer to it (EVP objects,
// created in init and freed in final: that allocation is part of what the peer costs per request).
inline constexpr std::size_t kPeerCtxBytes = 512;

template <const Algorithm& A>
struct PeerOf {
    static constexpr Algorithm algorithm = A;
    static constexpr std::size_t ctx_bytes = kPeerCtxBytes;
};

// OpenSSL 3 (openssl.cpp).
struct Sha1OpenSsl : PeerOf<sha::kSha1> {
    FPUTUNE_KERNEL_ENTRY_POINTS;
};
struct Sha224OpenSsl : PeerOf<sha::kSha224> {
    FPUTUNE_KERNEL_ENTRY_POINTS;
};
struct Sha256OpenSsl : PeerOf<sha::kSha256> {
    FPUTUNE_KERNEL_ENTRY_POINTS;
};
struct Sha384OpenSsl : PeerOf<sha::kSha384> {
    FPUTUNE_KERNEL_ENTRY_POINTS;
};
struct Sha512OpenSsl : PeerOf<sha::kSha512> {
    FPUTUNE_KERNEL_ENTRY_POINTS;
};
struct Sm3OpenSsl : PeerOf<sha::kSm3> {
    FPUTUNE_KERNEL_ENTRY_POINTS;
};
struct Poly1305OpenSsl : PeerOf<mac::kPoly1305> {
    FPUTUNE_KERNEL_ENTRY_POINTS;
};
struct GhashOpenSsl : PeerOf<mac::kGhash> {
    FPUTUNE_KERNEL_ENTRY_POINTS;
};
struct Blake2sOpenSsl : PeerOf<mac::kBlake2s> {
    FPUTUNE_KERNEL_ENTRY_POINTS;
};

// libsodium (sodium.cpp).
struct Poly1305Sodium : PeerOf<mac::kPoly1305> {
    FPUTUNE_KERNEL_ENTRY_POINTS;
};

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
