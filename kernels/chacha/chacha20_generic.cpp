// SPDX-License-Identifier: MIT
// ChaCha20 in plain integer code, compiled without vector registers (-mgeneral-regs-only) like Linux's
// chacha_crypt_generic(), the path it takes for inputs of at most 64 bytes (and without a usable FPU). It is
// also the portable reference every variant is tested against (RFC 8439 vectors in tests/chacha_test.cpp).
#include <cstring>

#include "chacha.hpp"

namespace fputune::chacha {

namespace {

using u32 = std::uint32_t;

constexpr u32 rotl(u32 x, int n) noexcept { return (x << n) | (x >> (32 - n)); }

void quarter(u32& a, u32& b, u32& c, u32& d) noexcept {
    a += b, d = rotl(d ^ a, 16);
    c += d, b = rotl(b ^ c, 12);
    a += b, d = rotl(d ^ a, 8);
    c += d, b = rotl(b ^ c, 7);
}

// One keystream block (RFC 8439 2.3): 20 rounds, then the input added back, serialized little-endian
// (Linux's chacha_block_generic()).
void block(const u32 state[16], std::uint8_t out[64]) noexcept {
    u32 x[16];
    for (int i = 0; i < 16; ++i) x[i] = state[i];
    for (int r = 0; r < 10; ++r) {
        quarter(x[0], x[4], x[8], x[12]);
        quarter(x[1], x[5], x[9], x[13]);
        quarter(x[2], x[6], x[10], x[14]);
        quarter(x[3], x[7], x[11], x[15]);
        quarter(x[0], x[5], x[10], x[15]);
        quarter(x[1], x[6], x[11], x[12]);
        quarter(x[2], x[7], x[8], x[13]);
        quarter(x[3], x[4], x[9], x[14]);
    }
    for (int i = 0; i < 16; ++i) {  // put_unaligned_le32(): x86 is little-endian
        const u32 w = x[i] + state[i];
        std::memcpy(out + 4 * i, &w, 4);
    }
}

}  // namespace

void chacha20_xor_generic(std::uint32_t state[16], std::uint8_t* dst, const std::uint8_t* src,
                          std::size_t bytes) noexcept {
    std::uint8_t ks[64];
    while (bytes) {
        block(state, ks);
        ++state[12];
        const std::size_t n = bytes < 64 ? bytes : 64;
        for (std::size_t i = 0; i < n; i += 8) {  // 8 bytes at a time where whole, as crypto_xor() does
            if (n - i >= 8) {
                std::uint64_t a, b;
                std::memcpy(&a, src + i, 8);
                std::memcpy(&b, ks + i, 8);
                a ^= b;
                std::memcpy(dst + i, &a, 8);
            } else {
                for (std::size_t j = i; j < n; ++j) dst[j] = src[j] ^ ks[j];
            }
        }
        src += n;
        dst += n;
        bytes -= n;
    }
}

}  // namespace fputune::chacha
