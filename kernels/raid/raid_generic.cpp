// SPDX-License-Identifier: MIT
// The portable references of the raid family, in 64-bit integer code (8 bytes per word, as Linux's
// lib/raid6/int.c), compiled without vector registers. Test oracles only: Linux's x86-64 always has SSE2, so
// neither is a path the kernel takes (reference_only: no threshold is measured against them).
#include <cstring>

#include "raid.hpp"

namespace fputune::raid {

namespace {

using u64 = std::uint64_t;

u64 load64(const std::uint8_t* p) noexcept {
    u64 v;
    std::memcpy(&v, p, 8);
    return v;
}
void store64(std::uint8_t* p, u64 v) noexcept { std::memcpy(p, &v, 8); }

// Every byte doubled in GF(2^8) mod 0x11d: shifted left within its byte, 0x1d folded in where the top bit was.
constexpr u64 mul2(u64 v) noexcept {
    const u64 top = v & 0x8080808080808080ull;
    return ((v << 1) & 0xfefefefefefefefeull) ^ ((top >> 7) * 0x1d);
}

}  // namespace

void raid6_gen_generic(std::size_t n, std::size_t bytes, const std::uint8_t* const* src,
                       std::uint8_t* const* dst) noexcept {
    for (std::size_t off = 0; off < bytes; off += 8) {
        u64 p = load64(src[n - 1] + off), q = p;
        for (std::size_t z = n - 1; z-- > 0;) {
            const u64 d = load64(src[z] + off);
            p ^= d;
            q = mul2(q) ^ d;
        }
        store64(dst[0] + off, p);
        store64(dst[1] + off, q);
    }
}

void xor_gen_generic(std::size_t n, std::size_t bytes, const std::uint8_t* const* src,
                     std::uint8_t* const* dst) noexcept {
    for (std::size_t off = 0; off < bytes; off += 8) {
        u64 x = load64(dst[0] + off);
        for (std::size_t s = 0; s < n; ++s) x ^= load64(src[s] + off);
        store64(dst[0] + off, x);
    }
}

}  // namespace fputune::raid
