// SPDX-License-Identifier: MIT
// The chacha family's peer: OpenSSL 3's EVP_chacha20 behind the cipher entry points of chacha/chacha.hpp.
// Baseline flags; OpenSSL dispatches to its own code (ssse3, avx2, avx512vl, avx512f) at run time, which
// OPENSSL_ia32cap can mask onto one of our paths.
#include <openssl/evp.h>

#include <cassert>
#include <cstring>

#include "chacha.hpp"

namespace fputune::chacha {

namespace {

struct PeerCtx {
    EVP_CIPHER_CTX* evp;
    std::uint32_t counter;  // the next block's counter, as the 32-bit word Linux increments
    std::uint8_t key[32];
    std::uint8_t nonce[12];  // kept to restart EVP at a counter wrap
};
static_assert(sizeof(PeerCtx) <= Chacha20OpenSsl::ctx_bytes);

void restart(PeerCtx* c) noexcept {
    std::uint8_t iv[16];
    for (int i = 0; i < 4; ++i) iv[i] = static_cast<std::uint8_t>(c->counter >> (8 * i));
    std::memcpy(iv + 4, c->nonce, 12);
    [[maybe_unused]] const int ok = EVP_EncryptInit_ex(c->evp, EVP_chacha20(), nullptr, c->key, iv);
    assert(ok == 1);
}

void update(EVP_CIPHER_CTX* evp, std::uint8_t* dst, const std::uint8_t* src, std::size_t len) noexcept {
    int outl = 0;
    [[maybe_unused]] const int ok = EVP_EncryptUpdate(evp, dst, &outl, src, static_cast<int>(len));
    assert(ok == 1 && static_cast<std::size_t>(outl) == len);
}

// OpenSSL carries a wrapping counter into the first nonce word; Linux (and RFC 8439's 32-bit counter) wraps
// it. The rare message that crosses the wrap is split there and EVP restarted at counter 0.
void crypt_bytes(PeerCtx* c, std::uint8_t* dst, const std::uint8_t* src, std::size_t len) noexcept {
    while (len) {
        const std::uint64_t blocks_to_wrap = (std::uint64_t{1} << 32) - c->counter;
        std::size_t n = len;
        if ((len + 63) / 64 > blocks_to_wrap) n = static_cast<std::size_t>(blocks_to_wrap * 64);
        if (n > (std::size_t{1} << 30)) n = std::size_t{1} << 30;  // EVP takes an int length
        update(c->evp, dst, src, n);
        c->counter += static_cast<std::uint32_t>((n + 63) / 64);
        if (c->counter == 0 && n % 64 == 0) restart(c);
        src += n;
        dst += n;
        len -= n;
    }
}

}  // namespace

void Chacha20OpenSsl::init(void* ctx, const std::uint8_t* key) noexcept {
    auto* c = static_cast<PeerCtx*>(ctx);
    c->evp = EVP_CIPHER_CTX_new();
    assert(c->evp != nullptr);
    std::memcpy(c->key, key, 32);
    c->counter = load_le32(key + 32);
    std::memcpy(c->nonce, key + 36, 12);
    restart(c);
}

void Chacha20OpenSsl::crypt(void* ctx, const std::uint8_t* src, std::uint8_t* dst, std::size_t nblocks) noexcept {
    crypt_bytes(static_cast<PeerCtx*>(ctx), dst, src, 64 * nblocks);
}

void Chacha20OpenSsl::final(void* ctx, const std::uint8_t* src, std::size_t len, std::uint8_t* out) noexcept {
    auto* c = static_cast<PeerCtx*>(ctx);
    crypt_bytes(c, out, src, len);
    EVP_CIPHER_CTX_free(c->evp);
    c->evp = nullptr;
}

}  // namespace fputune::chacha
