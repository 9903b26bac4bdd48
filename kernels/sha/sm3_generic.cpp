// SPDX-License-Identifier: MIT
// SM3 block function (GB/T 32905-2016), portable C++ (the reference every sm3 variant is tested
// against). No ISA flags.
#include "sha.hpp"
#include "sha_consts.hpp"

namespace fputune::sha {
namespace {

inline std::uint32_t rol(std::uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }
inline std::uint32_t load_be32(const std::uint8_t* p) {
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}
inline std::uint32_t p0(std::uint32_t x) { return x ^ rol(x, 9) ^ rol(x, 17); }
inline std::uint32_t p1(std::uint32_t x) { return x ^ rol(x, 15) ^ rol(x, 23); }
// Message expansion of word j, done in the rounds four words ahead of use: as a separate loop GCC -O3
// vectorised it two words at a time, reading pairs of just-stored words (a store-forwarding stall).
inline std::uint32_t expand(const std::uint32_t* w, int j) {
    return p1(w[j - 16] ^ w[j - 9] ^ rol(w[j - 3], 15)) ^ rol(w[j - 13], 7) ^ w[j - 6];
}

}  // namespace

// Rounds written out four at a time, the expansion threaded through them: the names rotate (A B C D E F G H) -> (D A B
// C H E F G) each round,
// so only B, D, F, H are written (D takes the new A, H the new E). The loop form with per-round
// branches ran at a third of this speed; the generic variant is the scalar baseline of the thresholds.
#define FPUTUNE_SM3_R(a, b, c, d, e, f, g, h, j, FF, GG)         \
    do {                                                         \
        const std::uint32_t a12 = rol(a, 12);                    \
        const std::uint32_t ss1 = rol((a12 + kSm3Tj[j]) + e, 7); \
        if ((j) >= 12) w[(j) + 4] = expand(w, (j) + 4);          \
        d += FF(a, b, c) + (ss1 ^ a12) + (w[j] ^ w[(j) + 4]);    \
        h = p0((h + GG(e, f, g) + w[j]) + ss1);                  \
        b = rol(b, 9);                                           \
        f = rol(f, 19);                                          \
    } while (0)
#define FPUTUNE_SM3_R4(j, FF, GG)                           \
    FPUTUNE_SM3_R(a, b, c, d, e, f, g, h, (j) + 0, FF, GG); \
    FPUTUNE_SM3_R(d, a, b, c, h, e, f, g, (j) + 1, FF, GG); \
    FPUTUNE_SM3_R(c, d, a, b, g, h, e, f, (j) + 2, FF, GG); \
    FPUTUNE_SM3_R(b, c, d, a, f, g, h, e, (j) + 3, FF, GG);
#define FPUTUNE_SM3_XOR3(x, y, z) ((x) ^ (y) ^ (z))
#define FPUTUNE_SM3_MAJ(x, y, z) (((x) & (y)) | (((x) | (y)) & (z)))
#define FPUTUNE_SM3_CH(x, y, z) ((((y) ^ (z)) & (x)) ^ (z))
#define FPUTUNE_SM3_LOW(j) FPUTUNE_SM3_R4(j, FPUTUNE_SM3_XOR3, FPUTUNE_SM3_XOR3)
#define FPUTUNE_SM3_HIGH(j) FPUTUNE_SM3_R4(j, FPUTUNE_SM3_MAJ, FPUTUNE_SM3_CH)

void sm3_blocks_generic(std::uint32_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept {
    for (; nblocks; --nblocks, data += 64) {
        std::uint32_t w[68];
        for (int j = 0; j < 16; ++j) w[j] = load_be32(data + 4 * j);
        std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
        std::uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
        FPUTUNE_SM3_LOW(0)
        FPUTUNE_SM3_LOW(4) FPUTUNE_SM3_LOW(8) FPUTUNE_SM3_LOW(12) FPUTUNE_SM3_HIGH(16) FPUTUNE_SM3_HIGH(20)
            FPUTUNE_SM3_HIGH(24) FPUTUNE_SM3_HIGH(28) FPUTUNE_SM3_HIGH(32) FPUTUNE_SM3_HIGH(36) FPUTUNE_SM3_HIGH(40)
                FPUTUNE_SM3_HIGH(44) FPUTUNE_SM3_HIGH(48) FPUTUNE_SM3_HIGH(52) FPUTUNE_SM3_HIGH(56) FPUTUNE_SM3_HIGH(60)
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

#undef FPUTUNE_SM3_R
#undef FPUTUNE_SM3_R4
#undef FPUTUNE_SM3_XOR3
#undef FPUTUNE_SM3_MAJ
#undef FPUTUNE_SM3_CH
#undef FPUTUNE_SM3_LOW
#undef FPUTUNE_SM3_HIGH

}  // namespace fputune::sha
