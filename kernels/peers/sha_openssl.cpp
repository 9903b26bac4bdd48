// SPDX-License-Identifier: MIT
// OpenSSL as a peer of the sha family: sha1/224/256/384/512 through the low-level API (plain structs in
// ctx, whole blocks go straight to OpenSSL's own dispatched block function), sm3 through EVP.
// Baseline flags; OpenSSL picks its own code path (SHA-NI, AVX2, ...) at run time.
#include <cassert>

// The low-level SHA*_Init/Update/Final are deprecated in OpenSSL 3 but are the only API whose context
// is plain memory and whose update on whole blocks is just the block function.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/evp.h>
#include <openssl/sha.h>

#include "kernel.hpp"
#include "sha_blocks.hpp"

namespace fputune::sha {
namespace {

#define FPUTUNE_OPENSSL_LOWLEVEL(prefix, CTX, Init, Update, Final, block)                                   \
    void prefix##_init(void* ctx, const std::uint8_t*) noexcept { Init(static_cast<CTX*>(ctx)); }            \
    void prefix##_blocks(void* ctx, const std::uint8_t* data, std::size_t nblocks) noexcept {                \
        Update(static_cast<CTX*>(ctx), data, nblocks * (block));                                             \
    }                                                                                                        \
    void prefix##_final(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out) noexcept {  \
        Update(static_cast<CTX*>(ctx), data, len);                                                           \
        Final(out, static_cast<CTX*>(ctx));                                                                  \
    }

FPUTUNE_OPENSSL_LOWLEVEL(sha1, SHA_CTX, SHA1_Init, SHA1_Update, SHA1_Final, 64)
FPUTUNE_OPENSSL_LOWLEVEL(sha224, SHA256_CTX, SHA224_Init, SHA224_Update, SHA224_Final, 64)
FPUTUNE_OPENSSL_LOWLEVEL(sha256, SHA256_CTX, SHA256_Init, SHA256_Update, SHA256_Final, 64)
FPUTUNE_OPENSSL_LOWLEVEL(sha384, SHA512_CTX, SHA384_Init, SHA384_Update, SHA384_Final, 128)
FPUTUNE_OPENSSL_LOWLEVEL(sha512, SHA512_CTX, SHA512_Init, SHA512_Update, SHA512_Final, 128)
#undef FPUTUNE_OPENSSL_LOWLEVEL

// SM3 exists only behind EVP, whose context is heap memory: ctx holds the pointer, created in init and
// freed in final. Its blocks() therefore include EVP's dispatch overhead (small next to 64-byte blocks).
struct Sm3Ctx {
    EVP_MD_CTX* md;
};
void sm3_init(void* ctx, const std::uint8_t*) noexcept {
    auto* c = static_cast<Sm3Ctx*>(ctx);
    c->md = EVP_MD_CTX_new();
    [[maybe_unused]] int ok = c->md && EVP_DigestInit_ex(c->md, EVP_sm3(), nullptr);
    assert(ok);
}
void sm3_blocks(void* ctx, const std::uint8_t* data, std::size_t nblocks) noexcept {
    EVP_DigestUpdate(static_cast<Sm3Ctx*>(ctx)->md, data, nblocks * 64);
}
void sm3_final(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out) noexcept {
    auto* c = static_cast<Sm3Ctx*>(ctx);
    EVP_DigestUpdate(c->md, data, len);
    unsigned int n = 0;
    EVP_DigestFinal_ex(c->md, out, &n);
    EVP_MD_CTX_free(c->md);
    c->md = nullptr;
}

constexpr std::uint32_t u32(std::size_t n) { return static_cast<std::uint32_t>(n); }

}  // namespace

constinit const Kernel kSha1OpenSsl = {"sha1-openssl", "sha1", "auto", "openssl", 0, 64, u32(sizeof(SHA_CTX)), 0,
                                       20, true, sha1_init, sha1_blocks, sha1_final};
constinit const Kernel kSha224OpenSsl = {"sha224-openssl", "sha224", "auto", "openssl", 0, 64, u32(sizeof(SHA256_CTX)),
                                         0, 28, true, sha224_init, sha224_blocks, sha224_final};
constinit const Kernel kSha256OpenSsl = {"sha256-openssl", "sha256", "auto", "openssl", 0, 64, u32(sizeof(SHA256_CTX)),
                                         0, 32, true, sha256_init, sha256_blocks, sha256_final};
constinit const Kernel kSha384OpenSsl = {"sha384-openssl", "sha384", "auto", "openssl", 0, 128, u32(sizeof(SHA512_CTX)),
                                         0, 48, true, sha384_init, sha384_blocks, sha384_final};
constinit const Kernel kSha512OpenSsl = {"sha512-openssl", "sha512", "auto", "openssl", 0, 128, u32(sizeof(SHA512_CTX)),
                                         0, 64, true, sha512_init, sha512_blocks, sha512_final};
constinit const Kernel kSm3OpenSsl = {"sm3-openssl", "sm3", "auto", "openssl", 0, 64, u32(sizeof(Sm3Ctx)), 0, 32,
                                      false, sm3_init, sm3_blocks, sm3_final};

}  // namespace fputune::sha
