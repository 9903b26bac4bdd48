// SPDX-License-Identifier: MIT
// Entry points of the mac family (poly1305, ghash, polyval, nh, nhpoly1305, blake2s), one set per ISA
// file, and the few plain structs and constants they share. No inline functions: see STYLE.md.
#pragma once

#include <cstddef>
#include <cstdint>

namespace fputune::mac {

// ---- poly1305 ------------------------------------------------------------------------------------
// The 130-bit accumulator in 64-bit limbs (h2 stays small), the clamped r and the pad s.
// Every variant keeps this between calls, so the SIMD files can finish odd blocks with the scalar core.
struct Poly1305Core {
    std::uint64_t h[3];
    std::uint64_t r[2];
    std::uint64_t s[2];
};
// Compiled with baseline flags in poly1305_scalar.cpp: safe to call from every ISA file.
void poly1305_core_init(Poly1305Core* st, const std::uint8_t key[32]) noexcept;  // r = clamp(key[0..16)), s = key[16..32)
void poly1305_core_blocks(Poly1305Core* st, const std::uint8_t* m, std::size_t nblocks, std::uint64_t hibit) noexcept;
// Pads a tail of 1..15 bytes with 0x01 and zeros and absorbs it (no-op for len 0).
void poly1305_core_tail(Poly1305Core* st, const std::uint8_t* m, std::size_t len) noexcept;
// h mod p, plus s when add_s (Linux poly1305_core_emit with or without a nonce), little-endian.
void poly1305_core_emit(const Poly1305Core* st, bool add_s, std::uint8_t out[16]) noexcept;

inline constexpr std::size_t kPoly1305KeyBytes = 32;

void poly1305_init_scalar(void* ctx, const std::uint8_t* key) noexcept;
void poly1305_blocks_scalar(void* ctx, const std::uint8_t* data, std::size_t nblocks) noexcept;
void poly1305_final_scalar(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out) noexcept;
inline constexpr std::size_t kPoly1305ScalarCtxBytes = sizeof(Poly1305Core);

// SIMD variants: the core plus key powers in base 2^26 (or 2^44 for ifma), computed on first use.
inline constexpr std::size_t kPoly1305SimdCtxBytes = 1024;
#define FPUTUNE_POLY1305_DECL(isa)                                                                      \
    void poly1305_init_##isa(void* ctx, const std::uint8_t* key) noexcept;                             \
    void poly1305_blocks_##isa(void* ctx, const std::uint8_t* data, std::size_t nblocks) noexcept;     \
    void poly1305_final_##isa(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out) noexcept;
FPUTUNE_POLY1305_DECL(avx)
FPUTUNE_POLY1305_DECL(avx2)
FPUTUNE_POLY1305_DECL(avx512)
FPUTUNE_POLY1305_DECL(ifma)
#undef FPUTUNE_POLY1305_DECL

// ---- the kernel signature triple, for the remaining algorithms ------------------------------------
#define FPUTUNE_MAC_DECL(alg, isa)                                                                     \
    void alg##_init_##isa(void* ctx, const std::uint8_t* key) noexcept;                                \
    void alg##_blocks_##isa(void* ctx, const std::uint8_t* data, std::size_t nblocks) noexcept;        \
    void alg##_final_##isa(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out) noexcept;

// ghash: GCM's GHASH (McGrew-Viega) keyed by H over the data zero-padded to 16 bytes, WITHOUT the
// length block (GCM appends it; callers here hash whatever blocks they give). polyval: RFC 8452.
inline constexpr std::size_t kGf128CtxBytes = 640;
FPUTUNE_MAC_DECL(ghash, generic)
FPUTUNE_MAC_DECL(ghash, pclmul)
FPUTUNE_MAC_DECL(ghash, vpclmul_avx512)
FPUTUNE_MAC_DECL(polyval, generic)
FPUTUNE_MAC_DECL(polyval, pclmul)
FPUTUNE_MAC_DECL(polyval, vpclmul_avx512)

// ---- NH (Adiantum, Linux crypto/nhpoly1305) ------------------------------------------------------
inline constexpr std::size_t kNhPairStride = 2;
inline constexpr std::size_t kNhPasses = 4;
inline constexpr std::size_t kNhMessageUnit = 16;     // NH_MESSAGE_UNIT
inline constexpr std::size_t kNhMessageBytes = 1024;  // NH_MESSAGE_BYTES
inline constexpr std::size_t kNhHashBytes = 32;       // NH_HASH_BYTES: 4 passes x 64 bits
inline constexpr std::size_t kNhKeyWords = kNhMessageBytes / 4 + kNhPairStride * 2 * (kNhPasses - 1);  // 268
inline constexpr std::size_t kNhKeyBytes = kNhKeyWords * 4;                                         // 1072
inline constexpr std::size_t kNhPoly1305KeyBytes = 16 + kNhKeyBytes;  // NHPOLY1305_KEY_SIZE: r, then the NH key

// The NH core of one ISA: adds to sums[4] the NH sums of len bytes (a multiple of 16) starting at
// key word `key` (the caller advances it by 4 words per 16-byte unit already hashed in this message).
using NhCoreFn = void (*)(const std::uint32_t* key, const std::uint8_t* m, std::size_t len, std::uint64_t sums[4]) noexcept;
void nh_core_generic(const std::uint32_t* key, const std::uint8_t* m, std::size_t len, std::uint64_t sums[4]) noexcept;
void nh_core_sse2(const std::uint32_t* key, const std::uint8_t* m, std::size_t len, std::uint64_t sums[4]) noexcept;
void nh_core_avx2(const std::uint32_t* key, const std::uint8_t* m, std::size_t len, std::uint64_t sums[4]) noexcept;

// The streaming glue over an NhCoreFn, in nh_generic.cpp (baseline flags; it only calls the core).
void nh_glue_init(void* ctx, const std::uint8_t* key) noexcept;
void nh_glue_blocks(void* ctx, const std::uint8_t* data, std::size_t nblocks, NhCoreFn core) noexcept;
void nh_glue_final(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out, NhCoreFn core) noexcept;
void nhpoly1305_glue_init(void* ctx, const std::uint8_t* key) noexcept;
void nhpoly1305_glue_blocks(void* ctx, const std::uint8_t* data, std::size_t nblocks, NhCoreFn core) noexcept;
void nhpoly1305_glue_final(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out, NhCoreFn core) noexcept;
FPUTUNE_MAC_DECL(nh, generic)
FPUTUNE_MAC_DECL(nh, sse2)
FPUTUNE_MAC_DECL(nh, avx2)
FPUTUNE_MAC_DECL(nhpoly1305, generic)
FPUTUNE_MAC_DECL(nhpoly1305, sse2)
FPUTUNE_MAC_DECL(nhpoly1305, avx2)
inline constexpr std::size_t kNhCtxBytes = 1152;
inline constexpr std::size_t kNhPoly1305CtxBytes = 1216;

// ---- BLAKE2s-256, unkeyed ------------------------------------------------------------------------
// The state every variant shares: blocks() keeps the last block it was given unabsorbed (buf), because
// BLAKE2s compresses the final block with the finalization flag and blocks() cannot know it is last.
struct Blake2sState {
    std::uint32_t h[8];
    std::uint32_t t[2];
    std::uint32_t buffered;  // 1 when buf holds a whole block not yet compressed
    std::uint32_t pad_;
    std::uint8_t buf[64];
};
inline constexpr std::uint32_t kBlake2sIv[8] = {0x6A09E667u, 0xBB67AE85u, 0x3C6EF372u, 0xA54FF53Au,
                                                0x510E527Fu, 0x9B05688Cu, 0x1F83D9ABu, 0x5BE0CD19u};
inline constexpr std::uint8_t kBlake2sSigma[10][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4}, {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13}, {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11}, {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5}, {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0}};
// Compresses nblocks blocks; the counter advances by inc per block (64, or the tail length for the
// last), and f0 = ~0 marks the final block. The ISA files export one each.
using Blake2sCompressFn = void (*)(Blake2sState* st, const std::uint8_t* m, std::size_t nblocks, std::uint32_t inc,
                                   std::uint32_t f0) noexcept;
