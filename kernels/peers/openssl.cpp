// SPDX-License-Identifier: MIT
// Peers from OpenSSL 3: sha1/224/256/384/512 through the low-level API (plain structs in ctx, whole
// blocks go straight to OpenSSL's own dispatched block function), sm3 and blake2s through EVP, poly1305
// through EVP_MAC, and ghash (OpenSSL's own GHASH code, reached through the public CRYPTO_gcm128 API with
// a stand-in block cipher). Baseline flags; OpenSSL picks its own code path (SHA-NI, AVX2, ...) at run time.
#include <cassert>
#include <cstring>

// The low-level SHA*_Init/Update/Final are deprecated in OpenSSL 3 but are the only API whose context
// is plain memory and whose update on whole blocks is just the block function.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/evp.h>
#include <openssl/modes.h>
#include <openssl/sha.h>

#include "mac/mac_peers.hpp"
#include "sha/sha_peers.hpp"

namespace fputune::peers {

// ---- sha1 .. sha512: the low-level API -------------------------------------------------------------
static_assert(sizeof(SHA_CTX) <= kPeerCtxBytes && sizeof(SHA256_CTX) <= kPeerCtxBytes &&
              sizeof(SHA512_CTX) <= kPeerCtxBytes);

#define FPUTUNE_OPENSSL_LOWLEVEL(Peer, CTX, Init, Update, Final)                                         \
    void Peer::init(void* ctx, const std::uint8_t*) noexcept { Init(static_cast<CTX*>(ctx)); }           \
    void Peer::blocks(void* ctx, const std::uint8_t* data, std::size_t nblocks) noexcept {               \
        Update(static_cast<CTX*>(ctx), data, nblocks* algorithm.block_bytes);                            \
    }                                                                                                    \
    void Peer::final(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out) noexcept { \
        Update(static_cast<CTX*>(ctx), data, len);                                                       \
        Final(out, static_cast<CTX*>(ctx));                                                              \
    }

FPUTUNE_OPENSSL_LOWLEVEL(Sha1OpenSsl, SHA_CTX, SHA1_Init, SHA1_Update, SHA1_Final)
FPUTUNE_OPENSSL_LOWLEVEL(Sha224OpenSsl, SHA256_CTX, SHA224_Init, SHA224_Update, SHA224_Final)
FPUTUNE_OPENSSL_LOWLEVEL(Sha256OpenSsl, SHA256_CTX, SHA256_Init, SHA256_Update, SHA256_Final)
FPUTUNE_OPENSSL_LOWLEVEL(Sha384OpenSsl, SHA512_CTX, SHA384_Init, SHA384_Update, SHA384_Final)
FPUTUNE_OPENSSL_LOWLEVEL(Sha512OpenSsl, SHA512_CTX, SHA512_Init, SHA512_Update, SHA512_Final)
#undef FPUTUNE_OPENSSL_LOWLEVEL

namespace {

// ---- sm3, blake2s: EVP digests ---------------------------------------------------------------------
// EVP contexts are heap memory: ctx holds the pointer. blocks() therefore includes EVP's dispatch
// overhead (small next to 64-byte blocks).
struct EvpCtx {
    EVP_MD_CTX* md;
};

void evp_init(void* ctx, const EVP_MD* md) noexcept {
    auto* c = static_cast<EvpCtx*>(ctx);
    c->md = EVP_MD_CTX_new();
    [[maybe_unused]] int ok = c->md && md && EVP_DigestInit_ex(c->md, md, nullptr);
    assert(ok);
}

void evp_update(void* ctx, const std::uint8_t* data, std::size_t len) noexcept {
    EVP_DigestUpdate(static_cast<EvpCtx*>(ctx)->md, data, len);
}

void evp_final(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out) noexcept {
    auto* c = static_cast<EvpCtx*>(ctx);
    EVP_DigestUpdate(c->md, data, len);
    unsigned int n = 0;
    EVP_DigestFinal_ex(c->md, out, &n);
    EVP_MD_CTX_free(c->md);
    c->md = nullptr;
}

const EVP_MD* blake2s_md() noexcept {
    static EVP_MD* md = EVP_MD_fetch(nullptr, "BLAKE2S-256", nullptr);  // fetched once, never freed
    return md;
}

// ---- poly1305: EVP_MAC -----------------------------------------------------------------------------
EVP_MAC* poly1305_mac() noexcept {
    static EVP_MAC* mac = EVP_MAC_fetch(nullptr, "POLY1305", nullptr);  // fetched once, never freed
    assert(mac != nullptr);
    return mac;
}

struct MacCtx {
    EVP_MAC_CTX* mac;
};

// ---- ghash -------------------------------------------------------------------------------------------
// OpenSSL does not export plain GHASH, but CRYPTO_gcm128 takes the block cipher as a function pointer.
// With a stand-in "cipher" that maps the zero block to our H (so GCM's hash key is H) and everything else
// to zero (so the tag mask E(K, J0) is zero), GCM's tag over AAD X_1..X_{m-1} is
//     S' = GHASH_H(X_1..X_{m-1}) * H  ^  L' * H      (L' = the GCM length block of those AAD bytes),
// and the plain GHASH of all m blocks is  S' ^ (L' ^ X_m) * H : everything but the last multiplication by H
// runs in OpenSSL's GHASH (pclmul/avx as it dispatches). So blocks() holds back the last block it sees,
// and final() does that one multiplication here, bit-serially. This makes the peer an exact oracle for
// our ghash, at the cost of one extra GF(2^128) multiplication and the context's setup per request.
struct GhashCtx {
    GCM128_CONTEXT* gcm;
    std::uint64_t aad_bytes;
    std::uint32_t held;  // 1 when last holds a block not yet given to OpenSSL
    std::uint8_t h[16];
    std::uint8_t last[16];
};
static_assert(sizeof(GhashCtx) <= kPeerCtxBytes);

void standin_cipher(const unsigned char in[16], unsigned char out[16], const void* key) {
    static const unsigned char zero[16] = {};
    if (std::memcmp(in, zero, 16) == 0)
        std::memcpy(out, key, 16);
    else
        std::memset(out, 0, 16);
}

// x * y in GCM's bit order (bit 0 = the top bit of byte 0), bit-serial and constant-time.
void gf128_mul_gcm(const std::uint8_t x[16], const std::uint8_t y[16], std::uint8_t out[16]) noexcept {
    std::uint64_t z0 = 0, z1 = 0, v0 = 0, v1 = 0;
    for (int i = 0; i < 8; ++i) {
        v0 = v0 << 8 | y[i];
        v1 = v1 << 8 | y[8 + i];
    }
    for (int i = 0; i < 128; ++i) {
        const std::uint64_t bit = 0 - static_cast<std::uint64_t>((x[i / 8] >> (7 - i % 8)) & 1);
        z0 ^= v0 & bit;
        z1 ^= v1 & bit;
        const std::uint64_t lsb = 0 - (v1 & 1);
        v1 = (v1 >> 1) | (v0 << 63);
        v0 = (v0 >> 1) ^ (0xe100000000000000ull & lsb);
    }
    for (int i = 0; i < 8; ++i) {
        out[i] = static_cast<std::uint8_t>(z0 >> (56 - 8 * i));
        out[8 + i] = static_cast<std::uint8_t>(z1 >> (56 - 8 * i));
    }
}

void ghash_absorb(GhashCtx* c, const std::uint8_t* data, std::size_t nblocks) noexcept {
    if (nblocks == 0) return;
    if (c->held) {
        CRYPTO_gcm128_aad(c->gcm, c->last, 16);
        c->aad_bytes += 16;
    }
    CRYPTO_gcm128_aad(c->gcm, data, (nblocks - 1) * 16);
    c->aad_bytes += (nblocks - 1) * 16;
    std::memcpy(c->last, data + (nblocks - 1) * 16, 16);
    c->held = 1;
}

}  // namespace

void Sm3OpenSsl::init(void* ctx, const std::uint8_t*) noexcept { evp_init(ctx, EVP_sm3()); }
void Sm3OpenSsl::blocks(void* ctx, const std::uint8_t* data, std::size_t nblocks) noexcept {
    evp_update(ctx, data, nblocks * algorithm.block_bytes);
}
void Sm3OpenSsl::final(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out) noexcept {
    evp_final(ctx, data, len, out);
}

void Blake2sOpenSsl::init(void* ctx, const std::uint8_t*) noexcept { evp_init(ctx, blake2s_md()); }
void Blake2sOpenSsl::blocks(void* ctx, const std::uint8_t* data, std::size_t nblocks) noexcept {
    evp_update(ctx, data, nblocks * algorithm.block_bytes);
}
void Blake2sOpenSsl::final(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out) noexcept {
    evp_final(ctx, data, len, out);
}

void Poly1305OpenSsl::init(void* ctx, const std::uint8_t* key) noexcept {
    auto* c = static_cast<MacCtx*>(ctx);
    c->mac = EVP_MAC_CTX_new(poly1305_mac());
    [[maybe_unused]] int ok = EVP_MAC_init(c->mac, key, 32, nullptr);
    assert(ok == 1);
}

void Poly1305OpenSsl::blocks(void* ctx, const std::uint8_t* data, std::size_t nblocks) noexcept {
    EVP_MAC_update(static_cast<MacCtx*>(ctx)->mac, data, nblocks * 16);
}

void Poly1305OpenSsl::final(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out) noexcept {
    auto* c = static_cast<MacCtx*>(ctx);
    EVP_MAC_update(c->mac, data, len);
    std::size_t outl = 0;
    EVP_MAC_final(c->mac, out, &outl, 16);
    EVP_MAC_CTX_free(c->mac);
    c->mac = nullptr;
}

void GhashOpenSsl::init(void* ctx, const std::uint8_t* key) noexcept {
    auto* c = static_cast<GhashCtx*>(ctx);
    std::memcpy(c->h, key, 16);
    c->gcm = CRYPTO_gcm128_new(c->h, standin_cipher);
    static const unsigned char iv[12] = {};
    CRYPTO_gcm128_setiv(c->gcm, iv, sizeof iv);
    c->aad_bytes = 0;
    c->held = 0;
}

void GhashOpenSsl::blocks(void* ctx, const std::uint8_t* data, std::size_t nblocks) noexcept {
    ghash_absorb(static_cast<GhashCtx*>(ctx), data, nblocks);
}

void GhashOpenSsl::final(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out) noexcept {
    auto* c = static_cast<GhashCtx*>(ctx);
    ghash_absorb(c, data, len / 16);
    if (len % 16) {
        std::uint8_t pad[16] = {};
        std::memcpy(pad, data + len / 16 * 16, len % 16);
        ghash_absorb(c, pad, 1);
    }
    std::uint8_t tag[16];
    CRYPTO_gcm128_tag(c->gcm, tag, 16);  // S' (E(K, J0) is zero by construction)
    CRYPTO_gcm128_release(c->gcm);
    c->gcm = nullptr;
    if (!c->held) {  // empty input
        std::memset(out, 0, 16);
        return;
    }
    std::uint8_t z[16] = {};  // L' ^ X_m; L' = bit length of the AAD (big-endian) || 64 zero bits
    const std::uint64_t bits = c->aad_bytes * 8;
    for (int i = 0; i < 8; ++i) z[i] = static_cast<std::uint8_t>(bits >> (56 - 8 * i));
    for (int i = 0; i < 16; ++i) z[i] ^= c->last[i];
    std::uint8_t zh[16];
    gf128_mul_gcm(z, c->h, zh);
    for (int i = 0; i < 16; ++i) out[i] = tag[i] ^ zh[i];
}

}  // namespace fputune::peers
