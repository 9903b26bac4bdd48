// SPDX-License-Identifier: MIT
// The block functions of the sha family: each compresses n whole blocks into the state. These are the
// only symbols that leave an ISA file; table.cpp wraps them into Kernel entries (init, glue, padding).
#pragma once

#include <cstddef>
#include <cstdint>

namespace fputune::sha {

// SHA-1: 5-word state, 64-byte blocks.
void sha1_blocks_generic(std::uint32_t state[5], const std::uint8_t* data, std::size_t nblocks) noexcept;
void sha1_blocks_ssse3(std::uint32_t state[5], const std::uint8_t* data, std::size_t nblocks) noexcept;
void sha1_blocks_avx2(std::uint32_t state[5], const std::uint8_t* data, std::size_t nblocks) noexcept;
void sha1_blocks_shani(std::uint32_t state[5], const std::uint8_t* data, std::size_t nblocks) noexcept;

// SHA-224/256: 8-word state, 64-byte blocks.
void sha256_blocks_generic(std::uint32_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept;
void sha256_blocks_ssse3(std::uint32_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept;
void sha256_blocks_avx(std::uint32_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept;
void sha256_blocks_avx2(std::uint32_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept;
void sha256_blocks_shani(std::uint32_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept;

// SHA-384/512: 8 64-bit words of state, 128-byte blocks.
void sha512_blocks_generic(std::uint64_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept;
void sha512_blocks_ssse3(std::uint64_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept;
void sha512_blocks_avx(std::uint64_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept;
void sha512_blocks_avx2(std::uint64_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept;

// SM3: 8-word state, 64-byte blocks.
void sm3_blocks_generic(std::uint32_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept;
void sm3_blocks_avx(std::uint32_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept;

}  // namespace fputune::sha

namespace fputune {
struct Kernel;
}
namespace fputune::sha {
// The OpenSSL peers (kernels/peers/sha_openssl.cpp), one per algorithm, in the order
// sha1, sha224, sha256, sha384, sha512, sm3.
extern const Kernel kSha1OpenSsl, kSha224OpenSsl, kSha256OpenSsl, kSha384OpenSsl, kSha512OpenSsl, kSm3OpenSsl;
}  // namespace fputune::sha