void blake2s_compress_generic(Blake2sState* st, const std::uint8_t* m, std::size_t nblocks, std::uint32_t inc, std::uint32_t f0) noexcept;
void blake2s_compress_ssse3(Blake2sState* st, const std::uint8_t* m, std::size_t nblocks, std::uint32_t inc, std::uint32_t f0) noexcept;
void blake2s_compress_avx512(Blake2sState* st, const std::uint8_t* m, std::size_t nblocks, std::uint32_t inc, std::uint32_t f0) noexcept;
FPUTUNE_MAC_DECL(blake2s, generic)
FPUTUNE_MAC_DECL(blake2s, ssse3)
FPUTUNE_MAC_DECL(blake2s, avx512)
inline constexpr std::size_t kBlake2sCtxBytes = sizeof(Blake2sState);
// The glue (baseline flags, blake2s_generic.cpp): buffering of the last block, padding, output.
void blake2s_glue_init(void* ctx, const std::uint8_t* key) noexcept;
void blake2s_glue_blocks(void* ctx, const std::uint8_t* data, std::size_t nblocks, Blake2sCompressFn fn) noexcept;
void blake2s_glue_final(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out, Blake2sCompressFn fn) noexcept;

// ---- peers (kernels/peers/mac_openssl.cpp, mac_sodium.cpp) -----------------------------------------
FPUTUNE_MAC_DECL(poly1305, openssl)
FPUTUNE_MAC_DECL(poly1305, sodium)
FPUTUNE_MAC_DECL(ghash, openssl)
FPUTUNE_MAC_DECL(blake2s, openssl)
inline constexpr std::size_t kPeerCtxBytes = 512;

#undef FPUTUNE_MAC_DECL

}  // namespace fputune::mac
