// SPDX-License-Identifier: MIT
// SHA-1 block function, portable C++ (the reference every sha1 variant is tested against). No ISA flags.
#include <cstring>

#include "sha.hpp"
#include "sha_consts.hpp"

namespace fputune::sha {
namespace {

inline std::uint32_t rol(std::uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }
inline std::uint32_t load_be32(const std::uint8_t* p) {
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}

}  // namespace

// Rounds written out five at a time (the names rotate back every five rounds) with the schedule kept in
// a 16-word ring, as the Linux and OpenSSL C versions do: the loop form with per-round branches ran at
// about a third of this speed, and the generic variant is the scalar baseline the thresholds compare to.
#define FPUTUNE_SHA1_W(i)                        \
    (i < 16 ? (w[i] = load_be32(data + 4 * (i))) \
            : (w[(i)&15] = rol(w[((i) + 13) & 15] ^ w[((i) + 8) & 15] ^ w[((i) + 2) & 15] ^ w[(i)&15], 1)))
#define FPUTUNE_SHA1_R(a, b, c, d, e, f, k, i)          \
    do {                                                \
        e += rol(a, 5) + (f) + (k) + FPUTUNE_SHA1_W(i); \
        b = rol(b, 30);                                 \
    } while (0)
#define FPUTUNE_SHA1_R5(F, k, i)                           \
    FPUTUNE_SHA1_R(a, b, c, d, e, F(b, c, d), k, (i) + 0); \
    FPUTUNE_SHA1_R(e, a, b, c, d, F(a, b, c), k, (i) + 1); \
    FPUTUNE_SHA1_R(d, e, a, b, c, F(e, a, b), k, (i) + 2); \
    FPUTUNE_SHA1_R(c, d, e, a, b, F(d, e, a), k, (i) + 3); \
    FPUTUNE_SHA1_R(b, c, d, e, a, F(c, d, e), k, (i) + 4);
#define FPUTUNE_SHA1_R20(F, k, i) \
    FPUTUNE_SHA1_R5(F, k, (i))    \
    FPUTUNE_SHA1_R5(F, k, (i) + 5) FPUTUNE_SHA1_R5(F, k, (i) + 10) FPUTUNE_SHA1_R5(F, k, (i) + 15)
#define FPUTUNE_SHA1_CH(b, c, d) ((((c) ^ (d)) & (b)) ^ (d))
#define FPUTUNE_SHA1_PAR(b, c, d) ((b) ^ (c) ^ (d))
#define FPUTUNE_SHA1_MAJ(b, c, d) (((b) & (c)) | (((b) | (c)) & (d)))

void sha1_blocks_generic(std::uint32_t state[5], const std::uint8_t* data, std::size_t nblocks) noexcept {
    for (; nblocks; --nblocks, data += 64) {
        std::uint32_t w[16];
        std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3], e = state[4];
        FPUTUNE_SHA1_R20(FPUTUNE_SHA1_CH, kSha1K[0], 0)
        FPUTUNE_SHA1_R20(FPUTUNE_SHA1_PAR, kSha1K[1], 20)
        FPUTUNE_SHA1_R20(FPUTUNE_SHA1_MAJ, kSha1K[2], 40)
        FPUTUNE_SHA1_R20(FPUTUNE_SHA1_PAR, kSha1K[3], 60)
        state[0] += a;
        state[1] += b;
        state[2] += c;
        state[3] += d;
        state[4] += e;
    }
}

#undef FPUTUNE_SHA1_W
#undef FPUTUNE_SHA1_R
#undef FPUTUNE_SHA1_R5
#undef FPUTUNE_SHA1_R20
#undef FPUTUNE_SHA1_CH
#undef FPUTUNE_SHA1_PAR
#undef FPUTUNE_SHA1_MAJ

}  // namespace fputune::sha
