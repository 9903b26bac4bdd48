// SPDX-License-Identifier: MIT
// Poly1305 in vector lanes, written once: the driver (poly1305_blocks_body) over a limb arithmetic R, and
// the base-2^26 arithmetic (Base26<T>) over a width's traits T. Included by the SIMD files, which supply T
// (poly1305_avx.cpp: xmm, poly1305_avx2.cpp: ymm, poly1305_avx512.cpp: zmm) or their own R (poly1305_ifma.cpp:
// base 2^44), and are compiled with their own flags. Everything is in an anonymous namespace, so each file
// keeps its own copy and the linker never has to pick one (docs/design.md, "ISA files").
//
// Lanes: each of kLanes 64-bit lanes absorbs every kLanes-th block (times r^kLanes per step). kChains
// independent accumulators take alternate groups of kLanes blocks (step r^(kLanes * kChains)), so that
// their chains of dependent multiplies and carries overlap. At the end each lane is multiplied by the
// power of r its last block still owes and the lanes are summed (Goll-Gueron, as in the kernel's code).
#pragma once

#include <cstddef>
#include <cstdint>

#include "mac.hpp"

namespace fputune::mac {
namespace {

using u64 = std::uint64_t;
using u128 = unsigned __int128;
constexpr u64 kMask26 = (u64{1} << 26) - 1;

// ---- scalar helpers (setup and the end of a call only) ----------------------------------------------

// h = lo + top * 2^128, partially reduced: 2^130 folds back as 5 (h2 < 8).
void fold_top(u128 lo, u64 top, u64 h[3]) noexcept {
    const u64 c = (top >> 2) * 5;
    u128 t = static_cast<u128>(static_cast<u64>(lo)) + c;
    h[0] = static_cast<u64>(t);
    t = static_cast<u128>(static_cast<u64>(lo >> 64)) + static_cast<u64>(t >> 64);
    h[1] = static_cast<u64>(t);
    h[2] = (top & 3) + static_cast<u64>(t >> 64);
}

void to26(const u64 h[3], u64 out[5]) noexcept {
    out[0] = h[0] & kMask26;
    out[1] = (h[0] >> 26) & kMask26;
    out[2] = ((h[0] >> 52) | (h[1] << 12)) & kMask26;
    out[3] = (h[1] >> 14) & kMask26;
    out[4] = (h[1] >> 40) | (h[2] << 24);
}

// Limbs of any size below 2^62 (lane sums) back to 64-bit limbs, partially reduced.
void from26(const u64 d[5], u64 h[3]) noexcept {
    u128 t = static_cast<u128>(d[0]) + (static_cast<u128>(d[1]) << 26) + (static_cast<u128>(d[2]) << 52);
    const u64 h0 = static_cast<u64>(t);
    t = (t >> 64) + (static_cast<u128>(d[3]) << 14) + (static_cast<u128>(d[4]) << 40);
    fold_top((static_cast<u128>(static_cast<u64>(t)) << 64) | h0, static_cast<u64>(t >> 64), h);
}

// a * b mod 2^130-5 in base 2^26, carried (scalar: only for the key powers).
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

// r^1 .. r^n in base 2^26, carried, from the clamped key r (two 64-bit limbs): pw[5k..5k+4] = r^(k+1).
void powers_base26(const u64 r64[2], u64* pw, int n) noexcept {
    const u64 r[3] = {r64[0], r64[1], 0};
    to26(r, pw);
    for (int k = 1; k < n; ++k) mul26(pw + 5 * (k - 1), pw, pw + 5 * k);
}

// Limb i of r^k[l] into lanes[i][l], for a vector of per-lane powers (pw holds kLimbs limbs per power).
template <int kLimbs, int kLanes>
void gather_powers(const Poly1305Ctx* c, const int (&k)[kLanes], u64 (&lanes)[kLimbs][kLanes]) noexcept {
    for (int i = 0; i < kLimbs; ++i)
        for (int l = 0; l < kLanes; ++l) lanes[i][l] = c->pw[kLimbs * (k[l] - 1) + i];
}

// The block in 64-bit lane l of a vector loaded by R::load: the loads take kLanes/2 blocks each and the
// unpacks pair them per 128 bits, so lanes hold blocks 0, kLanes/2, 1, kLanes/2 + 1, ...
constexpr int lane_block(int lanes, int l) { return l % 2 ? lanes / 2 + l / 2 : l / 2; }

// ---- the driver ----------------------------------------------------------------------------------
// R: using Num (an accumulator: kLanes lanes of limbs), Mult (a multiplier per lane, with whatever
// multiples its product needs); kLanes, kChains; the key powers r^1..r^(kLanes * kChains) in
// compute_powers(c); broadcast(c, k) (r^k in every lane); owed(c, k[]) (r^k[l] in lane l); load(p)
// (kLanes blocks, lanes as lane_block says, with the 2^128 pad bit); add_h(x, h) (h into lane 0);
// add; step(h, r) (h * r, carried enough to take the next blocks); last(h, f) (h * f, ready to sum);
// sum_lanes(h, sum) (sum[limb] += all lanes); from_sum(sum, h) (back to 64-bit limbs).

// steps * kChains groups of kLanes blocks with kChains accumulators, then h = the result.
template <class R, int Chains>
void absorb_groups(Poly1305Ctx* c, const std::uint8_t* m, std::size_t steps) noexcept {
    constexpr int kLanes = R::kLanes, kWindow = Chains * kLanes;
    const typename R::Mult r = R::broadcast(c, kWindow);
    // The powers each lane still owes at the end, read before the chain starts (as the per-width copies
    // did): read after it, they added their load latency to short requests (poly1305-avx512, 256 bytes).
    typename R::Mult f[Chains];
#pragma GCC unroll 4
    for (int j = 0; j < Chains; ++j) {
        // In a window of kWindow blocks, block b of chain j's group still owes r^(kWindow - j * kLanes - b).
        int owed[kLanes];
        for (int l = 0; l < kLanes; ++l) owed[l] = kWindow - j * kLanes - lane_block(kLanes, l);
        f[j] = R::owed(c, owed);
    }
    typename R::Num acc[Chains];
    acc[0] = R::add_h(R::load(m), c->core.h);
#pragma GCC unroll 4
    for (int j = 1; j < Chains; ++j) acc[j] = R::load(m + 16 * kLanes * j);
    for (std::size_t k = 1; k < steps; ++k) {
        m += 16 * kWindow;
#pragma GCC unroll 4
        for (int j = 0; j < Chains; ++j) {
            const typename R::Num d = R::step(acc[j], r);  // before the loads: they wait in no register
            acc[j] = R::add(d, R::load(m + 16 * kLanes * j));
        }
    }
    u64 sum[R::kLimbs] = {};
#pragma GCC unroll 4
    for (int j = 0; j < Chains; ++j) R::sum_lanes(R::last(acc[j], f[j]), sum);
    R::from_sum(sum, c->core.h);
}

// 2 * pairs groups of kLanes blocks with one accumulator that takes two groups per carry, as cryptogams'
// xmm code (the kernel's poly1305_blocks_avx) does: acc = carry(acc * r^2W + G1 * r^W) + G2, W = kLanes.
// The two products are summed uncarried (limbs below 2^59), which saves one carry chain per two groups;
// for xmm, where carrying costs as much as a third of the multiply, that is the difference (R::kPairs).
template <class R>
void absorb_pairs(Poly1305Ctx* c, const std::uint8_t* m, std::size_t pairs) noexcept {
    constexpr int kLanes = R::kLanes;
    const typename R::Mult r1 = R::broadcast(c, kLanes), r2 = R::broadcast(c, 2 * kLanes);
    int owed[kLanes];
    for (int l = 0; l < kLanes; ++l) owed[l] = kLanes - lane_block(kLanes, l);
    const typename R::Mult f = R::owed(c, owed);
    typename R::Num acc = R::add_h(R::load(m), c->core.h);
    m += 16 * kLanes;
    for (std::size_t k = 1; k < pairs; ++k, m += 32 * kLanes) {
        const typename R::Num d = R::add(R::mul(acc, r2), R::mul(R::load(m), r1));
        acc = R::add(R::carry(d), R::load(m + 16 * kLanes));
    }
    acc = R::add(R::step(acc, r1), R::load(m));  // the last group
    u64 sum[R::kLimbs] = {};
    R::sum_lanes(R::last(acc, f), sum);
    R::from_sum(sum, c->core.h);
}

// Whether R takes two groups per carry (absorb_pairs): R::kPairs where R says.
template <class R>
constexpr bool pairs_of() {
    if constexpr (requires { R::kPairs; })
        return R::kPairs;
    else
        return false;
}

// The entry point of a SIMD file: whole blocks in vectors while at least kLanes remain, the rest with
// the scalar core. Key powers are computed by the first call that goes vector.
template <class R>
void poly1305_blocks_body(Poly1305Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept {
    constexpr int kLanes = R::kLanes, kChains = R::kChains;
    if (nblocks >= kLanes) {
        if (!c->powers_ready) {
            R::compute_powers(c);
            c->powers_ready = 1;
        }
        std::size_t groups = nblocks / kLanes;
        if constexpr (pairs_of<R>()) {
            static_assert(kChains == 2, "pairs use the powers r^1..r^(2 kLanes)");
            if (groups >= 2) absorb_pairs<R>(c, data, groups / 2);
        } else if (groups >= kChains) {
            absorb_groups<R, kChains>(c, data, groups / kChains);
        }
        data += groups / kChains * kChains * kLanes * 16;
        for (groups %= kChains; groups; --groups, data += 16 * kLanes) absorb_groups<R, 1>(c, data, 1);
        nblocks %= kLanes;
    }
    poly1305_core_blocks(&c->core, data, nblocks, 1);
}

// ---- base 2^26 on a width's traits ----------------------------------------------------------------
// T: using V (a vector of 64-bit lanes); kLanes, kChains; add, and_, or_, mul (vpmuludq: low 32 bits of
// each lane, 64-bit products), shr/shl (64-bit lanes), set1, load (unaligned), load_lanes (kLanes u64,
// aligned), lane0 (x in lane 0, zeros above), unpacklo/unpackhi (64-bit, per 128 bits), sum (all lanes).
template <class T>
struct Base26 {
    using V = typename T::V;
    static constexpr int kLanes = T::kLanes, kChains = T::kChains, kLimbs = 5;
    // Two groups per carry (absorb_pairs) where the width asks for it.
    static constexpr bool kPairs = [] {
        if constexpr (requires { T::kPairs; })
            return T::kPairs;
        else
            return false;
    }();
    struct Num {
        V v[5];
    };
    // r0..r4, then 5*r1..5*r4 (s folds limbs above 2^130 back). mul() reads it from memory, which keeps
    // the loop within the sixteen registers of xmm/ymm code.
    struct Mult {
        V rs[9];
    };

    static void compute_powers(Poly1305Ctx* c) noexcept { powers_base26(c->core.r, c->pw, kLanes * kChains); }

    static Mult with_fives(Mult m) noexcept {
        for (int i = 1; i < 5; ++i) m.rs[4 + i] = T::add(m.rs[i], T::shl(m.rs[i], 2));
        return m;
    }
    static Mult broadcast(const Poly1305Ctx* c, int k) noexcept {
        Mult m;
        for (int i = 0; i < 5; ++i) m.rs[i] = T::set1(c->pw[5 * (k - 1) + i]);
        return with_fives(m);
    }
    static Mult owed(const Poly1305Ctx* c, const int (&k)[kLanes]) noexcept {
        alignas(64) u64 lanes[5][kLanes];
        gather_powers(c, k, lanes);
        Mult m;
        for (int i = 0; i < 5; ++i) m.rs[i] = T::load_lanes(lanes[i]);
        return with_fives(m);
    }

    static Num load(const std::uint8_t* p) noexcept {
        const V m = T::set1(kMask26);
        const V a = T::load(p), b = T::load(p + 8 * kLanes);
        const V lo = T::unpacklo(a, b), hi = T::unpackhi(a, b);
        Num x;
        x.v[0] = T::and_(lo, m);
        x.v[1] = T::and_(T::shr(lo, 26), m);
        x.v[2] = T::and_(T::or_(T::shr(lo, 52), T::shl(hi, 12)), m);
        x.v[3] = T::and_(T::shr(hi, 14), m);
        x.v[4] = T::or_(T::shr(hi, 40), T::set1(u64{1} << 24));  // the 2^128 pad bit
        return x;
    }
    static Num add_h(Num x, const u64 h[3]) noexcept {
        u64 h26[5];
        to26(h, h26);
        for (int i = 0; i < 5; ++i) x.v[i] = T::add(x.v[i], T::lane0(h26[i]));
        return x;
    }
    static Num add(const Num& a, const Num& b) noexcept {
        Num x;
        for (int i = 0; i < 5; ++i) x.v[i] = T::add(a.v[i], b.v[i]);
        return x;
    }

    // d = h * r (each lane), not carried.
    static Num mul(const Num& h, const Mult& m) noexcept {
        const V* r = m.rs;
        const V* s = m.rs + 4;  // s[i] = 5 * r[i] for i = 1..4
        Num d;
        d.v[0] = T::mul(h.v[0], r[0]);
        d.v[1] = T::mul(h.v[0], r[1]);
        d.v[2] = T::mul(h.v[0], r[2]);
        d.v[3] = T::mul(h.v[0], r[3]);
        d.v[4] = T::mul(h.v[0], r[4]);
        d.v[0] = T::add(d.v[0], T::mul(h.v[1], s[4]));
        d.v[1] = T::add(d.v[1], T::mul(h.v[1], r[0]));
        d.v[2] = T::add(d.v[2], T::mul(h.v[1], r[1]));
        d.v[3] = T::add(d.v[3], T::mul(h.v[1], r[2]));
        d.v[4] = T::add(d.v[4], T::mul(h.v[1], r[3]));
        d.v[0] = T::add(d.v[0], T::mul(h.v[2], s[3]));
        d.v[1] = T::add(d.v[1], T::mul(h.v[2], s[4]));
        d.v[2] = T::add(d.v[2], T::mul(h.v[2], r[0]));
        d.v[3] = T::add(d.v[3], T::mul(h.v[2], r[1]));
        d.v[4] = T::add(d.v[4], T::mul(h.v[2], r[2]));
        d.v[0] = T::add(d.v[0], T::mul(h.v[3], s[2]));
        d.v[1] = T::add(d.v[1], T::mul(h.v[3], s[3]));
        d.v[2] = T::add(d.v[2], T::mul(h.v[3], s[4]));
        d.v[3] = T::add(d.v[3], T::mul(h.v[3], r[0]));
        d.v[4] = T::add(d.v[4], T::mul(h.v[3], r[1]));
        d.v[0] = T::add(d.v[0], T::mul(h.v[4], s[1]));
        d.v[1] = T::add(d.v[1], T::mul(h.v[4], s[2]));
        d.v[2] = T::add(d.v[2], T::mul(h.v[4], s[3]));
        d.v[3] = T::add(d.v[3], T::mul(h.v[4], s[4]));
        d.v[4] = T::add(d.v[4], T::mul(h.v[4], r[0]));
        return d;
    }

    // Two interleaved carry chains; afterwards every limb is below 2^26 + 2^6 or so.
    static Num carry(Num d) noexcept {
        const V m = T::set1(kMask26);
        V c0 = T::shr(d.v[0], 26), c3 = T::shr(d.v[3], 26);
        d.v[0] = T::and_(d.v[0], m);
        d.v[3] = T::and_(d.v[3], m);
        d.v[1] = T::add(d.v[1], c0);
        d.v[4] = T::add(d.v[4], c3);
        V c1 = T::shr(d.v[1], 26), c4 = T::shr(d.v[4], 26);
        d.v[1] = T::and_(d.v[1], m);
        d.v[4] = T::and_(d.v[4], m);
        d.v[2] = T::add(d.v[2], c1);
        d.v[0] = T::add(d.v[0], T::add(c4, T::shl(c4, 2)));
        V c2 = T::shr(d.v[2], 26);
        c0 = T::shr(d.v[0], 26);
        d.v[2] = T::and_(d.v[2], m);
        d.v[0] = T::and_(d.v[0], m);
        d.v[3] = T::add(d.v[3], c2);
        d.v[1] = T::add(d.v[1], c0);
        c3 = T::shr(d.v[3], 26);
        d.v[3] = T::and_(d.v[3], m);
        d.v[4] = T::add(d.v[4], c3);
        return d;
    }

    static Num step(const Num& h, const Mult& r) noexcept { return carry(mul(h, r)); }
    // The last products are summed uncarried: each limb of a product is below 2^58 (factors below 2^27
    // and 5 * 2^26), so the sum of up to sixteen lanes stays below 2^62. carry() takes the sum of two
    // products (absorb_pairs, below 2^59) as well: its limbs come out below 2^26 + 2^9.
    static_assert(kLanes * kChains <= 16);
    static Num last(const Num& h, const Mult& f) noexcept { return mul(h, f); }
    static void sum_lanes(const Num& d, u64 sum[5]) noexcept {
        for (int i = 0; i < 5; ++i) sum[i] += T::sum(d.v[i]);
    }
    static void from_sum(const u64 sum[5], u64 h[3]) noexcept { from26(sum, h); }
};

}  // namespace
}  // namespace fputune::mac
