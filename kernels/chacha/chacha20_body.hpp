// SPDX-License-Identifier: MIT
// ChaCha20 for any vector width: included by each ISA file (ssse3, avx2, avx512vl), which supplies the vector
// traits (vec_*.hpp) and is compiled with its own flags. Everything is in an anonymous namespace so that each
// file keeps its own copy.
//
// Two layouts, as Linux's .S files use them:
// - across lanes: state word i of kLanes blocks in one vector (lane j = block j), the quarter rounds on whole
//   vectors with no shuffles; a transpose turns the 16 vectors back into kLanes keystream blocks. The bulk.
// - in rows: the 4x4 state as four row vectors, one block per 16-byte lane (kLanes / 4 blocks per vector),
//   the diagonal rounds by rotating rows within lanes. Cheaper for a few blocks: the tail of a section.
// A request of n blocks: batches of kLanes across lanes; then more than kLanes / 2 blocks: one more batch
// across lanes, only the blocks needed kept; more than kLanes / 4: two row sets; else one row set
// (Linux's chacha_dosimd(): 8block for > 4 blocks, 4block for > 2, 2block for the rest).
// Traits V provide: T, kLanes, kUnrollRounds, load/store (unaligned, kBytes), add, xor_, rotl<16/12/8/7>, set1,
// lane_index,
// row (a 4-word row in every 16-byte lane), row_counter(n) (n + l in word 0 of lane l, 0 elsewhere),
// shuffle<imm> (pshufd within lanes), transpose4 (4x4 words within lanes), and
// store_across(g[4][4], out, src): the kLanes blocks after transpose4 of words 0-3, 4-7, 8-11, 12-15;
// store_rows(r[4], out, src): the kLanes / 4 blocks of a row set. src == nullptr stores the keystream itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "chacha.hpp"

