// SPDX-License-Identifier: MIT
// Scalar base-2^26 helpers shared by the poly1305 avx, avx2 and avx512 files: limb conversion and the
// key powers. Everything is in an anonymous namespace, so each ISA file compiles its own copy with its
// own flags and the linker never has to pick one (the trap STYLE.md warns of for shared inline code).
#pragma once

#include <cstdint>

namespace fputune::mac {
namespace {

using u64 = std::uint64_t;
using u128 = unsigned __int128;
constexpr u64 kMask26 = (u64{1} << 26) - 1;

void to26(const u64 h[3], u64 out[5]) noexcept {
    out[0] = h[0] & kMask26;
    out[1] = (h[0] >> 26) & kMask26;
    out[2] = ((h[0] >> 52) | (h[1] << 12)) & kMask26;
    out[3] = (h[1] >> 14) & kMask26;
    out[4] = (h[1] >> 40) | (h[2] << 24);
}

// Limbs of any size below 2^62 (lane sums) back to 64-bit limbs, partially reduced (h2 < 8).
void from26(const u64 d[5], u64 h[3]) noexcept {
    u128 t = static_cast<u128>(d[0]) + (static_cast<u128>(d[1]) << 26) + (static_cast<u128>(d[2]) << 52);
    u64 h0 = static_cast<u64>(t);
    t = (t >> 64) + (static_cast<u128>(d[3]) << 14) + (static_cast<u128>(d[4]) << 40);
    u64 h1 = static_cast<u64>(t);
    u64 h2 = static_cast<u64>(t >> 64);
    const u64 c = (h2 >> 2) * 5;
    h2 &= 3;
    t = static_cast<u128>(h0) + c;
    h0 = static_cast<u64>(t);
    t = static_cast<u128>(h1) + static_cast<u64>(t >> 64);
    h[0] = h0;
    h[1] = static_cast<u64>(t);
    h[2] = h2 + static_cast<u64>(t >> 64);
}

// a * b mod 2^130-5 in base 2^26, carried (scalar: only for the key powers).
void mul26(const u64 a[5], const u64 b[5], u64 out[5]) noexcept {
    const u64 s1 = b[1] * 5, s2 = b[2] * 5, s3 = b[3] * 5, s4 = b[4] * 5;
    u64 d[5];
    d[0] = a[0] * b[0] + a[1] * s4 + a[2] * s3 + a[3] * s2 + a[4] * s1;
    d[1] = a[0] * b[1] + a[1] * b[0] + a[2] * s4 + a[3] * s3 + a[4] * s2;
    d[2] = a[0] * b[2] + a[1] * b[1] + a[2] * b[0] + a[3] * s4 + a[4] * s3;
    d[3] = a[0] * b[3] + a[1] * b[2] + a[2] * b[1] + a[3] * b[0] + a[4] * s4;
    d[4] = a[0] * b[4] + a[1] * b[3] + a[2] * b[2] + a[3] * b[1] + a[4] * b[0];
    for (int pass = 0; pass < 2; ++pass) {
        for (int i = 0; i < 4; ++i) {
            d[i + 1] += d[i] >> 26;
            d[i] &= kMask26;
        }
        d[0] += (d[4] >> 26) * 5;
        d[4] &= kMask26;
    }
    for (int i = 0; i < 5; ++i) out[i] = d[i];
}

// r^1 .. r^n in base 2^26, carried, from the clamped key r (two 64-bit limbs).
void powers_base26(const u64 r64[2], u64 (*pw)[5], int n) noexcept {
    const u64 r[3] = {r64[0], r64[1], 0};
    to26(r, pw[0]);
    for (int k = 1; k < n; ++k) mul26(pw[k - 1], pw[0], pw[k]);
}

}  // namespace
}  // namespace fputune::mac
