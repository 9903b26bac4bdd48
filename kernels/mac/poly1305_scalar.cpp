// SPDX-License-Identifier: MIT
// Poly1305 (RFC 8439) in 64-bit limbs with 64x64->128 products: the portable reference, no FPU.
// Also the core the SIMD variants and nhpoly1305 use for odd blocks and the output (baseline flags).
#include <cassert>
#include <cstring>

#include <x86intrin.h>

#include "mac.hpp"

namespace fputune::mac {

namespace {

using u64 = std::uint64_t;
using u128 = unsigned __int128;

u64 load_le64(const std::uint8_t* p) noexcept {
    u64 v;
    std::memcpy(&v, p, 8);  // x86 is little-endian
    return v;
}

// 64x64->128 as two words. GCC keeps unsigned __int128 products in poorly allocated register pairs
// and spills them inside the dependency chain; one mulq with its outputs named avoids that.
inline void mul64(u64 a, u64 b, u64& lo, u64& hi) noexcept {
    asm("mulq %3" : "=a"(lo), "=d"(hi) : "a"(a), "rm"(b) : "cc");
}

}  // namespace

void poly1305_core_init(Poly1305Core* st, const std::uint8_t key[32]) noexcept {
    st->h[0] = st->h[1] = st->h[2] = 0;
    // Clamping (RFC 8439 2.5): r &= 0x0ffffffc0ffffffc0ffffffc0fffffff.
    st->r[0] = load_le64(key) & 0x0ffffffc0fffffffull;
    st->r[1] = load_le64(key + 8) & 0x0ffffffc0ffffffcull;
    st->s[0] = load_le64(key + 16);
    st->s[1] = load_le64(key + 24);
}

void poly1305_core_blocks(Poly1305Core* st, const std::uint8_t* m, std::size_t nblocks, u64 hibit) noexcept {
    const u64 r0 = st->r[0], r1 = st->r[1];
    // r1 is a multiple of 4, so h1*r1*2^128 = h1*(r1/4)*2^130 == h1*(5*r1/4) mod 2^130-5.
    const u64 s1 = r1 + (r1 >> 2);
    u64 h0 = st->h[0], h1 = st->h[1], h2 = st->h[2];
    // Carries through _addcarry_u64 (plain add/adc, no ADX needed): 128-bit additions written with
    // unsigned __int128 make GCC spill the zero high halves to the stack, in the dependency chain.
    using ull = unsigned long long;
    for (; nblocks; --nblocks, m += 16) {
        ull a0, a1;
        unsigned char c = _addcarry_u64(0, h0, load_le64(m), &a0);
        c = _addcarry_u64(c, h1, load_le64(m + 8), &a1);
        h2 += c + hibit;

        u64 p00l, p00h, p11l, p11h, p01l, p01h, p10l, p10h;
        mul64(a0, r0, p00l, p00h);
        mul64(a1, s1, p11l, p11h);
        mul64(a0, r1, p01l, p01h);
        mul64(a1, r0, p10l, p10h);
        // Each carry goes straight into the next word (adc), never through a flag-to-register move.
        // The high words stay below 2^62, so nothing carries out of them.
        ull d0, d0h, d1, d1h, t, top;
        c = _addcarry_u64(0, p00l, p11l, &d0);
        _addcarry_u64(c, p00h, p11h, &d0h);
        c = _addcarry_u64(0, p01l, p10l, &t);
        _addcarry_u64(c, p01h, p10h, &d1h);
        c = _addcarry_u64(0, t, h2 * s1, &d1);  // h2 < 8 and s1 < 2^61: h2*s1 fits
        _addcarry_u64(c, d1h, h2 * r0, &d1h);  // h2*r0 < 2^63
        c = _addcarry_u64(0, d1, d0h, &t);
        _addcarry_u64(c, d1h, 0, &top);
        h1 = t;
        h2 = top;
        // Partial reduction: bits from 2^130 up come back times 5.
        const u64 fold = (h2 >> 2) + (h2 & ~u64{3});
        h2 &= 3;
        c = _addcarry_u64(0, d0, fold, &a0);
        c = _addcarry_u64(c, h1, 0, &a1);
        h0 = a0;
        h1 = a1;
        h2 += c;
    }
    st->h[0] = h0;
    st->h[1] = h1;
    st->h[2] = h2;
}

void poly1305_core_tail(Poly1305Core* st, const std::uint8_t* m, std::size_t len) noexcept {
    assert(len < 16);
    if (len == 0) return;
    std::uint8_t block[16] = {};
    std::memcpy(block, m, len);
    block[len] = 1;
    poly1305_core_blocks(st, block, 1, 0);
}

void poly1305_core_emit(const Poly1305Core* st, bool add_s, std::uint8_t out[16]) noexcept {
    u64 h0 = st->h[0], h1 = st->h[1], h2 = st->h[2];
    // h < 2^131 here; one more fold makes it < 2^130 + small, then h - p decides (constant time).
    u64 c = (h2 >> 2) * 5;
    h2 &= 3;
    u128 t = static_cast<u128>(h0) + c;
    h0 = static_cast<u64>(t);
    t = static_cast<u128>(h1) + static_cast<u64>(t >> 64);
    h1 = static_cast<u64>(t);
    h2 += static_cast<u64>(t >> 64);
    t = static_cast<u128>(h0) + 5;
    const u64 g0 = static_cast<u64>(t);
    t = static_cast<u128>(h1) + static_cast<u64>(t >> 64);
    const u64 g1 = static_cast<u64>(t);
    const u64 g2 = h2 + static_cast<u64>(t >> 64);
    const u64 use_g = u64{0} - (g2 >> 2);  // all ones when h + 5 >= 2^130, i.e. h >= p
    h0 = (h0 & ~use_g) | (g0 & use_g);
    h1 = (h1 & ~use_g) | (g1 & use_g);
    if (add_s) {
        t = static_cast<u128>(h0) + st->s[0];
        h0 = static_cast<u64>(t);
        h1 = h1 + st->s[1] + static_cast<u64>(t >> 64);
    }
    std::memcpy(out, &h0, 8);
    std::memcpy(out + 8, &h1, 8);
}

void poly1305_blocks_scalar(Poly1305Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept {
    poly1305_core_blocks(&c->core, data, nblocks, 1);
}

}  // namespace fputune::mac
