// SPDX-License-Identifier: MIT
// Poly1305 with AVX-512 IFMA: eight blocks per zmm step in base 2^44 (three limbs), 52-bit multiply-adds
// (vpmadd52luq/huq), r^1..r^16 computed on first use. Requires AVX-512F and AVX-512IFMA.
// Same lane scheme as the avx512 variant; each product's low 52 bits and high bits are accumulated
// separately and the high parts shifted into the next limb (2^52 = 2^44 * 2^8). Two accumulators take
// alternate 128-byte groups (step r^16), so two independent multiply-and-carry chains overlap.
#include <immintrin.h>

#include <cstring>

#include "mac.hpp"

namespace fputune::mac {

namespace {

using u64 = std::uint64_t;
using u128 = unsigned __int128;
constexpr u64 kMask26 = (u64{1} << 26) - 1;
constexpr u64 kMask44 = (u64{1} << 44) - 1;
constexpr u64 kMask42 = (u64{1} << 42) - 1;
constexpr int kPowers = 16;

using Ctx = Poly1305Ctx;
static_assert(kPowers * 3 <= sizeof(Ctx::pw) / sizeof(u64));
// r^(k+1) at pw(c)[k], each limb carried
inline u64 (*pw(Ctx* c))[3] { return reinterpret_cast<u64 (*)[3]>(c->pw); }
inline const u64 (*pw(const Ctx* c))[3] { return reinterpret_cast<const u64 (*)[3]>(c->pw); }

void to44(const u64 h[3], u64 out[3]) noexcept {
    out[0] = h[0] & kMask44;
    out[1] = ((h[0] >> 44) | (h[1] << 20)) & kMask44;
    out[2] = (h[1] >> 24) | (h[2] << 40);
}

void partial_reduce(u128 lo, u64 top, u64 h[3]) noexcept {
    // lo = bits 0..127, top = bits 128 and up; fold 2^130 as 5.
    const u64 c = (top >> 2) * 5;
    top &= 3;
    u128 t = static_cast<u128>(static_cast<u64>(lo)) + c;
    h[0] = static_cast<u64>(t);
    t = static_cast<u128>(static_cast<u64>(lo >> 64)) + static_cast<u64>(t >> 64);
    h[1] = static_cast<u64>(t);
    h[2] = top + static_cast<u64>(t >> 64);
}

// Limbs in base 2^44 of any size below 2^62 back to 64-bit limbs, partially reduced.
void from44(const u64 d[3], u64 h[3]) noexcept {
    u128 t = static_cast<u128>(d[0]) + (static_cast<u128>(d[1]) << 44);
    const u64 h0 = static_cast<u64>(t);
    t = (t >> 64) + (static_cast<u128>(d[2]) << 24);  // 2^88 = 2^64 * 2^24
    const u128 lo = (static_cast<u128>(static_cast<u64>(t)) << 64) | h0;
    partial_reduce(lo, static_cast<u64>(t >> 64), h);
}

// Scalar key powers via base 2^26 (only at setup).
void mul26(const u64 a[5], const u64 b[5], u64 out[5]) noexcept {
    const u64 s1 = b[1] * 5, s2 = b[2] * 5, s3 = b[3] * 5, s4 = b[4] * 5;
    u64 d[5];
    d[0] = a[0] * b[0] + a[1] * s4 + a[2] * s3 + a[3] * s2 + a[4] * s1;
    d[1] = a[0] * b[1] + a[1] * b[0] + a[2] * s4 + a[3] * s3 + a[4] * s2;
    d[2] = a[0] * b[2] + a[1] * b[1] + a[2] * b[0] + a[3] * s4 + a[4] * s3;
    d[3] = a[0] * b[3] + a[1] * b[2] + a[2] * b[1] + a[3] * b[0] + a[4] * s4;
    d[4] = a[0] * b[4] + a[1] * b[3] + a[2] * b[2] + a[3] * b[1] + a[4] * b[0];
    for (int pass = 0; pass < 2; ++pass) {
        for (int i = 0; i < 4; ++i) {
            d[i + 1] += d[i] >> 26;
            d[i] &= kMask26;
        }
        d[0] += (d[4] >> 26) * 5;
        d[4] &= kMask26;
    }
    for (int i = 0; i < 5; ++i) out[i] = d[i];
}

void compute_powers(Ctx* c) noexcept {
    u64 p26[kPowers][5];
    const u64 r = c->core.r[0], r1 = c->core.r[1];
    p26[0][0] = r & kMask26;
    p26[0][1] = (r >> 26) & kMask26;
    p26[0][2] = ((r >> 52) | (r1 << 12)) & kMask26;
    p26[0][3] = (r1 >> 14) & kMask26;
    p26[0][4] = r1 >> 40;
    for (int k = 1; k < kPowers; ++k) mul26(p26[k - 1], p26[0], p26[k]);
    for (int k = 0; k < kPowers; ++k) {
        u128 t = static_cast<u128>(p26[k][0]) + (static_cast<u128>(p26[k][1]) << 26) +
                 (static_cast<u128>(p26[k][2]) << 52);
        const u64 h0 = static_cast<u64>(t);
        t = (t >> 64) + (static_cast<u128>(p26[k][3]) << 14) + (static_cast<u128>(p26[k][4]) << 40);
        u64 h[3];
        partial_reduce((static_cast<u128>(static_cast<u64>(t)) << 64) | h0, static_cast<u64>(t >> 64), h);
        to44(h, pw(c)[k]);
    }
    c->powers_ready = 1;
}

struct V3 {
    __m512i v[3];
};

// d = h * r per lane, carried: limbs below 2^44, 2^44 + small, 2^42. s = 20 * r folds 2^132 = 4 * 2^130.
inline V3 mul(const V3& h, const V3& r, const V3& s) noexcept {
    const __m512i z = _mm512_setzero_si512();
    __m512i l0 = _mm512_madd52lo_epu64(z, h.v[0], r.v[0]);
    __m512i l1 = _mm512_madd52lo_epu64(z, h.v[0], r.v[1]);
    __m512i l2 = _mm512_madd52lo_epu64(z, h.v[0], r.v[2]);
    __m512i g0 = _mm512_madd52hi_epu64(z, h.v[0], r.v[0]);
    __m512i g1 = _mm512_madd52hi_epu64(z, h.v[0], r.v[1]);
    __m512i g2 = _mm512_madd52hi_epu64(z, h.v[0], r.v[2]);
    l0 = _mm512_madd52lo_epu64(l0, h.v[1], s.v[2]);
    l1 = _mm512_madd52lo_epu64(l1, h.v[1], r.v[0]);
    l2 = _mm512_madd52lo_epu64(l2, h.v[1], r.v[1]);
    g0 = _mm512_madd52hi_epu64(g0, h.v[1], s.v[2]);
    g1 = _mm512_madd52hi_epu64(g1, h.v[1], r.v[0]);
    g2 = _mm512_madd52hi_epu64(g2, h.v[1], r.v[1]);
    l0 = _mm512_madd52lo_epu64(l0, h.v[2], s.v[1]);
    l1 = _mm512_madd52lo_epu64(l1, h.v[2], s.v[2]);
    l2 = _mm512_madd52lo_epu64(l2, h.v[2], r.v[0]);
    g0 = _mm512_madd52hi_epu64(g0, h.v[2], s.v[1]);
    g1 = _mm512_madd52hi_epu64(g1, h.v[2], s.v[2]);
    g2 = _mm512_madd52hi_epu64(g2, h.v[2], r.v[0]);
    // High halves weigh 2^52 more than their limb: into the next limb shifted by 8; the top one weighs
    // 2^140 = 2^130 * 2^10, so it comes back to limb 0 times 5 * 2^10.
    const __m512i m44 = _mm512_set1_epi64(static_cast<long long>(kMask44));
    l1 = _mm512_add_epi64(l1, _mm512_slli_epi64(g0, 8));
    l2 = _mm512_add_epi64(l2, _mm512_slli_epi64(g1, 8));
    l0 = _mm512_add_epi64(l0, _mm512_add_epi64(_mm512_slli_epi64(g2, 10), _mm512_slli_epi64(g2, 12)));
    __m512i c = _mm512_srli_epi64(l0, 44);
    l0 = _mm512_and_si512(l0, m44);
    l1 = _mm512_add_epi64(l1, c);
    c = _mm512_srli_epi64(l1, 44);
    l1 = _mm512_and_si512(l1, m44);
    l2 = _mm512_add_epi64(l2, c);
    c = _mm512_srli_epi64(l2, 42);
    l2 = _mm512_and_si512(l2, _mm512_set1_epi64(static_cast<long long>(kMask42)));
    l0 = _mm512_add_epi64(l0, _mm512_add_epi64(c, _mm512_slli_epi64(c, 2)));
    c = _mm512_srli_epi64(l0, 44);
    l0 = _mm512_and_si512(l0, m44);
    l1 = _mm512_add_epi64(l1, c);
    V3 d;
    d.v[0] = l0;
    d.v[1] = l1;
    d.v[2] = l2;
    return d;
}

// Eight blocks into limbs; lanes hold blocks 0, 4, 1, 5, 2, 6, 3, 7 (the unpacks work per 128 bits).
inline V3 load_blocks(const std::uint8_t* p) noexcept {
    const __m512i m44 = _mm512_set1_epi64(static_cast<long long>(kMask44));
    const __m512i a = _mm512_loadu_si512(p);
    const __m512i b = _mm512_loadu_si512(p + 64);
    const __m512i lo = _mm512_unpacklo_epi64(a, b), hi = _mm512_unpackhi_epi64(a, b);
    V3 x;
    x.v[0] = _mm512_and_si512(lo, m44);
    x.v[1] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(lo, 44), _mm512_slli_epi64(hi, 20)), m44);
    x.v[2] = _mm512_or_si512(_mm512_srli_epi64(hi, 24), _mm512_set1_epi64(u64{1} << 40));  // 2^128 = 2^88 * 2^40
    return x;
}

