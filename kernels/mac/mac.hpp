// SPDX-License-Identifier: MIT
// The mac family (poly1305, ghash, polyval, nh, nhpoly1305, blake2s): what each algorithm computes, the
// entry point of every ISA file (the only symbol it exports: it absorbs whole blocks into a context of
// the algorithm's own layout), and the glue that makes a Kernel of one. The glue is instantiated by
// table.cpp only, with baseline flags; what it calls besides the entry point (the poly1305 scalar core,
// the nh and blake2s streaming) is compiled with baseline flags in the generic files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "glue.hpp"

namespace fputune::mac {

// ---- poly1305 ------------------------------------------------------------------------------------
inline constexpr Algorithm kPoly1305{.name = "poly1305", .block_bytes = 16, .key_bytes = 32, .out_bytes = 16};

// The 130-bit accumulator in 64-bit limbs (h2 stays small), the clamped r and the pad s.
// Every variant keeps this between calls, so the SIMD files can finish odd blocks with the scalar core.
struct Poly1305Core {
    std::uint64_t h[3];
    std::uint64_t r[2];
    std::uint64_t s[2];
};
// Compiled with baseline flags in poly1305_scalar.cpp: safe to call from every ISA file.
void poly1305_core_init(Poly1305Core* st,
                        const std::uint8_t key[32]) noexcept;  // r = clamp(key[0..16)), s = key[16..32)
void poly1305_core_blocks(Poly1305Core* st, const std::uint8_t* m, std::size_t nblocks, std::uint64_t hibit) noexcept;
// Pads a tail of 1..15 bytes with 0x01 and zeros and absorbs it (no-op for len 0).
void poly1305_core_tail(Poly1305Core* st, const std::uint8_t* m, std::size_t len) noexcept;
// h mod p, plus s when add_s (Linux poly1305_core_emit with or without a nonce), little-endian.
void poly1305_core_emit(const Poly1305Core* st, bool add_s, std::uint8_t out[16]) noexcept;

// The context of every poly1305 variant: the core, and the SIMD variants' key powers in their own limb
// layout, computed by the first blocks() that goes vector (as the kernel does, so their cost is measured).
struct alignas(64) Poly1305Ctx {
    Poly1305Core core;
    std::uint32_t powers_ready;
    std::uint32_t unused;
    std::uint64_t pw[80];
};
using Poly1305BlocksFn = void (*)(Poly1305Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept;
void poly1305_blocks_scalar(Poly1305Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept;
void poly1305_blocks_avx(Poly1305Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept;
void poly1305_blocks_avx2(Poly1305Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept;
void poly1305_blocks_avx512(Poly1305Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept;
void poly1305_blocks_ifma(Poly1305Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept;

template <Poly1305BlocksFn Blocks>
struct Poly1305 {
    static constexpr Algorithm algorithm = kPoly1305;
    static constexpr std::size_t ctx_bytes = sizeof(Poly1305Ctx);
    static void init(void* ctx, const std::uint8_t* key) noexcept {
        auto* c = static_cast<Poly1305Ctx*>(ctx);
        poly1305_core_init(&c->core, key);
        c->powers_ready = 0;
    }
    static void blocks(void* ctx, const std::uint8_t* data, std::size_t nblocks) noexcept {
        Blocks(static_cast<Poly1305Ctx*>(ctx), data, nblocks);
    }
    static void final(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out) noexcept {
        auto* c = static_cast<Poly1305Ctx*>(ctx);
        Blocks(c, data, len / 16);
        poly1305_core_tail(&c->core, data + len / 16 * 16, len % 16);
        poly1305_core_emit(&c->core, true, out);
    }
};

// ---- ghash and polyval -----------------------------------------------------------------------------
// ghash: GCM's GHASH (McGrew-Viega) keyed by H over the data zero-padded to 16 bytes, WITHOUT the
// length block (GCM appends it; callers here hash whatever blocks they give). polyval: RFC 8452.
// Both are one field: GHASH = byte-reversed POLYVAL with H' = mulX_POLYVAL(ByteReverse(H)) (RFC 8452
// Appendix A), so every variant computes POLYVAL and the glue turns keys and outputs around.
inline constexpr Algorithm kGhash{.name = "ghash", .block_bytes = 16, .key_bytes = 16, .out_bytes = 16};
inline constexpr Algorithm kPolyval{.name = "polyval", .block_bytes = 16, .key_bytes = 16, .out_bytes = 16};

struct alignas(64) Gf128Ctx {
    std::uint64_t s[2];  // accumulator, POLYVAL domain: s[0] = coefficients x^0..x^63
    std::uint64_t h[2];  // the key in the POLYVAL domain
    std::uint32_t powers_ready;  // the SIMD variants' H^1..H^16, computed on first use per key
    std::uint32_t unused[7];
    std::uint64_t pw[16][2];  // pw[i] = H^(16 - i) in Montgomery form: a run of B blocks uses pw[16-B..]
    std::uint64_t pk[16][2];  // both qwords: hi ^ lo of pw[i], the Karatsuba middle operand
};
// Absorbs nblocks blocks, each byte-reversed first when kGhash.
using Gf128BlocksFn = void (*)(Gf128Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept;
void ghash_blocks_generic(Gf128Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept;
void ghash_blocks_pclmul(Gf128Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept;
void ghash_blocks_vpclmul_avx2(Gf128Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept;
void ghash_blocks_vpclmul_avx512(Gf128Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept;
void polyval_blocks_generic(Gf128Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept;
void polyval_blocks_pclmul(Gf128Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept;
void polyval_blocks_pclmul_avx(Gf128Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept;
void polyval_blocks_vpclmul_avx2(Gf128Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept;
void polyval_blocks_vpclmul_avx512(Gf128Ctx* c, const std::uint8_t* data, std::size_t nblocks) noexcept;

template <bool kIsGhash, Gf128BlocksFn Blocks>
struct Gf128 {
    static constexpr Algorithm algorithm = kIsGhash ? kGhash : kPolyval;
    static constexpr std::size_t ctx_bytes = sizeof(Gf128Ctx);
    static void init(void* ctx, const std::uint8_t* key) noexcept {
        auto* c = static_cast<Gf128Ctx*>(ctx);
        c->s[0] = c->s[1] = 0;
        c->powers_ready = 0;
        std::uint64_t lo, hi;
        std::memcpy(&lo, key, 8);
        std::memcpy(&hi, key + 8, 8);
        if constexpr (kIsGhash) {
            // H' = mulX_POLYVAL(ByteReverse(H)): shift left one bit, folding x^128 back as x^127+x^126+x^121+1.
            const std::uint64_t rlo = __builtin_bswap64(hi), rhi = __builtin_bswap64(lo);
            const std::uint64_t carry = 0 - (rhi >> 63);
            lo = (rlo << 1) ^ (carry & 1);
            hi = ((rhi << 1) | (rlo >> 63)) ^ (carry & 0xc200000000000000ull);
        }
        c->h[0] = lo;
        c->h[1] = hi;
    }
    static void blocks(void* ctx, const std::uint8_t* data, std::size_t nblocks) noexcept {
        Blocks(static_cast<Gf128Ctx*>(ctx), data, nblocks);
    }
    static void final(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out) noexcept {
        auto* c = static_cast<Gf128Ctx*>(ctx);
        Blocks(c, data, len / 16);
        if (len % 16) {  // the tail is zero-padded to a block, as GCM pads its AAD and ciphertext
            std::uint8_t block[16] = {};
            std::memcpy(block, data + len / 16 * 16, len % 16);
            Blocks(c, block, 1);
        }
        std::uint8_t s[16];
        std::memcpy(s, c->s, 16);
        for (int i = 0; i < 16; ++i) out[i] = s[kIsGhash ? 15 - i : i];
    }
};
template <Gf128BlocksFn B>
using Ghash = Gf128<true, B>;
template <Gf128BlocksFn B>
using Polyval = Gf128<false, B>;

// ---- NH (Adiantum, Linux crypto/nhpoly1305) ------------------------------------------------------
inline constexpr std::size_t kNhPairStride = 2;
inline constexpr std::size_t kNhPasses = 4;
inline constexpr std::size_t kNhMessageUnit = 16;  // NH_MESSAGE_UNIT
inline constexpr std::size_t kNhMessageBytes = 1024;  // NH_MESSAGE_BYTES
inline constexpr std::size_t kNhHashBytes = 32;  // NH_HASH_BYTES: 4 passes x 64 bits
inline constexpr std::size_t kNhKeyWords = kNhMessageBytes / 4 + kNhPairStride * 2 * (kNhPasses - 1);  // 268
inline constexpr std::size_t kNhKeyBytes = kNhKeyWords * 4;  // 1072
inline constexpr std::size_t kNhPoly1305KeyBytes = 16 + kNhKeyBytes;  // NHPOLY1305_KEY_SIZE: r, then the NH key
// nh: the lane-wise sum of the NH hashes of the 1024-byte messages (defined in nh_generic.cpp).
inline constexpr Algorithm kNh{.name = "nh", .block_bytes = 16, .key_bytes = kNhKeyBytes, .out_bytes = 32};
// nhpoly1305: Linux crypto_nhpoly1305.
inline constexpr Algorithm kNhPoly1305{
    .name = "nhpoly1305", .block_bytes = 16, .key_bytes = kNhPoly1305KeyBytes, .out_bytes = 16};

// The NH core of one ISA: adds to sums[4] the NH sums of len bytes (a multiple of 16) starting at
// key word `key` (the caller advances it by 4 words per 16-byte unit already hashed in this message).
using NhCoreFn = void (*)(const std::uint32_t* key, const std::uint8_t* m, std::size_t len,
                          std::uint64_t sums[4]) noexcept;
void nh_core_generic(const std::uint32_t* key, const std::uint8_t* m, std::size_t len, std::uint64_t sums[4]) noexcept;
void nh_core_sse2(const std::uint32_t* key, const std::uint8_t* m, std::size_t len, std::uint64_t sums[4]) noexcept;
void nh_core_avx2(const std::uint32_t* key, const std::uint8_t* m, std::size_t len, std::uint64_t sums[4]) noexcept;

// The streaming around an NH core, in nh_generic.cpp (baseline flags; it only calls the core).
inline constexpr std::size_t kNhCtxBytes = 1216;
void nh_glue_init(void* ctx, const std::uint8_t* key) noexcept;
void nh_glue_blocks(void* ctx, const std::uint8_t* data, std::size_t nblocks, NhCoreFn core) noexcept;
void nh_glue_final(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out, NhCoreFn core) noexcept;
void nhpoly1305_glue_init(void* ctx, const std::uint8_t* key) noexcept;
void nhpoly1305_glue_blocks(void* ctx, const std::uint8_t* data, std::size_t nblocks, NhCoreFn core) noexcept;
void nhpoly1305_glue_final(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out,
                           NhCoreFn core) noexcept;

template <NhCoreFn Core>
using Nh = Streamed<kNh, kNhCtxBytes, Core, nh_glue_init, nh_glue_blocks, nh_glue_final>;
template <NhCoreFn Core>
using NhPoly1305 =
    Streamed<kNhPoly1305, kNhCtxBytes, Core, nhpoly1305_glue_init, nhpoly1305_glue_blocks, nhpoly1305_glue_final>;

// ---- BLAKE2s-256, unkeyed ------------------------------------------------------------------------
inline constexpr Algorithm kBlake2s{.name = "blake2s", .block_bytes = 64, .out_bytes = 32};

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
// last), and f0 = ~0 marks the final block.
using Blake2sCompressFn = void (*)(Blake2sState* st, const std::uint8_t* m, std::size_t nblocks, std::uint32_t inc,
                                   std::uint32_t f0) noexcept;
void blake2s_compress_generic(Blake2sState* st, const std::uint8_t* m, std::size_t nblocks, std::uint32_t inc,
                              std::uint32_t f0) noexcept;
void blake2s_compress_ssse3(Blake2sState* st, const std::uint8_t* m, std::size_t nblocks, std::uint32_t inc,
                            std::uint32_t f0) noexcept;
void blake2s_compress_avx512(Blake2sState* st, const std::uint8_t* m, std::size_t nblocks, std::uint32_t inc,
                             std::uint32_t f0) noexcept;

// The streaming around a compression function (baseline flags, blake2s_generic.cpp): buffering of the
// last block, padding, output.
void blake2s_glue_init(void* ctx, const std::uint8_t* key) noexcept;
void blake2s_glue_blocks(void* ctx, const std::uint8_t* data, std::size_t nblocks, Blake2sCompressFn fn) noexcept;
void blake2s_glue_final(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out,
                        Blake2sCompressFn fn) noexcept;

template <Blake2sCompressFn Compress>
using Blake2s =
    Streamed<kBlake2s, sizeof(Blake2sState), Compress, blake2s_glue_init, blake2s_glue_blocks, blake2s_glue_final>;

}  // namespace fputune::mac
