// SPDX-License-Identifier: MIT
// Poly1305 with AVX-512F: eight blocks per step in base 2^26 (vpmuludq on zmm), r^1..r^8 computed on
// first use. Requires AVX-512F. Eight lanes each absorb every eighth block times r^8; at the end lane j is
// multiplied by the power of r its last block still owes and the lanes are summed.
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
    __m512i v[5];
};

// d = h * r (each lane), not carried. s[i] = 5 * r[i] folds the limbs above 2^130 back.
inline V5 mul(const V5& h, const V5& r, const V5& s) noexcept {
    V5 d;
    d.v[0] = _mm512_add_epi64(
        _mm512_add_epi64(_mm512_add_epi64(_mm512_mul_epu32(h.v[0], r.v[0]), _mm512_mul_epu32(h.v[1], s.v[4])),
                         _mm512_add_epi64(_mm512_mul_epu32(h.v[2], s.v[3]), _mm512_mul_epu32(h.v[3], s.v[2]))),
        _mm512_mul_epu32(h.v[4], s.v[1]));
    d.v[1] = _mm512_add_epi64(
        _mm512_add_epi64(_mm512_add_epi64(_mm512_mul_epu32(h.v[0], r.v[1]), _mm512_mul_epu32(h.v[1], r.v[0])),
                         _mm512_add_epi64(_mm512_mul_epu32(h.v[2], s.v[4]), _mm512_mul_epu32(h.v[3], s.v[3]))),
        _mm512_mul_epu32(h.v[4], s.v[2]));
    d.v[2] = _mm512_add_epi64(
        _mm512_add_epi64(_mm512_add_epi64(_mm512_mul_epu32(h.v[0], r.v[2]), _mm512_mul_epu32(h.v[1], r.v[1])),
                         _mm512_add_epi64(_mm512_mul_epu32(h.v[2], r.v[0]), _mm512_mul_epu32(h.v[3], s.v[4]))),
        _mm512_mul_epu32(h.v[4], s.v[3]));
    d.v[3] = _mm512_add_epi64(
        _mm512_add_epi64(_mm512_add_epi64(_mm512_mul_epu32(h.v[0], r.v[3]), _mm512_mul_epu32(h.v[1], r.v[2])),
                         _mm512_add_epi64(_mm512_mul_epu32(h.v[2], r.v[1]), _mm512_mul_epu32(h.v[3], r.v[0]))),
        _mm512_mul_epu32(h.v[4], s.v[4]));
    d.v[4] = _mm512_add_epi64(
        _mm512_add_epi64(_mm512_add_epi64(_mm512_mul_epu32(h.v[0], r.v[4]), _mm512_mul_epu32(h.v[1], r.v[3])),
                         _mm512_add_epi64(_mm512_mul_epu32(h.v[2], r.v[2]), _mm512_mul_epu32(h.v[3], r.v[1]))),
        _mm512_mul_epu32(h.v[4], r.v[0]));
    return d;
}

// Two interleaved carry chains; afterwards every limb is below 2^26 + 2^6 or so.
inline void carry(V5& d) noexcept {
    const __m512i m = _mm512_set1_epi64(kMask26);
    __m512i c0 = _mm512_srli_epi64(d.v[0], 26), c3 = _mm512_srli_epi64(d.v[3], 26);
    d.v[0] = _mm512_and_si512(d.v[0], m);
    d.v[3] = _mm512_and_si512(d.v[3], m);
    d.v[1] = _mm512_add_epi64(d.v[1], c0);
    d.v[4] = _mm512_add_epi64(d.v[4], c3);
    __m512i c1 = _mm512_srli_epi64(d.v[1], 26), c4 = _mm512_srli_epi64(d.v[4], 26);
    d.v[1] = _mm512_and_si512(d.v[1], m);
    d.v[4] = _mm512_and_si512(d.v[4], m);
    d.v[2] = _mm512_add_epi64(d.v[2], c1);
    d.v[0] = _mm512_add_epi64(d.v[0], _mm512_add_epi64(c4, _mm512_slli_epi64(c4, 2)));
    __m512i c2 = _mm512_srli_epi64(d.v[2], 26);
    c0 = _mm512_srli_epi64(d.v[0], 26);
    d.v[2] = _mm512_and_si512(d.v[2], m);
    d.v[0] = _mm512_and_si512(d.v[0], m);
    d.v[3] = _mm512_add_epi64(d.v[3], c2);
    d.v[1] = _mm512_add_epi64(d.v[1], c0);
    c3 = _mm512_srli_epi64(d.v[3], 26);
    d.v[3] = _mm512_and_si512(d.v[3], m);
    d.v[4] = _mm512_add_epi64(d.v[4], c3);
}

