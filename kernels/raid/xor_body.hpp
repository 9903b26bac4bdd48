// SPDX-License-Identifier: MIT
// xor_gen for any vector width: included by each ISA file (sse, avx, avx512), which supplies the vector traits
// (vec_*.hpp) and is compiled with its own flags. Everything is in an anonymous namespace so that each file
// keeps its own copy.
// As Linux's x86 xor_gen(): the sources in passes of at most 4 (its do_2 .. do_5), each pass over the whole
// buffer: V::kPass vectors of dest loaded, the pass's sources xored in, stored back (normal stores).
// Traits V provide: T, kBytes, kPass, load, store (unaligned), xor_.
#pragma once

#include <cstddef>
#include <cstdint>

#include "raid.hpp"

namespace fputune::raid {
namespace {

using u8 = std::uint8_t;

template <class V, int kSources>
inline void xor_pass(std::size_t bytes, const u8* const* src, u8* dest) noexcept {
    using T = typename V::T;
    constexpr std::size_t kB = V::kBytes, kStep = V::kPass * kB;
    for (std::size_t off = 0; off < bytes; off += kStep) {
        T acc[V::kPass];
#pragma GCC unroll 16
        for (std::size_t i = 0; i < V::kPass; ++i) acc[i] = V::load(dest + off + i * kB);
#pragma GCC unroll 4
        for (int s = 0; s < kSources; ++s)
#pragma GCC unroll 16
            for (std::size_t i = 0; i < V::kPass; ++i) acc[i] = V::xor_(acc[i], V::load(src[s] + off + i * kB));
#pragma GCC unroll 16
        for (std::size_t i = 0; i < V::kPass; ++i) V::store(dest + off + i * kB, acc[i]);
    }
}

template <class V>
inline void xor_gen(std::size_t n, std::size_t bytes, const u8* const* src, u8* const* dst) noexcept {
    for (std::size_t done = 0; done < n;) {
        switch (n - done) {
            case 1: xor_pass<V, 1>(bytes, src + done, dst[0]), done += 1; break;
            case 2: xor_pass<V, 2>(bytes, src + done, dst[0]), done += 2; break;
            case 3: xor_pass<V, 3>(bytes, src + done, dst[0]), done += 3; break;
            default: xor_pass<V, 4>(bytes, src + done, dst[0]), done += 4; break;
        }
    }
}

}  // namespace
}  // namespace fputune::raid
