// SPDX-License-Identifier: MIT
// SHA-384/512 block function, two blocks at a time: both blocks' message schedules in ymm registers
// (two words of one block per 128-bit lane), rounds in scalar registers with rorx. Requires AVX2,
// BMI1 (andn), BMI2.
#include <immintrin.h>

#include "sha.hpp"
#include "sha_consts.hpp"

namespace fputune::sha {
namespace {

#ifdef FPUTUNE_SHA512_LEA
// Built with -DFPUTUNE_SHA512_LEA=ON (CMake), for measuring on AMD: the round's additions as lea, as
// OpenSSL's AVX2 rounds write them. If AMD Zen 3 issues a two-operand lea to its three address units
// (AMD SOG 19h as LLVM's Znver3 model reads it), 6 of a round's 22 integer ops leave its 4 ALUs. Off by
// default: on a Rocket Lake VM (lea on 2 of 4 ALU ports) it made sha512-avx2 2.5 % slower, 1.037 ->
// 1.063 of OpenSSL's time; see docs/zen3-speed.md.
inline std::uint64_t lea_add(std::uint64_t x, std::uint64_t y) noexcept {
    std::uint64_t sum;
    asm("lea (%1,%2), %0" : "=r"(sum) : "r"(x), "r"(y));
    return sum;
}
#define FPUTUNE_SHA512_ADD(x, y) lea_add((x), (y))
#endif
#include "sha512_rounds.inc"

// K with each pair of words repeated for the second lane, so W+K is one add with a memory operand.
struct Sha512KPairs {
    alignas(32) std::uint64_t k[160];
};
constexpr Sha512KPairs make_k_pairs() {
    Sha512KPairs t{};
    for (int i = 0; i < 80; i += 2) {
        t.k[2 * i] = t.k[2 * i + 2] = kSha512K[i];
        t.k[2 * i + 1] = t.k[2 * i + 3] = kSha512K[i + 1];
    }
    return t;
}
constexpr Sha512KPairs kKPairs = make_k_pairs();

// As sha512_xmm.hpp, each 128-bit lane for its own block; W+K of words t, t+1 of block 1 at
// wk[2t..2t+1], of block 2 at wk[2t+2..2t+3].
#define FPUTUNE_SCHED512_YMM(x0, x1, x4, x5, x7, kidx)                                                          \
    do {                                                                                                        \
        const __m256i w15 = _mm256_alignr_epi8(x1, x0, 8);                                                      \
        const __m256i w7 = _mm256_alignr_epi8(x5, x4, 8);                                                       \
        /* ror 8 is a byte rotate: one shuffle instead of two shifts and an xor */                              \
        __m256i s0 = _mm256_xor_si256(_mm256_srli_epi64(w15, 1), _mm256_slli_epi64(w15, 63));                   \
        s0 = _mm256_xor_si256(s0, _mm256_xor_si256(_mm256_shuffle_epi8(w15, ror8), _mm256_srli_epi64(w15, 7))); \
        __m256i s1 = _mm256_xor_si256(_mm256_srli_epi64(x7, 19), _mm256_slli_epi64(x7, 45));                    \
        s1 = _mm256_xor_si256(s1, _mm256_xor_si256(_mm256_srli_epi64(x7, 61), _mm256_slli_epi64(x7, 3)));       \
        s1 = _mm256_xor_si256(s1, _mm256_srli_epi64(x7, 6));                                                    \
        x0 = _mm256_add_epi64(_mm256_add_epi64(x0, w7), _mm256_add_epi64(s0, s1));                              \
        _mm256_store_si256(                                                                                     \
            reinterpret_cast<__m256i*>(wk + 2 * (kidx)),                                                        \
            _mm256_add_epi64(x0, _mm256_load_si256(reinterpret_cast<const __m256i*>(kKPairs.k + 2 * (kidx))))); \
    } while (0)

// Step k of a pair's schedule (words 16+2k, 17+2k of both blocks) with x[] rotated by `base` (= k mod 8,
// a constant; k itself may vary at run time).
#define FPUTUNE_STEP(base, k)                                                                          \
    FPUTUNE_SCHED512_YMM(x[(base) % 8], x[((base) + 1) % 8], x[((base) + 4) % 8], x[((base) + 5) % 8], \
                         x[((base) + 7) % 8], 16 + 2 * (k))
// W+K of round r0 + i (r0 a multiple of 8 at run time, i constant) for block 1 / block 2.
#define FPUTUNE_WK1(i) wr[2 * (i) - (i) % 2]
#define FPUTUNE_WK2(i) wr[2 * (i) - (i) % 2 + 2]
// Eight rounds with two schedule steps before them.
#define FPUTUNE_R8S2(WK, r0, base, k)  \
    FPUTUNE_STEP(base, k);             \
    FPUTUNE_STEP((base) + 1, (k) + 1); \
    wr = wkr + 2 * (r0);               \
    FPUTUNE_SHA512_ROUNDS8(WK, 0)
#define FPUTUNE_R8(WK, r0) \
    wr = wkr + 2 * (r0);   \
    FPUTUNE_SHA512_ROUNDS8(WK, 0)
#define FPUTUNE_STATE_ADD() FPUTUNE_SHA2_STATE_ADD() bc = b ^ c;
// Loads 16 bytes of each block of a pair (the second block may repeat the first) into x[i] and its
// W+K into wk. Written out, not as a loop, so that x[] stays in registers.
#define FPUTUNE_LOAD16(first, second, i)                                                                       \
    do {                                                                                                       \
        const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>((first) + 16 * (i)));              \
        const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>((second) + 16 * (i)));             \
        x[i] = _mm256_shuffle_epi8(_mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1), bswap);         \
        _mm256_store_si256(                                                                                    \
            reinterpret_cast<__m256i*>(wk + 4 * (i)),                                                          \
            _mm256_add_epi64(x[i], _mm256_load_si256(reinterpret_cast<const __m256i*>(kKPairs.k + 4 * (i))))); \
    } while (0)
