// SPDX-License-Identifier: MIT
// crc32c with the SSE4.2 crc32 instruction, three interleaved streams joined by table lookups (no SIMD
// registers: no FPU section needed). Requires SSE4.2. Not a kernel path: Linux's no-FPU crc32c is the one
// chain of crc32c_sse42.cpp; this one shows what a no-FPU path could reach, and the threshold solver
// does not take it as the baseline (models/selection.cpp kernel_no_fpu_variant).
#include <nmmintrin.h>

#include <cassert>
#include <cstring>

#include "crc.hpp"
#include "crc_spec.hpp"

namespace fputune::crc {
namespace {

// crc32q has a latency of 3 cycles and a throughput of 1 per cycle, so one dependent chain runs at a
// third of the possible speed. We run three chains over three adjacent stretches of S bytes, each
// from 0, and join them to the running register c: with shift(v) = v * x^(8 S) mod G (appending S
// zero bytes, a linear map applied by four table lookups),
//   crc(c; A B C) = shift(shift(shift(c) ^ crc(0; A)) ^ crc(0; B)) ^ crc(0; C).
// Starting every chain from 0 keeps the joining off the chains' critical path: the next stretches'
// chains start at once while the tables are read, and the out-of-order core overlaps consecutive
// stretches too (measured here: 256-byte stretches run at 0.055 TSC cycles/byte at 16 KiB, 1 KiB ones
// at 0.071, 128-byte ones at 0.063 as the joins start to cost). A short stretch length keeps the
// single-chain remainder below 3 * kShortBytes; a third, shorter tier (16 bytes) was slower: its
// joins sit on the result's critical path.
constexpr std::size_t kLongBytes = 256;
constexpr std::size_t kShortBytes = 64;
constexpr ShiftTables32 kShiftLong = shift_tables32(kCrc32c, kLongBytes);
constexpr ShiftTables32 kShiftShort = shift_tables32(kCrc32c, kShortBytes);

inline u64 shift(const ShiftTables32& t, u64 c) noexcept {
    return t.t[0][c & 0xff] ^ t.t[1][(c >> 8) & 0xff] ^ t.t[2][(c >> 16) & 0xff] ^ t.t[3][(c >> 24) & 0xff];
}

inline u64 load64(const u8* p) noexcept {
    u64 v;
    std::memcpy(&v, p, 8);
    return v;
}

template <std::size_t Stretch>
inline u64 three_way(u64 c, const u8* p, const ShiftTables32& t) noexcept {
    u64 c0 = 0, c1 = 0, c2 = 0;
    const u8* p1 = p + Stretch;
    const u8* p2 = p + 2 * Stretch;
#pragma GCC unroll 8
    for (std::size_t i = 0; i < Stretch; i += 8) {
        c0 = _mm_crc32_u64(c0, load64(p + i));
        c1 = _mm_crc32_u64(c1, load64(p1 + i));
        c2 = _mm_crc32_u64(c2, load64(p2 + i));
    }
    return shift(t, shift(t, shift(t, c) ^ c0) ^ c1) ^ c2;
}

}  // namespace

std::uint64_t crc32c_update_sse42_3stream(std::uint64_t crc, const std::uint8_t* p, std::size_t len) noexcept {
    assert(p != nullptr || len == 0);
    u64 c = static_cast<u32>(crc);
    for (; len >= 3 * kLongBytes; p += 3 * kLongBytes, len -= 3 * kLongBytes)
        c = three_way<kLongBytes>(c, p, kShiftLong);
    for (; len >= 3 * kShortBytes; p += 3 * kShortBytes, len -= 3 * kShortBytes)
        c = three_way<kShortBytes>(c, p, kShiftShort);
    for (; len >= 8; p += 8, len -= 8) c = _mm_crc32_u64(c, load64(p));
    for (; len; --len, ++p) c = _mm_crc32_u8(static_cast<u32>(c), *p);
    return c;
}

}  // namespace fputune::crc
