// SPDX-License-Identifier: MIT
// SHA-224/256 with the message schedule in vectors and the rounds in scalar registers, written once over
// a width's traits T: a vector V holds four schedule words of each of kBlocks blocks (one per 128-bit
// lane). The first block's rounds run with the schedule of all kBlocks blocks threaded between them; the
// other blocks' rounds then read their schedule from memory. The widths: vec_xmm.hpp (sha256_ssse3.cpp,
// -mssse3, SSE encoding; sha256_avx.cpp, -mavx, VEX encoding), vec_ymm.hpp (sha256_avx2.cpp). Each file
// is compiled with its own flags; everything is in an anonymous namespace, so each keeps its own copy.
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "sha.hpp"
#include "sha_consts.hpp"

namespace fputune::sha {
namespace {

// The rounds as the kernel's code for each width writes them. The ssse3 and avx files define FPUTUNE_SHA_KERNEL_ROUNDS
// (sha256-ssse3-asm.S, sha256-avx-asm.S): each Sigma in one register, three rotates in a chain (e ror 14, ^ e, ror 5, ^
// e, ror 6 = Sigma1), Ch = ((f ^ g) & e) ^ g, Maj = ((a | c) & b) | (a & c); the avx file also FPUTUNE_SHA_ROTATE_SHLD:
// its rotates are shld of a register with itself ("faster than ror on Sandy Bridge", as the kernel's source says; with
// them and the chained Sigmas that code took 2.3x as long as independent rorx rotates on an AMD Zen 5 VM). Otherwise
// (avx2, sha256-avx2-asm.S): three independent rotates (rorx), Ch as a sum of disjoint terms, so the adds reassociate,
// and Maj = ((a ^ b) & (b ^ c)) ^ b with b ^ c the previous round's a ^ b, carried in `bc` (one op less per round).
#include "sha_rotate.inc"

#ifdef FPUTUNE_SHA_KERNEL_ROUNDS
#define FPUTUNE_SHA256_ROUND(a, b, c, d, e, f, g, h, wk)                      \
    do {                                                                      \
        h += (wk) + ror<6>(ror<5>(ror<14>(e) ^ e) ^ e) + (((f ^ g) & e) ^ g); \
        d += h;                                                               \
        h += ror<2>(ror<11>(ror<9>(a) ^ a) ^ a) + (((a | c) & b) | (a & c));  \
        (void)bc;                                                             \
    } while (0)
#else
#define FPUTUNE_SHA256_ROUND(a, b, c, d, e, f, g, h, wk)                          \
    do {                                                                          \
        h += (wk) + (ror<6>(e) ^ ror<11>(e) ^ ror<25>(e)) + ((e & f) + (~e & g)); \
        d += h;                                                                   \
        const std::uint32_t ab_ = a ^ b;                                          \
        h += (ror<2>(a) ^ ror<13>(a) ^ ror<22>(a)) + ((ab_ & bc) ^ b);            \
        bc = ab_;                                                                 \
    } while (0)
#endif
// Four rounds of block B from round r (a multiple of 4); the second form continues with the names four
// rounds on. W+K of round r of block B is at wk[4 * kBlocks * (r / 4) + 4 * B + r % 4], written without
// the division (r % 4 == 0 here) so that the index stays an addressing mode, as in the per-width copies.
#define FPUTUNE_WK(r, B, i) wk[kBlocks * (r) + 4 * (B) + (i)]
#define FPUTUNE_SHA256_ROUNDS4(r, B)                                   \
    FPUTUNE_SHA256_ROUND(a, b, c, d, e, f, g, h, FPUTUNE_WK(r, B, 0)); \
    FPUTUNE_SHA256_ROUND(h, a, b, c, d, e, f, g, FPUTUNE_WK(r, B, 1)); \
    FPUTUNE_SHA256_ROUND(g, h, a, b, c, d, e, f, FPUTUNE_WK(r, B, 2)); \
    FPUTUNE_SHA256_ROUND(f, g, h, a, b, c, d, e, FPUTUNE_WK(r, B, 3));
#define FPUTUNE_SHA256_ROUNDS4B(r, B)                                  \
    FPUTUNE_SHA256_ROUND(e, f, g, h, a, b, c, d, FPUTUNE_WK(r, B, 0)); \
    FPUTUNE_SHA256_ROUND(d, e, f, g, h, a, b, c, FPUTUNE_WK(r, B, 1)); \
    FPUTUNE_SHA256_ROUND(c, d, e, f, g, h, a, b, FPUTUNE_WK(r, B, 2)); \
    FPUTUNE_SHA256_ROUND(b, c, d, e, f, g, h, a, FPUTUNE_WK(r, B, 3));

// The next four schedule words W[t..t+3] of each lane into x0, from x0..x3 = W[t-16..t-1], and their W+K
// into wk. sigma1 of W[t-2], W[t-1] gives words t, t+1; those give t+2, t+3. sigma1's rotates come from
// 64-bit shifts of each word duplicated into a qword (low dword = the rotate); shuf_00ba / shuf_dc00
// pack dwords 0 and 2 into lanes 0,1 / 2,3, zeroing the rest.
template <class T>
inline void schedule(typename T::V& x0, typename T::V x1, typename T::V x2, typename T::V x3, const std::uint32_t* k,
                     std::uint32_t* wkout, typename T::V shuf_00ba, typename T::V shuf_dc00) noexcept {
    using V = typename T::V;
    const V w15 = T::template alignr8<4>(x1, x0);
    const V w7 = T::template alignr8<4>(x3, x2);
    const V s0a = T::shr32(w15, 7), s0b = T::shl32(w15, 14);
    V s0 = T::xor_(T::shr32(w15, 3), s0a);
    s0 = T::xor_(s0, T::shr32(s0a, 11));
    s0 = T::xor_(s0, s0b);
    s0 = T::xor_(s0, T::shl32(s0b, 11));
    V t = T::add32(T::add32(x0, w7), s0);
    V d = T::template shuffle32<0xfa>(x3);  // W14 W14 W15 W15
    V s1 = T::xor_(T::shr64(d, 17), T::shr64(d, 19));
    s1 = T::xor_(s1, T::shr32(d, 10));
    t = T::add32(t, T::shuffle8(s1, shuf_00ba));
    d = T::template shuffle32<0x50>(t);  // W0 W0 W1 W1
    s1 = T::xor_(T::shr64(d, 17), T::shr64(d, 19));
    s1 = T::xor_(s1, T::shr32(d, 10));
    x0 = T::add32(t, T::shuffle8(s1, shuf_dc00));
    T::store(wkout, T::add32(x0, T::k4(k)));
}

// T: using V; kBlocks; xor_, add32, shr32/shl32/shr64 (per word), alignr8<n>, shuffle32<imm>, shuffle8 (per
// 128-bit lane), store (aligned), per_lane(hi, lo) (a 128-bit constant in every lane), k4 (four round
// constants in every lane), load_be (16 bytes of each of kBlocks blocks as big-endian words).
template <class T>
void sha256_blocks_body(std::uint32_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept {
    using V = typename T::V;
    constexpr int kBlocks = T::kBlocks;
    const V shuf_00ba = T::per_lane(-1, 0x0b0a090803020100LL);
    const V shuf_dc00 = T::per_lane(0x0b0a090803020100LL, -1);
    alignas(32) std::uint32_t wk[64 * kBlocks];

    std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    std::uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
    while (nblocks) {
        // With fewer blocks left than lanes, the last block's data fills the other lanes, unused.
        const std::size_t here = kBlocks == 1 || nblocks >= kBlocks ? kBlocks : nblocks;
        V x[4];
        for (int i = 0; i < 4; ++i) {
            x[i] = T::load_be(data + 16 * i, here);
            T::store(wk + 4 * kBlocks * i, T::add32(x[i], T::k4(kSha256K + 4 * i)));
        }
        V x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3];

        // Block 0: the rounds of group i interleaved with the schedule of group i + 4 (every block's).
        std::uint32_t bc = b ^ c;
        for (int i = 0; i < 48; i += 16) {
            schedule<T>(x0, x1, x2, x3, kSha256K + i + 16, wk + kBlocks * (i + 16), shuf_00ba, shuf_dc00);
            FPUTUNE_SHA256_ROUNDS4(i, 0)
            schedule<T>(x1, x2, x3, x0, kSha256K + i + 20, wk + kBlocks * (i + 20), shuf_00ba, shuf_dc00);
            FPUTUNE_SHA256_ROUNDS4B(i + 4, 0)
            schedule<T>(x2, x3, x0, x1, kSha256K + i + 24, wk + kBlocks * (i + 24), shuf_00ba, shuf_dc00);
            FPUTUNE_SHA256_ROUNDS4(i + 8, 0)
            schedule<T>(x3, x0, x1, x2, kSha256K + i + 28, wk + kBlocks * (i + 28), shuf_00ba, shuf_dc00);
            FPUTUNE_SHA256_ROUNDS4B(i + 12, 0)
        }
        for (int i = 48; i < 64; i += 8) {
            FPUTUNE_SHA256_ROUNDS4(i, 0)
            FPUTUNE_SHA256_ROUNDS4B(i + 4, 0)
        }
        FPUTUNE_SHA2_STATE_ADD()
        // The other blocks: their schedule is already in wk.
        if constexpr (kBlocks > 1) {
            for (std::size_t B = 1; B < here; ++B) {
                bc = b ^ c;
                for (int i = 0; i < 64; i += 8) {
                    FPUTUNE_SHA256_ROUNDS4(i, B)
                    FPUTUNE_SHA256_ROUNDS4B(i + 4, B)
                }
                FPUTUNE_SHA2_STATE_ADD()
            }
        }
        data += 64 * here;
        nblocks -= here;
    }
}

#undef FPUTUNE_SHA256_ROUND
#undef FPUTUNE_WK
#undef FPUTUNE_SHA256_ROUNDS4
#undef FPUTUNE_SHA256_ROUNDS4B

}  // namespace
}  // namespace fputune::sha
