// SPDX-License-Identifier: MIT
// RAID6 gen_syndrome for any vector width: included by each ISA file (sse2, avx2, avx512), which supplies the
// vector traits (vec_*.hpp) and is compiled with its own flags. Everything is in an anonymous namespace so that
// each file keeps its own copy.
// As Linux's lib/raid6 x4 code: 4 vectors of every disk per step; Q by Horner's rule from the highest disk
// down (Q = 2 Q + D_z, each byte doubled in GF(2^8): shifted left, 0x1d folded in where its top bit was set);
// P and Q stored non-temporally, then one sfence. A destination the non-temporal store cannot take (not
// vector-aligned: never in Linux, whose stripes are pages) is stored normally.
// Traits V provide: T, kBytes, load (unaligned), store, stream (aligned, non-temporal), fence, xor_, mul2.
#pragma once

#include <cstddef>
#include <cstdint>

#include "raid.hpp"

namespace fputune::raid {
namespace {

using u8 = std::uint8_t;

template <class V, bool kStream>
inline void put(u8* p, typename V::T v) noexcept {
    if constexpr (kStream)
        V::stream(p, v);
    else
        V::store(p, v);
}

template <class V, bool kStream>
inline void syndrome_columns(std::size_t n, std::size_t bytes, const u8* const* src, u8* p_out, u8* q_out) noexcept {
    using T = typename V::T;
    constexpr std::size_t kB = V::kBytes;
    const u8* top = src[n - 1];
    for (std::size_t off = 0; off < bytes; off += 4 * kB) {
        T p[4], q[4];
#pragma GCC unroll 4
        for (int i = 0; i < 4; ++i) p[i] = q[i] = V::load(top + off + i * kB);
        for (std::size_t z = n - 1; z-- > 0;) {
            const u8* s = src[z] + off;
#pragma GCC unroll 4
            for (int i = 0; i < 4; ++i) {
                const T d = V::load(s + i * kB);
                p[i] = V::xor_(p[i], d);
                q[i] = V::xor_(V::mul2(q[i]), d);
            }
        }
#pragma GCC unroll 4
        for (int i = 0; i < 4; ++i) put<V, kStream>(p_out + off + i * kB, p[i]);
#pragma GCC unroll 4
        for (int i = 0; i < 4; ++i) put<V, kStream>(q_out + off + i * kB, q[i]);
    }
}

template <class V>
inline void raid6_gen(std::size_t n, std::size_t bytes, const u8* const* src, u8* const* dst) noexcept {
    const auto aligned = [](const u8* p) { return reinterpret_cast<std::uintptr_t>(p) % V::kBytes == 0; };
    if (aligned(dst[0]) && aligned(dst[1])) {
        syndrome_columns<V, true>(n, bytes, src, dst[0], dst[1]);
        V::fence();
    } else {
        syndrome_columns<V, false>(n, bytes, src, dst[0], dst[1]);
    }
}

}  // namespace
}  // namespace fputune::raid
