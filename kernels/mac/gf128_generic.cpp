// SPDX-License-Identifier: MIT
// POLYVAL (RFC 8452) and GHASH (GCM) in portable, constant-time C++: carry-less products from integer
// multiplications on bit-sliced operands (no tables indexed by secrets), no FPU. Baseline x86-64.
// Both are one field: GHASH = byte-reversed POLYVAL with H' = mulX_POLYVAL(ByteReverse(H)) (RFC 8452
// Appendix A), so both algorithms live here and share the one multiplication.
#include <cassert>
#include <cstring>

#include "mac.hpp"

namespace fputune::mac {

namespace {

using u64 = std::uint64_t;

using Ctx = Gf128Ctx;

// Low 64 bits of the carry-less product x*y. Splitting each operand into four interleaved combs of
// every fourth bit leaves three zero bits between the bits that can be set, so the integer product of
// two combs never carries into a position that counts (at most 16 terms meet at one position, and the
// 16th only at bit 60, whose carry leaves the word).
u64 clmul_lo(u64 x, u64 y) noexcept {
    constexpr u64 m0 = 0x1111111111111111ull, m1 = m0 << 1, m2 = m0 << 2, m3 = m0 << 3;
    const u64 x0 = x & m0, x1 = x & m1, x2 = x & m2, x3 = x & m3;
    const u64 y0 = y & m0, y1 = y & m1, y2 = y & m2, y3 = y & m3;
    u64 z0 = (x0 * y0) ^ (x1 * y3) ^ (x2 * y2) ^ (x3 * y1);
    u64 z1 = (x0 * y1) ^ (x1 * y0) ^ (x2 * y3) ^ (x3 * y2);
    u64 z2 = (x0 * y2) ^ (x1 * y1) ^ (x2 * y0) ^ (x3 * y3);
    u64 z3 = (x0 * y3) ^ (x1 * y2) ^ (x2 * y1) ^ (x3 * y0);
    return (z0 & m0) | (z1 & m1) | (z2 & m2) | (z3 & m3);
}

u64 rev64(u64 x) noexcept {
    x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
    x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
    x = ((x >> 4) & 0x0f0f0f0f0f0f0f0full) | ((x & 0x0f0f0f0f0f0f0f0full) << 4);
    return __builtin_bswap64(x);
}

// Full 127-bit product: the high half is the bit-reversed low product of the bit-reversed operands.
void clmul64(u64 x, u64 y, u64& lo, u64& hi) noexcept {
    lo = clmul_lo(x, y);
    hi = rev64(clmul_lo(rev64(x), rev64(y))) >> 1;
}

// a * b * x^-128 mod x^128 + x^127 + x^126 + x^121 + 1 (POLYVAL's dot), Karatsuba and Montgomery.
void dot(const u64 a[2], const u64 b[2], u64 out[2]) noexcept {
    u64 l0, l1, h0, h1, m0, m1;
    clmul64(a[0], b[0], l0, l1);
    clmul64(a[1], b[1], h0, h1);
    clmul64(a[0] ^ a[1], b[0] ^ b[1], m0, m1);
    m0 ^= l0 ^ h0;
    m1 ^= l1 ^ h1;
    u64 x0 = l0, x1 = l1 ^ m0, x2 = h0 ^ m1, x3 = h1;
    // Two Montgomery steps: adding X0 * P clears the low word (P = 1 mod x^64), then divide by x^64.
    // X0 * (x^121 + x^126 + x^127) / x^64 = X0 * (x^57 + x^62 + x^63), and X0 * x^128 / x^64 = X0 * x^64.
    for (int step = 0; step < 2; ++step) {
        const u64 t0 = (x0 << 57) ^ (x0 << 62) ^ (x0 << 63);
        const u64 t1 = (x0 >> 7) ^ (x0 >> 2) ^ (x0 >> 1);
        const u64 y0 = x1 ^ t0, y1 = x2 ^ t1 ^ x0, y2 = x3;
        x0 = y0;
        x1 = y1;
        x2 = y2;
        x3 = 0;
    }
    out[0] = x0;
    out[1] = x1;
}

u64 load_le64(const std::uint8_t* p) noexcept {
    u64 v;
    std::memcpy(&v, p, 8);
    return v;
}
u64 load_be64(const std::uint8_t* p) noexcept { return __builtin_bswap64(load_le64(p)); }

template <bool kGhash>
void absorb(Ctx* c, const std::uint8_t* m, std::size_t nblocks) noexcept {
    u64 s[2] = {c->s[0], c->s[1]};
    for (; nblocks; --nblocks, m += 16) {
        if constexpr (kGhash) {  // ByteReverse(block) read little-endian = the block read big-endian
            s[0] ^= load_be64(m + 8);
            s[1] ^= load_be64(m);
        } else {
            s[0] ^= load_le64(m);
            s[1] ^= load_le64(m + 8);
        }
        dot(s, c->h, s);
    }
    c->s[0] = s[0];
    c->s[1] = s[1];
}

}  // namespace

void polyval_blocks_generic(Gf128Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept {
    absorb<false>(c, data, nblocks);
}
void ghash_blocks_generic(Gf128Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept {
    absorb<true>(c, data, nblocks);
}

}  // namespace fputune::mac
