// SPDX-License-Identifier: MIT
// Poly1305 with AVX2: four blocks per ymm step in base 2^26 (vpmuludq), key powers r^1..r^8 computed on
// first use. Requires AVX2. Four lanes each absorb every fourth block; at the end lane j is multiplied by
// the power of r its last block still owes and the lanes are summed (Goll-Gueron, as in the kernel's avx2
// code). Two such accumulators take alternate 64-byte groups (step r^8): one step is a chain of dependent
// multiplies and carries, and two independent chains keep the vector units busy.
#include <immintrin.h>

#include <cassert>
#include <cstring>

#include "mac.hpp"
#include "poly1305_base26.hpp"

namespace fputune::mac {

namespace {

constexpr int kPowers = 8;

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
    __m256i v[5];
};

// d = h * r (each lane), not carried. rs holds r0..r4 then 5*r1..5*r4 (s folds limbs above 2^130 back);
// it stays in memory so the loop needs few of the sixteen ymm registers and spills nothing.
inline V5 mul(const V5& h, const __m256i* rs) noexcept {
    const __m256i* r = rs;
    const __m256i* s = rs + 4;  // s[i] = 5 * r[i] for i = 1..4
    V5 d;
    d.v[0] = _mm256_mul_epu32(h.v[0], r[0]);
    d.v[1] = _mm256_mul_epu32(h.v[0], r[1]);
    d.v[2] = _mm256_mul_epu32(h.v[0], r[2]);
    d.v[3] = _mm256_mul_epu32(h.v[0], r[3]);
    d.v[4] = _mm256_mul_epu32(h.v[0], r[4]);
    d.v[0] = _mm256_add_epi64(d.v[0], _mm256_mul_epu32(h.v[1], s[4]));
    d.v[1] = _mm256_add_epi64(d.v[1], _mm256_mul_epu32(h.v[1], r[0]));
    d.v[2] = _mm256_add_epi64(d.v[2], _mm256_mul_epu32(h.v[1], r[1]));
    d.v[3] = _mm256_add_epi64(d.v[3], _mm256_mul_epu32(h.v[1], r[2]));
    d.v[4] = _mm256_add_epi64(d.v[4], _mm256_mul_epu32(h.v[1], r[3]));
    d.v[0] = _mm256_add_epi64(d.v[0], _mm256_mul_epu32(h.v[2], s[3]));
    d.v[1] = _mm256_add_epi64(d.v[1], _mm256_mul_epu32(h.v[2], s[4]));
    d.v[2] = _mm256_add_epi64(d.v[2], _mm256_mul_epu32(h.v[2], r[0]));
    d.v[3] = _mm256_add_epi64(d.v[3], _mm256_mul_epu32(h.v[2], r[1]));
    d.v[4] = _mm256_add_epi64(d.v[4], _mm256_mul_epu32(h.v[2], r[2]));
    d.v[0] = _mm256_add_epi64(d.v[0], _mm256_mul_epu32(h.v[3], s[2]));
    d.v[1] = _mm256_add_epi64(d.v[1], _mm256_mul_epu32(h.v[3], s[3]));
    d.v[2] = _mm256_add_epi64(d.v[2], _mm256_mul_epu32(h.v[3], s[4]));
    d.v[3] = _mm256_add_epi64(d.v[3], _mm256_mul_epu32(h.v[3], r[0]));
    d.v[4] = _mm256_add_epi64(d.v[4], _mm256_mul_epu32(h.v[3], r[1]));
    d.v[0] = _mm256_add_epi64(d.v[0], _mm256_mul_epu32(h.v[4], s[1]));
    d.v[1] = _mm256_add_epi64(d.v[1], _mm256_mul_epu32(h.v[4], s[2]));
    d.v[2] = _mm256_add_epi64(d.v[2], _mm256_mul_epu32(h.v[4], s[3]));
    d.v[3] = _mm256_add_epi64(d.v[3], _mm256_mul_epu32(h.v[4], s[4]));
    d.v[4] = _mm256_add_epi64(d.v[4], _mm256_mul_epu32(h.v[4], r[0]));
    return d;
}

// Two interleaved carry chains; afterwards every limb is below 2^26 + 2^6 or so.
inline void carry(V5& d) noexcept {
    const __m256i m = _mm256_set1_epi64x(kMask26);
    __m256i c0 = _mm256_srli_epi64(d.v[0], 26), c3 = _mm256_srli_epi64(d.v[3], 26);
    d.v[0] = _mm256_and_si256(d.v[0], m);
    d.v[3] = _mm256_and_si256(d.v[3], m);
    d.v[1] = _mm256_add_epi64(d.v[1], c0);
    d.v[4] = _mm256_add_epi64(d.v[4], c3);
    __m256i c1 = _mm256_srli_epi64(d.v[1], 26), c4 = _mm256_srli_epi64(d.v[4], 26);
    d.v[1] = _mm256_and_si256(d.v[1], m);
    d.v[4] = _mm256_and_si256(d.v[4], m);
    d.v[2] = _mm256_add_epi64(d.v[2], c1);
    d.v[0] = _mm256_add_epi64(d.v[0], _mm256_add_epi64(c4, _mm256_slli_epi64(c4, 2)));
    __m256i c2 = _mm256_srli_epi64(d.v[2], 26);
    c0 = _mm256_srli_epi64(d.v[0], 26);
    d.v[2] = _mm256_and_si256(d.v[2], m);
    d.v[0] = _mm256_and_si256(d.v[0], m);
    d.v[3] = _mm256_add_epi64(d.v[3], c2);
    d.v[1] = _mm256_add_epi64(d.v[1], c0);
    c3 = _mm256_srli_epi64(d.v[3], 26);
    d.v[3] = _mm256_and_si256(d.v[3], m);
    d.v[4] = _mm256_add_epi64(d.v[4], c3);
}

// Four blocks into limbs. Lane order after the unpacks is blocks 0, 2, 1, 3.
inline V5 load_blocks(const std::uint8_t* p) noexcept {
    const __m256i m = _mm256_set1_epi64x(kMask26);
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32));
    const __m256i lo = _mm256_unpacklo_epi64(a, b), hi = _mm256_unpackhi_epi64(a, b);
    V5 x;
    x.v[0] = _mm256_and_si256(lo, m);
    x.v[1] = _mm256_and_si256(_mm256_srli_epi64(lo, 26), m);
    x.v[2] = _mm256_and_si256(_mm256_or_si256(_mm256_srli_epi64(lo, 52), _mm256_slli_epi64(hi, 12)), m);
    x.v[3] = _mm256_and_si256(_mm256_srli_epi64(hi, 14), m);
    x.v[4] = _mm256_or_si256(_mm256_srli_epi64(hi, 40), _mm256_set1_epi64x(1 << 24));  // the 2^128 pad bit
    return x;
}