#define FPUTUNE_LOAD_PAIR(first, second) \
    FPUTUNE_LOAD16(first, second, 0);    \
    FPUTUNE_LOAD16(first, second, 1);    \
    FPUTUNE_LOAD16(first, second, 2);    \
    FPUTUNE_LOAD16(first, second, 3);    \
    FPUTUNE_LOAD16(first, second, 4);    \
    FPUTUNE_LOAD16(first, second, 5);    \
    FPUTUNE_LOAD16(first, second, 6);    \
    FPUTUNE_LOAD16(first, second, 7);

}  // namespace

// The schedule of a pair is 32 steps. Doing them all during the first block's rounds makes those rounds
// front-end bound (scalar rounds plus vector steps exceed the dispatch width) while the second
// block's rounds leave the vector side idle. So the schedule is software-pipelined: steps 0..11 of the
// next pair run during the second block of the current one, steps 12..31 during its own first block,
// with two W+K buffers alternating.
void sha512_blocks_avx2(std::uint64_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept {
    if (nblocks == 0) return;
    const __m256i bswap =
        _mm256_set_epi64x(0x08090a0b0c0d0e0fULL, 0x0001020304050607ULL, 0x08090a0b0c0d0e0fULL, 0x0001020304050607ULL);
    const __m256i ror8 =
        _mm256_set_epi64x(0x080f0e0d0c0b0a09LL, 0x0007060504030201LL, 0x080f0e0d0c0b0a09LL, 0x0007060504030201LL);
    alignas(32) std::uint64_t wkbuf[2][160];
    unsigned cur = 0;
    __m256i x[8];

    {
        std::uint64_t* wk = wkbuf[0];
        // With one block left, its data fills both lanes and only the first is used.
        FPUTUNE_LOAD_PAIR(data, nblocks >= 2 ? data + 128 : data)
        FPUTUNE_STEP(0, 0);
        FPUTUNE_STEP(1, 1);
        FPUTUNE_STEP(2, 2);
        FPUTUNE_STEP(3, 3);
        FPUTUNE_STEP(4, 4);
        FPUTUNE_STEP(5, 5);
        FPUTUNE_STEP(6, 6);
        FPUTUNE_STEP(7, 7);
        FPUTUNE_STEP(8, 8);
        FPUTUNE_STEP(9, 9);
        FPUTUNE_STEP(10, 10);
        FPUTUNE_STEP(11, 11);
    }

    std::uint64_t a = state[0], b = state[1], c = state[2], d = state[3];
    std::uint64_t e = state[4], f = state[5], g = state[6], h = state[7];
    std::uint64_t bc = b ^ c;
    for (;;) {
        std::uint64_t* wk = wkbuf[cur];
        // Rounds read W+K through a pointer the compiler cannot see through: otherwise it forwards the
        // vector stores to the rounds with vpextrq.
        const std::uint64_t* wkr = wk;
        asm("" : "+r"(wkr));

        const std::uint64_t* wr;
        // Block 1, with steps 12..31 of this pair, two per eight rounds: a step is done 16 rounds or
        // more before its words are used. Rolled loops keep the code within the op cache (fully
        // unrolled, this function was 25 KB and ran 40% slower or not depending on its alignment).
        for (int r0 = 0; r0 < 64; r0 += 32) {
            const int k0 = 12 + r0 / 4;
            FPUTUNE_R8S2(FPUTUNE_WK1, r0, 4, k0)
            FPUTUNE_R8S2(FPUTUNE_WK1, r0 + 8, 6, k0 + 2)
            FPUTUNE_R8S2(FPUTUNE_WK1, r0 + 16, 8, k0 + 4)
            FPUTUNE_R8S2(FPUTUNE_WK1, r0 + 24, 10, k0 + 6)
        }
        FPUTUNE_R8S2(FPUTUNE_WK1, 64, 4, 28)
        FPUTUNE_R8S2(FPUTUNE_WK1, 72, 6, 30)
        FPUTUNE_STATE_ADD()
        if (nblocks < 2) break;

        // Block 2 from the same buffer, with steps 0..11 of the next pair into the other buffer. After
        // the last pair they run on this pair's data again and are discarded (no read past the input).
        const std::size_t left = nblocks - 2;
        const std::uint8_t* next = left ? data + 256 : data;
        wk = wkbuf[cur ^ 1];
        FPUTUNE_LOAD_PAIR(next, left >= 2 ? next + 128 : next)
        FPUTUNE_R8S2(FPUTUNE_WK2, 0, 0, 0)
        FPUTUNE_R8S2(FPUTUNE_WK2, 8, 2, 2)
        FPUTUNE_R8S2(FPUTUNE_WK2, 16, 4, 4)
        FPUTUNE_R8S2(FPUTUNE_WK2, 24, 6, 6)
        FPUTUNE_R8S2(FPUTUNE_WK2, 32, 8, 8)
        FPUTUNE_R8S2(FPUTUNE_WK2, 40, 10, 10)
        for (int r0 = 48; r0 < 80; r0 += 16) {
            FPUTUNE_R8(FPUTUNE_WK2, r0)
            FPUTUNE_R8(FPUTUNE_WK2, r0 + 8)
        }
        FPUTUNE_STATE_ADD()
        if (left == 0) break;
        data += 256;
        nblocks = left;
        cur ^= 1;
    }
}

#undef FPUTUNE_STEP
#undef FPUTUNE_R8S2
#undef FPUTUNE_R8
#undef FPUTUNE_WK1
#undef FPUTUNE_STATE_ADD
#undef FPUTUNE_LOAD_PAIR
#undef FPUTUNE_LOAD16
#undef FPUTUNE_SCHED512_YMM
#undef FPUTUNE_WK2
#undef FPUTUNE_SHA512_ADD

}  // namespace fputune::sha
