// SPDX-License-Identifier: MIT
// The kernel's ChaCha20 asm (chacha-{ssse3,avx2,avx512vl}-x86_64.S) as cipher kernels, with the
// definitions of kernels/chacha/chacha.hpp (key || IV, 64-byte blocks, the same output as our variants).
// Each variant runs what chacha_dosimd() of chacha_glue.c runs on a CPU whose best is that ISA: 8-block
// calls while 8 blocks remain, then one call of the smallest function that takes the rest; the avx2 code
// leaves one block (or less) to the ssse3 code. crypt() is one FPU section. The gates of
// chacha_crypt_arch() that are a policy are left out, as for the other *-linux variants: at most 64 bytes
// run chacha_crypt_generic() without the FPU (fputune measures where SIMD starts to pay), and a request
// is cut into 4 KiB sections (fputune measures how long a section may be).
#include <algorithm>

#include "chacha.hpp"
#include "linux_glue.hpp"

namespace fputune::linux_glue {
namespace {

using std::uint32_t;
using std::uint8_t;

constexpr unsigned kBlock = 64;
constexpr int kRounds = 20;  // ChaCha20
using LinuxXor = void (*)(uint32_t* state, uint8_t* dst, const uint8_t* src, unsigned int len, int nrounds);
using Dosimd = void (*)(uint32_t* state, uint8_t* dst, const uint8_t* src, unsigned int bytes) noexcept;

// chacha_advance(): the blocks a call that handles at most `most` blocks used, a partial last one included.
constexpr unsigned advance(unsigned len, unsigned most) noexcept {
    return (std::min(len, most * kBlock) + kBlock - 1) / kBlock;
}

#if FPUTUNE_LINUX_CHACHA_SSSE3
// The ssse3 part of chacha_dosimd(): 4 blocks at a time, then 4 blocks' code for more than one block
// left, the 1-block code for the rest.
void dosimd_ssse3(uint32_t* state, uint8_t* dst, const uint8_t* src, unsigned int bytes) noexcept {
    for (; bytes >= 4 * kBlock; bytes -= 4 * kBlock, src += 4 * kBlock, dst += 4 * kBlock) {
        chacha_4block_xor_ssse3(state, dst, src, bytes, kRounds);
        state[12] += 4;
    }
    if (bytes > kBlock) {
        chacha_4block_xor_ssse3(state, dst, src, bytes, kRounds);
        state[12] += advance(bytes, 4);
    } else if (bytes) {
        chacha_block_xor_ssse3(state, dst, src, bytes, kRounds);
        ++state[12];
    }
}
#endif

// The avx512vl and avx2 parts of chacha_dosimd(): the same steps over 8, 4 and 2 blocks; the avx512vl
// code takes any rest with its 2-block function, the avx2 code only more than one block.
template <LinuxXor X8, LinuxXor X4, LinuxXor X2, bool kOneBlockToSsse3>
void dosimd_wide(uint32_t* state, uint8_t* dst, const uint8_t* src, unsigned int bytes) noexcept {
    for (; bytes >= 8 * kBlock; bytes -= 8 * kBlock, src += 8 * kBlock, dst += 8 * kBlock) {
        X8(state, dst, src, bytes, kRounds);
        state[12] += 8;
    }
    if (bytes > 4 * kBlock) {
        X8(state, dst, src, bytes, kRounds);
        state[12] += advance(bytes, 8);
    } else if (bytes > 2 * kBlock) {
        X4(state, dst, src, bytes, kRounds);
        state[12] += advance(bytes, 4);
    } else if (bytes > (kOneBlockToSsse3 ? kBlock : 0)) {
        X2(state, dst, src, bytes, kRounds);
        state[12] += advance(bytes, 2);
    } else {
#if FPUTUNE_LINUX_CHACHA_SSSE3
        if constexpr (kOneBlockToSsse3) dosimd_ssse3(state, dst, src, bytes);
#endif
    }
}

// The kernel's functions take `unsigned int` bytes: a longer input (fputune's messages go to 1 GiB) in
// pieces of whole 8-block strides, which chacha_dosimd() consumes exactly as one input.
template <Dosimd D>
void chacha20_xor(uint32_t state[16], uint8_t* dst, const uint8_t* src, std::size_t bytes) noexcept {
    constexpr std::size_t kPiece = std::size_t{1} << 30;
    for (; bytes > kPiece; bytes -= kPiece, src += kPiece, dst += kPiece) D(state, dst, src, kPiece);
    D(state, dst, src, static_cast<unsigned int>(bytes));
}

}  // namespace

void add_chacha(std::vector<Kernel>& out) {
    using chacha::Chacha20;
    using F [[maybe_unused]] = Feature;  // unused when the tree has none of these files
    // What chacha_simd_mod_init() checks before it enables each path (AVX2 also wants the YMM state, which
    // the registry's AVX check covers), plus what the asm executes.
#if FPUTUNE_LINUX_CHACHA_AVX512VL
    out.push_back(
        kernel<Chacha20<chacha20_xor<
            dosimd_wide<chacha_8block_xor_avx512vl, chacha_4block_xor_avx512vl, chacha_2block_xor_avx512vl, false>>>>(
            linux_variant("chacha20-avx512vl-linux", "avx512vl",
                          features(F::avx, F::avx2, F::avx512f, F::avx512vl, F::avx512bw))));
#endif
#if FPUTUNE_LINUX_CHACHA_AVX2 && FPUTUNE_LINUX_CHACHA_SSSE3
    out.push_back(
        kernel<Chacha20<
            chacha20_xor<dosimd_wide<chacha_8block_xor_avx2, chacha_4block_xor_avx2, chacha_2block_xor_avx2, true>>>>(
            linux_variant("chacha20-avx2-linux", "avx2", features(F::avx, F::avx2, F::ssse3))));
#endif
#if FPUTUNE_LINUX_CHACHA_SSSE3
    out.push_back(kernel<Chacha20<chacha20_xor<dosimd_ssse3>>>(
        linux_variant("chacha20-ssse3-linux", "ssse3", features(F::ssse3))));
#endif
    (void)out;
}

}  // namespace fputune::linux_glue
