// SPDX-License-Identifier: MIT
// SHA-384/512 block function, portable C++ (the reference every sha384/sha512 variant is tested
// against). No ISA flags.
#include "sha.hpp"
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

// Rounds written out eight at a time (the names rotate back every eight rounds) with the schedule in a
// 16-word ring, as the Linux and OpenSSL C versions do: the loop form ran at about half this speed, and
// the generic variant is the scalar baseline the thresholds compare to.
#define FPUTUNE_S0(x) (ror(x, 28) ^ ror(x, 34) ^ ror(x, 39))
#define FPUTUNE_S1(x) (ror(x, 14) ^ ror(x, 18) ^ ror(x, 41))
#define FPUTUNE_SIG0(x) (ror(x, 1) ^ ror(x, 8) ^ ((x) >> 7))
#define FPUTUNE_SIG1(x) (ror(x, 19) ^ ror(x, 61) ^ ((x) >> 6))
#define FPUTUNE_W(i)                                                                                            \
    ((i) < 16 ? (w[i] = load_be64(data + 8 * (i)))                                                               \
              : (w[(i) & 15] += FPUTUNE_SIG1(w[((i) + 14) & 15]) + w[((i) + 9) & 15] + FPUTUNE_SIG0(w[((i) + 1) & 15])))
#define FPUTUNE_R(a, b, c, d, e, f, g, h, i)                                                  \
    do {                                                                                      \
        h += FPUTUNE_S1(e) + (((f ^ g) & e) ^ g) + kSha512K[i] + FPUTUNE_W(i);                    \
        d += h;                                                                               \
        h += FPUTUNE_S0(a) + ((a & b) | ((a | b) & c));                                       \
    } while (0)
#define FPUTUNE_R8(i)                                  \
    FPUTUNE_R(a, b, c, d, e, f, g, h, (i) + 0);        \
    FPUTUNE_R(h, a, b, c, d, e, f, g, (i) + 1);        \
    FPUTUNE_R(g, h, a, b, c, d, e, f, (i) + 2);        \
    FPUTUNE_R(f, g, h, a, b, c, d, e, (i) + 3);        \
    FPUTUNE_R(e, f, g, h, a, b, c, d, (i) + 4);        \
    FPUTUNE_R(d, e, f, g, h, a, b, c, (i) + 5);        \
    FPUTUNE_R(c, d, e, f, g, h, a, b, (i) + 6);        \
    FPUTUNE_R(b, c, d, e, f, g, h, a, (i) + 7);

void sha512_blocks_generic(std::uint64_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept {
    for (; nblocks; --nblocks, data += 16 * 8) {
        std::uint64_t w[16];
        std::uint64_t a = state[0], b = state[1], c = state[2], d = state[3];
        std::uint64_t e = state[4], f = state[5], g = state[6], h = state[7];
        FPUTUNE_R8(0)
        FPUTUNE_R8(8)
        FPUTUNE_R8(16)
        FPUTUNE_R8(24)
        FPUTUNE_R8(32)
        FPUTUNE_R8(40)
        FPUTUNE_R8(48)
        FPUTUNE_R8(56)
        FPUTUNE_R8(64)
        FPUTUNE_R8(72)
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

#undef FPUTUNE_S0
#undef FPUTUNE_S1
#undef FPUTUNE_SIG0
#undef FPUTUNE_SIG1
#undef FPUTUNE_W
#undef FPUTUNE_R
#undef FPUTUNE_R8

}  // namespace fputune::sha
