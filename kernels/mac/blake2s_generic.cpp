// SPDX-License-Identifier: MIT
// BLAKE2s-256 (RFC 7693), unkeyed, in portable C++ (no FPU), and the glue every variant shares.
// The glue keeps the last whole block of each blocks() call unabsorbed: BLAKE2s compresses its final
// block with the finalization flag set, and only final() knows which block is last (as the kernel's
// blake2s_update keeps its last block in the buffer). So final() with 0 bytes after blocks() works.
#include <cassert>
#include <cstring>

#include "mac.hpp"

namespace fputune::mac {

namespace {

using u32 = std::uint32_t;

u32 rotr(u32 x, int n) noexcept { return (x >> n) | (x << (32 - n)); }

void absorb(Blake2sState* st, const std::uint8_t* m, std::size_t nblocks, Blake2sCompressFn fn) noexcept {
    // Called with blocks known not to be last.
    if (nblocks) fn(st, m, nblocks, 64, 0);
}

}  // namespace

void blake2s_compress_generic(Blake2sState* st, const std::uint8_t* block, std::size_t nblocks, u32 inc,
                              u32 f0) noexcept {
    for (; nblocks; --nblocks, block += 64) {
        st->t[0] += inc;
        st->t[1] += st->t[0] < inc;
        u32 m[16], v[16];
        std::memcpy(m, block, 64);  // little-endian words
        for (int i = 0; i < 8; ++i) {
            v[i] = st->h[i];
            v[i + 8] = kBlake2sIv[i];
        }
        v[12] ^= st->t[0];
        v[13] ^= st->t[1];
        v[14] ^= f0;
#pragma GCC unroll 10
        for (int r = 0; r < 10; ++r) {
            const std::uint8_t* s = kBlake2sSigma[r];
            auto g = [&](int a, int b, int c, int d, u32 x, u32 y) {
                v[a] += v[b] + x;
                v[d] = rotr(v[d] ^ v[a], 16);
                v[c] += v[d];
                v[b] = rotr(v[b] ^ v[c], 12);
                v[a] += v[b] + y;
                v[d] = rotr(v[d] ^ v[a], 8);
                v[c] += v[d];
                v[b] = rotr(v[b] ^ v[c], 7);
            };
            g(0, 4, 8, 12, m[s[0]], m[s[1]]);
            g(1, 5, 9, 13, m[s[2]], m[s[3]]);
            g(2, 6, 10, 14, m[s[4]], m[s[5]]);
            g(3, 7, 11, 15, m[s[6]], m[s[7]]);
            g(0, 5, 10, 15, m[s[8]], m[s[9]]);
            g(1, 6, 11, 12, m[s[10]], m[s[11]]);
            g(2, 7, 8, 13, m[s[12]], m[s[13]]);
            g(3, 4, 9, 14, m[s[14]], m[s[15]]);
        }
        for (int i = 0; i < 8; ++i) st->h[i] ^= v[i] ^ v[i + 8];
    }
}

void blake2s_glue_init(void* ctx, const std::uint8_t*) noexcept {
    auto* st = static_cast<Blake2sState*>(ctx);
    for (int i = 0; i < 8; ++i) st->h[i] = kBlake2sIv[i];
    st->h[0] ^= 0x01010000u | 32u;  // parameter block: digest 32 bytes, no key, fanout 1, depth 1
    st->t[0] = st->t[1] = 0;
    st->buffered = 0;
}

void blake2s_glue_blocks(void* ctx, const std::uint8_t* data, std::size_t nblocks, Blake2sCompressFn fn) noexcept {
    auto* st = static_cast<Blake2sState*>(ctx);
    if (nblocks == 0) return;
    if (st->buffered) absorb(st, st->buf, 1, fn);
    absorb(st, data, nblocks - 1, fn);
    std::memcpy(st->buf, data + (nblocks - 1) * 64, 64);
    st->buffered = 1;
}

void blake2s_glue_final(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out,
                        Blake2sCompressFn fn) noexcept {
    auto* st = static_cast<Blake2sState*>(ctx);
    std::uint8_t last[64] = {};
    u32 last_len = 0;
    if (len == 0) {
        if (st->buffered) {
            std::memcpy(last, st->buf, 64);
            last_len = 64;
        }
    } else {
        if (st->buffered) absorb(st, st->buf, 1, fn);
        last_len = len % 64 ? static_cast<u32>(len % 64) : 64;
        absorb(st, data, (len - last_len) / 64, fn);
        std::memcpy(last, data + (len - last_len), last_len);
    }
    st->buffered = 0;
    fn(st, last, 1, last_len, ~u32{0});  // the empty message compresses one zero block with t = 0
    std::memcpy(out, st->h, 32);
}

}  // namespace fputune::mac
