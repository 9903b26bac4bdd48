// SPDX-License-Identifier: MIT
// Poly1305 with AVX-512 IFMA: eight blocks per zmm step in base 2^44 (three limbs), 52-bit multiply-adds
// (vpmadd52luq/huq), two accumulators (step r^16), key powers r^1..r^16 computed on first use. Requires
// AVX-512F and AVX-512IFMA. The driver and the key powers are poly1305_body.hpp's; this file is the
// arithmetic in base 2^44: each product's low 52 bits and high bits are accumulated separately and the
// high parts shifted into the next limb (2^52 = 2^44 * 2^8).
#include <immintrin.h>

#include "poly1305_body.hpp"

namespace fputune::mac {
namespace {

constexpr u64 kMask44 = (u64{1} << 44) - 1;
constexpr u64 kMask42 = (u64{1} << 42) - 1;

void to44(const u64 h[3], u64 out[3]) noexcept {
    out[0] = h[0] & kMask44;
    out[1] = ((h[0] >> 44) | (h[1] << 20)) & kMask44;
    out[2] = (h[1] >> 24) | (h[2] << 40);
}

struct Base44 {
    using V = __m512i;
    static constexpr int kLanes = 8, kChains = 2, kLimbs = 3;
    struct Num {
        V v[3];
    };
    struct Mult {
        V r[3], s[3];  // s = 20 * r folds 2^132 = 4 * 2^130 back
    };

    // r^(k+1) at pw[3k..3k+2]: computed in base 2^26 (poly1305_body.hpp), then converted.
    static void compute_powers(Poly1305Ctx* c) noexcept {
        constexpr int n = kLanes * kChains;
        u64 p26[5 * n];
        powers_base26(c->core.r, p26, n);
        for (int k = 0; k < n; ++k) {
            u64 h[3];
            from26(p26 + 5 * k, h);
            to44(h, c->pw + 3 * k);
        }
    }
    static Mult with_twenties(Mult m) noexcept {
        for (int i = 0; i < 3; ++i)
            m.s[i] = _mm512_add_epi64(_mm512_slli_epi64(m.r[i], 4), _mm512_slli_epi64(m.r[i], 2));
        return m;
    }
    static Mult broadcast(const Poly1305Ctx* c, int k) noexcept {
        Mult m;
        for (int i = 0; i < 3; ++i) m.r[i] = _mm512_set1_epi64(static_cast<long long>(c->pw[3 * (k - 1) + i]));
        return with_twenties(m);
    }
    static Mult owed(const Poly1305Ctx* c, const int (&k)[kLanes]) noexcept {
        alignas(64) u64 lanes[3][kLanes];
        gather_powers(c, k, lanes);
        Mult m;
        for (int i = 0; i < 3; ++i) m.r[i] = _mm512_load_si512(lanes[i]);
        return with_twenties(m);
    }

    static Num load(const std::uint8_t* p) noexcept {
        const __m512i m44 = _mm512_set1_epi64(static_cast<long long>(kMask44));
        const __m512i a = _mm512_loadu_si512(p);
        const __m512i b = _mm512_loadu_si512(p + 64);
        const __m512i lo = _mm512_unpacklo_epi64(a, b), hi = _mm512_unpackhi_epi64(a, b);
        Num x;
        x.v[0] = _mm512_and_si512(lo, m44);
        x.v[1] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(lo, 44), _mm512_slli_epi64(hi, 20)), m44);
        x.v[2] = _mm512_or_si512(_mm512_srli_epi64(hi, 24), _mm512_set1_epi64(u64{1} << 40));  // 2^128 = 2^88 * 2^40
        return x;
    }
    static Num add_h(Num x, const u64 h[3]) noexcept {
        u64 h44[3];
        to44(h, h44);
        for (int i = 0; i < 3; ++i)
            x.v[i] = _mm512_add_epi64(x.v[i], _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, static_cast<long long>(h44[i])));
        return x;
    }
    static Num add(const Num& a, const Num& b) noexcept {
        Num x;
        for (int i = 0; i < 3; ++i) x.v[i] = _mm512_add_epi64(a.v[i], b.v[i]);
        return x;
    }

    // d = h * r per lane, carried: limbs below 2^44, 2^44 + small, 2^42.
    static Num step(const Num& h, const Mult& m) noexcept {
        const V* r = m.r;
        const V* s = m.s;
        // Limb k of the product takes h[j] times r[k - j], or times s[k - j + 3] where that wraps past
        // limb 2; low 52 bits into l, high bits into g.
        __m512i l[3], g[3];
        for (int k = 0; k < 3; ++k) l[k] = g[k] = _mm512_setzero_si512();
#pragma GCC unroll 3
        for (int j = 0; j < 3; ++j) {
#pragma GCC unroll 3
            for (int k = 0; k < 3; ++k) l[k] = _mm512_madd52lo_epu64(l[k], h.v[j], j > k ? s[k - j + 3] : r[k - j]);
#pragma GCC unroll 3
            for (int k = 0; k < 3; ++k) g[k] = _mm512_madd52hi_epu64(g[k], h.v[j], j > k ? s[k - j + 3] : r[k - j]);
        }
        __m512i l0 = l[0], l1 = l[1], l2 = l[2];
        const __m512i g0 = g[0], g1 = g[1], g2 = g[2];
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
        return Num{{l0, l1, l2}};
    }
    static Num last(const Num& h, const Mult& f) noexcept { return step(h, f); }
    static void sum_lanes(const Num& d, u64 sum[3]) noexcept {
        for (int i = 0; i < 3; ++i) sum[i] += static_cast<u64>(_mm512_reduce_add_epi64(d.v[i]));
    }
    // Limbs in base 2^44 of any size below 2^62 back to 64-bit limbs, partially reduced.
    static void from_sum(const u64 d[3], u64 h[3]) noexcept {
        u128 t = static_cast<u128>(d[0]) + (static_cast<u128>(d[1]) << 44);
        const u64 h0 = static_cast<u64>(t);
        t = (t >> 64) + (static_cast<u128>(d[2]) << 24);  // 2^88 = 2^64 * 2^24
        fold_top((static_cast<u128>(static_cast<u64>(t)) << 64) | h0, static_cast<u64>(t >> 64), h);
    }
};

}  // namespace

void poly1305_blocks_ifma(Poly1305Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept {
    poly1305_blocks_body<Base44>(c, data, nblocks);
}

}  // namespace fputune::mac
