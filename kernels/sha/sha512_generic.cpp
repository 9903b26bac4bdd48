// SPDX-License-Identifier: MIT
// SHA-384/512 block function, portable C++ (the reference every sha384/sha512 variant is tested
// against). No ISA flags.
#include "sha_blocks.hpp"
#include "sha_consts.hpp"

namespace fputune::sha {
namespace {

inline std::uint64_t ror(std::uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }
inline std::uint64_t load_be64(const std::uint8_t* p) {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = (v << 8) | p[i];
    return v;
}

}  // namespace

void sha512_blocks_generic(std::uint64_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept {
    for (; nblocks; --nblocks, data += 128) {
        std::uint64_t w[80];
        for (int i = 0; i < 16; ++i) w[i] = load_be64(data + 8 * i);
        for (int i = 16; i < 80; ++i) {
            const std::uint64_t s0 = ror(w[i - 15], 1) ^ ror(w[i - 15], 8) ^ (w[i - 15] >> 7);
            const std::uint64_t s1 = ror(w[i - 2], 19) ^ ror(w[i - 2], 61) ^ (w[i - 2] >> 6);
            w[i] = w[i - 16] + s0 + w[i - 7] + s1;
        }
        std::uint64_t a = state[0], b = state[1], c = state[2], d = state[3];
        std::uint64_t e = state[4], f = state[5], g = state[6], h = state[7];
        for (int i = 0; i < 80; ++i) {
            const std::uint64_t t1 = h + (ror(e, 14) ^ ror(e, 18) ^ ror(e, 41)) + (((f ^ g) & e) ^ g) + kSha512K[i] + w[i];
            const std::uint64_t t2 = (ror(a, 28) ^ ror(a, 34) ^ ror(a, 39)) + ((a & b) | ((a | b) & c));
            h = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        state[0] += a;
        state[1] += b;
        state[2] += c;
        state[3] += d;
        state[4] += e;
        state[5] += f;
        state[6] += g;
        state[7] += h;
    }
}

}  // namespace fputune::sha
