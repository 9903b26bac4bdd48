// SPDX-License-Identifier: MIT
// AES-CTR, AES-XTS and AES-GCM for any vector width: one body per mode, included by each ISA file (aesni,
// aesni-avx, vaes-avx2, vaes-avx512), which supplies the vector type V and is compiled with its own flags.
// V holds kLanes = V::kBytes / 16 AES blocks; kVecs vectors are in flight (8 blocks for aesni CTR/GCM and 6
// for its XTS, 4 vectors for VAES), as in Linux's aes-{ctr,xts,gcm}-*-x86_64.S and OpenSSL's aesni code. Everything is
// in an
// anonymous namespace so that each ISA file keeps its own copy (see STYLE.md).
//
// GHASH runs in the POLYVAL domain (RFC 8452 Appendix A): GHASH_H(X) = ByteReverse(POLYVAL_H'(
// ByteReverse(X))), H' = mulX_POLYVAL(ByteReverse(H)). A batch of n blocks is summed as
// X_1 * H'^n + ... + X_n * H'^1 with 64x64 products (schoolbook, 4 per block, or Karatsuba, 3, as the
// vector type chooses) and ONE Montgomery reduction, with the powers H'^1..H'^(kVecs * kLanes) precomputed at setkey
// (Gueron & Kounavis, "Intel
// Carry-Less Multiplication Instruction and its Usage for Computing the GCM Mode", aggregated reduction).
#pragma once

#include <immintrin.h>

#include <cassert>
#include <cstring>
#include <utility>

#include "aes.hpp"

