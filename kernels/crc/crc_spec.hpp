// SPDX-License-Identifier: MIT
// The four CRCs as polynomials, and every constant the kernels use, derived from the polynomial at
// compile time (consteval: nothing here runs or is instantiated at run time).
#pragma once

#include <cstddef>
#include <cstdint>

namespace fputune::crc {

using u8 = std::uint8_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

// A CRC of `bits` (8..64) bits with generator G(x) = x^bits + poly(x); `poly` is the "normal"
// (msb-first) encoding without the x^bits term. Reflected CRCs process each byte lsb first.
struct CrcSpec {
    unsigned bits;
    u64 poly;
    bool reflected;
};

consteval u64 bit_reverse(u64 v, unsigned width) {
    u64 r = 0;
    for (unsigned i = 0; i < width; ++i) r |= ((v >> i) & 1) << (width - 1 - i);
    return r;
}

// crc32c (Castagnoli, iSCSI), crc32 (IEEE 802.3), crct10dif (SCSI T10 DIF), crc64 (NVMe, "Rocksoft").
inline constexpr CrcSpec kCrc32c{32, 0x1EDC6F41, true};
inline constexpr CrcSpec kCrc32{32, 0x04C11DB7, true};
inline constexpr CrcSpec kCrcT10dif{16, 0x8BB7, false};
inline constexpr CrcSpec kCrc64Nvme{64, 0xAD93D23594C93659, true};
// The reflected encodings the literature quotes, as a check on the normal ones above.
static_assert(bit_reverse(kCrc32c.poly, 32) == 0x82F63B78);
static_assert(bit_reverse(kCrc32.poly, 32) == 0xEDB88320);
static_assert(bit_reverse(kCrc64Nvme.poly, 64) == 0x9A6C9329AC4BC9B5);

// ---------------------------------------------------------------------------------------------
// Folding with carry-less multiplication (the method of Gopal et al., Intel 2009, "Fast CRC
// computation using PCLMULQDQ"), written for any CRC width n <= 64 at once:
//
// Every CRC is treated as a 64-bit one with G'(x) = G(x) * x^(64-n) = x^64 + g'(x). For a message
// polynomial A, (A * x^64) mod G' = ((A * x^n) mod G) * x^(64-n): the n-bit CRC comes out shifted to
// the top of 64 bits (msb-first) or, bit-reflected, in the low n bits (lsb-first). Since G divides
// G', replacing A by anything congruent mod G' keeps the CRC, which is what folding does:
// a 128-bit chunk A = A_hi * x^64 + A_lo that lies D bits before the end of a later chunk adds
// A * x^D == A_hi * (x^(D+64) mod G') + A_lo * (x^D mod G') to it, two 64x64-bit carry-less
// products of at most 127 bits. The constants are x^k mod G', 64 bits each.
//
// Frames. msb-first CRCs byte-reverse each 16-byte chunk so that the register, as a 128-bit integer,
// holds bit i = coefficient of x^i: products are exact, A_hi is the high qword. lsb-first CRCs use the
// data as loaded: bit i of a 128-bit chunk is the coefficient of x^(127-i), so A_hi is the LOW qword
// and a 64-bit constant is stored bit-reversed. The carry-less product of two such reflected 64-bit
// values lands one bit short (bit k of the product is x^(126-k), the frame reads it as x^(127-k)),
// so the reflected constants are x^(k-1) mod G' to undo the extra factor x.
//
// Final reduction of the last 128-bit chunk A to the CRC, R = (A * x^64) mod G':
//   T = A_hi * (x^128 mod G') + A_lo * x^64            (at most 128 bits, congruent)
//   q = floor(T / G') = floor(T_hi * mu / x^64)          (Barrett, mu = floor(x^128 / G'), 65 bits)
//   R = T_lo + low64(q * g')                             (T + q*G' has no high half)
// msb-first uses mu's low 64 bits and adds T_hi for its x^64 term. lsb-first stores mu and G' with
// their x^0 term dropped and bit j = x^(64-j), which makes the reflected products exact instead of
// one bit short; dropping mu_0 cannot change floor(/x^64), dropping g'_0 is made good by adding q
// when g'_0 = 1 (only for n = 64; for n < 64, g' is a multiple of x^(64-n)).
// ---------------------------------------------------------------------------------------------

struct U64x2 {  // two qwords of an xmm register: q0 = bits 0..63, q1 = bits 64..127
    u64 q0, q1;
};

struct FoldConsts {
    unsigned bits;  // n
    bool reflected;
    bool g0;  // g' has an x^0 term (n == 64)
    U64x2 fold_loop;  // fold each lane across the whole multi-register loop
    U64x2 fold_vec;  // fold across one vector register
    U64x2 fold_lane[3];  // lane j of a wide register folded into its last lane
    U64x2 fold_128;  // fold across 128 bits
    u64 k128;  // x^128 mod G' (reflected: x^127)
    u64 mu;  // Barrett quotient constant
    u64 gprime;  // G' (reflected: with bit j = x^(64-j))
};

consteval u64 scaled_poly(const CrcSpec& s) { return s.bits == 64 ? s.poly : s.poly << (64 - s.bits); }

// x^k mod G' (normal encoding), by k multiplications by x.
consteval u64 xpow_mod(u64 gprime, unsigned k) {
    u64 r = 1;
    while (k--) r = (r << 1) ^ ((r >> 63) ? gprime : 0);
    return r;
}

// Low 64 bits of floor(x^128 / G') by long division (the quotient's x^64 term is always 1).
consteval u64 barrett_mu_low(u64 gprime) {
    u64 rem = 0, q = 0;
    for (int i = 128; i >= 0; --i) {
        const bool top = rem >> 63;
        rem = (rem << 1) | (i == 128 ? 1 : 0);
        if (top) {
            rem ^= gprime;
            if (i <= 63) q |= u64{1} << i;
        }
    }
    return q;
}

// Constants to fold a 128-bit lane forward by `dist_bits`, in the spec's frame.
consteval U64x2 fold_pair(const CrcSpec& s, unsigned dist_bits) {
    const u64 g = scaled_poly(s);
    if (s.reflected) return {bit_reverse(xpow_mod(g, dist_bits + 63), 64), bit_reverse(xpow_mod(g, dist_bits - 1), 64)};
    return {xpow_mod(g, dist_bits), xpow_mod(g, dist_bits + 64)};
}

// Constants for a kernel whose vectors are `vec_bytes` wide and whose main loop keeps `nvec` of them.
consteval FoldConsts fold_consts(const CrcSpec& s, unsigned vec_bytes, unsigned nvec) {
    const u64 g = scaled_poly(s);
    FoldConsts c{};
    c.bits = s.bits;
    c.reflected = s.reflected;
    c.g0 = g & 1;
    c.fold_loop = fold_pair(s, 8 * vec_bytes * nvec);
    c.fold_vec = fold_pair(s, 8 * vec_bytes);
    const unsigned lanes = vec_bytes / 16;
    for (unsigned j = 0; j + 1 < lanes; ++j) c.fold_lane[j] = fold_pair(s, 128 * (lanes - 1 - j));
    c.fold_128 = fold_pair(s, 128);
    const u64 mu = barrett_mu_low(g);
    if (s.reflected) {
        c.k128 = bit_reverse(xpow_mod(g, 127), 64);
        c.mu = bit_reverse((u64{1} << 63) | (mu >> 1), 64);
        c.gprime = bit_reverse((u64{1} << 63) | (g >> 1), 64);
    } else {
        c.k128 = xpow_mod(g, 128);
        c.mu = mu;
        c.gprime = g;
    }
    return c;
}

// ---------------------------------------------------------------------------------------------
// Table-driven helpers (generic and crc32 instruction paths).
// ---------------------------------------------------------------------------------------------

// Slice-by-8 tables: t[j][b] = CRC register after byte b followed by j zero bytes, from register 0.
struct Slice8Tables {
    u64 t[8][256];
};

consteval Slice8Tables slice8_tables(const CrcSpec& s) {
    Slice8Tables r{};
    const u64 mask = s.bits == 64 ? ~u64{0} : (u64{1} << s.bits) - 1;
    const u64 top = u64{1} << (s.bits - 1);
    const u64 prefl = bit_reverse(s.poly, s.bits);
    for (unsigned b = 0; b < 256; ++b) {
        u64 c;
        if (s.reflected) {
            c = b;
            for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ prefl : c >> 1;
        } else {
            c = u64{b} << (s.bits - 8);
            for (int k = 0; k < 8; ++k) c = ((c & top) ? (c << 1) ^ s.poly : c << 1) & mask;
        }
        r.t[0][b] = c;
    }
    for (unsigned j = 1; j < 8; ++j)
        for (unsigned b = 0; b < 256; ++b) {
            const u64 p = r.t[j - 1][b];
            r.t[j][b] =
                s.reflected ? (p >> 8) ^ r.t[0][p & 0xff] : ((p << 8) & mask) ^ r.t[0][(p >> (s.bits - 8)) & 0xff];
        }
    return r;
}

// Reflected 32-bit arithmetic mod G for combining crc32c streams: a * b mod G (bit i = x^(31-i)).
consteval u32 mulmod_refl32(u32 a, u32 b, u32 prefl) {
    u32 p = 0;
    for (int k = 0; k < 32; ++k) {  // b holds b * x^k
        if ((a >> (31 - k)) & 1) p ^= b;
        b = (b & 1) ? (b >> 1) ^ prefl : b >> 1;
    }
    return p;
}

// The linear map "append len zero bytes" on a reflected 32-bit register, c -> c * x^(8 len) mod G,
// as four byte-indexed tables.
struct ShiftTables32 {
    u32 t[4][256];
};

consteval ShiftTables32 shift_tables32(const CrcSpec& s, std::size_t len) {
    const u32 prefl = static_cast<u32>(bit_reverse(s.poly, 32));
    u32 xn = u32{1} << 31;  // x^0
    for (std::size_t i = 0; i < 8 * len; ++i) xn = (xn & 1) ? (xn >> 1) ^ prefl : xn >> 1;
    ShiftTables32 r{};
    for (unsigned i = 0; i < 4; ++i)
        for (unsigned b = 0; b < 256; ++b) r.t[i][b] = mulmod_refl32(u32{b} << (8 * i), xn, prefl);
    return r;
}

}  // namespace fputune::crc
