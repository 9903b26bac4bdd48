// SPDX-License-Identifier: MIT
// BLAKE2s compression, written once over a width's traits T: the 4x4 state as four rows in xmm, G on four
// columns at once, the diagonals by rotating rows (pshufd). T supplies the rotations (rotr16/12/8/7) and
// Message, which gives each round's four message vectors. Included by the ssse3 and avx512 files, each
// compiled with its own flags; everything is in an anonymous namespace, so each keeps its own copy.
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "mac.hpp"

namespace fputune::mac {
namespace {

using u32 = std::uint32_t;

// Per round, the sigma permutation regrouped as the four vectors G takes: even then odd words of the
// column step, even then odd words of the diagonal step (lane i on the diagonal of a[(i + 3) % 4]).
struct RoundWords {
    u32 w[10][16];
};
constexpr RoundWords round_words() {
    constexpr int kOrder[16] = {0, 2, 4, 6, 1, 3, 5, 7, 14, 8, 10, 12, 15, 9, 11, 13};
    RoundWords r{};
    for (int round = 0; round < 10; ++round)
        for (int i = 0; i < 16; ++i) r.w[round][i] = kBlake2sSigma[round][kOrder[i]];
    return r;
}
alignas(64) constexpr RoundWords kRoundWords = round_words();

template <class T>
inline void half_g(__m128i& a, __m128i& b, __m128i& c, __m128i& d, __m128i m, bool first) noexcept {
    // b arrives last: one add after it, not two. The empty asm keeps a + m a value of its own; without
    // it GCC reassociates to (b + m) + a and puts both adds on the round's critical path (about 1 cycle
    // in 7 per step: ours ran 1.12x (ssse3) and 1.20x (avx512) the kernel's blake2s-core.S).
    __m128i am = _mm_add_epi32(a, m);
    asm("" : "+v"(am));
    a = _mm_add_epi32(am, b);
    d = _mm_xor_si128(d, a);
    d = first ? T::rotr16(d) : T::rotr8(d);
    c = _mm_add_epi32(c, d);
    b = _mm_xor_si128(b, c);
    b = first ? T::rotr12(b) : T::rotr7(b);
}

template <class T>
void blake2s_compress_body(Blake2sState* st, const std::uint8_t* block, std::size_t nblocks, u32 inc, u32 f0) noexcept {
    __m128i h0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(st->h));
    __m128i h1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(st->h + 4));
    const __m128i iv0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kBlake2sIv));
    const __m128i iv1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kBlake2sIv + 4));
    u32 t0 = st->t[0], t1 = st->t[1];
    for (; nblocks; --nblocks, block += 64) {
        t0 += inc;
        t1 += t0 < inc;
        const typename T::Message msg(block);
        __m128i a = h0, b = h1, c = iv0;
        __m128i d =
            _mm_xor_si128(iv1, _mm_set_epi32(0, static_cast<int>(f0), static_cast<int>(t1), static_cast<int>(t0)));
#pragma GCC unroll 10
        for (int r = 0; r < 10; ++r) {
            __m128i m[4];
            msg.round(r, m);
            half_g<T>(a, b, c, d, m[0], true);
            half_g<T>(a, b, c, d, m[1], false);
            // Rotate rows a, c, d (not b) so the diagonals line up as columns: b is the value the next
            // step waits for, and the others are ready early, so the rotations cost no latency.
            // Lane i then works on the diagonal that starts at a[(i + 3) % 4].
            a = _mm_shuffle_epi32(a, 0x93);
            c = _mm_shuffle_epi32(c, 0x39);
            d = _mm_shuffle_epi32(d, 0x4e);
            half_g<T>(a, b, c, d, m[2], true);
            half_g<T>(a, b, c, d, m[3], false);
            a = _mm_shuffle_epi32(a, 0x39);
            c = _mm_shuffle_epi32(c, 0x93);
            d = _mm_shuffle_epi32(d, 0x4e);
        }
        h0 = _mm_xor_si128(h0, _mm_xor_si128(a, c));
        h1 = _mm_xor_si128(h1, _mm_xor_si128(b, d));
    }
    _mm_storeu_si128(reinterpret_cast<__m128i*>(st->h), h0);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(st->h + 4), h1);
    st->t[0] = t0;
    st->t[1] = t1;
}

}  // namespace
}  // namespace fputune::mac
