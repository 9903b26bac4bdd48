// SPDX-License-Identifier: MIT
// SHA-224/256 and SHA-384/512 block functions, portable C++ (the references every sha2 variant is tested
// against): one body over the word type, with each size's rotations, constants and round count. No ISA
// flags.
#include "sha.hpp"

namespace fputune::sha {
namespace {

template <typename Word>
struct Sha2;
template <>
struct Sha2<std::uint32_t> {  // FIPS 180-4, 4.1.2
    static constexpr int kRounds = 64;
    static constexpr int kS0[3] = {2, 13, 22}, kS1[3] = {6, 11, 25}, kSig0[3] = {7, 18, 3}, kSig1[3] = {17, 19, 10};
    static constexpr const std::uint32_t* kK = kSha256K;
};
template <>
struct Sha2<std::uint64_t> {  // FIPS 180-4, 4.1.3
    static constexpr int kRounds = 80;
    static constexpr int kS0[3] = {28, 34, 39}, kS1[3] = {14, 18, 41}, kSig0[3] = {1, 8, 7}, kSig1[3] = {19, 61, 6};
    static constexpr const std::uint64_t* kK = kSha512K;
};

template <typename Word>
inline Word ror(Word x, int n) {
    return (x >> n) | (x << (8 * sizeof(Word) - n));
}
// Big-endian words as the two references read them before they shared this body (a shift-or expression,
// a byte loop): each compiles to a load and a bswap, and other forms measured up to 2% slower here.
template <typename Word>
inline Word load_be(const std::uint8_t* p) {
    if constexpr (sizeof(Word) == 4) {
        return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
    } else {
        Word v = 0;
        for (std::size_t i = 0; i < sizeof(Word); ++i) v = (v << 8) | p[i];
        return v;
    }
}

// Rounds written out eight at a time (the names rotate back every eight rounds) with the schedule in a
// 16-word ring, as the Linux and OpenSSL C versions do: the loop form ran at about half this speed, and
// the generic variant is the scalar baseline the thresholds compare to.
#define FPUTUNE_S0(x) (ror(x, P::kS0[0]) ^ ror(x, P::kS0[1]) ^ ror(x, P::kS0[2]))
#define FPUTUNE_S1(x) (ror(x, P::kS1[0]) ^ ror(x, P::kS1[1]) ^ ror(x, P::kS1[2]))
#define FPUTUNE_SIG0(x) (ror(x, P::kSig0[0]) ^ ror(x, P::kSig0[1]) ^ ((x) >> P::kSig0[2]))
#define FPUTUNE_SIG1(x) (ror(x, P::kSig1[0]) ^ ror(x, P::kSig1[1]) ^ ((x) >> P::kSig1[2]))
#define FPUTUNE_W(i)                                              \
    ((i) < 16 ? (w[i] = load_be<Word>(data + sizeof(Word) * (i))) \
              : (w[(i)&15] += FPUTUNE_SIG1(w[((i) + 14) & 15]) + w[((i) + 9) & 15] + FPUTUNE_SIG0(w[((i) + 1) & 15])))
#define FPUTUNE_R(a, b, c, d, e, f, g, h, i)                                \
    do {                                                                    \
        h += FPUTUNE_S1(e) + (((f ^ g) & e) ^ g) + P::kK[i] + FPUTUNE_W(i); \
        d += h;                                                             \
        h += FPUTUNE_S0(a) + ((a & b) | ((a | b) & c));                     \
    } while (0)
#define FPUTUNE_R8(i)                           \
    FPUTUNE_R(a, b, c, d, e, f, g, h, (i) + 0); \
    FPUTUNE_R(h, a, b, c, d, e, f, g, (i) + 1); \
    FPUTUNE_R(g, h, a, b, c, d, e, f, (i) + 2); \
    FPUTUNE_R(f, g, h, a, b, c, d, e, (i) + 3); \
    FPUTUNE_R(e, f, g, h, a, b, c, d, (i) + 4); \
    FPUTUNE_R(d, e, f, g, h, a, b, c, (i) + 5); \
    FPUTUNE_R(c, d, e, f, g, h, a, b, (i) + 6); \
    FPUTUNE_R(b, c, d, e, f, g, h, a, (i) + 7);

template <typename Word>
inline void sha2_blocks(Word state[8], const std::uint8_t* data, std::size_t nblocks) noexcept {
    using P = Sha2<Word>;
    for (; nblocks; --nblocks, data += 16 * sizeof(Word)) {
        Word w[16];
        Word a = state[0], b = state[1], c = state[2], d = state[3];
        Word e = state[4], f = state[5], g = state[6], h = state[7];
        FPUTUNE_R8(0)
        FPUTUNE_R8(8)
        FPUTUNE_R8(16)
        FPUTUNE_R8(24)
        FPUTUNE_R8(32)
        FPUTUNE_R8(40)
        FPUTUNE_R8(48)
        FPUTUNE_R8(56)
        if constexpr (P::kRounds == 80) {
            FPUTUNE_R8(64)
            FPUTUNE_R8(72)
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

#undef FPUTUNE_S0
#undef FPUTUNE_S1
#undef FPUTUNE_SIG0
#undef FPUTUNE_SIG1
#undef FPUTUNE_W
#undef FPUTUNE_R
#undef FPUTUNE_R8

}  // namespace

void sha256_blocks_generic(std::uint32_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept {
    sha2_blocks<std::uint32_t>(state, data, nblocks);
}

void sha512_blocks_generic(std::uint64_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept {
    sha2_blocks<std::uint64_t>(state, data, nblocks);
}

}  // namespace fputune::sha
