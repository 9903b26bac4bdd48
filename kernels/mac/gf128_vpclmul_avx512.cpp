// SPDX-License-Identifier: MIT
// POLYVAL and GHASH with VPCLMULQDQ on zmm: four blocks per vector, up to sixteen blocks per Montgomery
// reduction (H^1..H^16 computed on first use per key). Requires AVX-512F/VL/BW, VPCLMULQDQ, PCLMUL.
// Same field arithmetic as gf128_pclmul.cpp; GHASH is POLYVAL of byte-reversed blocks under mulX(H).
#include <immintrin.h>

#include <cstring>

#include "mac.hpp"

namespace fputune::mac {

namespace {

using u64 = std::uint64_t;
constexpr int kAgg = 16;

using Ctx = Gf128Ctx;
// pw and pk as vectors.
inline const __m128i* pw_of(const Ctx* c) { return reinterpret_cast<const __m128i*>(c->pw); }
inline const __m128i* pk_of(const Ctx* c) { return reinterpret_cast<const __m128i*>(c->pk); }

inline __m128i reduce(__m128i lo, __m128i hi) noexcept {
    const __m128i poly = _mm_set_epi64x(0, static_cast<long long>(0xc200000000000000ull));
    __m128i t = _mm_clmulepi64_si128(lo, poly, 0x00);
    __m128i u = _mm_xor_si128(_mm_shuffle_epi32(lo, 0x4e), t);
    t = _mm_clmulepi64_si128(u, poly, 0x00);
    u = _mm_xor_si128(_mm_shuffle_epi32(u, 0x4e), t);
    return _mm_xor_si128(u, hi);
}

inline __m128i dot(__m128i a, __m128i b) noexcept {
    __m128i lo = _mm_clmulepi64_si128(a, b, 0x00);
    __m128i hi = _mm_clmulepi64_si128(a, b, 0x11);
    __m128i mid = _mm_xor_si128(_mm_clmulepi64_si128(a, b, 0x01), _mm_clmulepi64_si128(a, b, 0x10));
    lo = _mm_xor_si128(lo, _mm_slli_si128(mid, 8));
    hi = _mm_xor_si128(hi, _mm_srli_si128(mid, 8));
    return reduce(lo, hi);
}

void compute_powers(Ctx* c) noexcept {
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(c->h));
    __m128i p = h;
    for (int k = 1; k <= kAgg; ++k) {
        if (k > 1) p = dot(p, h);
        _mm_store_si128(reinterpret_cast<__m128i*>(c->pw[kAgg - k]), p);
        _mm_store_si128(reinterpret_cast<__m128i*>(c->pk[kAgg - k]), _mm_xor_si128(p, _mm_shuffle_epi32(p, 0x4e)));
    }
    c->powers_ready = 1;
}

template <bool kGhash>
inline __m512i load4(const std::uint8_t* p) noexcept {
    __m512i x = _mm512_loadu_si512(p);
    if constexpr (kGhash)
        x = _mm512_shuffle_epi8(x, _mm512_broadcast_i32x4(_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)));
    return x;
}

template <bool kGhash>
inline __m128i load1(const std::uint8_t* p) noexcept {
    __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    if constexpr (kGhash) x = _mm_shuffle_epi8(x, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    return x;
}

inline __m128i fold4(__m512i x) noexcept {
    const __m256i y = _mm256_xor_si256(_mm512_castsi512_si256(x), _mm512_extracti64x4_epi64(x, 1));
    return _mm_xor_si128(_mm256_castsi256_si128(y), _mm256_extracti128_si256(y, 1));
}

template <bool kGhash>
void absorb(Ctx* c, const std::uint8_t* m, std::size_t nblocks) noexcept {
    if (nblocks == 0) return;
    if (!c->powers_ready) compute_powers(c);
    __m128i s = _mm_loadu_si128(reinterpret_cast<const __m128i*>(c->s));
    while (nblocks) {
        const std::size_t b = nblocks < kAgg ? nblocks : kAgg;
        const std::size_t q = b / 4;
        const __m128i* pw = pw_of(c) + (kAgg - b);
        const __m128i* pk = pk_of(c) + (kAgg - b);
        __m128i lo, hi, mid;
        std::size_t i = 0;
        if (q) {
            // The running sum joins the first block (lane 0 of the first vector).
            __m512i x = _mm512_xor_si512(load4<kGhash>(m), _mm512_zextsi128_si512(s));
            __m512i p = _mm512_loadu_si512(pw), k = _mm512_loadu_si512(pk);
            __m512i zlo = _mm512_clmulepi64_epi128(x, p, 0x00);
            __m512i zhi = _mm512_clmulepi64_epi128(x, p, 0x11);
            __m512i zmid = _mm512_clmulepi64_epi128(_mm512_xor_si512(x, _mm512_shuffle_epi32(x, _MM_PERM_BADC)), k, 0x00);
            for (std::size_t j = 1; j < q; ++j) {
                x = load4<kGhash>(m + 64 * j);
                p = _mm512_loadu_si512(pw + 4 * j);
                k = _mm512_loadu_si512(pk + 4 * j);
                zlo = _mm512_xor_si512(zlo, _mm512_clmulepi64_epi128(x, p, 0x00));
                zhi = _mm512_xor_si512(zhi, _mm512_clmulepi64_epi128(x, p, 0x11));
                zmid = _mm512_xor_si512(
                    zmid, _mm512_clmulepi64_epi128(_mm512_xor_si512(x, _mm512_shuffle_epi32(x, _MM_PERM_BADC)), k, 0x00));
            }
            lo = fold4(zlo);
            hi = fold4(zhi);
            mid = fold4(zmid);
            i = 4 * q;
        } else {
            const __m128i x = _mm_xor_si128(load1<kGhash>(m), s);
            lo = _mm_clmulepi64_si128(x, pw[0], 0x00);
            hi = _mm_clmulepi64_si128(x, pw[0], 0x11);
            mid = _mm_clmulepi64_si128(_mm_xor_si128(x, _mm_shuffle_epi32(x, 0x4e)), pk[0], 0x00);
            i = 1;
        }
        for (; i < b; ++i) {
            const __m128i x = load1<kGhash>(m + 16 * i);
            lo = _mm_xor_si128(lo, _mm_clmulepi64_si128(x, pw[i], 0x00));
            hi = _mm_xor_si128(hi, _mm_clmulepi64_si128(x, pw[i], 0x11));
            mid = _mm_xor_si128(mid, _mm_clmulepi64_si128(_mm_xor_si128(x, _mm_shuffle_epi32(x, 0x4e)), pk[i], 0x00));
        }
        mid = _mm_xor_si128(mid, _mm_xor_si128(lo, hi));
        lo = _mm_xor_si128(lo, _mm_slli_si128(mid, 8));
        hi = _mm_xor_si128(hi, _mm_srli_si128(mid, 8));
        s = reduce(lo, hi);
        m += 16 * b;
        nblocks -= b;
    }
    _mm_storeu_si128(reinterpret_cast<__m128i*>(c->s), s);
}

}  // namespace

void polyval_blocks_vpclmul_avx512(Gf128Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept {
    absorb<false>(c, data, nblocks);
}
void ghash_blocks_vpclmul_avx512(Gf128Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept {
    absorb<true>(c, data, nblocks);
}

}  // namespace fputune::mac
