// SPDX-License-Identifier: MIT
// SHA-1 with the message schedule in vectors and the rounds in scalar registers, written once over a
// width's traits T: a vector V holds four schedule words of each of kBlocks blocks (one per 128-bit
// lane). The first block's rounds run with the schedule of all kBlocks blocks threaded between them; the
// other blocks' rounds then read their schedule from memory. Included by the ssse3 and avx (xmm, one
// block: vec_xmm.hpp) and avx2 (ymm, two blocks: vec_ymm.hpp) files, each compiled with its own flags;
// everything is in an anonymous namespace, so each keeps its own copy.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sha.hpp"

namespace fputune::sha {
namespace {

inline std::uint32_t rol32(std::uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

// Ch and Maj are written as sums of terms with disjoint bits ((b&c)+(~b&d), (b&c)+((b^c)&d)), so the
// compiler may add them into e in any order, keeping a -> next a at rotate + add.
#define FPUTUNE_SHA1_CH(b, c, d) (((b) & (c)) + (~(b) & (d)))
#define FPUTUNE_SHA1_PAR(b, c, d) ((b) ^ (c) ^ (d))
#define FPUTUNE_SHA1_MAJ(b, c, d) (((b) & (c)) + (((b) ^ (c)) & (d)))
#define FPUTUNE_SHA1_ROUND(a, b, c, d, e, F, wk) \
    do {                                         \
        e += (wk) + F(b, c, d) + rol32(a, 5);    \
        b = rol32(b, 30);                        \
    } while (0)
// Five rounds bring the names back to (a, b, c, d, e); WK(i) is the W+K of round i.
#define FPUTUNE_SHA1_ROUNDS5(F, WK, i)                 \
    FPUTUNE_SHA1_ROUND(a, b, c, d, e, F, WK((i) + 0)); \
    FPUTUNE_SHA1_ROUND(e, a, b, c, d, F, WK((i) + 1)); \
    FPUTUNE_SHA1_ROUND(d, e, a, b, c, F, WK((i) + 2)); \
    FPUTUNE_SHA1_ROUND(c, d, e, a, b, F, WK((i) + 3)); \
    FPUTUNE_SHA1_ROUND(b, c, d, e, a, F, WK((i) + 4));
#define FPUTUNE_SHA1_ROUNDS20(F, WK, i)  \
    FPUTUNE_SHA1_ROUNDS5(F, WK, (i) + 0) \
    FPUTUNE_SHA1_ROUNDS5(F, WK, (i) + 5) FPUTUNE_SHA1_ROUNDS5(F, WK, (i) + 10) FPUTUNE_SHA1_ROUNDS5(F, WK, (i) + 15)

template <class T>
inline typename T::V rol_epi32(typename T::V x, int n) noexcept {
    return T::or_(T::shl32(x, n), T::shr32(x, 32 - n));
}

// Group G (words 4G..4G+3) of the schedule into w[G], W+K stored. Groups 4..7: W[t] = rol1(W[t-3]^W[t-8]^
// W[t-14]^W[t-16]), where lane 3 needs W[t] of lane 0: computed with 0 there, then fixed by xoring rol2
// of lane 0's pre-rotate value (rol1 of rol1). Groups 8..19 use the equivalent W[t] =
// rol2(W[t-6]^W[t-16]^W[t-28]^W[t-32]) (Locktyukhin, Intel 2010), which has no lane dependency.
template <class T, int G>
inline void schedule(typename T::V* w, std::uint32_t* wk) noexcept {
    using V = typename T::V;
    if constexpr (G < 20) {
        if constexpr (G < 8) {
            const V t = T::xor_(T::xor_(w[G - 4], T::template alignr8<8>(w[G - 3], w[G - 4])),
                                T::xor_(w[G - 2], T::template shr_bytes<4>(w[G - 1])));
            w[G] = T::xor_(rol_epi32<T>(t, 1), rol_epi32<T>(T::template shl_bytes<12>(t), 2));
        } else {
            const V t =
                T::xor_(T::xor_(T::template alignr8<8>(w[G - 1], w[G - 2]), w[G - 4]), T::xor_(w[G - 7], w[G - 8]));
            w[G] = rol_epi32<T>(t, 2);
        }
        T::store(wk + 4 * T::kBlocks * G, T::add32(w[G], T::set1(kSha1K[G / 5])));
    }
}

// W+K of round i of block 0, and of block B.
#define FPUTUNE_WK(i) wkr[4 * kBlocks * ((i) / 4) + (i) % 4]
#define FPUTUNE_WKB(i) wkr[4 * kBlocks * ((i) / 4) + (i) % 4 + 4 * B]
// Twenty rounds of block 0 with one function, the five schedule groups for later rounds threaded between.
#define FPUTUNE_SHA1_CHUNK(F, c)                       \
    schedule<T, 5 * (c) + 4>(w, wk);                   \
    FPUTUNE_SHA1_ROUNDS5(F, FPUTUNE_WK, 20 * (c) + 0)  \
    schedule<T, 5 * (c) + 5>(w, wk);                   \
    FPUTUNE_SHA1_ROUNDS5(F, FPUTUNE_WK, 20 * (c) + 5)  \
    schedule<T, 5 * (c) + 6>(w, wk);                   \
    FPUTUNE_SHA1_ROUNDS5(F, FPUTUNE_WK, 20 * (c) + 10) \
    schedule<T, 5 * (c) + 7>(w, wk);                   \
    FPUTUNE_SHA1_ROUNDS5(F, FPUTUNE_WK, 20 * (c) + 15) \
    schedule<T, 5 * (c) + 8>(w, wk);
#define FPUTUNE_SHA1_STATE_ADD() \
    a = state[0] += a;           \
    b = state[1] += b;           \
    c = state[2] += c;           \
    d = state[3] += d;           \
    e = state[4] += e;

// T: using V; kBlocks (blocks per vector, one per 128-bit lane); xor_, or_, add32, shl32/shr32 (per 32-bit
// word), alignr8<n>, shr_bytes<n>/shl_bytes<n> (per 128-bit lane), set1, store (aligned), load_be (16
// bytes of each of kBlocks blocks, byte-swapped to big-endian words).
template <class T>
void sha1_blocks_body(std::uint32_t state[5], const std::uint8_t* data, std::size_t nblocks) noexcept {
    constexpr int kBlocks = T::kBlocks;
    alignas(64) std::uint32_t wk[80 * kBlocks];
    // Rounds read W+K through a pointer the compiler cannot see through: otherwise it forwards the
    // vector stores to the rounds with vpextrd (slow, and it runs out of registers doing so).
    const std::uint32_t* wkr = wk;
    asm("" : "+r"(wkr));
    std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3], e = state[4];
    while (nblocks) {
        // With fewer blocks left than lanes, the last block's data fills the other lanes, unused.
        const std::size_t here = nblocks < kBlocks ? nblocks : kBlocks;
        typename T::V w[24];
        for (int i = 0; i < 4; ++i) {
            w[i] = T::load_be(data + 16 * i, here);
            T::store(wk + 4 * kBlocks * i, T::add32(w[i], T::set1(kSha1K[0])));
        }
        FPUTUNE_SHA1_CHUNK(FPUTUNE_SHA1_CH, 0)
        FPUTUNE_SHA1_CHUNK(FPUTUNE_SHA1_PAR, 1)
        FPUTUNE_SHA1_CHUNK(FPUTUNE_SHA1_MAJ, 2)
        FPUTUNE_SHA1_CHUNK(FPUTUNE_SHA1_PAR, 3)
        FPUTUNE_SHA1_STATE_ADD()
        // The other blocks: their schedule is already in wk.
        for (std::size_t B = 1; B < here; ++B) {
            FPUTUNE_SHA1_ROUNDS20(FPUTUNE_SHA1_CH, FPUTUNE_WKB, 0)
            FPUTUNE_SHA1_ROUNDS20(FPUTUNE_SHA1_PAR, FPUTUNE_WKB, 20)
            FPUTUNE_SHA1_ROUNDS20(FPUTUNE_SHA1_MAJ, FPUTUNE_WKB, 40)
            FPUTUNE_SHA1_ROUNDS20(FPUTUNE_SHA1_PAR, FPUTUNE_WKB, 60)
            FPUTUNE_SHA1_STATE_ADD()
        }
        data += 64 * here;
        nblocks -= here;
    }
}

#undef FPUTUNE_SHA1_CH
#undef FPUTUNE_SHA1_PAR
#undef FPUTUNE_SHA1_MAJ
#undef FPUTUNE_SHA1_ROUND
#undef FPUTUNE_SHA1_ROUNDS5
#undef FPUTUNE_SHA1_ROUNDS20
#undef FPUTUNE_WK
#undef FPUTUNE_WKB
#undef FPUTUNE_SHA1_CHUNK
#undef FPUTUNE_SHA1_STATE_ADD

}  // namespace
}  // namespace fputune::sha
