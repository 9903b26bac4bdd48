// SPDX-License-Identifier: MIT
// The aes family's peers from OpenSSL 3: EVP aes-{128,256}-{ctr,xts,gcm} behind the cipher kernel entry
// points of aes_glue.hpp. Baseline flags; OpenSSL dispatches to its own aesni / aesni+avx code.
#include <openssl/evp.h>

#include <cassert>
#include <cstring>

#include "aes_glue.hpp"

namespace fputune::aes {

namespace {

const EVP_CIPHER* cipher(const char* mode, std::size_t key_bytes) noexcept {
    const EVP_CIPHER* c = nullptr;
    if (!std::strcmp(mode, "ctr")) c = key_bytes == 16 ? EVP_aes_128_ctr() : EVP_aes_256_ctr();
    if (!std::strcmp(mode, "xts")) c = key_bytes == 16 ? EVP_aes_128_xts() : EVP_aes_256_xts();
    if (!std::strcmp(mode, "gcm")) c = key_bytes == 16 ? EVP_aes_128_gcm() : EVP_aes_256_gcm();
    if (!std::strcmp(mode, "ecb")) c = key_bytes == 16 ? EVP_aes_128_ecb() : EVP_aes_256_ecb();
    assert(c != nullptr);
    return c;
}

// An EVP context that encrypts (or decrypts) with the given key and IV; aborts the test run, not the
// tool, if OpenSSL cannot set it up (an allocation failure in a peer).
EVP_CIPHER_CTX* evp_new(const EVP_CIPHER* c, const std::uint8_t* key, const std::uint8_t* iv, bool enc) noexcept {
    EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
    [[maybe_unused]] const int ok = ctx && EVP_CipherInit_ex(ctx, c, nullptr, key, iv, enc ? 1 : 0) == 1;
    assert(ok);
    EVP_CIPHER_CTX_set_padding(ctx, 0);
    return ctx;
}

void evp_update(EVP_CIPHER_CTX* ctx, std::uint8_t* out, const std::uint8_t* in, std::size_t len) noexcept {
    int outl = 0;
    [[maybe_unused]] const int ok = EVP_EncryptUpdate(ctx, out, &outl, in, static_cast<int>(len));
    assert(ok == 1 && static_cast<std::size_t>(outl) == (out ? len : outl));
}

struct EvpCtx {
    EVP_CIPHER_CTX* evp;
};

struct XtsPeerCtx {
    EVP_CIPHER_CTX* xts;
    EVP_CIPHER_CTX* tweak_dec;  // AES-ECB decryption under key2: the IV that gives a running tweak
    std::uint64_t tweak[2];  // the running tweak (AES(key2, IV) times x^blocks so far), little-endian qwords
    std::uint32_t started;  // a first section has run: the next one continues the message
};
static_assert(sizeof(XtsPeerCtx) <= kOpenSslCtxBytes && sizeof(EvpCtx) <= kOpenSslCtxBytes);

// t * x^n in GF(2^128) with the XTS polynomial, 64 bits at a time: t * x^64 moves the low qword up and
// folds the high one back as hi * (x^7 + x^2 + x + 1).
void xts_mul_xn(std::uint64_t t[2], std::uint64_t n) noexcept {
    for (; n >= 64; n -= 64) {
        const std::uint64_t hi = t[1];
        t[1] = t[0] ^ (hi >> 63) ^ (hi >> 62) ^ (hi >> 57);
        t[0] = hi ^ (hi << 1) ^ (hi << 2) ^ (hi << 7);
    }
    for (; n; --n) {
        const std::uint64_t carry = t[1] >> 63;
        t[1] = (t[1] << 1) | (t[0] >> 63);
        t[0] = (t[0] << 1) ^ (carry * 0x87);
    }
}

void xts_run(XtsPeerCtx* c, const std::uint8_t* src, std::uint8_t* dst, std::size_t len) noexcept {
    if (len == 0) return;
    if (c->started) {  // continue the message: restart XTS from the IV of the running tweak
        std::uint8_t tb[16], iv[16];
        std::memcpy(tb, c->tweak, 16);
        int outl = 0;
        [[maybe_unused]] const int ok = EVP_DecryptUpdate(c->tweak_dec, iv, &outl, tb, 16);
        assert(ok == 1 && outl == 16);
        EVP_EncryptInit_ex(c->xts, nullptr, nullptr, nullptr, iv);
    }
    evp_update(c->xts, dst, src, len);
    xts_mul_xn(c->tweak, len / 16);
    c->started = 1;
}

}  // namespace

// ---- CTR ------------------------------------------------------------------------------------------------
template <std::size_t K>
void CtrOpenSsl<K>::init(void* ctx, const std::uint8_t* key) noexcept {
    static_cast<EvpCtx*>(ctx)->evp = evp_new(cipher("ctr", K), key, key + K, true);
}
template <std::size_t K>
void CtrOpenSsl<K>::crypt(void* ctx, const std::uint8_t* src, std::uint8_t* dst, std::size_t nblocks) noexcept {
    if (nblocks) evp_update(static_cast<EvpCtx*>(ctx)->evp, dst, src, 16 * nblocks);
}
template <std::size_t K>
void CtrOpenSsl<K>::final(void* ctx, const std::uint8_t* src, std::size_t len, std::uint8_t* out) noexcept {
    auto* c = static_cast<EvpCtx*>(ctx);
    if (len) evp_update(c->evp, out, src, len);
    EVP_CIPHER_CTX_free(c->evp);
}

// ---- XTS ------------------------------------------------------------------------------------------------
template <std::size_t K>
void XtsOpenSsl<K>::init(void* ctx, const std::uint8_t* key) noexcept {
    auto* c = static_cast<XtsPeerCtx*>(ctx);
    c->xts = evp_new(cipher("xts", K), key, key + 2 * K, true);
    EVP_CIPHER_CTX* enc = evp_new(cipher("ecb", K), key + K, nullptr, true);
    std::uint8_t t[16];
    evp_update(enc, t, key + 2 * K, 16);
    EVP_CIPHER_CTX_free(enc);
    std::memcpy(c->tweak, t, 16);
    c->tweak_dec = evp_new(cipher("ecb", K), key + K, nullptr, false);
    c->started = 0;
}
template <std::size_t K>
void XtsOpenSsl<K>::crypt(void* ctx, const std::uint8_t* src, std::uint8_t* dst, std::size_t nblocks) noexcept {
    xts_run(static_cast<XtsPeerCtx*>(ctx), src, dst, 16 * nblocks);
}
template <std::size_t K>
void XtsOpenSsl<K>::final(void* ctx, const std::uint8_t* src, std::size_t len, std::uint8_t* out) noexcept {
    auto* c = static_cast<XtsPeerCtx*>(ctx);
    xts_run(c, src, out, len);
    EVP_CIPHER_CTX_free(c->xts);
    EVP_CIPHER_CTX_free(c->tweak_dec);
}

// ---- GCM ------------------------------------------------------------------------------------------------
template <std::size_t K>
void GcmOpenSsl<K>::init(void* ctx, const std::uint8_t* key) noexcept {
    static_cast<EvpCtx*>(ctx)->evp = evp_new(cipher("gcm", K), key, key + K, true);  // 12-byte IV: EVP's default
}
template <std::size_t K>
void GcmOpenSsl<K>::blocks(void* ctx, const std::uint8_t* aad, std::size_t nblocks) noexcept {
    if (nblocks) evp_update(static_cast<EvpCtx*>(ctx)->evp, nullptr, aad, 16 * nblocks);
}
template <std::size_t K>
void GcmOpenSsl<K>::crypt(void* ctx, const std::uint8_t* src, std::uint8_t* dst, std::size_t nblocks) noexcept {
    if (nblocks) evp_update(static_cast<EvpCtx*>(ctx)->evp, dst, src, 16 * nblocks);
}
template <std::size_t K>
void GcmOpenSsl<K>::final(void* ctx, const std::uint8_t* src, std::size_t len, std::uint8_t* out) noexcept {
    auto* c = static_cast<EvpCtx*>(ctx);
    if (len) evp_update(c->evp, out, src, len);
    int outl = 0;
    [[maybe_unused]] int ok = EVP_EncryptFinal_ex(c->evp, out + len, &outl);
    assert(ok == 1 && outl == 0);
    ok = EVP_CIPHER_CTX_ctrl(c->evp, EVP_CTRL_GCM_GET_TAG, 16, out + len);
    assert(ok == 1);
    EVP_CIPHER_CTX_free(c->evp);
}

template struct CtrOpenSsl<16>;
template struct CtrOpenSsl<32>;
template struct XtsOpenSsl<16>;
template struct XtsOpenSsl<32>;
template struct GcmOpenSsl<16>;
template struct GcmOpenSsl<32>;

}  // namespace fputune::aes