namespace fputune::aes {
namespace {

using u8 = std::uint8_t;
using u64 = std::uint64_t;

// Reverses the 16 bytes of each lane: counter blocks to little-endian integers and back, GHASH blocks
// into the POLYVAL domain.
alignas(16) constexpr u8 kBswap[16] = {15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0};
alignas(32) constexpr u8 kIota[32] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                      16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
// x^128 = x^127 + x^126 + x^121 + 1: the low qword's multiple x^63 + x^62 + x^57 folded by Montgomery steps.
constexpr long long kPolyvalFold = static_cast<long long>(0xc200000000000000ull);
// XTS: x^128 = x^7 + x^2 + x + 1 (IEEE 1619).
constexpr long long kXtsPoly = 0x87;

inline __m128i load128(const void* p) noexcept { return _mm_loadu_si128(static_cast<const __m128i*>(p)); }
inline void store128(void* p, __m128i x) noexcept { _mm_storeu_si128(static_cast<__m128i*>(p), x); }
inline __m128i bswap128(__m128i x) noexcept {
    return _mm_shuffle_epi8(x, _mm_load_si128(reinterpret_cast<const __m128i*>(kBswap)));
}

// The 128-bit vector: the aesni and aesni-avx files, and single blocks everywhere.
struct Vec128 {
    using T = __m128i;
    static constexpr std::size_t kBytes = 16;
    static constexpr unsigned kLanes = 1;
    static constexpr bool kKaratsuba = false;  // schoolbook measured 1-2 % faster here (Emerald Rapids)
    static constexpr bool kGhashLate = false;  // GCM: the GHASH steps spread over the rounds (step_round)
    static T load(const u8* p) noexcept { return load128(p); }
    static void store(u8* p, T x) noexcept { store128(p, x); }
    // n of kBytes bytes (0..kBytes), zero beyond; the bytes past n are never touched.
    static T load_n(const u8* p, std::size_t n) noexcept {
        if (n >= kBytes) return load(p);
        if (n == 0) return _mm_setzero_si128();
        alignas(16) u8 b[16] = {};
        std::memcpy(b, p, n);
        return _mm_load_si128(reinterpret_cast<const __m128i*>(b));
    }
    static void store_n(u8* p, T x, std::size_t n) noexcept {
        if (n >= kBytes) return store(p, x);
        if (n == 0) return;
        alignas(16) u8 b[16];
        _mm_store_si128(reinterpret_cast<__m128i*>(b), x);
        std::memcpy(p, b, n);
    }
    static T mask_n(T x, std::size_t n) noexcept {  // bytes >= n cleared
        const T idx = _mm_load_si128(reinterpret_cast<const __m128i*>(kIota));
        return _mm_and_si128(x, _mm_cmpgt_epi8(_mm_set1_epi8(static_cast<char>(n)), idx));
    }
    // The GHASH powers: aligned in the key, so legacy-SSE pclmulqdq may take them from memory.
    static T load_key(const u8* p) noexcept { return _mm_load_si128(reinterpret_cast<const __m128i*>(p)); }
    static T bcast(__m128i x) noexcept { return x; }
    static T from_lanes(const __m128i (&l)[kLanes]) noexcept { return l[0]; }
    static T from_lane0(__m128i x) noexcept { return x; }
    static __m128i fold(T x) noexcept { return x; }
    static __m128i lane0(T x) noexcept { return x; }
    static T iota() noexcept { return _mm_setzero_si128(); }  // lane l: l in its low dword
    static T xor_(T a, T b) noexcept { return _mm_xor_si128(a, b); }
    static T xor3(T a, T b, T c) noexcept { return _mm_xor_si128(_mm_xor_si128(a, b), c); }
    static T aesenc(T x, T k) noexcept { return _mm_aesenc_si128(x, k); }
    static T aesenclast(T x, T k) noexcept { return _mm_aesenclast_si128(x, k); }
    template <int kImm>
    static T clmul(T a, T b) noexcept {
        return _mm_clmulepi64_si128(a, b, kImm);
    }
    static T shuffle(T x, T m) noexcept { return _mm_shuffle_epi8(x, m); }
    static T add32(T a, T b) noexcept { return _mm_add_epi32(a, b); }
    static T add64(T a, T b) noexcept { return _mm_add_epi64(a, b); }
    template <int kBits>
    static T slli64(T x) noexcept {
        return _mm_slli_epi64(x, kBits);
    }
    template <int kBits>
    static T srli64(T x) noexcept {
        return _mm_srli_epi64(x, kBits);
    }
    static T bslli8(T x) noexcept { return _mm_slli_si128(x, 8); }
    static T bsrli8(T x) noexcept { return _mm_srli_si128(x, 8); }
    template <int kN>
    static T bslli(T x) noexcept {
        return _mm_slli_si128(x, kN);
    }
    template <int kN>
    static T bsrli(T x) noexcept {
        return _mm_srli_si128(x, kN);
    }
    static T swap64(T x) noexcept { return _mm_shuffle_epi32(x, 0x4e); }
};

// ---- shared pieces ----------------------------------------------------------------------------------

template <int kRounds>
struct Rounds {};

// Calls f(Rounds<R>{}) for the key's round count.
template <class F>
inline void with_rounds(unsigned rounds, F&& f) noexcept {
    assert(rounds == 10 || rounds == 12 || rounds == 14);
    if (rounds == 10)
        f(Rounds<10>{});
    else if (rounds == 12)
        f(Rounds<12>{});
    else
        f(Rounds<14>{});
}

template <class V, int R>
inline void load_round_keys(const AesKey* k, typename V::T (&rk)[R + 1]) noexcept {
#pragma GCC unroll 16
    for (int r = 0; r <= R; ++r) rk[r] = V::bcast(_mm_load_si128(reinterpret_cast<const __m128i*>(k->rk[r])));
}

template <int R>
inline __m128i aes_block(const AesKey* k, __m128i x) noexcept {
    x = _mm_xor_si128(x, _mm_load_si128(reinterpret_cast<const __m128i*>(k->rk[0])));
#pragma GCC unroll 16
    for (int r = 1; r < R; ++r) x = _mm_aesenc_si128(x, _mm_load_si128(reinterpret_cast<const __m128i*>(k->rk[r])));
    return _mm_aesenclast_si128(x, _mm_load_si128(reinterpret_cast<const __m128i*>(k->rk[R])));
}

// All middle rounds of N vectors, round-major so the independent blocks overlap in the pipeline.
template <class V, int R, unsigned N>
inline void aes_middle_rounds(const typename V::T (&rk)[R + 1], typename V::T* x) noexcept {
#pragma GCC unroll 16
    for (int r = 1; r < R; ++r)
#pragma GCC unroll 16
        for (unsigned j = 0; j < N; ++j) x[j] = V::aesenc(x[j], rk[r]);
}

template <unsigned N>
struct Count {};

// The last, partial batch of a message runs on the fewest vectors that hold it (1, 2, 4 or kVecs),
// so a short message does not pay for a full batch of AES: calls f(Count<N>{}).
template <unsigned kVecs, class F>
inline void with_tail_vecs(std::size_t nvecs, F&& f) noexcept {
    if constexpr (kVecs > 1)
        if (nvecs <= 1) return f(Count<1>{});
    if constexpr (kVecs > 2)
        if (nvecs <= 2) return f(Count<2>{});
    if constexpr (kVecs > 4)
        if (nvecs <= 4) return f(Count<4>{});
    f(Count<kVecs>{});
}

inline std::size_t clamp_bytes(std::size_t len, std::size_t off, std::size_t width) noexcept {
    return len <= off ? 0 : (len - off < width ? len - off : width);
}

// The counter blocks of a batch, in the two ways the best code makes them. Both count in the last
// dword only: GCM's inc32 wraps there, and CTR splits its messages so that it never does in a call.
//
// In memory (xmm): the blocks, already xored with round key 0, live on the stack; between batches only
// their last dword changes, computed with integer instructions and stored, as OpenSSL's
// aesni_ctr32_encrypt_blocks does, so no vector instruction per block competes with AES for the
// vector ports (measured: CTR 1.2x OpenSSL's time with a vector add and shuffle per block, 1.0x so).
template <class V, unsigned kVecs>
struct CountersInMemory {
    using T = typename V::T;
    static constexpr unsigned kBlocks = kVecs * V::kLanes;
    alignas(64) u8 blocks[kBlocks * 16];
    const u8* ctr;  // the first counter block
    const u8* rk0;
    std::uint32_t next;  // the count of the next batch's first block
    std::uint32_t rk0_d3;  // round key 0's last dword, as the blocks hold it in memory
    bool first = true;
    CountersInMemory(const AesKey* key, const u8 c[16]) noexcept : ctr(c), rk0(key->rk[0]) {
        std::memcpy(&next, ctr + 12, 4);
        next = __builtin_bswap32(next);
        std::memcpy(&rk0_d3, rk0 + 12, 4);
    }
    void step() noexcept {
#pragma GCC unroll 16
        for (unsigned i = 0; i < kBlocks; ++i) {
            const std::uint32_t d = __builtin_bswap32(next + i) ^ rk0_d3;
            std::memcpy(blocks + 16 * i + 12, &d, 4);
        }
    }
    // x[j] = vector j (j < N) of this batch's counter blocks ^ round key 0. The first batch is made in
    // registers: loading blocks just rewritten a dword at a time would wait for the stores; later
    // batches were stored a whole batch earlier. Unless this is the last batch, the next one is
    // stored now.
    template <unsigned N>
    void batch(T* x, T rk0v, bool last) noexcept {
        if (first) {
            first = false;
            const T bsw = V::bcast(_mm_load_si128(reinterpret_cast<const __m128i*>(kBswap)));
            const T le = V::bcast(bswap128(load128(ctr)));
#pragma GCC unroll 16
            for (unsigned j = 0; j < N; ++j)
                x[j] = V::xor_(
                    V::shuffle(V::add32(le, V::bcast(_mm_cvtsi32_si128(static_cast<int>(j * V::kLanes)))), bsw), rk0v);
            if (!last) {  // every block = the counter block ^ round key 0; step() rewrites their last dwords
                const __m128i c = _mm_xor_si128(load128(ctr), _mm_load_si128(reinterpret_cast<const __m128i*>(rk0)));
                for (unsigned i = 0; i < kBlocks; ++i) store128(blocks + 16 * i, c);
            }
        } else {
#pragma GCC unroll 16
            for (unsigned j = 0; j < N; ++j) x[j] = V::load(blocks + j * V::kBytes);
        }
        next += kBlocks;
        if (!last) step();
    }
};

// In registers (ymm, zmm: a wide load of blocks stored a dword at a time would wait for the stores):
// while no block's low byte carries, block j is the batch's first vector plus j lanes in byte 15, one
// dword add per vector and no byte shuffle, as OpenSSL's aesni-gcm does; once every ~256 / kBlocks
// batches they come from the little-endian integers instead (an add and a shuffle per vector).
template <class V, unsigned kVecs>
struct CountersInRegisters {
    using T = typename V::T;
    static constexpr unsigned kBlocks = kVecs * V::kLanes;
    T le;  // lane l: the count of the batch's block l, as an integer
    T be;  // the same blocks, big-endian
    std::uint32_t low;  // the batch's first count
    CountersInRegisters(const AesKey*, const u8 ctr[16]) noexcept
        : le(V::add32(V::bcast(bswap128(load128(ctr))), V::iota())), be(V::shuffle(le, bswap())) {
        std::memcpy(&low, ctr + 12, 4);
        low = __builtin_bswap32(low);
    }
    static T lanes(unsigned n) noexcept { return V::bcast(_mm_cvtsi32_si128(static_cast<int>(n))); }
    static T lanes_be(unsigned n) noexcept { return V::bcast(_mm_set_epi32(static_cast<int>(n << 24), 0, 0, 0)); }
    static T bswap() noexcept { return V::bcast(_mm_load_si128(reinterpret_cast<const __m128i*>(kBswap))); }
    template <unsigned N>
    void batch(T* x, T rk0, bool last) noexcept {
        if ((low & 0xff) + kBlocks - 1 <= 0xff) {
#pragma GCC unroll 16
            for (unsigned j = 0; j < N; ++j) x[j] = V::xor_(j ? V::add32(be, lanes_be(j * V::kLanes)) : be, rk0);
        } else {
#pragma GCC unroll 16
            for (unsigned j = 0; j < N; ++j)
                x[j] = V::xor_(V::shuffle(j ? V::add32(le, lanes(j * V::kLanes)) : le, bswap()), rk0);
        }
        if (last) return;
        le = V::add32(le, lanes(kBlocks));
        be = (low & 0xff) + kBlocks + V::kLanes - 1 <= 0xff ? V::add32(be, lanes_be(kBlocks)) : V::shuffle(le, bswap());
        low += kBlocks;
    }
};

template <bool kInMemory, class V, unsigned kVecs>
struct PickCounters {
    using Type = CountersInMemory<V, kVecs>;
};
template <class V, unsigned kVecs>
struct PickCounters<false, V, kVecs> {
    using Type = CountersInRegisters<V, kVecs>;
};
template <class V, unsigned kVecs>
using Counters = typename PickCounters<V::kLanes == 1, V, kVecs>::Type;

// ---- CTR (SP 800-38A: a 128-bit big-endian counter) ------------------------------------------------
// The last, partial batch of CTR on N vectors: only the message's bytes are read and written, and x
// holds the output, zero past the message (as GHASH pads it).
template <class V, int R, unsigned N, class C>
inline void ctr_tail(C& ctr, const typename V::T (&rk)[R + 1], const u8* src, u8* dst, std::size_t len,
                     typename V::T* x) noexcept {
    ctr.template batch<N>(x, rk[0], true);
    aes_middle_rounds<V, R, N>(rk, x);
#pragma GCC unroll 16
    for (unsigned j = 0; j < N; ++j) {
        const std::size_t n = clamp_bytes(len, j * V::kBytes, V::kBytes);
        x[j] = V::mask_n(V::aesenclast(x[j], V::xor_(rk[R], V::load_n(src + j * V::kBytes, n))), n);
        V::store_n(dst + j * V::kBytes, x[j], n);
    }
}

template <class V, int R, unsigned kVecs>
inline void ctr_body(const AesKey* key, const u8 ctr_block[16], const u8* src, u8* dst, std::size_t len) noexcept {
    using T = typename V::T;
    constexpr std::size_t kBatch = kVecs * V::kBytes;
    T rk[R + 1];
    load_round_keys<V, R>(key, rk);
    Counters<V, kVecs> ctr(key, ctr_block);
    for (; len >= kBatch; src += kBatch, dst += kBatch, len -= kBatch) {
        T x[kVecs];
        ctr.template batch<kVecs>(x, rk[0], len == kBatch);
        aes_middle_rounds<V, R, kVecs>(rk, x);
        // aesenclast's key xor also adds the plaintext: one xor fewer per vector.
#pragma GCC unroll 16
        for (unsigned j = 0; j < kVecs; ++j)
            V::store(dst + j * V::kBytes, V::aesenclast(x[j], V::xor_(rk[R], V::load(src + j * V::kBytes))));
    }
    if (len == 0) return;
    with_tail_vecs<kVecs>((len + V::kBytes - 1) / V::kBytes, [&]<unsigned N>(Count<N>) {
        T x[N];
        ctr_tail<V, R, N>(ctr, rk, src, dst, len, x);
    });
}

template <class V, unsigned kVecs>
inline void ctr_entry(const AesKey* key, u8 ctr[16], const u8* src, u8* dst, std::size_t len) noexcept {
    while (len) {
        u64 hi, lo;
        std::memcpy(&hi, ctr, 8);
        std::memcpy(&lo, ctr + 8, 8);
        hi = __builtin_bswap64(hi);
        lo = __builtin_bswap64(lo);
        // The body counts in the low dword only: split where it wraps (room 0 = 2^32 blocks).
        const u64 room = (0 - lo) & 0xffffffffu;
        std::size_t n = len;
        if (room != 0 && room < (len + 15) / 16)
            n = static_cast<std::size_t>(room) * 16;
        else if (room == 0 && (len + 15) / 16 > (u64{1} << 32))
            n = std::size_t{1} << 36;
        with_rounds(key->rounds, [&]<int R>(Rounds<R>) { ctr_body<V, R, kVecs>(key, ctr, src, dst, n); });
        const u64 nblocks = (n + 15) / 16;
        if (lo + nblocks < lo) ++hi;
        lo += nblocks;
        hi = __builtin_bswap64(hi);
        lo = __builtin_bswap64(lo);
        std::memcpy(ctr, &hi, 8);
        std::memcpy(ctr + 8, &lo, 8);
        src += n;
        dst += n;
        len -= n;
    }
}

// ---- XTS (IEEE 1619; tweaks are little-endian integers in GF(2^128)) ---------------------------------

// t * x for one tweak.
inline __m128i xts_mul_x(__m128i t) noexcept {
    // Per qword shift left by 1; the top bit of qword 0 moves into qword 1, that of qword 1 wraps as 0x87.
    const __m128i carries = _mm_srai_epi32(_mm_shuffle_epi32(t, 0x93), 31);  // dword 3 -> 0, dword 1 -> 2
    const __m128i mask = _mm_set_epi32(0, 1, 0, static_cast<int>(kXtsPoly));
    return _mm_xor_si128(_mm_add_epi64(t, t), _mm_and_si128(carries, mask));
}

// The tweaks of the kN blocks after t (tw[j] = t * x^(j + 1)), one doubling each, for xmm (one block
// per vector). The carries come from the top bits of both qwords, kept in `signs` and shifted up by a
// dword add each step (Gueron's idea, as OpenSSL's aesni_xts_encrypt): per block one vector shift and
// four simple operations, none on the AES pipes of AMD Zen 3, where PCLMULQDQ is 4 ops on the two AES
// pipes (AMD SOG 19h) and a multiplication by x^4 per block took an AES slot and a half; see
// docs/zen3-speed.md. Exact for kN <= 31: signs holds bits 96..127 and 32..63 of t.
template <unsigned kN>
inline void xts_tweaks_after(__m128i t, __m128i* tw) noexcept {
    static_assert(kN <= 31);
    const __m128i mask = _mm_set_epi32(0, 1, 0, static_cast<int>(kXtsPoly));
    __m128i signs = _mm_shuffle_epi32(t, 0x5f);  // dwords 3, 3, 1, 1
#pragma GCC unroll 32
    for (unsigned j = 0; j < kN; ++j) {
        const __m128i carries = _mm_and_si128(_mm_srai_epi32(signs, 31), mask);
        signs = _mm_add_epi32(signs, signs);
        t = _mm_xor_si128(_mm_add_epi64(t, t), carries);
        tw[j] = t;
    }
}

// Every lane times x^kShift (kShift <= 56): the bits shifted out of qword 1 are reduced with one
// carry-less multiplication by 0x87, those of qword 0 move into qword 1.
template <class V, int kShift>
inline typename V::T xts_mul_xn(typename V::T t, typename V::T poly) noexcept {
    static_assert(kShift > 0 && kShift <= 56);
    if constexpr (kShift % 8 == 0) {
        // Byte-aligned (ymm and zmm: x^8, x^16), as Linux's aes-xts-avx-x86_64.S does it: whole-lane byte
        // shifts run on the shuffle port (5), where qword shifts take the port that 512-bit AES runs on
        // (0 on Intel). Measured on Emerald Rapids, 16 KiB, vs the kernel's code: vaes-avx512 XTS 1.11-1.17
        // -> 0.97-0.98 of its time, vaes-avx2 1.10-1.15 -> 0.99-1.06.
        const typename V::T c = V::template bsrli<16 - kShift / 8>(t);
        return V::xor_(V::template bslli<kShift / 8>(t), V::template clmul<0x00>(c, poly));
    } else {
        const typename V::T c = V::template srli64<64 - kShift>(t);
        return V::xor3(V::template slli64<kShift>(t), V::bslli8(c), V::template clmul<0x01>(c, poly));
    }
}

// One whole batch; tw becomes the next batch's tweaks.
// xmm: each block's last round key ^ tweak and the next batch's tweaks are made before the AES rounds,
// as OpenSSL's aesni_xts_encrypt makes them in its first rounds: then the serial doubling chain and its
// operations run beside the rounds instead of after the batch (Rocket Lake VM, 16 KiB, vs OpenSSL:
// aes-256 0.98 -> 0.93, aes-128 1.04 -> 0.95). ymm/zmm: unchanged, measured on Intel only.
template <class V, int R, unsigned kVecs>
inline void xts_batch(const typename V::T (&rk)[R + 1], typename V::T (&tw)[kVecs], [[maybe_unused]] typename V::T poly,
                      const u8* src, u8* dst) noexcept {
    using T = typename V::T;
    T x[kVecs];
#pragma GCC unroll 16
    for (unsigned j = 0; j < kVecs; ++j) x[j] = V::xor3(V::load(src + j * V::kBytes), tw[j], rk[0]);
    if constexpr (V::kLanes == 1) {
        T last[kVecs];
#pragma GCC unroll 16
        for (unsigned j = 0; j < kVecs; ++j) last[j] = V::xor_(rk[R], tw[j]);
        xts_tweaks_after<kVecs>(tw[kVecs - 1], tw);
        aes_middle_rounds<V, R, kVecs>(rk, x);
#pragma GCC unroll 16
        for (unsigned j = 0; j < kVecs; ++j) V::store(dst + j * V::kBytes, V::aesenclast(x[j], last[j]));
    } else {
        aes_middle_rounds<V, R, kVecs>(rk, x);
#pragma GCC unroll 16
        for (unsigned j = 0; j < kVecs; ++j) {
            V::store(dst + j * V::kBytes, V::aesenclast(x[j], V::xor_(rk[R], tw[j])));
            tw[j] = xts_mul_xn<V, kVecs * V::kLanes>(tw[j], poly);
        }
    }
}

// nblocks whole blocks from the running tweak t; returns the tweak of the block after the last.
template <class V, int R, unsigned kVecs>
inline __m128i xts_body(const AesKey* key, __m128i t, const u8* src, u8* dst, std::size_t nblocks) noexcept {
    using T = typename V::T;
    constexpr unsigned kBlocks = kVecs * V::kLanes;
    constexpr std::size_t kBatch = kVecs * V::kBytes;
    if (nblocks == 0) return t;
    T rk[R + 1];
    load_round_keys<V, R>(key, rk);
    [[maybe_unused]] const T poly = V::bcast(_mm_cvtsi64_si128(kXtsPoly));
    // ymm/zmm: the first vector's tweaks one by one, in registers; vector j's from it times x^(j * kLanes),
    // all at once (no chain, no store and wider reload, as the kernel's _compute_first_set_of_tweaks); then
    // each vector steps by x^kBlocks, independently. xmm: one doubling per block (xts_tweaks_after).
    alignas(64) u8 tws[kBatch];
    __m128i first[V::kLanes];
#pragma GCC unroll 16
    for (unsigned i = 0; i < V::kLanes; ++i) {
        first[i] = t;
        t = xts_mul_x(t);
    }
    T tw[kVecs];
    tw[0] = V::from_lanes(first);
    if constexpr (V::kLanes == 1) {
        xts_tweaks_after<kVecs - 1>(tw[0], tw + 1);
    } else {
        [&]<unsigned... J>(std::integer_sequence<unsigned, J...>) {
            ((tw[J + 1] = xts_mul_xn<V, (J + 1) * V::kLanes>(tw[0], poly)), ...);
        }
        (std::make_integer_sequence<unsigned, kVecs - 1>{});
    }
    for (; nblocks >= kBlocks; src += kBatch, dst += kBatch, nblocks -= kBlocks)
        xts_batch<V, R, kVecs>(rk, tw, poly, src, dst);
    if (nblocks == 0) return V::lane0(tw[0]);
    const std::size_t len = nblocks * 16;
    with_tail_vecs<kVecs>((len + V::kBytes - 1) / V::kBytes, [&]<unsigned N>(Count<N>) {
        T x[N];
#pragma GCC unroll 16
        for (unsigned j = 0; j < N; ++j)
            x[j] = V::xor3(V::load_n(src + j * V::kBytes, clamp_bytes(len, j * V::kBytes, V::kBytes)), tw[j], rk[0]);
        aes_middle_rounds<V, R, N>(rk, x);
#pragma GCC unroll 16
        for (unsigned j = 0; j < N; ++j)
            V::store_n(dst + j * V::kBytes, V::aesenclast(x[j], V::xor_(rk[R], tw[j])),
                       clamp_bytes(len, j * V::kBytes, V::kBytes));
    });
#pragma GCC unroll 16
    for (unsigned j = 0; j < kVecs; ++j) V::store(tws + j * V::kBytes, tw[j]);
    return load128(tws + len);  // the tweak of the block after the last
}

template <class V, unsigned kVecs>
inline void xts_entry(const AesKey* key, const u8* src, u8* dst, std::size_t len, u8 tweak[16]) noexcept {
    assert(len >= 16);
    const std::size_t tail = len % 16;
    const std::size_t full = len / 16 - (tail ? 1 : 0);  // with a tail, the last whole block goes with it
    with_rounds(key->rounds, [&]<int R>(Rounds<R>) {
        __m128i t = xts_body<V, R, kVecs>(key, load128(tweak), src, dst, full);
        if (tail) {  // ciphertext stealing (IEEE 1619 section 5.3.2)
            src += 16 * full;
            dst += 16 * full;
            const __m128i cc = _mm_xor_si128(aes_block<R>(key, _mm_xor_si128(load128(src), t)), t);
            t = xts_mul_x(t);
            alignas(16) u8 pp[16], c[16];
            store128(c, cc);
            std::memcpy(pp, src + 16, tail);  // read the tail before writing over it (dst may be src)
            std::memcpy(pp + tail, c + tail, 16 - tail);
            std::memcpy(dst + 16, c, tail);
            store128(dst, _mm_xor_si128(aes_block<R>(key, _mm_xor_si128(load128(pp), t)), t));
            t = xts_mul_x(t);
        }
        store128(tweak, t);
    });
}

inline void xts_iv_entry(const AesKey* tweak_key, const u8 iv[16], u8 tweak[16]) noexcept {
    with_rounds(tweak_key->rounds, [&]<int R>(Rounds<R>) { store128(tweak, aes_block<R>(tweak_key, load128(iv))); });
}

// ---- GHASH (POLYVAL domain) ----------------------------------------------------------------------------

// A key power H'^k: the operand, and (for Karatsuba) the xor of its two qwords in both qwords.
template <class V>
struct Power {
    typename V::T h, mid;
};

template <class V>
inline Power<V> load_power(const GcmKey* key, std::size_t i) noexcept {
    if constexpr (V::kKaratsuba) return {V::load_key(key->hpow[i]), V::load_key(key->hmid[i])};
    return {V::load_key(key->hpow[i]), typename V::T{}};
}

// Unreduced sum of 64x64 products, per lane: lo = a0 b0, hi = a1 b1, and the middle term a0 b1 + a1 b0,
// either directly (schoolbook: 4 multiplications) or as (a0 + a1)(b0 + b1) (Karatsuba: 3, lo and hi
// added at the reduction), as V chooses (whichever its measured port pressure favours).
template <class V>
struct Products {
    typename V::T lo, mid, hi;
};

template <class V>
inline typename V::T middle(typename V::T a, const Power<V>& b) noexcept {
    if constexpr (V::kKaratsuba) return V::template clmul<0x00>(V::xor_(a, V::swap64(a)), b.mid);
    return V::xor_(V::template clmul<0x01>(a, b.h), V::template clmul<0x10>(a, b.h));
}

template <class V>
inline Products<V> mul(typename V::T a, const Power<V>& b) noexcept {
    return {V::template clmul<0x00>(a, b.h), middle<V>(a, b), V::template clmul<0x11>(a, b.h)};
}

template <class V>
inline void mul_add(Products<V>& p, typename V::T a, const Power<V>& b) noexcept {
    p.lo = V::xor_(p.lo, V::template clmul<0x00>(a, b.h));
    p.mid = V::xor_(p.mid, middle<V>(a, b));
    p.hi = V::xor_(p.hi, V::template clmul<0x11>(a, b.h));
}

// (lo + mid x^64 + hi x^128) * x^-128 mod P per lane, by two Montgomery steps of 64 bits (adding
// q * P clears the low qword since P = 1 mod x^64), each folding one qword into the term above it:
// lo into mid (reduce_lo), then mid into hi (reduce_hi), no byte shifts; then the lanes summed.
template <class V>
inline typename V::T reduce_lo(const Products<V>& p) noexcept {
    const typename V::T poly = V::bcast(_mm_cvtsi64_si128(kPolyvalFold));
    const typename V::T mid = V::kKaratsuba ? V::xor3(p.mid, p.lo, p.hi) : p.mid;
    return V::xor3(mid, V::swap64(p.lo), V::template clmul<0x00>(p.lo, poly));
}

template <class V>
inline __m128i reduce_hi(typename V::T hi, typename V::T t) noexcept {
    const typename V::T poly = V::bcast(_mm_cvtsi64_si128(kPolyvalFold));
    return V::fold(V::xor3(hi, V::swap64(t), V::template clmul<0x00>(t, poly)));
}

template <class V>
inline __m128i reduce(const Products<V>& p) noexcept {
    return reduce_hi<V>(p.hi, reduce_lo<V>(p));
}

// Keeps the compiler from moving vector work across this point: the stitched GCM loop below keeps its
// AES rounds and GHASH steps in the order written (GCC otherwise gathers the products in one run).
template <class T>
inline void pin(T& x) noexcept {
    asm volatile("" : "+v"(x));
}

inline __m128i dot(__m128i a, __m128i b) noexcept {
    return reduce<Vec128>(mul<Vec128>(a, Power<Vec128>{b, _mm_xor_si128(b, _mm_shuffle_epi32(b, 0x4e))}));
}

// mulX_POLYVAL: times x modulo P (RFC 8452 Appendix A).
inline __m128i polyval_mul_x(__m128i h) noexcept {
    alignas(16) u64 q[2];
    _mm_store_si128(reinterpret_cast<__m128i*>(q), h);
    const u64 carry = 0 - (q[1] >> 63);
    const u64 lo = (q[0] << 1) ^ (carry & 1), hi = ((q[1] << 1) | (q[0] >> 63)) ^ (carry & 0xc200000000000000ull);
    return _mm_set_epi64x(static_cast<long long>(hi), static_cast<long long>(lo));
}

// hpow[i] = H'^(npow - i) for i < npow (descending, so that a run of n blocks reads hpow[npow - n..]),
// then zeros for the lanes a partial vector reads past the end.
template <class V, unsigned kVecs>
inline void gcm_setkey_entry(GcmKey* key, const u8* raw_key, std::size_t key_bytes) noexcept {
    constexpr unsigned kPowers = kVecs * V::kLanes;
    static_assert(kPowers <= kGcmMaxPowers && kPowers + V::kLanes <= kGcmMaxPowers + 4);
    aes_expand_key(&key->aes, raw_key, key_bytes);
    std::memset(key->hpow, 0, sizeof key->hpow);
    std::memset(key->hmid, 0, sizeof key->hmid);
    __m128i h = _mm_setzero_si128();
    with_rounds(key->aes.rounds, [&]<int R>(Rounds<R>) { h = aes_block<R>(&key->aes, _mm_setzero_si128()); });
    h = polyval_mul_x(bswap128(h));
    __m128i p = h;
    for (unsigned k = 1; k <= kPowers; ++k) {
        if (k > 1) p = dot(p, h);
        _mm_store_si128(reinterpret_cast<__m128i*>(key->hpow[kPowers - k]), p);
        _mm_store_si128(reinterpret_cast<__m128i*>(key->hmid[kPowers - k]),
                        _mm_xor_si128(p, _mm_shuffle_epi32(p, 0x4e)));
    }
    key->npow = kPowers;
}

// GHASH of the nblocks <= N * kLanes blocks in y (already byte-reversed; y[0] includes the running
// value), zero-padded: block i times H'^(nblocks - i).
template <class V, unsigned N>
inline __m128i ghash_partial(const GcmKey* key, const typename V::T* y, std::size_t nblocks) noexcept {
    const std::size_t first = key->npow - nblocks;
    Products<V> p = mul<V>(y[0], load_power<V>(key, first));
#pragma GCC unroll 16
    for (unsigned j = 1; j < N; ++j)
        if (j * V::kLanes < nblocks) mul_add<V>(p, y[j], load_power<V>(key, first + j * V::kLanes));
    return reduce<V>(p);
}

// GHASH over len bytes (zero-padded to whole blocks), continuing s.
template <class V, unsigned kVecs>
inline __m128i ghash_body(const GcmKey* key, __m128i s, const u8* p, std::size_t len) noexcept {
    using T = typename V::T;
    constexpr std::size_t kBatch = kVecs * V::kBytes;
    assert(key->npow == kVecs * V::kLanes);
    const T bsw = V::bcast(_mm_load_si128(reinterpret_cast<const __m128i*>(kBswap)));
    Power<V> hp[kVecs];
#pragma GCC unroll 16
    for (unsigned j = 0; j < kVecs; ++j) hp[j] = load_power<V>(key, j * V::kLanes);
    for (; len >= kBatch; p += kBatch, len -= kBatch) {
        Products<V> acc = mul<V>(V::xor_(V::shuffle(V::load(p), bsw), V::from_lane0(s)), hp[0]);
#pragma GCC unroll 16
        for (unsigned j = 1; j < kVecs; ++j) mul_add<V>(acc, V::shuffle(V::load(p + j * V::kBytes), bsw), hp[j]);
        s = reduce<V>(acc);
    }
    if (len) {
        with_tail_vecs<kVecs>((len + V::kBytes - 1) / V::kBytes, [&]<unsigned N>(Count<N>) {
            T y[N];
#pragma GCC unroll 16
            for (unsigned j = 0; j < N; ++j)
                y[j] = V::shuffle(V::load_n(p + j * V::kBytes, clamp_bytes(len, j * V::kBytes, V::kBytes)), bsw);
            y[0] = V::xor_(y[0], V::from_lane0(s));
            s = ghash_partial<V, N>(key, y, (len + 15) / 16);
        });
    }
    return s;
}

// The round after which GHASH step k of kSteps runs: spread evenly over the middle rounds, or, where V
// says so (zmm), in the last kSteps middle rounds as the kernel's avx10 code does, the first rounds
// pure AES (measured at 16 KiB: zmm 1.09 -> 1.05 of the kernel's time; ymm 2 % slower that way, xmm even).
template <class V, int R>
constexpr int step_round(int k, int kSteps) noexcept {
    return V::kGhashLate && R - 1 >= kSteps ? R - kSteps + k : 1 + k * (R - 1) / kSteps;
}

// CTR with inc32 and GHASH over the ciphertext, stitched: while batch i is encrypted, batch i-1's
// ciphertext is multiplied and reduced, in steps spread over the middle rounds.
template <class V, int R, unsigned kVecs>
inline __m128i gcm_enc_body(const GcmKey* key, const u8 ctr_block[16], __m128i s, const u8* src, u8* dst,
                            std::size_t len) noexcept {
    using T = typename V::T;
    constexpr std::size_t kBatch = kVecs * V::kBytes;
    assert(key->npow == kVecs * V::kLanes);
    T rk[R + 1];
    load_round_keys<V, R>(&key->aes, rk);
    const T bsw = V::bcast(_mm_load_si128(reinterpret_cast<const __m128i*>(kBswap)));
    Counters<V, kVecs> ctr(&key->aes, ctr_block);
    auto counters = [&](T(&x)[kVecs], bool last) { ctr.template batch<kVecs>(x, rk[0], last); };
    if (len >= kBatch) {
        Power<V> hp[kVecs];
#pragma GCC unroll 16
        for (unsigned j = 0; j < kVecs; ++j) hp[j] = load_power<V>(key, j * V::kLanes);
        T ct[kVecs];
        counters(ct, len == kBatch);
        aes_middle_rounds<V, R, kVecs>(rk, ct);
#pragma GCC unroll 16
        for (unsigned j = 0; j < kVecs; ++j) {
            ct[j] = V::aesenclast(ct[j], V::xor_(rk[R], V::load(src + j * V::kBytes)));
            V::store(dst + j * V::kBytes, ct[j]);
        }
        src += kBatch;
        dst += kBatch;
        len -= kBatch;
        // GHASH of the previous batch in kVecs + 2 steps (one vector's products each, then the two
        // reduction folds), spread evenly over the middle rounds, as Linux's aes-gcm-avx10-x86_64.S
        // interleaves its _ghash_step_4x with _vaesenc_4x.
        constexpr int kSteps = static_cast<int>(kVecs) + 2;
        for (; len >= kBatch; src += kBatch, dst += kBatch, len -= kBatch) {
            T x[kVecs];
            counters(x, len == kBatch);
            Products<V> acc{};
            T t{};
#pragma GCC unroll 16
            for (int r = 1; r < R; ++r) {
#pragma GCC unroll 16
                for (unsigned j = 0; j < kVecs; ++j) x[j] = V::aesenc(x[j], rk[r]);
#pragma GCC unroll 16
                for (unsigned j = 0; j < kVecs; ++j) pin(x[j]);
#pragma GCC unroll 16
                for (int k = 0; k < kSteps; ++k) {
                    if (step_round<V, R>(k, kSteps) != r) continue;
                    if (k < static_cast<int>(kVecs)) {
                        T y = V::shuffle(ct[k], bsw);
                        if (k == 0) y = V::xor_(y, V::from_lane0(s));
                        pin(y);
                        if (k == 0)
                            acc = mul<V>(y, hp[0]);
                        else
                            mul_add<V>(acc, y, hp[k]);
                        pin(acc.lo);
                        pin(acc.mid);
                        pin(acc.hi);
                    } else if (k == static_cast<int>(kVecs)) {
                        t = reduce_lo<V>(acc);
                        pin(t);
                    } else {
                        s = reduce_hi<V>(acc.hi, t);
                    }
                }
            }
#pragma GCC unroll 16
            for (unsigned j = 0; j < kVecs; ++j) {
                ct[j] = V::aesenclast(x[j], V::xor_(rk[R], V::load(src + j * V::kBytes)));
                V::store(dst + j * V::kBytes, ct[j]);
            }
        }
        // The last whole batch's ciphertext.
        Products<V> acc = mul<V>(V::xor_(V::shuffle(ct[0], bsw), V::from_lane0(s)), hp[0]);
#pragma GCC unroll 16
        for (unsigned j = 1; j < kVecs; ++j) mul_add<V>(acc, V::shuffle(ct[j], bsw), hp[j]);
        s = reduce<V>(acc);
    }
    if (len) {  // a last, partial batch: only its bytes are read and written; its ciphertext zero-padded
        with_tail_vecs<kVecs>((len + V::kBytes - 1) / V::kBytes, [&]<unsigned N>(Count<N>) {
            T x[N];
            ctr_tail<V, R, N>(ctr, rk, src, dst, len, x);
#pragma GCC unroll 16
            for (unsigned j = 0; j < N; ++j) x[j] = V::shuffle(x[j], bsw);
            x[0] = V::xor_(x[0], V::from_lane0(s));
            s = ghash_partial<V, N>(key, x, (len + 15) / 16);
        });
    }
    return s;
}

template <class V, unsigned kVecs>
inline void gcm_aad_entry(const GcmKey* key, u8 ghash[16], const u8* aad, std::size_t len) noexcept {
    store128(ghash, bswap128(ghash_body<V, kVecs>(key, bswap128(load128(ghash)), aad, len)));
}

template <class V, unsigned kVecs>
inline void gcm_enc_entry(const GcmKey* key, u8 ctr[16], u8 ghash[16], const u8* src, u8* dst,
                          std::size_t len) noexcept {
    if (len == 0) return;
    with_rounds(key->aes.rounds, [&]<int R>(Rounds<R>) {
        const __m128i s = gcm_enc_body<V, R, kVecs>(key, ctr, bswap128(load128(ghash)), src, dst, len);
        store128(ghash, bswap128(s));
    });
    std::uint32_t c;
    std::memcpy(&c, ctr + 12, 4);
    c = __builtin_bswap32(__builtin_bswap32(c) + static_cast<std::uint32_t>((len + 15) / 16));
    std::memcpy(ctr + 12, &c, 4);
}

inline void gcm_final_entry(const GcmKey* key, const u8 iv[12], const u8 ghash[16], std::uint64_t aad_bytes,
                            std::uint64_t data_bytes, u8 tag[16]) noexcept {
    // The length block be64(aad bits) || be64(data bits), byte-reversed.
    const __m128i lengths =
        _mm_set_epi64x(static_cast<long long>(aad_bytes * 8), static_cast<long long>(data_bytes * 8));
    const __m128i h = _mm_load_si128(reinterpret_cast<const __m128i*>(key->hpow[key->npow - 1]));
    const __m128i s = bswap128(dot(_mm_xor_si128(bswap128(load128(ghash)), lengths), h));
    alignas(16) u8 j0[16] = {};
    std::memcpy(j0, iv, 12);
    j0[15] = 1;
    with_rounds(key->aes.rounds,
                [&]<int R>(Rounds<R>) { store128(tag, _mm_xor_si128(aes_block<R>(&key->aes, load128(j0)), s)); });
}

}  // namespace
}  // namespace fputune::aes

