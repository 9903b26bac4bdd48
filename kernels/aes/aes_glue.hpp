// SPDX-License-Identifier: MIT
// The glue of the aes family: what Linux's aesni-intel_glue.c keeps between its assembly calls (round
// keys, GHASH key powers, counters, the running tweak) and the cipher-shaped kernel entry points on top
// of one ISA file's functions (aes.hpp): init (key || IV), blocks (associated data, GCM only), crypt
// (one FPU section's whole blocks, src -> dst) and final (the rest of the message, then the tag).
// Baseline code: only the table instantiates it, after the registry has checked the CPU.
#pragma once

#include <cassert>
#include <cstring>

#include "aes.hpp"
#include "glue.hpp"

namespace fputune::aes {

// What each mode computes. key_bytes counts what init reads: the key (XTS: both), then the IV.
inline constexpr Algorithm kAes128Ctr{
    .name = "aes-128-ctr", .block_bytes = 16, .key_bytes = 16 + 16, .out_bytes = 0, .iv_bytes = 16};
inline constexpr Algorithm kAes256Ctr{
    .name = "aes-256-ctr", .block_bytes = 16, .key_bytes = 32 + 16, .out_bytes = 0, .iv_bytes = 16};
inline constexpr Algorithm kAes128Xts{.name = "aes-128-xts",
                                      .block_bytes = 16,
                                      .key_bytes = 32 + 16,
                                      .out_bytes = 0,
                                      .iv_bytes = 16,
                                      .final_min_bytes = 16};
inline constexpr Algorithm kAes256Xts{.name = "aes-256-xts",
                                      .block_bytes = 16,
                                      .key_bytes = 64 + 16,
                                      .out_bytes = 0,
                                      .iv_bytes = 16,
                                      .final_min_bytes = 16};
inline constexpr Algorithm kAes128Gcm{
    .name = "aes-128-gcm", .block_bytes = 16, .key_bytes = 16 + 12, .out_bytes = 16, .iv_bytes = 12};
inline constexpr Algorithm kAes256Gcm{
    .name = "aes-256-gcm", .block_bytes = 16, .key_bytes = 32 + 12, .out_bytes = 16, .iv_bytes = 12};

// ---- CTR: key || 16-byte initial counter block ---------------------------------------------------------
struct alignas(64) CtrCtx {
    AesKey key;
    std::uint8_t ctr[16];
};

using CtrFn = void (*)(const AesKey*, std::uint8_t*, const std::uint8_t*, std::uint8_t*, std::size_t) noexcept;

template <CtrFn Crypt, std::size_t kKeyBytes>
struct Ctr {
    static constexpr Algorithm algorithm = kKeyBytes == 16 ? kAes128Ctr : kAes256Ctr;
    static constexpr std::size_t key_bytes = kKeyBytes, iv_bytes = 16, ctx_bytes = sizeof(CtrCtx);
    static void init(void* ctx, const std::uint8_t* key) noexcept {
        auto* c = static_cast<CtrCtx*>(ctx);
        aes_expand_key(&c->key, key, kKeyBytes);
        std::memcpy(c->ctr, key + kKeyBytes, 16);
    }
    static void crypt(void* ctx, const std::uint8_t* src, std::uint8_t* dst, std::size_t nblocks) noexcept {
        auto* c = static_cast<CtrCtx*>(ctx);
        Crypt(&c->key, c->ctr, src, dst, 16 * nblocks);
    }
    static void final(void* ctx, const std::uint8_t* src, std::size_t len, std::uint8_t* out) noexcept {
        auto* c = static_cast<CtrCtx*>(ctx);
        Crypt(&c->key, c->ctr, src, out, len);
    }
};

// ---- XTS: key1 (data) || key2 (tweak), IEEE 1619 order, || 16-byte IV (the sector number) --------------
// The tweak is encrypted by the first section, as Linux's xts_crypt() does inside the same
// kernel_fpu_begin(): a whole message in one crypt() is the 64-bit fast path's section.
struct alignas(64) XtsCtx {
    AesKey data_key;
    AesKey tweak_key;
    std::uint8_t iv[16];
    std::uint8_t tweak[16];
    std::uint32_t started;
};

using XtsIvFn = void (*)(const AesKey*, const std::uint8_t*, std::uint8_t*) noexcept;
using XtsFn = void (*)(const AesKey*, const std::uint8_t*, std::uint8_t*, std::size_t, std::uint8_t*) noexcept;

template <XtsIvFn Iv, XtsFn Crypt, std::size_t kKeyBytes>
struct Xts {
    static constexpr Algorithm algorithm = kKeyBytes == 16 ? kAes128Xts : kAes256Xts;
    static constexpr std::size_t key_bytes = 2 * kKeyBytes, iv_bytes = 16, ctx_bytes = sizeof(XtsCtx);
    static void init(void* ctx, const std::uint8_t* key) noexcept {
        auto* c = static_cast<XtsCtx*>(ctx);
        aes_expand_key(&c->data_key, key, kKeyBytes);
        aes_expand_key(&c->tweak_key, key + kKeyBytes, kKeyBytes);
        std::memcpy(c->iv, key + 2 * kKeyBytes, 16);
        c->started = 0;
    }
    static void run(XtsCtx* c, const std::uint8_t* src, std::uint8_t* dst, std::size_t len) noexcept {
        if (len == 0) return;
        if (!c->started) {
            Iv(&c->tweak_key, c->iv, c->tweak);
            c->started = 1;
        }
        Crypt(&c->data_key, src, dst, len, c->tweak);
    }
    static void crypt(void* ctx, const std::uint8_t* src, std::uint8_t* dst, std::size_t nblocks) noexcept {
        run(static_cast<XtsCtx*>(ctx), src, dst, 16 * nblocks);
    }
    // A partial last block steals from the whole block before it: final gets both (>= 16 bytes).
    static void final(void* ctx, const std::uint8_t* src, std::size_t len, std::uint8_t* out) noexcept {
        assert(len % 16 == 0 || len >= 16);
        run(static_cast<XtsCtx*>(ctx), src, out, len);
    }
};

// ---- GCM: key || 12-byte IV; associated data through blocks(), then the data; 16-byte tag ------------
struct alignas(64) GcmCtx {
    GcmKey key;
    std::uint8_t iv[12];
    std::uint8_t ctr[16];
    std::uint8_t ghash[16];
    std::uint64_t aad_bytes;
    std::uint64_t data_bytes;
};

using GcmSetkeyFn = void (*)(GcmKey*, const std::uint8_t*, std::size_t) noexcept;
using GcmAadFn = void (*)(const GcmKey*, std::uint8_t*, const std::uint8_t*, std::size_t) noexcept;
using GcmEncFn = void (*)(const GcmKey*, std::uint8_t*, std::uint8_t*, const std::uint8_t*, std::uint8_t*,
                          std::size_t) noexcept;
using GcmFinalFn = void (*)(const GcmKey*, const std::uint8_t*, const std::uint8_t*, std::uint64_t, std::uint64_t,
                            std::uint8_t*) noexcept;

// The key schedule and GHASH powers are set up in init: in Linux they come from setkey, before any
// request, so no request's section pays for them.
template <GcmSetkeyFn Setkey, GcmAadFn Aad, GcmEncFn Enc, GcmFinalFn Final, std::size_t kKeyBytes>
struct Gcm {
    static constexpr Algorithm algorithm = kKeyBytes == 16 ? kAes128Gcm : kAes256Gcm;
    static constexpr std::size_t key_bytes = kKeyBytes, iv_bytes = 12, ctx_bytes = sizeof(GcmCtx);
    static void init(void* ctx, const std::uint8_t* key) noexcept {
        auto* c = static_cast<GcmCtx*>(ctx);
        Setkey(&c->key, key, kKeyBytes);
        std::memcpy(c->iv, key + kKeyBytes, 12);
        std::memcpy(c->ctr, c->iv, 12);
        c->ctr[12] = c->ctr[13] = c->ctr[14] = 0;
        c->ctr[15] = 2;  // the first data block's counter: inc32(J0)
        std::memset(c->ghash, 0, 16);
        c->aad_bytes = c->data_bytes = 0;
    }
    // Associated data in whole blocks (Linux hashes all of it in one section), before any data.
    static void blocks(void* ctx, const std::uint8_t* aad, std::size_t nblocks) noexcept {
        auto* c = static_cast<GcmCtx*>(ctx);
        assert(c->data_bytes == 0);
        Aad(&c->key, c->ghash, aad, 16 * nblocks);
        c->aad_bytes += 16 * nblocks;
    }
    static void crypt(void* ctx, const std::uint8_t* src, std::uint8_t* dst, std::size_t nblocks) noexcept {
        auto* c = static_cast<GcmCtx*>(ctx);
        Enc(&c->key, c->ctr, c->ghash, src, dst, 16 * nblocks);
        c->data_bytes += 16 * nblocks;
    }
    static void final(void* ctx, const std::uint8_t* src, std::size_t len, std::uint8_t* out) noexcept {
        auto* c = static_cast<GcmCtx*>(ctx);
        Enc(&c->key, c->ctr, c->ghash, src, out, len);
        c->data_bytes += len;
        Final(&c->key, c->iv, c->ghash, c->aad_bytes, c->data_bytes, out + len);
    }
};

}  // namespace fputune::aes