namespace fputune::chacha {
namespace {

using u8 = std::uint8_t;
using u32 = std::uint32_t;

template <class V>
inline void quarter(typename V::T& a, typename V::T& b, typename V::T& c, typename V::T& d) noexcept {
    a = V::add(a, b);
    d = V::template rotl<16>(V::xor_(d, a));
    c = V::add(c, d);
    b = V::template rotl<12>(V::xor_(b, c));
    a = V::add(a, b);
    d = V::template rotl<8>(V::xor_(d, a));
    c = V::add(c, d);
    b = V::template rotl<7>(V::xor_(b, c));
}

// Four independent quarter rounds in lockstep, one operation of each in turn, as Linux's and OpenSSL's
// across-lanes code orders them: four chains in flight at every point of the instruction stream.
template <class V>
inline void quarter4(typename V::T& a0, typename V::T& b0, typename V::T& c0, typename V::T& d0, typename V::T& a1,
                     typename V::T& b1, typename V::T& c1, typename V::T& d1, typename V::T& a2, typename V::T& b2,
                     typename V::T& c2, typename V::T& d2, typename V::T& a3, typename V::T& b3, typename V::T& c3,
                     typename V::T& d3) noexcept {
#define FPUTUNE_CHACHA_STEP(a, b, c, d, n)                                                                      \
    a##0 = V::add(a##0, b##0), a##1 = V::add(a##1, b##1), a##2 = V::add(a##2, b##2), a##3 = V::add(a##3, b##3); \
    d##0 = V::template rotl<n>(V::xor_(d##0, a##0)), d##1 = V::template rotl<n>(V::xor_(d##1, a##1));           \
    d##2 = V::template rotl<n>(V::xor_(d##2, a##2)), d##3 = V::template rotl<n>(V::xor_(d##3, a##3))
    FPUTUNE_CHACHA_STEP(a, b, c, d, 16);
    FPUTUNE_CHACHA_STEP(c, d, a, b, 12);
    FPUTUNE_CHACHA_STEP(a, b, c, d, 8);
    FPUTUNE_CHACHA_STEP(c, d, a, b, 7);
#undef FPUTUNE_CHACHA_STEP
}

// out[i] = in[i] ^ ks[i] for n bytes (the blocks a batch keeps, or a tail): 8 bytes at a time, then bytes.
inline void xor_bytes(u8* out, const u8* in, const u8* ks, std::size_t n) noexcept {
    for (; n >= 8; n -= 8, out += 8, in += 8, ks += 8) {
        std::uint64_t a, b;
        std::memcpy(&a, in, 8);
        std::memcpy(&b, ks, 8);
        a ^= b;
        std::memcpy(out, &a, 8);
    }
    for (; n; --n) *out++ = *in++ ^ *ks++;
}

// kLanes blocks across lanes. With keep < kLanes blocks, only the first `keep_bytes` bytes are written.
template <class V>
inline void across_lanes(const u32 state[16], u8* dst, const u8* src, std::size_t keep_bytes) noexcept {
    using T = typename V::T;
    T x[16];
    for (int i = 0; i < 16; ++i) x[i] = V::set1(state[i]);
    x[12] = V::add(x[12], V::lane_index());
    const T counter = x[12];
    auto double_round = [&x]() noexcept {
        quarter4<V>(x[0], x[4], x[8], x[12], x[1], x[5], x[9], x[13], x[2], x[6], x[10], x[14], x[3], x[7], x[11],
                    x[15]);
        quarter4<V>(x[0], x[5], x[10], x[15], x[1], x[6], x[11], x[12], x[2], x[7], x[8], x[13], x[3], x[4], x[9],
                    x[14]);
    };
    // Chosen per width by measurement (V::kUnrollRounds; rough figures on the Emerald Rapids VM): with 16
    // registers the 16 state vectors spill, and fully unrolled rounds let the compiler place the spills well
    // (ssse3, avx2: ~11 % faster); with 32 nothing spills and the rolled loop stays small (avx512vl: ~6 %).
    if constexpr (V::kUnrollRounds) {
#pragma GCC unroll 10
        for (int r = 0; r < 10; ++r) double_round();
    } else {
#pragma GCC unroll 1
        for (int r = 0; r < 10; ++r) double_round();
    }
    for (int i = 0; i < 16; ++i) x[i] = V::add(x[i], i == 12 ? counter : V::set1(state[i]));
    T g[4][4];
    for (int q = 0; q < 4; ++q) {
        g[q][0] = x[4 * q];
        g[q][1] = x[4 * q + 1];
        g[q][2] = x[4 * q + 2];
        g[q][3] = x[4 * q + 3];
        V::transpose4(g[q][0], g[q][1], g[q][2], g[q][3]);
    }
    if (keep_bytes == 64 * V::kLanes) {
        V::store_across(g, dst, src);
    } else {
        alignas(64) u8 ks[64 * V::kLanes];
        V::store_across(g, ks, nullptr);
        xor_bytes(dst, src, ks, keep_bytes);
    }
}

// kSets row sets of kLanes / 4 blocks each; only the first keep_bytes bytes are written.
template <class V, int kSets>
inline void in_rows(const u32 state[16], u8* dst, const u8* src, std::size_t keep_bytes) noexcept {
    using T = typename V::T;
    constexpr std::size_t kSetBlocks = V::kLanes / 4;
    T a[kSets], b[kSets], c[kSets], d[kSets], d0[kSets];
    for (int s = 0; s < kSets; ++s) {
        a[s] = V::row(state);
        b[s] = V::row(state + 4);
        c[s] = V::row(state + 8);
        d[s] = d0[s] = V::add(V::row(state + 12), V::row_counter(static_cast<u32>(s * kSetBlocks)));
    }
#pragma GCC unroll 10
    for (int r = 0; r < 10; ++r) {
        for (int s = 0; s < kSets; ++s) quarter<V>(a[s], b[s], c[s], d[s]);
        for (int s = 0; s < kSets; ++s) {  // the diagonals become columns
            b[s] = V::template shuffle<0x39>(b[s]);
            c[s] = V::template shuffle<0x4e>(c[s]);
            d[s] = V::template shuffle<0x93>(d[s]);
        }
        for (int s = 0; s < kSets; ++s) quarter<V>(a[s], b[s], c[s], d[s]);
        for (int s = 0; s < kSets; ++s) {
            b[s] = V::template shuffle<0x93>(b[s]);
            c[s] = V::template shuffle<0x4e>(c[s]);
            d[s] = V::template shuffle<0x39>(d[s]);
        }
    }
    alignas(64) u8 ks[64 * kSetBlocks * kSets];
    for (int s = 0; s < kSets; ++s) {
        T rows[4] = {V::add(a[s], V::row(state)), V::add(b[s], V::row(state + 4)), V::add(c[s], V::row(state + 8)),
                     V::add(d[s], d0[s])};
        const std::size_t off = 64 * kSetBlocks * s;
        if (keep_bytes >= off + 64 * kSetBlocks)
            V::store_rows(rows, dst + off, src + off);
        else
            V::store_rows(rows, ks + off, nullptr);
    }
    const std::size_t whole = keep_bytes / (64 * kSetBlocks) * (64 * kSetBlocks);
    xor_bytes(dst + whole, src + whole, ks + whole, keep_bytes - whole);
}

template <class V>
inline void chacha20_xor(u32 state[16], u8* dst, const u8* src, std::size_t bytes) noexcept {
    constexpr std::size_t kBatch = 64 * V::kLanes;
    for (; bytes >= kBatch; bytes -= kBatch, src += kBatch, dst += kBatch) {
        across_lanes<V>(state, dst, src, kBatch);
        state[12] += V::kLanes;
    }
    if (bytes == 0) return;
    if (bytes > kBatch / 2)
        across_lanes<V>(state, dst, src, bytes);
    else if (bytes > kBatch / 4)
        in_rows<V, 2>(state, dst, src, bytes);
    else
        in_rows<V, 1>(state, dst, src, bytes);
    state[12] += static_cast<u32>((bytes + 63) / 64);
}

}  // namespace
}  // namespace fputune::chacha
