// SPDX-License-Identifier: MIT
// The sha family: what each algorithm computes, the entry point of every ISA file (a block function that
// compresses n whole blocks into the chaining state; the only symbol an ISA file exports) and the glue
// that makes a Kernel of one (state in ctx, padding and output in final). The glue is instantiated by
// table.cpp only, with baseline flags.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "glue.hpp"
#include "sha_consts.hpp"

namespace fputune::sha {

inline constexpr Algorithm kSha1{.name = "sha1", .block_bytes = 64, .out_bytes = 20};
inline constexpr Algorithm kSha224{.name = "sha224", .block_bytes = 64, .out_bytes = 28};
inline constexpr Algorithm kSha256{.name = "sha256", .block_bytes = 64, .out_bytes = 32};
inline constexpr Algorithm kSha384{.name = "sha384", .block_bytes = 128, .out_bytes = 48};
inline constexpr Algorithm kSha512{.name = "sha512", .block_bytes = 128, .out_bytes = 64};
inline constexpr Algorithm kSm3{.name = "sm3", .block_bytes = 64, .out_bytes = 32};

template <typename Word>
using BlockFn = void (*)(Word* state, const std::uint8_t* data, std::size_t nblocks) noexcept;

// SHA-1: 5-word state, 64-byte blocks.
void sha1_blocks_generic(std::uint32_t state[5], const std::uint8_t* data, std::size_t nblocks) noexcept;
void sha1_blocks_ssse3(std::uint32_t state[5], const std::uint8_t* data, std::size_t nblocks) noexcept;
void sha1_blocks_avx(std::uint32_t state[5], const std::uint8_t* data, std::size_t nblocks) noexcept;
void sha1_blocks_avx2(std::uint32_t state[5], const std::uint8_t* data, std::size_t nblocks) noexcept;
void sha1_blocks_shani(std::uint32_t state[5], const std::uint8_t* data, std::size_t nblocks) noexcept;

// SHA-224/256: 8-word state, 64-byte blocks.
void sha256_blocks_generic(std::uint32_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept;
void sha256_blocks_ssse3(std::uint32_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept;
void sha256_blocks_avx(std::uint32_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept;
void sha256_blocks_avx2(std::uint32_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept;
void sha256_blocks_shani(std::uint32_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept;

// Two SHA-256 chains at once (sha256_shani_2x.cpp): nblocks blocks of data_a into state_a, of data_b into state_b.
void sha256_blocks_shani_2x(std::uint32_t state_a[8], std::uint32_t state_b[8], const std::uint8_t* data_a,
                            const std::uint8_t* data_b, std::size_t nblocks) noexcept;

// ---- sha256_finup_2x: two messages of one length after one shared prefix (sha256_2x.cpp) --------------------
// Linux (lib/crypto/x86/sha256.h, Biggers 2025, after 6.17) hashes dm-verity's and fs-verity's blocks in pairs: a
// salted prefix, then two data blocks of the same length, their SHA-NI rounds interleaved, both in ONE
// kernel_fpu_begin()/end() section, and only when 64 B <= len <= 64 KiB ("to avoid spending too long with
// preemption disabled"); otherwise each message goes the single-stream way.
inline constexpr std::size_t kSha256Finup2xMinBytes = 64;
inline constexpr std::size_t kSha256Finup2xMaxBytes = 65536;

// The prefix: chaining state after its whole blocks, the bytes hashed so far, the partial block buffered.
struct Sha256Prefix {
    std::uint32_t state[8];
    std::uint64_t nbytes;
    std::uint8_t buf[64];
};
void sha256_prefix_init(Sha256Prefix& p) noexcept;
void sha256_prefix_update(Sha256Prefix& p, const std::uint8_t* data, std::size_t len) noexcept;  // generic code
// The digests of prefix||data1 and prefix||data2 (len bytes each), every block of both through one pass of the
// two-chain block function: what one section of sha256_finup_2x() runs. Any len.
void sha256_finup_2x_shani(const Sha256Prefix& p, const std::uint8_t* data1, const std::uint8_t* data2,
                           std::size_t len, std::uint8_t out1[32], std::uint8_t out2[32]) noexcept;
// The glue's policy: the two-chain section when kSha256Finup2xMinBytes <= len <= kSha256Finup2xMaxBytes (returns
// true), else each message through the one-chain SHA-NI code (false). Needs SHA-NI.
bool sha256_finup_2x(const Sha256Prefix& p, const std::uint8_t* data1, const std::uint8_t* data2, std::size_t len,
                     std::uint8_t out1[32], std::uint8_t out2[32]) noexcept;

using Finup2xFn = void (*)(const Sha256Prefix& p, const std::uint8_t* data1, const std::uint8_t* data2,
                           std::size_t len, std::uint8_t out1[32], std::uint8_t out2[32]) noexcept;

// A two-message finup as a multi-message kernel (kernel.hpp): stripe() over exactly 2 sources of `bytes` each
// (the messages, after an empty prefix) writes their digests to the first 32 bytes of dst[0] and dst[1].
template <Finup2xFn F>
struct Sha256Finup2x {
    static constexpr Algorithm algorithm = kSha256;
    static constexpr std::uint32_t dest_count = 2;
    static constexpr std::uint32_t min_sources = 2;
    static constexpr std::uint32_t max_sources = 2;
    static constexpr std::uint32_t align_bytes = 0;
    static void stripe(std::size_t, std::size_t bytes, const std::uint8_t* const* src,
                       std::uint8_t* const* dst) noexcept {
        Sha256Prefix p;
        sha256_prefix_init(p);
        F(p, src[0], src[1], bytes, dst[0], dst[1]);
    }
};

// SHA-384/512: 8 64-bit words of state, 128-byte blocks.
void sha512_blocks_generic(std::uint64_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept;
void sha512_blocks_ssse3(std::uint64_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept;
void sha512_blocks_avx(std::uint64_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept;
void sha512_blocks_avx2(std::uint64_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept;

// SM3: 8-word state, 64-byte blocks.
void sm3_blocks_generic(std::uint32_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept;
void sm3_blocks_avx(std::uint32_t state[8], const std::uint8_t* data, std::size_t nblocks) noexcept;

// The vector-schedule variants keep the working variables a..h in registers across blocks: after a block
// they add them into the state and go on from the sum.
#define FPUTUNE_SHA2_STATE_ADD() \
    a = state[0] += a;           \
    b = state[1] += b;           \
    c = state[2] += c;           \
    d = state[3] += d;           \
    e = state[4] += e;           \
    f = state[5] += f;           \
    g = state[6] += g;           \
    h = state[7] += h;

// The Merkle-Damgard glue around a block function: the chaining state and the count of bytes hashed in
// ctx; padding as FIPS 180-4 5.1 (and SM3, identical): 0x80, zeros, the bit length big-endian in the
// last 8 (64-byte blocks) or 16 (128-byte blocks) bytes; output big-endian words.
template <typename Word, const Algorithm& A, const Word* Iv, std::size_t StateWords, BlockFn<Word> Blocks>
struct Md {
    static_assert(A.block_bytes == 16 * sizeof(Word));
    struct Ctx {
        Word h[8];
        std::uint64_t nbytes;
    };
    static constexpr Algorithm algorithm = A;
    static constexpr std::size_t ctx_bytes = sizeof(Ctx);

    static void init(void* ctx, const std::uint8_t*) noexcept {
        auto* c = static_cast<Ctx*>(ctx);
        std::memcpy(c->h, Iv, StateWords * sizeof(Word));
        c->nbytes = 0;
    }
    static void blocks(void* ctx, const std::uint8_t* data, std::size_t nblocks) noexcept {
        auto* c = static_cast<Ctx*>(ctx);
        if (nblocks == 0) return;
        Blocks(c->h, data, nblocks);
        c->nbytes += nblocks * A.block_bytes;
    }
    static void final(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out) noexcept {
        constexpr std::size_t block = A.block_bytes;
        auto* c = static_cast<Ctx*>(ctx);
        const std::size_t whole = len / block;
        blocks(ctx, data, whole);
        data += whole * block;
        len -= whole * block;

        std::uint8_t buf[2 * block] = {};
        if (len) std::memcpy(buf, data, len);  // data may be nullptr when len is 0 (memcpy forbids it)
        buf[len] = 0x80;
        const std::size_t nb = len + 1 + 2 * sizeof(Word) <= block ? 1 : 2;
        const std::uint64_t bits = (c->nbytes + len) * 8;
        for (int i = 0; i < 8; ++i) buf[nb * block - 1 - i] = static_cast<std::uint8_t>(bits >> (8 * i));
        Blocks(c->h, buf, nb);

        for (std::size_t i = 0; i < A.out_bytes; ++i)
            out[i] = static_cast<std::uint8_t>(c->h[i / sizeof(Word)] >> (8 * (sizeof(Word) - 1 - i % sizeof(Word))));
    }
};

template <BlockFn<std::uint32_t> B>
using Sha1 = Md<std::uint32_t, kSha1, kSha1Iv, 5, B>;
template <BlockFn<std::uint32_t> B>
using Sha224 = Md<std::uint32_t, kSha224, kSha224Iv, 8, B>;
template <BlockFn<std::uint32_t> B>
using Sha256 = Md<std::uint32_t, kSha256, kSha256Iv, 8, B>;
template <BlockFn<std::uint64_t> B>
using Sha384 = Md<std::uint64_t, kSha384, kSha384Iv, 8, B>;
template <BlockFn<std::uint64_t> B>
using Sha512 = Md<std::uint64_t, kSha512, kSha512Iv, 8, B>;
template <BlockFn<std::uint32_t> B>
using Sm3 = Md<std::uint32_t, kSm3, kSm3Iv, 8, B>;

}  // namespace fputune::sha
