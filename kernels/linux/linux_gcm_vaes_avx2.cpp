// SPDX-License-Identifier: MIT
// The kernel's VAES-AVX2 AES-GCM (arch/x86/crypto/aes-gcm-vaes-avx2.S, 6.19; Zen 3 and Alder Lake) as
// aes-256-gcm-vaes-avx2-linux, called the way aesni-intel_glue.c's gcm_crypt() calls it (linux_aes.cpp
// says how). Its key is struct aes_gcm_key_vaes_avx2 on the 7.0 AES key (struct aes_enckey): the key length
// in bytes at 0, the encryption round keys from 16, H^8..H^1 from 288, their xored halves after: the offsets
// the asm defines (OFFSETOF_AESKEYLEN, OFFSETOF_AESROUNDKEYS, OFFSETOF_H_POWERS), which linux_tree.cmake
// checks in the file before it builds the unit. The round keys are expanded by our portable code (the 7.0
// tree expands them in its AES library, not in this file); the asm derives H and its powers from them.
#include <cstddef>
#include <cstring>

#include "aes.hpp"
#include "aes_glue.hpp"
#include "linux_glue.hpp"

namespace fputune::linux_glue {

#if FPUTUNE_LINUX_AES_GCM_VAES_AVX2
struct alignas(32) AesGcmKeyVaesAvx2 {
    std::uint32_t key_length;  // bytes: 16, 24 or 32
    std::uint8_t unused0[12];
    std::uint8_t round_keys[15][16];
    std::uint8_t unused1[32];  // the rest of struct aes_enckey and the rfc4106 nonce
    std::uint64_t h_powers[8][2];
    std::uint64_t h_powers_xored[8];
};
static_assert(offsetof(AesGcmKeyVaesAvx2, round_keys) == 16);
static_assert(offsetof(AesGcmKeyVaesAvx2, h_powers) == 288);
static_assert(offsetof(AesGcmKeyVaesAvx2, h_powers_xored) == 416);
}  // namespace fputune::linux_glue

extern "C" {
void aes_gcm_precompute_vaes_avx2(fputune::linux_glue::AesGcmKeyVaesAvx2* key);
void aes_gcm_aad_update_vaes_avx2(const fputune::linux_glue::AesGcmKeyVaesAvx2* key, std::uint8_t ghash_acc[16],
                                  const std::uint8_t* aad, int aadlen);
void aes_gcm_enc_update_vaes_avx2(const fputune::linux_glue::AesGcmKeyVaesAvx2* key, const std::uint32_t le_ctr[4],
                                  std::uint8_t ghash_acc[16], const std::uint8_t* src, std::uint8_t* dst, int datalen);
void aes_gcm_enc_final_vaes_avx2(const fputune::linux_glue::AesGcmKeyVaesAvx2* key, const std::uint32_t le_ctr[4],
                                 std::uint8_t ghash_acc[16], std::uint64_t total_aadlen, std::uint64_t total_datalen);
}

namespace fputune::linux_glue {
namespace {

// The asm takes 32-bit lengths: longer calls go in whole-block pieces of 1 GiB, as in linux_aes.cpp.
constexpr std::size_t kPiece = std::size_t{1} << 30;

std::uint32_t be32(const std::uint8_t* p) noexcept {
    return std::uint32_t{p[0]} << 24 | std::uint32_t{p[1]} << 16 | std::uint32_t{p[2]} << 8 | p[3];
}

struct alignas(64) Ctx {
    AesGcmKeyVaesAvx2 key;
    std::uint32_t le_ctr[4];
    alignas(16) std::uint8_t ghash_acc[16];
    std::uint64_t aad_bytes, data_bytes;
};

struct LinuxGcmVaesAvx2 {
    static constexpr Algorithm algorithm = aes::kAes256Gcm;
    static constexpr std::size_t ctx_bytes = sizeof(Ctx);
    static constexpr std::size_t kKeyBytes = 32;
    // gcm_setkey(): the round keys, then the hash key powers (asm); gcm_crypt()'s counter and accumulator.
    static void init(void* ctx, const std::uint8_t* key) noexcept {
        auto* c = static_cast<Ctx*>(ctx);
        aes::AesKey k;
        aes::aes_expand_key(&k, key, kKeyBytes);
        std::memset(&c->key, 0, sizeof c->key);
        c->key.key_length = kKeyBytes;
        std::memcpy(c->key.round_keys, k.rk, sizeof c->key.round_keys);
        aes_gcm_precompute_vaes_avx2(&c->key);
        const std::uint8_t* iv = key + kKeyBytes;
        c->le_ctr[0] = 2;
        c->le_ctr[1] = be32(iv + 8);
        c->le_ctr[2] = be32(iv + 4);
        c->le_ctr[3] = be32(iv + 0);
        std::memset(c->ghash_acc, 0, 16);
        c->aad_bytes = c->data_bytes = 0;
    }
    static void blocks(void* ctx, const std::uint8_t* aad, std::size_t nblocks) noexcept {
        auto* c = static_cast<Ctx*>(ctx);
        std::size_t len = 16 * nblocks;
        c->aad_bytes += len;
        for (; len > kPiece; len -= kPiece, aad += kPiece)
            aes_gcm_aad_update_vaes_avx2(&c->key, c->ghash_acc, aad, static_cast<int>(kPiece));
        if (len) aes_gcm_aad_update_vaes_avx2(&c->key, c->ghash_acc, aad, static_cast<int>(len));
    }
    static void update(Ctx* c, const std::uint8_t* src, std::uint8_t* dst, std::size_t len) noexcept {
        c->data_bytes += len;
        for (; len > kPiece; len -= kPiece, src += kPiece, dst += kPiece) {
            aes_gcm_enc_update_vaes_avx2(&c->key, c->le_ctr, c->ghash_acc, src, dst, static_cast<int>(kPiece));
            c->le_ctr[0] += kPiece / 16;
        }
        aes_gcm_enc_update_vaes_avx2(&c->key, c->le_ctr, c->ghash_acc, src, dst, static_cast<int>(len));
        c->le_ctr[0] += static_cast<std::uint32_t>(len / 16);
    }
    static void crypt(void* ctx, const std::uint8_t* src, std::uint8_t* dst, std::size_t nblocks) noexcept {
        update(static_cast<Ctx*>(ctx), src, dst, 16 * nblocks);
    }
    static void final(void* ctx, const std::uint8_t* src, std::size_t len, std::uint8_t* out) noexcept {
        auto* c = static_cast<Ctx*>(ctx);
        update(c, src, out, len);
        aes_gcm_enc_final_vaes_avx2(&c->key, c->le_ctr, c->ghash_acc, c->aad_bytes, c->data_bytes);
        std::memcpy(out + len, c->ghash_acc, 16);
    }
};

}  // namespace
#endif

void add_gcm_vaes_avx2([[maybe_unused]] std::vector<Kernel>& out) {
#if FPUTUNE_LINUX_AES_GCM_VAES_AVX2
    using F = Feature;
    // What register_avx_algs() checks for the VAES-AVX2 GCM, plus what the asm executes.
    constexpr FeatureSet kVaesAvx2 =
        features(F::aesni, F::pclmul, F::ssse3, F::sse41, F::avx, F::avx2, F::vaes, F::vpclmulqdq);
    out.push_back(kernel<LinuxGcmVaesAvx2>(linux_variant("aes-256-gcm-vaes-avx2-linux", "vaes-avx2", kVaesAvx2)));
#endif
}

}  // namespace fputune::linux_glue