// Eight blocks into limbs. The unpacks work per 128-bit lane: lanes hold blocks 0, 4, 1, 5, 2, 6, 3, 7.
inline V5 load_blocks(const std::uint8_t* p) noexcept {
    const __m512i m = _mm512_set1_epi64(kMask26);
    const __m512i a = _mm512_loadu_si512(reinterpret_cast<const __m512i*>(p));
    const __m512i b = _mm512_loadu_si512(reinterpret_cast<const __m512i*>(p + 64));
    const __m512i lo = _mm512_unpacklo_epi64(a, b), hi = _mm512_unpackhi_epi64(a, b);
    V5 x;
    x.v[0] = _mm512_and_si512(lo, m);
    x.v[1] = _mm512_and_si512(_mm512_srli_epi64(lo, 26), m);
    x.v[2] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(lo, 52), _mm512_slli_epi64(hi, 12)), m);
    x.v[3] = _mm512_and_si512(_mm512_srli_epi64(hi, 14), m);
    x.v[4] = _mm512_or_si512(_mm512_srli_epi64(hi, 40), _mm512_set1_epi64(1 << 24));  // the 2^128 pad bit
    return x;
}

inline V5 add(const V5& a, const V5& b) noexcept {
    V5 x;
    for (int i = 0; i < 5; ++i) x.v[i] = _mm512_add_epi64(a.v[i], b.v[i]);
    return x;
}

void blocks_simd(Ctx* c, const std::uint8_t* m, std::size_t groups) noexcept {
    V5 r, s, fr, fs;
    for (int i = 0; i < 5; ++i) {
        r.v[i] = _mm512_set1_epi64(static_cast<long long>(pw(c)[7][i]));
        s.v[i] = _mm512_add_epi64(r.v[i], _mm512_slli_epi64(r.v[i], 2));
        // Lanes hold blocks 0, 4, 1, 5, 2, 6, 3, 7 of each group: block b still owes r^(8-b).
        auto p = [&](int k) { return static_cast<long long>(pw(c)[k - 1][i]); };
        fr.v[i] = _mm512_set_epi64(p(1), p(5), p(2), p(6), p(3), p(7), p(4), p(8));
        fs.v[i] = _mm512_add_epi64(fr.v[i], _mm512_slli_epi64(fr.v[i], 2));
    }
    u64 h26[5];
    to26(c->core.h, h26);
    V5 h0;
    for (int i = 0; i < 5; ++i) h0.v[i] = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, static_cast<long long>(h26[i]));
    V5 h = add(load_blocks(m), h0);
    for (std::size_t g = 1; g < groups; ++g) {
        m += 128;
        V5 d = mul(h, r, s);
        carry(d);
        h = add(d, load_blocks(m));
    }
    const V5 d = mul(h, fr, fs);
    u64 sum[5];
    for (int i = 0; i < 5; ++i) {
        sum[i] = static_cast<u64>(_mm512_reduce_add_epi64(d.v[i]));
    }
    from26(sum, c->core.h);
}

}  // namespace

void poly1305_blocks_avx512(Poly1305Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept {
    if (nblocks >= 8) {
        if (!c->powers_ready) compute_powers(c);
        blocks_simd(c, data, nblocks / 8);
        data += nblocks / 8 * 128;
        nblocks %= 8;
    }
    poly1305_core_blocks(&c->core, data, nblocks, 1);
}

}  // namespace fputune::mac
