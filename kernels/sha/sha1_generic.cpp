// SPDX-License-Identifier: MIT
// SHA-1 block function, portable C++ (the reference every sha1 variant is tested against). No ISA flags.
#include <cstring>

#include "sha_blocks.hpp"
#include "sha_consts.hpp"

namespace fputune::sha {
namespace {

inline std::uint32_t rol(std::uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }
inline std::uint32_t load_be32(const std::uint8_t* p) {
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}

}  // namespace

void sha1_blocks_generic(std::uint32_t state[5], const std::uint8_t* data, std::size_t nblocks) noexcept {
    for (; nblocks; --nblocks, data += 64) {
        std::uint32_t w[80];
        for (int i = 0; i < 16; ++i) w[i] = load_be32(data + 4 * i);
        for (int i = 16; i < 80; ++i) w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
        std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3], e = state[4];
        for (int i = 0; i < 80; ++i) {
            std::uint32_t f;
            if (i < 20) f = ((c ^ d) & b) ^ d;              // Ch
            else if (i < 40) f = b ^ c ^ d;                 // Parity
            else if (i < 60) f = (b & c) | ((b | c) & d);   // Maj
            else f = b ^ c ^ d;
            std::uint32_t t = rol(a, 5) + f + e + kSha1K[i / 20] + w[i];
            e = d;
            d = c;
            c = rol(b, 30);
            b = a;
            a = t;
        }
        state[0] += a;
        state[1] += b;
        state[2] += c;
        state[3] += d;
        state[4] += e;
    }
}

}  // namespace fputune::sha