// The exported entry points of one ISA file (the only symbols it defines), from the bodies above.
#define FPUTUNE_AES_DEFINE_CTR_XTS(isa, V, kVecs, kXtsVecs)                                                    \
    void aes_ctr_##isa(const AesKey* key, std::uint8_t ctr[16], const std::uint8_t* src, std::uint8_t* dst,    \
                       std::size_t len) noexcept {                                                             \
        ctr_entry<V, kVecs>(key, ctr, src, dst, len);                                                          \
    }                                                                                                          \
    void aes_xts_encrypt_iv_##isa(const AesKey* tweak_key, const std::uint8_t iv[16],                          \
                                  std::uint8_t tweak[16]) noexcept {                                           \
        xts_iv_entry(tweak_key, iv, tweak);                                                                    \
    }                                                                                                          \
    void aes_xts_encrypt_##isa(const AesKey* key, const std::uint8_t* src, std::uint8_t* dst, std::size_t len, \
                               std::uint8_t tweak[16]) noexcept {                                              \
        xts_entry<V, kXtsVecs>(key, src, dst, len, tweak);                                                     \
    }
#define FPUTUNE_AES_DEFINE_GCM(isa, V, kVecs)                                                                        \
    void aes_gcm_setkey_##isa(GcmKey* key, const std::uint8_t* raw_key, std::size_t key_bytes) noexcept {            \
        gcm_setkey_entry<V, kVecs>(key, raw_key, key_bytes);                                                         \
    }                                                                                                                \
    void aes_gcm_aad_##isa(const GcmKey* key, std::uint8_t ghash[16], const std::uint8_t* aad,                       \
                           std::size_t len) noexcept {                                                               \
        gcm_aad_entry<V, kVecs>(key, ghash, aad, len);                                                               \
    }                                                                                                                \
    void aes_gcm_enc_##isa(const GcmKey* key, std::uint8_t ctr[16], std::uint8_t ghash[16], const std::uint8_t* src, \
                           std::uint8_t* dst, std::size_t len) noexcept {                                            \
        gcm_enc_entry<V, kVecs>(key, ctr, ghash, src, dst, len);                                                     \
    }                                                                                                                \
    void aes_gcm_final_##isa(const GcmKey* key, const std::uint8_t iv[12], const std::uint8_t ghash[16],             \
                             std::uint64_t aad_bytes, std::uint64_t data_bytes, std::uint8_t tag[16]) noexcept {     \
        gcm_final_entry(key, iv, ghash, aad_bytes, data_bytes, tag);                                                 \
    }