inline V5 add(const V5& a, const V5& b) noexcept {
    V5 x;
    for (int i = 0; i < 5; ++i) x.v[i] = _mm256_add_epi64(a.v[i], b.v[i]);
    return x;
}

inline __m256i lanes4(const Ctx* c, int i, int k0, int k1, int k2, int k3) noexcept {
    return _mm256_set_epi64x(static_cast<long long>(pw(c)[k3 - 1][i]), static_cast<long long>(pw(c)[k2 - 1][i]),
                             static_cast<long long>(pw(c)[k1 - 1][i]), static_cast<long long>(pw(c)[k0 - 1][i]));
}

// Five limbs then 5x limbs 1..4, the layout mul() reads.
inline void with_fives(__m256i* rs) noexcept {
    for (int i = 1; i < 5; ++i) rs[4 + i] = _mm256_add_epi64(rs[i], _mm256_slli_epi64(rs[i], 2));
}

inline void sum_lanes(const V5& d, u64 sum[5]) noexcept {
    for (int i = 0; i < 5; ++i) {
        alignas(32) u64 lanes[4];
        _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), d.v[i]);
        sum[i] += lanes[0] + lanes[1] + lanes[2] + lanes[3];
    }
}

inline V5 with_h(const Ctx* c, const V5& x) noexcept {
    u64 h26[5];
    to26(c->core.h, h26);
    V5 h;
    for (int i = 0; i < 5; ++i) h.v[i] = _mm256_add_epi64(x.v[i], _mm256_set_epi64x(0, 0, 0, static_cast<long long>(h26[i])));
    return h;
}

// 8 * pairs blocks: accumulator a takes the even 64-byte groups, b the odd ones.
void blocks_2x(Ctx* c, const std::uint8_t* m, std::size_t pairs) noexcept {
    __m256i rs[9], fa[9], fb[9];
    for (int i = 0; i < 5; ++i) {
        rs[i] = _mm256_set1_epi64x(static_cast<long long>(pw(c)[7][i]));
        // Lanes hold blocks 0, 2, 1, 3 of a group; in a window of 8 blocks, block p still owes r^(8-p).
        fa[i] = lanes4(c, i, 8, 6, 7, 5);
        fb[i] = lanes4(c, i, 4, 2, 3, 1);
    }
    with_fives(rs);
    with_fives(fa);
    with_fives(fb);
    V5 a = with_h(c, load_blocks(m)), b = load_blocks(m + 64);
    for (std::size_t k = 1; k < pairs; ++k) {
        m += 128;
        V5 d = mul(a, rs);
        carry(d);
        a = add(d, load_blocks(m));
        d = mul(b, rs);
        carry(d);
        b = add(d, load_blocks(m + 64));
    }
    u64 sum[5] = {};
    sum_lanes(mul(a, fa), sum);
    sum_lanes(mul(b, fb), sum);
    from26(sum, c->core.h);
}

// One group of four blocks.
void blocks_1x(Ctx* c, const std::uint8_t* m) noexcept {
    __m256i f[9];
    for (int i = 0; i < 5; ++i) f[i] = lanes4(c, i, 4, 2, 3, 1);
    with_fives(f);
    u64 sum[5] = {};
    sum_lanes(mul(with_h(c, load_blocks(m)), f), sum);
    from26(sum, c->core.h);
}

void blocks_simd(Ctx* c, const std::uint8_t* m, std::size_t groups) noexcept {
    if (groups >= 2) blocks_2x(c, m, groups / 2);
    if (groups % 2) blocks_1x(c, m + (groups - 1) * 64);
}

}  // namespace

void poly1305_blocks_avx2(Poly1305Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept {
    if (nblocks >= 4) {
        if (!c->powers_ready) compute_powers(c);
        blocks_simd(c, data, nblocks / 4);
        data += nblocks / 4 * 64;
        nblocks %= 4;
    }
    poly1305_core_blocks(&c->core, data, nblocks, 1);
}

}  // namespace fputune::mac
