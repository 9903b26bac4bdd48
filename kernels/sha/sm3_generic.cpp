// SPDX-License-Identifier: MIT
// SM3 block function (GB/T 32905-2016), portable C++ (the reference every sm3 variant is tested
// against). No ISA flags.
#include "sha_blocks.hpp"
#include "sha_consts.hpp"

namespace fputune::sha {
namespace {

inline std::uint32_t rol(std::uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }
inline std::uint32_t load_be32(const std::uint8_t* p) {
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}
inline std::uint32_t p0(std::uint32_t x) { return x ^ rol(x, 9) ^ rol(x, 17); }
inline std::uint32_t p1(std::uint32_t x) { return x ^ rol(x, 15) ^ rol(x, 23); }

}  // namespace

void sm3_blocks_generic(std::uint32_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept {
    for (; nblocks; --nblocks, data += 64) {
        std::uint32_t w[68];
        for (int j = 0; j < 16; ++j) w[j] = load_be32(data + 4 * j);
        for (int j = 16; j < 68; ++j)
            w[j] = p1(w[j - 16] ^ w[j - 9] ^ rol(w[j - 3], 15)) ^ rol(w[j - 13], 7) ^ w[j - 6];
        std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
        std::uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
        for (int j = 0; j < 64; ++j) {
            const std::uint32_t a12 = rol(a, 12);
            const std::uint32_t ss1 = rol(a12 + e + kSm3Tj[j], 7);
            const std::uint32_t ss2 = ss1 ^ a12;
            const std::uint32_t ff = j < 16 ? (a ^ b ^ c) : ((a & b) | ((a | b) & c));
            const std::uint32_t gg = j < 16 ? (e ^ f ^ g) : (((f ^ g) & e) ^ g);
            const std::uint32_t tt1 = ff + d + ss2 + (w[j] ^ w[j + 4]);
            const std::uint32_t tt2 = gg + h + ss1 + w[j];
            d = c;
            c = rol(b, 9);
            b = a;
            a = tt1;
            h = g;
            g = rol(f, 19);
            f = e;
            e = p0(tt2);
        }
        state[0] ^= a;
        state[1] ^= b;
        state[2] ^= c;
        state[3] ^= d;
        state[4] ^= e;
        state[5] ^= f;
        state[6] ^= g;
        state[7] ^= h;
    }
}

}  // namespace fputune::sha