// Lane j of a group holds block (0, 4, 1, 5, 2, 6, 3, 7)[j]; with `base` blocks after the group in the
// window, block p owes r^(base + 8 - p).
inline V3 owed(const Ctx* c, int base) noexcept {
    V3 f;
    for (int i = 0; i < 3; ++i) {
        auto p = [&](int k) { return static_cast<long long>(pw(c)[base + k - 1][i]); };
        f.v[i] = _mm512_set_epi64(p(1), p(5), p(2), p(6), p(3), p(7), p(4), p(8));
    }
    return f;
}

inline V3 times20(const V3& r) noexcept {
    V3 s;
    for (int i = 0; i < 3; ++i) s.v[i] = _mm512_add_epi64(_mm512_slli_epi64(r.v[i], 4), _mm512_slli_epi64(r.v[i], 2));
    return s;
}

inline V3 with_h(const Ctx* c, V3 x) noexcept {
    u64 h44[3];
    to44(c->core.h, h44);
    for (int i = 0; i < 3; ++i)
        x.v[i] = _mm512_add_epi64(x.v[i], _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, static_cast<long long>(h44[i])));
    return x;
}

inline void sum_lanes(const V3& d, u64 sum[3]) noexcept {
    for (int i = 0; i < 3; ++i) sum[i] += static_cast<u64>(_mm512_reduce_add_epi64(d.v[i]));
}

