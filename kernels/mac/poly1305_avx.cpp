// SPDX-License-Identifier: MIT
// Poly1305 with AVX (VEX-encoded 128-bit integer ops): two blocks per xmm step in base 2^26 (vpmuludq),
// key powers r^1..r^4 computed on first use. Requires AVX. Two lanes each absorb every other block; at the
// end each lane is multiplied by the power of r its last block still owes and the lanes are summed. Two
// such accumulators take alternate 32-byte groups (step r^4), so two independent chains overlap.
#include <immintrin.h>

#include <cassert>
#include <cstring>

#include "mac.hpp"
#include "poly1305_base26.hpp"

namespace fputune::mac {

namespace {

constexpr int kPowers = 4;

using Ctx = Poly1305Ctx;
static_assert(kPowers * 5 <= sizeof(Ctx::pw) / sizeof(u64));
// r^(k+1) at pw(c)[k], each limb carried
inline u64 (*pw(Ctx* c))[5] { return reinterpret_cast<u64 (*)[5]>(c->pw); }
inline const u64 (*pw(const Ctx* c))[5] { return reinterpret_cast<const u64 (*)[5]>(c->pw); }

void compute_powers(Ctx* c) noexcept {
    powers_base26(c->core.r, pw(c), kPowers);
    c->powers_ready = 1;
}

struct V5 {
    __m128i v[5];
};

// d = h * r (each lane), not carried. rs holds r0..r4 then 5*r1..5*r4 (s folds limbs above 2^130 back);
// it stays in memory so the loop needs few of the sixteen ymm registers and spills nothing.
inline V5 mul(const V5& h, const __m128i* rs) noexcept {
    const __m128i* r = rs;
    const __m128i* s = rs + 4;  // s[i] = 5 * r[i] for i = 1..4
    V5 d;
    d.v[0] = _mm_mul_epu32(h.v[0], r[0]);
    d.v[1] = _mm_mul_epu32(h.v[0], r[1]);
    d.v[2] = _mm_mul_epu32(h.v[0], r[2]);
    d.v[3] = _mm_mul_epu32(h.v[0], r[3]);
    d.v[4] = _mm_mul_epu32(h.v[0], r[4]);
    d.v[0] = _mm_add_epi64(d.v[0], _mm_mul_epu32(h.v[1], s[4]));
    d.v[1] = _mm_add_epi64(d.v[1], _mm_mul_epu32(h.v[1], r[0]));
    d.v[2] = _mm_add_epi64(d.v[2], _mm_mul_epu32(h.v[1], r[1]));
    d.v[3] = _mm_add_epi64(d.v[3], _mm_mul_epu32(h.v[1], r[2]));
    d.v[4] = _mm_add_epi64(d.v[4], _mm_mul_epu32(h.v[1], r[3]));
    d.v[0] = _mm_add_epi64(d.v[0], _mm_mul_epu32(h.v[2], s[3]));
    d.v[1] = _mm_add_epi64(d.v[1], _mm_mul_epu32(h.v[2], s[4]));
    d.v[2] = _mm_add_epi64(d.v[2], _mm_mul_epu32(h.v[2], r[0]));
    d.v[3] = _mm_add_epi64(d.v[3], _mm_mul_epu32(h.v[2], r[1]));
    d.v[4] = _mm_add_epi64(d.v[4], _mm_mul_epu32(h.v[2], r[2]));
    d.v[0] = _mm_add_epi64(d.v[0], _mm_mul_epu32(h.v[3], s[2]));
    d.v[1] = _mm_add_epi64(d.v[1], _mm_mul_epu32(h.v[3], s[3]));
    d.v[2] = _mm_add_epi64(d.v[2], _mm_mul_epu32(h.v[3], s[4]));
    d.v[3] = _mm_add_epi64(d.v[3], _mm_mul_epu32(h.v[3], r[0]));
    d.v[4] = _mm_add_epi64(d.v[4], _mm_mul_epu32(h.v[3], r[1]));
    d.v[0] = _mm_add_epi64(d.v[0], _mm_mul_epu32(h.v[4], s[1]));
    d.v[1] = _mm_add_epi64(d.v[1], _mm_mul_epu32(h.v[4], s[2]));
    d.v[2] = _mm_add_epi64(d.v[2], _mm_mul_epu32(h.v[4], s[3]));
    d.v[3] = _mm_add_epi64(d.v[3], _mm_mul_epu32(h.v[4], s[4]));
    d.v[4] = _mm_add_epi64(d.v[4], _mm_mul_epu32(h.v[4], r[0]));
    return d;
}

// Two interleaved carry chains; afterwards every limb is below 2^26 + 2^6 or so.
inline void carry(V5& d) noexcept {
    const __m128i m = _mm_set1_epi64x(kMask26);
    __m128i c0 = _mm_srli_epi64(d.v[0], 26), c3 = _mm_srli_epi64(d.v[3], 26);
    d.v[0] = _mm_and_si128(d.v[0], m);
    d.v[3] = _mm_and_si128(d.v[3], m);
    d.v[1] = _mm_add_epi64(d.v[1], c0);
    d.v[4] = _mm_add_epi64(d.v[4], c3);
    __m128i c1 = _mm_srli_epi64(d.v[1], 26), c4 = _mm_srli_epi64(d.v[4], 26);
    d.v[1] = _mm_and_si128(d.v[1], m);
    d.v[4] = _mm_and_si128(d.v[4], m);
    d.v[2] = _mm_add_epi64(d.v[2], c1);
    d.v[0] = _mm_add_epi64(d.v[0], _mm_add_epi64(c4, _mm_slli_epi64(c4, 2)));
    __m128i c2 = _mm_srli_epi64(d.v[2], 26);
    c0 = _mm_srli_epi64(d.v[0], 26);
    d.v[2] = _mm_and_si128(d.v[2], m);
    d.v[0] = _mm_and_si128(d.v[0], m);
    d.v[3] = _mm_add_epi64(d.v[3], c2);
    d.v[1] = _mm_add_epi64(d.v[1], c0);
    c3 = _mm_srli_epi64(d.v[3], 26);
    d.v[3] = _mm_and_si128(d.v[3], m);
    d.v[4] = _mm_add_epi64(d.v[4], c3);
}

// Two blocks into limbs, block 0 in lane 0.
inline V5 load_blocks(const std::uint8_t* p) noexcept {
    const __m128i m = _mm_set1_epi64x(kMask26);
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16));
    const __m128i lo = _mm_unpacklo_epi64(a, b), hi = _mm_unpackhi_epi64(a, b);
    V5 x;
    x.v[0] = _mm_and_si128(lo, m);
    x.v[1] = _mm_and_si128(_mm_srli_epi64(lo, 26), m);
    x.v[2] = _mm_and_si128(_mm_or_si128(_mm_srli_epi64(lo, 52), _mm_slli_epi64(hi, 12)), m);
    x.v[3] = _mm_and_si128(_mm_srli_epi64(hi, 14), m);
    x.v[4] = _mm_or_si128(_mm_srli_epi64(hi, 40), _mm_set1_epi64x(1 << 24));  // the 2^128 pad bit
    return x;
}