// ---- Peers: OpenSSL EVP with the same entry points (kernels/peers/aes_openssl.cpp) ----------------------
// Each holds EVP contexts created in init and freed in final: that allocation is part of what the peer
// costs per request, as for the other OpenSSL peers. EVP picks its own code for the CPU (masked with
// OPENSSL_ia32cap to choose a path).
namespace fputune::aes {

inline constexpr std::size_t kOpenSslCtxBytes = 128;

#define FPUTUNE_AES_PEER_ENTRY_POINTS                                                                       \
    static void init(void* ctx, const std::uint8_t* key) noexcept;                                          \
    static void crypt(void* ctx, const std::uint8_t* src, std::uint8_t* dst, std::size_t nblocks) noexcept; \
    static void final(void* ctx, const std::uint8_t* src, std::size_t len, std::uint8_t* out) noexcept

template <std::size_t kKeyBytes>
struct CtrOpenSsl {
    static constexpr Algorithm algorithm = kKeyBytes == 16 ? kAes128Ctr : kAes256Ctr;
    static constexpr std::size_t key_bytes = kKeyBytes, iv_bytes = 16, ctx_bytes = kOpenSslCtxBytes;
    FPUTUNE_AES_PEER_ENTRY_POINTS;
};
// OpenSSL encrypts each EVP_EncryptUpdate as a whole XTS message; a crypt() that continues a message
// restarts it from the IV whose encryption is the running tweak (one extra block decryption).
template <std::size_t kKeyBytes>
struct XtsOpenSsl {
    static constexpr Algorithm algorithm = kKeyBytes == 16 ? kAes128Xts : kAes256Xts;
    static constexpr std::size_t key_bytes = 2 * kKeyBytes, iv_bytes = 16, ctx_bytes = kOpenSslCtxBytes;
    FPUTUNE_AES_PEER_ENTRY_POINTS;
};
template <std::size_t kKeyBytes>
struct GcmOpenSsl {
    static constexpr Algorithm algorithm = kKeyBytes == 16 ? kAes128Gcm : kAes256Gcm;
    static constexpr std::size_t key_bytes = kKeyBytes, iv_bytes = 12, ctx_bytes = kOpenSslCtxBytes;
    FPUTUNE_AES_PEER_ENTRY_POINTS;
    static void blocks(void* ctx, const std::uint8_t* aad, std::size_t nblocks) noexcept;
};
#undef FPUTUNE_AES_PEER_ENTRY_POINTS

}  // namespace fputune::aes
