// SPDX-License-Identifier: MIT
// crc32c the way Linux's crc32c_x86_3way (crc32c-pcl-intel-asm_64.S) runs it from 512 bytes: three
// interleaved crc32q chains over three adjacent stretches, joined with PCLMULQDQ. Requires SSE4.2 and
// PCLMULQDQ (an FPU section: the join uses xmm registers).
#include <immintrin.h>

#include <array>
#include <cassert>
#include <cstring>

#include "crc.hpp"
#include "crc_spec.hpp"

namespace fputune::crc {
namespace {

// crc32q's latency is 3 cycles at a throughput of 1 per cycle: three independent chains fill the
// pipe. With c0 = crc(c; A), c1 = crc(0; B) and c2 = crc(0; C) over stretches of S bytes,
//   crc(c; A B C) = c0 * x^(16 S) + c1 * x^(8 S) + c2  (mod G).
// The kernel folds the first two into C's last qword instead of shifting them by tables: a 32x32
// carry-less product of reflected values is one bit short (bit m is x^(62-m)) and crc32q(0, d) is
// d * x^32, so crc32q(0, clmul(c0, x^(16 S - 33))) = c0 * x^(16 S): xor both products into the last
// qword of C and its crc32q does the join. Full iterations take 3 x 128 qwords (3 KiB, as the
// kernel's), the rest one iteration of len / 24 qwords per stream down to kSmallBytes (the kernel's
// SMALL_SIZE), then one chain.
constexpr std::size_t kMaxQwords = 128;
constexpr std::size_t kSmallBytes = 200;

struct Join {
    u32 k0, k1;  // x^(128 q - 33) and x^(64 q - 33) mod G, reflected (bit i = x^(31 - i))
};

consteval std::array<Join, kMaxQwords + 1> join_table() {
    const u32 prefl = static_cast<u32>(bit_reverse(kCrc32c.poly, 32));
    auto times_x = [&](u32 v) { return (v & 1) ? (v >> 1) ^ prefl : v >> 1; };
    std::array<Join, kMaxQwords + 1> t{};
    // x^(64 q - 33) for q = 1..128, step x^64; x^(128 q - 33) = x^(64 (2q) - 33) from the same walk.
    std::array<u32, 2 * kMaxQwords + 1> pw{};
    u32 x = u32{1} << 31;  // x^0
    for (int i = 0; i < 31; ++i) x = times_x(x);  // x^31 = x^(64 - 33)
    for (std::size_t q = 1; q <= 2 * kMaxQwords; ++q) {
        pw[q] = x;
        for (int i = 0; i < 64; ++i) x = times_x(x);
    }
    for (std::size_t q = 1; q <= kMaxQwords; ++q) t[q] = {pw[2 * q], pw[q]};
    return t;
}
constexpr std::array<Join, kMaxQwords + 1> kJoin = join_table();

inline u64 load64(const u8* p) noexcept {
    u64 v;
    std::memcpy(&v, p, 8);
    return v;
}

inline u64 clmul32(u32 a, u32 b) noexcept {
    const __m128i p =
        _mm_clmulepi64_si128(_mm_cvtsi32_si128(static_cast<int>(a)), _mm_cvtsi32_si128(static_cast<int>(b)), 0x00);
    return static_cast<u64>(_mm_cvtsi128_si64(p));
}

// Three stretches of q qwords each from p, continuing register c.
inline u64 three_way(u64 c, const u8* p, std::size_t q) noexcept {
    const u8* p1 = p + 8 * q;
    const u8* p2 = p + 16 * q;
    u64 c0 = c, c1 = 0, c2 = 0;
    for (std::size_t i = 0; i + 1 < q; ++i) {
        c0 = _mm_crc32_u64(c0, load64(p + 8 * i));
        c1 = _mm_crc32_u64(c1, load64(p1 + 8 * i));
        c2 = _mm_crc32_u64(c2, load64(p2 + 8 * i));
    }
    c0 = _mm_crc32_u64(c0, load64(p + 8 * (q - 1)));
    c1 = _mm_crc32_u64(c1, load64(p1 + 8 * (q - 1)));
    const u64 joined = clmul32(static_cast<u32>(c0), kJoin[q].k0) ^ clmul32(static_cast<u32>(c1), kJoin[q].k1);
    return _mm_crc32_u64(c2, load64(p2 + 8 * (q - 1)) ^ joined);
}

}  // namespace

std::uint64_t crc32c_update_3way(std::uint64_t crc, const std::uint8_t* p, std::size_t len) noexcept {
    assert(p != nullptr || len == 0);
    u64 c = static_cast<u32>(crc);
    for (; len >= 3 * 8 * kMaxQwords; p += 3 * 8 * kMaxQwords, len -= 3 * 8 * kMaxQwords)
        c = three_way(c, p, kMaxQwords);
    if (len >= kSmallBytes) {
        const std::size_t q = len / 24;
        c = three_way(c, p, q);
        p += 24 * q;
        len -= 24 * q;
    }
    for (; len >= 8; p += 8, len -= 8) c = _mm_crc32_u64(c, load64(p));
    for (; len; --len, ++p) c = _mm_crc32_u8(static_cast<u32>(c), *p);
    return c;
}

}  // namespace fputune::crc
