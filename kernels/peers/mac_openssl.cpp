// SPDX-License-Identifier: MIT
// Peers from OpenSSL 3 for the mac family: poly1305 (EVP_MAC), ghash (OpenSSL's own GHASH code, reached
// through the public CRYPTO_gcm128 API with a stand-in block cipher) and blake2s (EVP "BLAKE2S-256").
// Each holds a pointer to an OpenSSL object created in init and freed in final: that allocation is
// part of what the peer costs per request.
#include <openssl/evp.h>
#include <openssl/modes.h>

#include <cassert>
#include <cstring>

#include "../mac/mac.hpp"

namespace fputune::mac {

namespace {

// ---- poly1305 --------------------------------------------------------------------------------------
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

// ---- blake2s -----------------------------------------------------------------------------------------
const EVP_MD* blake2s_md() noexcept {
    static EVP_MD* md = EVP_MD_fetch(nullptr, "BLAKE2S-256", nullptr);
    assert(md != nullptr);
    return md;
}

struct MdCtx {
    EVP_MD_CTX* md;
};

}  // namespace

void poly1305_init_openssl(void* ctx, const std::uint8_t* key) noexcept {
    auto* c = static_cast<MacCtx*>(ctx);
    c->mac = EVP_MAC_CTX_new(poly1305_mac());
    [[maybe_unused]] int ok = EVP_MAC_init(c->mac, key, 32, nullptr);
    assert(ok == 1);
}

void poly1305_blocks_openssl(void* ctx, const std::uint8_t* data, std::size_t nblocks) noexcept {
    EVP_MAC_update(static_cast<MacCtx*>(ctx)->mac, data, nblocks * 16);
}

void poly1305_final_openssl(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out) noexcept {
    auto* c = static_cast<MacCtx*>(ctx);
    EVP_MAC_update(c->mac, data, len);
    std::size_t outl = 0;
    EVP_MAC_final(c->mac, out, &outl, 16);
    EVP_MAC_CTX_free(c->mac);
    c->mac = nullptr;
}

void ghash_init_openssl(void* ctx, const std::uint8_t* key) noexcept {
    auto* c = static_cast<GhashCtx*>(ctx);
    std::memcpy(c->h, key, 16);
    c->gcm = CRYPTO_gcm128_new(c->h, standin_cipher);
    static const unsigned char iv[12] = {};
    CRYPTO_gcm128_setiv(c->gcm, iv, sizeof iv);
    c->aad_bytes = 0;
    c->held = 0;
}

void ghash_blocks_openssl(void* ctx, const std::uint8_t* data, std::size_t nblocks) noexcept {
    ghash_absorb(static_cast<GhashCtx*>(ctx), data, nblocks);
}

void ghash_final_openssl(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out) noexcept {
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

void blake2s_init_openssl(void* ctx, const std::uint8_t*) noexcept {
    auto* c = static_cast<MdCtx*>(ctx);
    c->md = EVP_MD_CTX_new();
    [[maybe_unused]] int ok = EVP_DigestInit_ex(c->md, blake2s_md(), nullptr);
    assert(ok == 1);
}

void blake2s_blocks_openssl(void* ctx, const std::uint8_t* data, std::size_t nblocks) noexcept {
    EVP_DigestUpdate(static_cast<MdCtx*>(ctx)->md, data, nblocks * 64);
}

void blake2s_final_openssl(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out) noexcept {
    auto* c = static_cast<MdCtx*>(ctx);
    EVP_DigestUpdate(c->md, data, len);
    unsigned int outl = 0;
    EVP_DigestFinal_ex(c->md, out, &outl);
    EVP_MD_CTX_free(c->md);
    c->md = nullptr;
}

}  // namespace fputune::mac