inline V5 add(const V5& a, const V5& b) noexcept {
    V5 x;
    for (int i = 0; i < 5; ++i) x.v[i] = _mm_add_epi64(a.v[i], b.v[i]);
    return x;
}

inline __m128i lanes2(const Ctx* c, int i, int k0, int k1) noexcept {
    return _mm_set_epi64x(static_cast<long long>(pw(c)[k1 - 1][i]), static_cast<long long>(pw(c)[k0 - 1][i]));
}

// Five limbs then 5x limbs 1..4, the layout mul() reads.
inline void with_fives(__m128i* rs) noexcept {
    for (int i = 1; i < 5; ++i) rs[4 + i] = _mm_add_epi64(rs[i], _mm_slli_epi64(rs[i], 2));
}

inline void sum_lanes(const V5& d, u64 sum[5]) noexcept {
    for (int i = 0; i < 5; ++i) {
        alignas(16) u64 lanes[2];
        _mm_store_si128(reinterpret_cast<__m128i*>(lanes), d.v[i]);
        sum[i] += lanes[0] + lanes[1];
    }
}

inline V5 with_h(const Ctx* c, const V5& x) noexcept {
    u64 h26[5];
    to26(c->core.h, h26);
    V5 h;
    for (int i = 0; i < 5; ++i) h.v[i] = _mm_add_epi64(x.v[i], _mm_set_epi64x(0, static_cast<long long>(h26[i])));
    return h;
}

// 4 * pairs blocks: accumulator a takes the even 32-byte groups, b the odd ones.
void blocks_2x(Ctx* c, const std::uint8_t* m, std::size_t pairs) noexcept {
    __m128i rs[9], fa[9], fb[9];
    for (int i = 0; i < 5; ++i) {
        rs[i] = _mm_set1_epi64x(static_cast<long long>(pw(c)[3][i]));
        // In a window of 4 blocks, block p still owes r^(4-p).
        fa[i] = lanes2(c, i, 4, 3);
        fb[i] = lanes2(c, i, 2, 1);
    }
    with_fives(rs);
    with_fives(fa);
    with_fives(fb);
    V5 a = with_h(c, load_blocks(m)), b = load_blocks(m + 32);
    for (std::size_t k = 1; k < pairs; ++k) {
        m += 64;
        V5 d = mul(a, rs);
        carry(d);
        a = add(d, load_blocks(m));
        d = mul(b, rs);
        carry(d);
        b = add(d, load_blocks(m + 32));
    }
    u64 sum[5] = {};
    sum_lanes(mul(a, fa), sum);
    sum_lanes(mul(b, fb), sum);
    from26(sum, c->core.h);
}

// One group of two blocks.
void blocks_1x(Ctx* c, const std::uint8_t* m) noexcept {
    __m128i f[9];
    for (int i = 0; i < 5; ++i) f[i] = lanes2(c, i, 2, 1);
    with_fives(f);
    u64 sum[5] = {};
    sum_lanes(mul(with_h(c, load_blocks(m)), f), sum);
    from26(sum, c->core.h);
}

void blocks_simd(Ctx* c, const std::uint8_t* m, std::size_t groups) noexcept {
    if (groups >= 2) blocks_2x(c, m, groups / 2);
    if (groups % 2) blocks_1x(c, m + (groups - 1) * 32);
}

}  // namespace

void poly1305_blocks_avx(Poly1305Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept {
    if (nblocks >= 2) {
        if (!c->powers_ready) compute_powers(c);
        blocks_simd(c, data, nblocks / 2);
        data += nblocks / 2 * 32;
        nblocks %= 2;
    }
    poly1305_core_blocks(&c->core, data, nblocks, 1);
}

}  // namespace fputune::mac
