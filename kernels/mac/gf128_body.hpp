// SPDX-License-Identifier: MIT
// POLYVAL (and GHASH, POLYVAL of byte-reversed blocks under mulX(H): mac.hpp) with carry-less
// multiplication, written once over a width's traits T: a vector V of kBlocks 16-byte blocks. Up to
// sixteen blocks per reduction: the sum of X_i * H^(n-i) by Karatsuba, one Montgomery reduction
// (Gueron's aggregated reduction, as in OpenSSL's clmul GHASH, which aggregates four); sixteen rather
// than eight measured ~10% faster on Zen 5 (pclmul). H^1..H^16 are computed on first use per key.
// Included by the pclmul/vpclmul files, each compiled with its own flags (PCLMUL and SSSE3 at least, for
// the 128-bit lane code here); everything is in an anonymous namespace, so each keeps its own copy.
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "mac.hpp"

namespace fputune::mac {
namespace {

constexpr int kAgg = 16;

// ---- one 128-bit lane --------------------------------------------------------------------------------
inline __m128i reverse_bytes(__m128i x) noexcept {
    return _mm_shuffle_epi8(x, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

template <bool kGhash>
inline __m128i load_lane(const std::uint8_t* p) noexcept {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    return kGhash ? reverse_bytes(x) : x;
}

// Montgomery reduction of the 256-bit [hi:lo] by x^128 modulo x^128 + x^127 + x^126 + x^121 + 1:
// twice, the low qword times (x^63 + x^62 + x^57) is folded up one qword.
inline __m128i reduce(__m128i lo, __m128i hi) noexcept {
    const __m128i poly = _mm_set_epi64x(0, static_cast<long long>(0xc200000000000000ull));
    __m128i t = _mm_clmulepi64_si128(lo, poly, 0x00);
    __m128i u = _mm_xor_si128(_mm_shuffle_epi32(lo, 0x4e), t);
    t = _mm_clmulepi64_si128(u, poly, 0x00);
    u = _mm_xor_si128(_mm_shuffle_epi32(u, 0x4e), t);
    return _mm_xor_si128(u, hi);
}

inline __m128i dot(__m128i a, __m128i b) noexcept {
    __m128i lo = _mm_clmulepi64_si128(a, b, 0x00);
    __m128i hi = _mm_clmulepi64_si128(a, b, 0x11);
    __m128i mid = _mm_xor_si128(_mm_clmulepi64_si128(a, b, 0x01), _mm_clmulepi64_si128(a, b, 0x10));
    lo = _mm_xor_si128(lo, _mm_slli_si128(mid, 8));
    hi = _mm_xor_si128(hi, _mm_srli_si128(mid, 8));
    return reduce(lo, hi);
}

// pw[16 - k] = H^k and pk[16 - k] = its hi ^ lo in both qwords, descending: a run of B blocks uses pw[16-B..].
void compute_powers(Gf128Ctx* c) noexcept {
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(c->h));
    __m128i p = h;
    for (int k = 1; k <= kAgg; ++k) {
        if (k > 1) p = dot(p, h);
        _mm_store_si128(reinterpret_cast<__m128i*>(c->pw[kAgg - k]), p);
        _mm_store_si128(reinterpret_cast<__m128i*>(c->pk[kAgg - k]), _mm_xor_si128(p, _mm_shuffle_epi32(p, 0x4e)));
    }
    c->powers_ready = 1;
}

// Karatsuba products of x and the power p (pk: its middle operand), summed into lo, hi, mid.
template <class T>
struct Sums {
    typename T::V lo = T::zero(), hi = T::zero(), mid = T::zero();
    void add(typename T::V x, typename T::V p, typename T::V k) noexcept {
        lo = T::xor_(lo, T::template clmul<0x00>(x, p));
        hi = T::xor_(hi, T::template clmul<0x11>(x, p));
        mid = T::xor_(mid, T::template clmul<0x00>(T::xor_(x, T::swap_qwords(x)), k));
    }
};

// The 128-bit lane as traits, for single blocks (and as the whole of the pclmul width).
struct Lane {
    using V = __m128i;
    static constexpr int kBlocks = 1;
    static V zero() noexcept { return _mm_setzero_si128(); }
    static V xor_(V a, V b) noexcept { return _mm_xor_si128(a, b); }
    template <int kImm>
    static V clmul(V a, V b) noexcept {
        return _mm_clmulepi64_si128(a, b, kImm);
    }
    static V swap_qwords(V a) noexcept { return _mm_shuffle_epi32(a, 0x4e); }
    template <bool kGhash>
    static V load(const std::uint8_t* p) noexcept {
        return load_lane<kGhash>(p);
    }
    static V load_power(const std::uint64_t (*p)[2]) noexcept {
        return _mm_load_si128(reinterpret_cast<const __m128i*>(p));
    }
    static V from_lane(__m128i x) noexcept { return x; }
    static __m128i fold(V a) noexcept { return a; }
};

// ---- the body ------------------------------------------------------------------------------------
// T: using V (kBlocks blocks); zero, xor_, clmul<imm> (per 128 bits, as pclmulqdq), swap_qwords (per 128
// bits), load<kGhash> (kBlocks blocks, each byte-reversed for GHASH), load_power (kBlocks consecutive
// pw/pk entries), from_lane (a lane into block 0, zeros above), fold (xor of all lanes).
template <class T, bool kGhash>
void gf128_blocks_body(Gf128Ctx* c, const std::uint8_t* m, std::size_t nblocks) noexcept {
    constexpr std::size_t K = T::kBlocks;
    if (nblocks == 0) return;
    if (!c->powers_ready) compute_powers(c);
    __m128i s = _mm_loadu_si128(reinterpret_cast<const __m128i*>(c->s));
    while (nblocks) {
        const std::size_t b = nblocks < kAgg ? nblocks : kAgg;
        const std::size_t q = b / K;  // whole vectors
        const std::uint64_t(*pw)[2] = c->pw + (kAgg - b);
        const std::uint64_t(*pk)[2] = c->pk + (kAgg - b);
        // Everything but the first block does not depend on the running sum: those products are summed
        // first, off the chain that runs from one reduction through the first block to the next.
        Sums<T> wide;
        for (std::size_t j = 1; j < q; ++j)
            wide.add(T::template load<kGhash>(m + 16 * K * j), T::load_power(pw + K * j), T::load_power(pk + K * j));
        Sums<Lane> one;
        for (std::size_t i = q ? q * K : 1; i < b; ++i)
            one.add(load_lane<kGhash>(m + 16 * i), Lane::load_power(pw + i), Lane::load_power(pk + i));
        if (q) {
            wide.add(T::xor_(T::template load<kGhash>(m), T::from_lane(s)), T::load_power(pw), T::load_power(pk));
            one.lo = _mm_xor_si128(one.lo, T::fold(wide.lo));
            one.hi = _mm_xor_si128(one.hi, T::fold(wide.hi));
            one.mid = _mm_xor_si128(one.mid, T::fold(wide.mid));
        } else {
            one.add(_mm_xor_si128(load_lane<kGhash>(m), s), Lane::load_power(pw), Lane::load_power(pk));
        }
        const __m128i mid = _mm_xor_si128(one.mid, _mm_xor_si128(one.lo, one.hi));
        s = reduce(_mm_xor_si128(one.lo, _mm_slli_si128(mid, 8)), _mm_xor_si128(one.hi, _mm_srli_si128(mid, 8)));
        m += 16 * b;
        nblocks -= b;
    }
    _mm_storeu_si128(reinterpret_cast<__m128i*>(c->s), s);
}

}  // namespace
}  // namespace fputune::mac