// 16 * pairs blocks: accumulator a takes the even 128-byte groups, b the odd ones.
void blocks_2x(Ctx* c, const std::uint8_t* m, std::size_t pairs) noexcept {
    V3 r;
    for (int i = 0; i < 3; ++i) r.v[i] = _mm512_set1_epi64(static_cast<long long>(pw(c)[15][i]));
    const V3 s = times20(r);
    V3 a = with_h(c, load_blocks(m)), b = load_blocks(m + 128);
    for (std::size_t k = 1; k < pairs; ++k) {
        m += 256;
        const V3 xa = load_blocks(m), xb = load_blocks(m + 128);
        const V3 da = mul(a, r, s), db = mul(b, r, s);
        for (int i = 0; i < 3; ++i) {
            a.v[i] = _mm512_add_epi64(da.v[i], xa.v[i]);
            b.v[i] = _mm512_add_epi64(db.v[i], xb.v[i]);
        }
    }
    const V3 fa = owed(c, 8), fb = owed(c, 0);
    u64 sum[3] = {};
    sum_lanes(mul(a, fa, times20(fa)), sum);
    sum_lanes(mul(b, fb, times20(fb)), sum);
    from44(sum, c->core.h);
}

// One group of eight blocks.
void blocks_1x(Ctx* c, const std::uint8_t* m) noexcept {
    const V3 f = owed(c, 0);
    u64 sum[3] = {};
    sum_lanes(mul(with_h(c, load_blocks(m)), f, times20(f)), sum);
    from44(sum, c->core.h);
}

void blocks_simd(Ctx* c, const std::uint8_t* m, std::size_t groups) noexcept {
    if (groups >= 2) blocks_2x(c, m, groups / 2);
    if (groups % 2) blocks_1x(c, m + (groups - 1) * 128);
}

}  // namespace

void poly1305_blocks_ifma(Poly1305Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept {
    if (nblocks >= 8) {
        if (!c->powers_ready) compute_powers(c);
        blocks_simd(c, data, nblocks / 8);
        data += nblocks / 8 * 128;
        nblocks %= 8;
    }
    poly1305_core_blocks(&c->core, data, nblocks, 1);
}

}  // namespace fputune::mac
