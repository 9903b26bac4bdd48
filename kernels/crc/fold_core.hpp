// SPDX-License-Identifier: MIT
// CRC folding with carry-less multiplication, for any vector width: included by each folding ISA file
// (pclmul, vpclmul-avx2, vpclmul-avx512), which supplies the vector type and is compiled with its own
// flags. Everything is in an anonymous namespace so that each file keeps its own copy.
// The mathematics (frames, constants, the final Barrett reduction) is explained in crc_spec.hpp.
#pragma once

#include <immintrin.h>

#include <cassert>
#include <cstddef>

#include "crc_spec.hpp"

namespace fputune::crc {
namespace {

// pshufb masks for byte shifts by a run-time count s (0..16): the 16 bytes read at kShiftShuf + 16 + s
// shift a register right by s bytes (towards byte 0), those at kShiftShuf + 16 - s shift it left;
// 0x80 selects a zero byte.
alignas(16) constexpr u8 kShiftShuf[48] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
                                           0x80, 0x80, 0x80, 0x80, 0,    1,    2,    3,    4,    5,    6,    7,
                                           8,    9,    10,   11,   12,   13,   14,   15,   0x80, 0x80, 0x80, 0x80,
                                           0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80};
// The 16 bytes read at kHighMask + r select the bytes j >= 16 - r (the last r of a register).
alignas(16) constexpr u8 kHighMask[32] = {0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
                                          0,    0,    0,    0,    0,    0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                          0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
// Reverses the bytes of each 16-byte lane: msb-first CRCs want the first byte as the top of a lane.
alignas(16) constexpr u8 kByteReverse[16] = {15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0};

inline __m128i load_bytes(const u8* p) noexcept { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
inline __m128i pair(U64x2 k) noexcept {
    return _mm_set_epi64x(static_cast<long long>(k.q1), static_cast<long long>(k.q0));
}

template <FoldConsts C>
inline __m128i load_lane(const u8* p) noexcept {
    const __m128i v = load_bytes(p);
    if constexpr (C.reflected) return v;
    return _mm_shuffle_epi8(v, load_bytes(kByteReverse));
}

// The register as the first n message bits to add into the first 16-byte lane.
template <FoldConsts C>
inline __m128i initial_lane(u64 crc) noexcept {
    if constexpr (C.reflected) return _mm_cvtsi64_si128(static_cast<long long>(crc));
    return _mm_set_epi64x(static_cast<long long>(crc << (64 - C.bits)), 0);
}

inline __m128i fold_lane(__m128i a, __m128i k, __m128i data) noexcept {
    return _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(a, k, 0x00), _mm_clmulepi64_si128(a, k, 0x11)), data);
}

// The last 1..15 bytes: the message ends "x (16 bytes) then r bytes". Its last 16 bytes B are x's
// last 16 - r bytes and the r new ones; x's first r bytes H lie 128 bits before B's end, so H is
// folded across 128 bits into B. The new bytes are read with one load ending at the message end.
template <FoldConsts C>
inline __m128i fold_tail(__m128i x, const u8* p, std::size_t r) noexcept {
    assert(r > 0 && r < 16);
    const __m128i last = load_lane<C>(p + r - 16);  // earlier bytes were consumed already: in bounds
    __m128i h, b;
    if constexpr (C.reflected) {  // message order = byte order
        h = _mm_shuffle_epi8(x, load_bytes(kShiftShuf + r));  // x's first r bytes at the end
        b = _mm_shuffle_epi8(x, load_bytes(kShiftShuf + 16 + r));  // the rest at the start
        b = _mm_or_si128(b, _mm_and_si128(last, load_bytes(kHighMask + r)));
    } else {  // message order = reversed byte order
        h = _mm_shuffle_epi8(x, load_bytes(kShiftShuf + 32 - r));
        b = _mm_shuffle_epi8(x, load_bytes(kShiftShuf + 16 - r));
        b = _mm_or_si128(b, _mm_andnot_si128(load_bytes(kHighMask + 16 - r), last));
    }
    return fold_lane(h, pair(C.fold_128), b);
}

// (A * x^64) mod G' by Barrett reduction, then the n-bit register (see crc_spec.hpp).
template <FoldConsts C>
inline u64 reduce(__m128i a) noexcept {
    const __m128i k = _mm_set_epi64x(static_cast<long long>(C.gprime), static_cast<long long>(C.k128));
    const __m128i mu = _mm_cvtsi64_si128(static_cast<long long>(C.mu));
    if constexpr (C.reflected) {
        const __m128i t = _mm_xor_si128(_mm_clmulepi64_si128(a, k, 0x00), _mm_srli_si128(a, 8));
        const __m128i q = _mm_clmulepi64_si128(t, mu, 0x00);  // q in qword 0
        __m128i r = _mm_xor_si128(t, _mm_clmulepi64_si128(q, k, 0x10));
        if constexpr (C.g0) r = _mm_xor_si128(r, _mm_slli_si128(q, 8));
        const u64 reg = static_cast<u64>(_mm_extract_epi64(r, 1));
        return C.bits == 64 ? reg : reg & ((u64{1} << C.bits) - 1);
    } else {
        const __m128i t = _mm_xor_si128(_mm_clmulepi64_si128(a, k, 0x01), _mm_slli_si128(a, 8));
        const __m128i q = _mm_xor_si128(t, _mm_clmulepi64_si128(t, mu, 0x01));  // q in qword 1
        const __m128i r = _mm_xor_si128(t, _mm_clmulepi64_si128(q, k, 0x11));
        return static_cast<u64>(_mm_cvtsi128_si64(r)) >> (64 - C.bits);
    }
}

// The 128-bit vector for the pclmul files.
struct Vec128 {
    using T = __m128i;
    static constexpr std::size_t kBytes = 16;
    template <FoldConsts C>
    static T load(const u8* p) noexcept {
        return load_lane<C>(p);
    }
    static T xor_(T a, T b) noexcept { return _mm_xor_si128(a, b); }
    static T fold(T a, T k, T data) noexcept { return fold_lane(a, k, data); }
    static T broadcast(U64x2 k) noexcept { return pair(k); }
    static T from_lane(__m128i x) noexcept { return x; }
    template <FoldConsts C>
    static __m128i to_lane(T a) noexcept {
        return a;
    }
};

// Continues the register over len >= 16 bytes. V is the vector: V::kBytes wide (16, 32 or 64), with
// load (lane-byte-reversed for msb-first), fold (two products and the data, per 16-byte lane),
// broadcast of a constant pair, from_lane (first lane set, others zero) and to_lane (fold all lanes
// into one). kVecs registers run in parallel in the main loop to hide the multiplier's latency.
template <class V, FoldConsts C, unsigned kVecs>
inline u64 fold_update(u64 crc, const u8* p, std::size_t len) noexcept {
    assert(len >= 16);
    __m128i x;
    if (V::kBytes > 16 && len < V::kBytes) {
        x = _mm_xor_si128(load_lane<C>(p), initial_lane<C>(crc));
        p += 16;
        len -= 16;
    } else {
        typename V::T a;
        if (len >= kVecs * V::kBytes) {
            typename V::T acc[kVecs];
#pragma GCC unroll 16
            for (unsigned i = 0; i < kVecs; ++i) acc[i] = V::template load<C>(p + i * V::kBytes);
            acc[0] = V::xor_(acc[0], V::from_lane(initial_lane<C>(crc)));
            p += kVecs * V::kBytes;
            len -= kVecs * V::kBytes;
            const typename V::T k = V::broadcast(C.fold_loop);
            while (len >= kVecs * V::kBytes) {
#pragma GCC unroll 16
                for (unsigned i = 0; i < kVecs; ++i)
                    acc[i] = V::fold(acc[i], k, V::template load<C>(p + i * V::kBytes));
                p += kVecs * V::kBytes;
                len -= kVecs * V::kBytes;
            }
            const typename V::T kv = V::broadcast(C.fold_vec);
            a = acc[0];
#pragma GCC unroll 16
            for (unsigned i = 1; i < kVecs; ++i) a = V::fold(a, kv, acc[i]);
        } else {
            a = V::xor_(V::template load<C>(p), V::from_lane(initial_lane<C>(crc)));
            p += V::kBytes;
            len -= V::kBytes;
        }
        const typename V::T kv = V::broadcast(C.fold_vec);
        for (; len >= V::kBytes; p += V::kBytes, len -= V::kBytes) a = V::fold(a, kv, V::template load<C>(p));
        x = V::template to_lane<C>(a);
    }
    const __m128i k128 = pair(C.fold_128);
    for (; len >= 16; p += 16, len -= 16) x = fold_lane(x, k128, load_lane<C>(p));
    if (len) x = fold_tail<C>(x, p, len);
    return reduce<C>(x);
}

}  // namespace
}  // namespace fputune::crc
