// SPDX-License-Identifier: MIT
// SHA-224/256 block function, portable C++ (the reference every sha224/sha256 variant is tested
// against). No ISA flags.
#include "sha.hpp"
#include "sha_consts.hpp"

namespace fputune::sha {
namespace {

inline std::uint32_t ror(std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
inline std::uint32_t load_be32(const std::uint8_t* p) {
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}

}  // namespace

// Rounds written out eight at a time (the names rotate back every eight rounds) with the schedule in a
// 16-word ring, as the Linux and OpenSSL C versions do: the loop form ran at about half this speed, and
// the generic variant is the scalar baseline the thresholds compare to.
#define FPUTUNE_S0(x) (ror(x, 2) ^ ror(x, 13) ^ ror(x, 22))
#define FPUTUNE_S1(x) (ror(x, 6) ^ ror(x, 11) ^ ror(x, 25))
#define FPUTUNE_SIG0(x) (ror(x, 7) ^ ror(x, 18) ^ ((x) >> 3))
#define FPUTUNE_SIG1(x) (ror(x, 17) ^ ror(x, 19) ^ ((x) >> 10))
#define FPUTUNE_W(i)                                                                                            \
    ((i) < 16 ? (w[i] = load_be32(data + 4 * (i)))                                                               \
              : (w[(i) & 15] += FPUTUNE_SIG1(w[((i) + 14) & 15]) + w[((i) + 9) & 15] + FPUTUNE_SIG0(w[((i) + 1) & 15])))
#define FPUTUNE_R(a, b, c, d, e, f, g, h, i)                                                  \
    do {                                                                                      \
        h += FPUTUNE_S1(e) + (((f ^ g) & e) ^ g) + kSha256K[i] + FPUTUNE_W(i);                    \
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

void sha256_blocks_generic(std::uint32_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept {
    for (; nblocks; --nblocks, data += 16 * 4) {
        std::uint32_t w[16];
        std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
        std::uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
        FPUTUNE_R8(0)
        FPUTUNE_R8(8)
        FPUTUNE_R8(16)
        FPUTUNE_R8(24)
        FPUTUNE_R8(32)
        FPUTUNE_R8(40)
        FPUTUNE_R8(48)
        FPUTUNE_R8(56)
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
