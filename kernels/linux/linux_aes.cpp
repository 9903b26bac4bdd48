// SPDX-License-Identifier: MIT
// The kernel's AES asm (aesni-intel_asm.S, aes_ctrby8_avx-x86_64.S, aes-xts-avx-x86_64.S,
// aes-gcm-aesni-x86_64.S, aes-gcm-avx10-x86_64.S) as cipher kernels, with the definitions of
// kernels/aes/aes_glue.hpp (key || IV, the same ciphertext and tag as our variants), each called the way
// aesni-intel_glue.c calls it:
// - keys: aesni_set_key() (asm) fills the kernel's struct crypto_aes_ctx, as aes_set_key_common() and
//   gcm_setkey() do whenever SIMD is usable; GCM then runs the ISA's aes_gcm_precompute_*() (asm) for the
//   hash key powers. Both in init: in the kernel they are setkey's, before any request.
// - ctr(aes): ctr_crypt(): whole blocks through aesni_ctr_enc() (no AVX) or, on a CPU with AVX,
//   aes_ctr_enc_<bits>_avx_by8() (aesni_ctr_enc_avx_tfm); a partial last block as aesni_enc() of the
//   counter, xored, the counter incremented.
// - xts(aes): xts_crypt(): the IV encrypted with the tweak key in the request's first section
//   (aesni_enc(), or aes_xts_encrypt_iv() for the AVX files), then aesni_xts_enc() or
//   aes_xts_encrypt_<isa>() over the data; a tail goes with the last whole block (ciphertext stealing).
// - gcm(aes): gcm_crypt(): the counter as le_ctr[4] (the IV's words swapped, block count 2),
//   aes_gcm_aad_update_*() over the associated data, aes_gcm_enc_update_*() per section (le_ctr[0]
//   advanced by its blocks), aes_gcm_enc_final_*() for the tag.
// Our vaes-avx512 stands for the kernel's vaes-avx10_512 code (zmm). The kernel's 6.12 tree has no
// VAES CTR and no VAES-AVX2 GCM; the AVX10 code on ymm (avx10_256) and the decryption paths are not
// registered. aes-*-xts-aesni-avx-linux and aes-256-ctr-aesni-avx-linux have no variant of ours: they
// are what the kernel runs on an AVX CPU without VAES (and, for CTR, on every AVX CPU).
#include <bit>
#include <cstring>

#include "aes_glue.hpp"
#include "linux_glue.hpp"

#if FPUTUNE_LINUX_AESNI

namespace fputune::linux_glue {
namespace {

using std::uint32_t;
using std::uint64_t;
using std::uint8_t;

// struct crypto_aes_ctx (include/crypto/aes.h): what aesni_set_key() writes and every AES asm reads.
struct CryptoAesCtx {
    uint32_t key_enc[60];
    uint32_t key_dec[60];
    uint32_t key_length;  // bytes: 16, 24 or 32
};
// struct aes_gcm_key (aesni-intel_glue.c): the round keys and the rfc4106 nonce (unused here).
struct AesGcmKey {
    CryptoAesCtx aes_key;
    uint32_t rfc4106_nonce;
};
// struct aes_gcm_key_aesni: H^8..H^1 (times x^-1, byte-reversed), their halves xored, H * x^64.
struct alignas(16) AesGcmKeyAesni {
    AesGcmKey base;
    alignas(16) uint64_t h_powers[8][2];
    alignas(16) uint64_t h_powers_xored[8];
    alignas(16) uint64_t h_times_x64[2];
};
// struct aes_gcm_key_avx10: H^16..H^1 and three padding blocks the asm reads.
struct alignas(64) AesGcmKeyAvx10 {
    AesGcmKey base;
    alignas(64) uint64_t h_powers[16][2];
    uint64_t padding[3][2];
};
// The offsets gcm_setkey() asserts the asm assumes.
static_assert(offsetof(AesGcmKeyAesni, base.aes_key.key_length) == 480);
static_assert(offsetof(AesGcmKeyAesni, h_powers) == 496);
static_assert(offsetof(AesGcmKeyAesni, h_powers_xored) == 624);
static_assert(offsetof(AesGcmKeyAesni, h_times_x64) == 688);
static_assert(offsetof(AesGcmKeyAvx10, base.aes_key.key_length) == 480);
static_assert(offsetof(AesGcmKeyAvx10, h_powers) == 512);
static_assert(offsetof(AesGcmKeyAvx10, padding) == 768);

}  // namespace
}  // namespace fputune::linux_glue

using fputune::linux_glue::AesGcmKeyAesni;
using fputune::linux_glue::AesGcmKeyAvx10;
using fputune::linux_glue::CryptoAesCtx;

// The entry points, with the argument types aesni-intel_glue.c declares.
extern "C" {
void aesni_set_key(CryptoAesCtx* ctx, const std::uint8_t* in_key, unsigned int key_len);
void aesni_enc(const void* ctx, std::uint8_t* out, const std::uint8_t* in);
void aesni_xts_enc(const CryptoAesCtx* ctx, std::uint8_t* out, const std::uint8_t* in, unsigned int len,
                   std::uint8_t* iv);
void aesni_ctr_enc(CryptoAesCtx* ctx, std::uint8_t* out, const std::uint8_t* in, unsigned int len, std::uint8_t* iv);
#if FPUTUNE_LINUX_AES_CTR_BY8
void aes_ctr_enc_128_avx_by8(const std::uint8_t* in, std::uint8_t* iv, void* keys, std::uint8_t* out,
                             unsigned int num_bytes);
void aes_ctr_enc_256_avx_by8(const std::uint8_t* in, std::uint8_t* iv, void* keys, std::uint8_t* out,
                             unsigned int num_bytes);
#endif
#if FPUTUNE_LINUX_AES_XTS_AVX
void aes_xts_encrypt_iv(const CryptoAesCtx* tweak_key, std::uint8_t iv[16]);
void aes_xts_encrypt_aesni_avx(const CryptoAesCtx* key, const std::uint8_t* src, std::uint8_t* dst, unsigned int len,
                               std::uint8_t tweak[16]);
void aes_xts_encrypt_vaes_avx2(const CryptoAesCtx* key, const std::uint8_t* src, std::uint8_t* dst, unsigned int len,
                               std::uint8_t tweak[16]);
void aes_xts_encrypt_vaes_avx10_512(const CryptoAesCtx* key, const std::uint8_t* src, std::uint8_t* dst,
                                    unsigned int len, std::uint8_t tweak[16]);
#endif
#if FPUTUNE_LINUX_AES_GCM_AESNI
void aes_gcm_precompute_aesni(AesGcmKeyAesni* key);
void aes_gcm_aad_update_aesni(const AesGcmKeyAesni* key, std::uint8_t ghash_acc[16], const std::uint8_t* aad,
                              int aadlen);
void aes_gcm_enc_update_aesni(const AesGcmKeyAesni* key, const std::uint32_t le_ctr[4], std::uint8_t ghash_acc[16],
                              const std::uint8_t* src, std::uint8_t* dst, int datalen);
void aes_gcm_enc_final_aesni(const AesGcmKeyAesni* key, const std::uint32_t le_ctr[4], std::uint8_t ghash_acc[16],
                             std::uint64_t total_aadlen, std::uint64_t total_datalen);
void aes_gcm_precompute_aesni_avx(AesGcmKeyAesni* key);
void aes_gcm_aad_update_aesni_avx(const AesGcmKeyAesni* key, std::uint8_t ghash_acc[16], const std::uint8_t* aad,
                                  int aadlen);
void aes_gcm_enc_update_aesni_avx(const AesGcmKeyAesni* key, const std::uint32_t le_ctr[4], std::uint8_t ghash_acc[16],
                                  const std::uint8_t* src, std::uint8_t* dst, int datalen);
void aes_gcm_enc_final_aesni_avx(const AesGcmKeyAesni* key, const std::uint32_t le_ctr[4], std::uint8_t ghash_acc[16],
                                 std::uint64_t total_aadlen, std::uint64_t total_datalen);
#endif
#if FPUTUNE_LINUX_AES_GCM_AVX10
void aes_gcm_precompute_vaes_avx10_512(AesGcmKeyAvx10* key);
void aes_gcm_aad_update_vaes_avx10(const AesGcmKeyAvx10* key, std::uint8_t ghash_acc[16], const std::uint8_t* aad,
                                   int aadlen);
void aes_gcm_enc_update_vaes_avx10_512(const AesGcmKeyAvx10* key, const std::uint32_t le_ctr[4],
                                       std::uint8_t ghash_acc[16], const std::uint8_t* src, std::uint8_t* dst,
                                       int datalen);
void aes_gcm_enc_final_vaes_avx10(const AesGcmKeyAvx10* key, const std::uint32_t le_ctr[4], std::uint8_t ghash_acc[16],
                                  std::uint64_t total_aadlen, std::uint64_t total_datalen);
#endif
}

namespace fputune::linux_glue {
namespace {

// The asm takes 32-bit lengths; fputune's messages go to 1 GiB. Longer calls are cut into whole-block
// pieces of 1 GiB, which every function here continues as one input (what the kernel's walk does with
// a request that spans pages).
constexpr std::size_t kPiece = std::size_t{1} << 30;

uint32_t load_be32(const uint8_t* p) noexcept {
    return uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 | p[3];
}

// ---- ctr(aes) --------------------------------------------------------------------------------------
struct alignas(16) CtrCtx {
    CryptoAesCtx key;
    alignas(16) uint8_t iv[16];  // the counter block, big-endian
};

using CtrBlocks = void (*)(CryptoAesCtx* ctx, uint8_t* out, const uint8_t* in, unsigned int len, uint8_t* iv);

// aesni_ctr_enc_avx_tfm(): the by8 code for the key's size (AES-192 is not registered).
#if FPUTUNE_LINUX_AES_CTR_BY8
void ctr_by8(CryptoAesCtx* ctx, uint8_t* out, const uint8_t* in, unsigned int len, uint8_t* iv) {
    if (ctx->key_length == 16)
        aes_ctr_enc_128_avx_by8(in, iv, ctx, out, len);
    else
        aes_ctr_enc_256_avx_by8(in, iv, ctx, out, len);
}
#endif

// crypto_inc() of the 16-byte big-endian counter.
void ctr_inc(uint8_t iv[16]) noexcept {
    for (int i = 15; i >= 0; --i)
        if (++iv[i] != 0) break;
}

template <CtrBlocks Blocks, std::size_t kKeyBytes>
struct LinuxCtr {
    static constexpr Algorithm algorithm = kKeyBytes == 16 ? aes::kAes128Ctr : aes::kAes256Ctr;
    static constexpr std::size_t ctx_bytes = sizeof(CtrCtx);
    static void init(void* ctx, const uint8_t* key) noexcept {
        auto* c = static_cast<CtrCtx*>(ctx);
        aesni_set_key(&c->key, key, kKeyBytes);
        std::memcpy(c->iv, key + kKeyBytes, 16);
    }
    static void whole(CtrCtx* c, const uint8_t* src, uint8_t* dst, std::size_t len) noexcept {
        for (; len > kPiece; len -= kPiece, src += kPiece, dst += kPiece) Blocks(&c->key, dst, src, kPiece, c->iv);
        if (len) Blocks(&c->key, dst, src, static_cast<unsigned>(len), c->iv);
    }
    static void crypt(void* ctx, const uint8_t* src, uint8_t* dst, std::size_t nblocks) noexcept {
        whole(static_cast<CtrCtx*>(ctx), src, dst, 16 * nblocks);
    }
    // ctr_crypt()'s last walk step: whole blocks, then the partial one from aesni_enc() of the counter.
    static void final(void* ctx, const uint8_t* src, std::size_t len, uint8_t* out) noexcept {
        auto* c = static_cast<CtrCtx*>(ctx);
        const std::size_t whole_len = len & ~std::size_t{15};
        whole(c, src, out, whole_len);
        if (const std::size_t tail = len - whole_len) {
            alignas(16) uint8_t keystream[16];
            aesni_enc(&c->key, keystream, c->iv);
            for (std::size_t i = 0; i < tail; ++i) out[whole_len + i] = src[whole_len + i] ^ keystream[i];
            ctr_inc(c->iv);
        }
    }
};

// ---- xts(aes) --------------------------------------------------------------------------------------
// struct aesni_xts_ctx: the tweak key, then the data key; the request's IV, encrypted in place.
struct alignas(16) XtsCtx {
    alignas(16) CryptoAesCtx tweak_ctx;
    alignas(16) CryptoAesCtx crypt_ctx;
    alignas(16) uint8_t iv[16];
    uint32_t started;
};

using XtsIv = void (*)(const CryptoAesCtx* tweak_key, uint8_t* iv);
using XtsCrypt = void (*)(const CryptoAesCtx* key, const uint8_t* src, uint8_t* dst, unsigned int len, uint8_t* tweak);

// aesni_xts_encrypt_iv() and aesni_xts_encrypt() of the glue: the aesni file's functions.
void aesni_xts_iv(const CryptoAesCtx* tweak_key, uint8_t* iv) { aesni_enc(tweak_key, iv, iv); }
void aesni_xts_crypt(const CryptoAesCtx* key, const uint8_t* src, uint8_t* dst, unsigned int len, uint8_t* tweak) {
    aesni_xts_enc(key, dst, src, len, tweak);
}

template <XtsIv Iv, XtsCrypt Crypt, std::size_t kKeyBytes>
struct LinuxXts {
    static constexpr Algorithm algorithm = kKeyBytes == 16 ? aes::kAes128Xts : aes::kAes256Xts;
    static constexpr std::size_t ctx_bytes = sizeof(XtsCtx);
    // xts_setkey_aesni(): the first half of the key for the data, the second for the tweak.
    static void init(void* ctx, const uint8_t* key) noexcept {
        auto* c = static_cast<XtsCtx*>(ctx);
        aesni_set_key(&c->crypt_ctx, key, kKeyBytes);
        aesni_set_key(&c->tweak_ctx, key + kKeyBytes, kKeyBytes);
        std::memcpy(c->iv, key + 2 * kKeyBytes, 16);
        c->started = 0;
    }
    static void run(XtsCtx* c, const uint8_t* src, uint8_t* dst, std::size_t len) noexcept {
        if (len == 0) return;
        if (!c->started) {
            Iv(&c->tweak_ctx, c->iv);
            c->started = 1;
        }
        for (; len > kPiece + 32; len -= kPiece, src += kPiece, dst += kPiece)
            Crypt(&c->crypt_ctx, src, dst, kPiece, c->iv);
        Crypt(&c->crypt_ctx, src, dst, static_cast<unsigned>(len), c->iv);
    }
    static void crypt(void* ctx, const uint8_t* src, uint8_t* dst, std::size_t nblocks) noexcept {
        run(static_cast<XtsCtx*>(ctx), src, dst, 16 * nblocks);
    }
    // A partial last block comes with the whole block before it (>= 16 bytes), as xts_crypt_slowpath()
    // hands both to one call.
    static void final(void* ctx, const uint8_t* src, std::size_t len, uint8_t* out) noexcept {
        run(static_cast<XtsCtx*>(ctx), src, out, len);
    }
};

// ---- gcm(aes) --------------------------------------------------------------------------------------
template <class Key>
struct alignas(64) GcmCtx {
    Key key;
    uint32_t le_ctr[4];
    alignas(16) uint8_t ghash_acc[16];
    uint64_t aad_bytes;
    uint64_t data_bytes;
};

template <class Key>
struct GcmFns {
    void (*precompute)(Key*);
    void (*aad_update)(const Key*, uint8_t*, const uint8_t*, int);
    void (*enc_update)(const Key*, const uint32_t*, uint8_t*, const uint8_t*, uint8_t*, int);
    void (*enc_final)(const Key*, const uint32_t*, uint8_t*, uint64_t, uint64_t);
};

template <class Key, const GcmFns<Key>& F, std::size_t kKeyBytes>
struct LinuxGcm {
    using Ctx = GcmCtx<Key>;
    static constexpr Algorithm algorithm = kKeyBytes == 16 ? aes::kAes128Gcm : aes::kAes256Gcm;
    static constexpr std::size_t ctx_bytes = sizeof(Ctx);
    // gcm_setkey() with SIMD usable, then gcm_crypt()'s counter and accumulator.
    static void init(void* ctx, const uint8_t* key) noexcept {
        auto* c = static_cast<Ctx*>(ctx);
        aesni_set_key(&c->key.base.aes_key, key, kKeyBytes);
        F.precompute(&c->key);
        const uint8_t* iv = key + kKeyBytes;
        c->le_ctr[0] = 2;
        c->le_ctr[1] = load_be32(iv + 8);
        c->le_ctr[2] = load_be32(iv + 4);
        c->le_ctr[3] = load_be32(iv + 0);
        std::memset(c->ghash_acc, 0, 16);
        c->aad_bytes = c->data_bytes = 0;
    }
    // gcm_process_assoc(): the associated data, whole blocks.
    static void blocks(void* ctx, const uint8_t* aad, std::size_t nblocks) noexcept {
        auto* c = static_cast<Ctx*>(ctx);
        std::size_t len = 16 * nblocks;
        if (len == 0) return;
        c->aad_bytes += len;
        for (; len > kPiece; len -= kPiece, aad += kPiece) F.aad_update(&c->key, c->ghash_acc, aad, int(kPiece));
        F.aad_update(&c->key, c->ghash_acc, aad, static_cast<int>(len));
    }
    static void update(Ctx* c, const uint8_t* src, uint8_t* dst, std::size_t len) noexcept {
        c->data_bytes += len;
        for (; len > kPiece; len -= kPiece, src += kPiece, dst += kPiece) {
            F.enc_update(&c->key, c->le_ctr, c->ghash_acc, src, dst, int(kPiece));
            c->le_ctr[0] += kPiece / 16;
        }
        F.enc_update(&c->key, c->le_ctr, c->ghash_acc, src, dst, static_cast<int>(len));
        c->le_ctr[0] += static_cast<uint32_t>(len / 16);
    }
    // One non-last segment of gcm_crypt()'s walk.
    static void crypt(void* ctx, const uint8_t* src, uint8_t* dst, std::size_t nblocks) noexcept {
        update(static_cast<Ctx*>(ctx), src, dst, 16 * nblocks);
    }
    // The last segment, then aes_gcm_enc_final_*(), which leaves the tag in the accumulator.
    static void final(void* ctx, const uint8_t* src, std::size_t len, uint8_t* out) noexcept {
        auto* c = static_cast<Ctx*>(ctx);
        update(c, src, out, len);
        F.enc_final(&c->key, c->le_ctr, c->ghash_acc, c->aad_bytes, c->data_bytes);
        std::memcpy(out + len, c->ghash_acc, 16);
    }
};

#if FPUTUNE_LINUX_AES_GCM_AESNI
constexpr GcmFns<AesGcmKeyAesni> kGcmAesni{aes_gcm_precompute_aesni, aes_gcm_aad_update_aesni, aes_gcm_enc_update_aesni,
                                           aes_gcm_enc_final_aesni};
constexpr GcmFns<AesGcmKeyAesni> kGcmAesniAvx{aes_gcm_precompute_aesni_avx, aes_gcm_aad_update_aesni_avx,
                                              aes_gcm_enc_update_aesni_avx, aes_gcm_enc_final_aesni_avx};
#endif
#if FPUTUNE_LINUX_AES_GCM_AVX10
constexpr GcmFns<AesGcmKeyAvx10> kGcmAvx10_512{aes_gcm_precompute_vaes_avx10_512, aes_gcm_aad_update_vaes_avx10,
                                               aes_gcm_enc_update_vaes_avx10_512, aes_gcm_enc_final_vaes_avx10};
#endif

}  // namespace

void add_aes(std::vector<Kernel>& out) {
    using F = Feature;
    // What aesni_init() and register_avx_algs() check before they register each path, plus what the asm
    // executes (SSE4.1: pblendvb, ptest, pinsrq in the aesni files; BMI2's bzhi in the AVX10 ones).
    constexpr FeatureSet kAesni = features(F::aesni, F::pclmul, F::ssse3, F::sse41);
    constexpr FeatureSet kAesniAvx = kAesni | features(F::avx);
    constexpr FeatureSet kVaesAvx2 = kAesniAvx | features(F::avx2, F::vaes, F::vpclmulqdq);
    constexpr FeatureSet kAvx10_512 = kVaesAvx2 | features(F::avx512f, F::avx512vl, F::avx512bw, F::bmi2);
#if FPUTUNE_LINUX_AES_XTS_AVX
    out.push_back(kernel<LinuxXts<aes_xts_encrypt_iv, aes_xts_encrypt_vaes_avx10_512, 16>>(
        linux_variant("aes-128-xts-vaes-avx512-linux", "vaes-avx512", kAvx10_512)));
    out.push_back(kernel<LinuxXts<aes_xts_encrypt_iv, aes_xts_encrypt_vaes_avx2, 16>>(
        linux_variant("aes-128-xts-vaes-avx2-linux", "vaes-avx2", kVaesAvx2)));
    out.push_back(kernel<LinuxXts<aes_xts_encrypt_iv, aes_xts_encrypt_aesni_avx, 16>>(
        linux_variant("aes-128-xts-aesni-avx-linux", "aesni-avx", kAesniAvx)));
#endif
    out.push_back(
        kernel<LinuxXts<aesni_xts_iv, aesni_xts_crypt, 16>>(linux_variant("aes-128-xts-aesni-linux", "aesni", kAesni)));
#if FPUTUNE_LINUX_AES_XTS_AVX
    out.push_back(kernel<LinuxXts<aes_xts_encrypt_iv, aes_xts_encrypt_vaes_avx10_512, 32>>(
        linux_variant("aes-256-xts-vaes-avx512-linux", "vaes-avx512", kAvx10_512)));
    out.push_back(kernel<LinuxXts<aes_xts_encrypt_iv, aes_xts_encrypt_vaes_avx2, 32>>(
        linux_variant("aes-256-xts-vaes-avx2-linux", "vaes-avx2", kVaesAvx2)));
    out.push_back(kernel<LinuxXts<aes_xts_encrypt_iv, aes_xts_encrypt_aesni_avx, 32>>(
        linux_variant("aes-256-xts-aesni-avx-linux", "aesni-avx", kAesniAvx)));
#endif
    out.push_back(
        kernel<LinuxXts<aesni_xts_iv, aesni_xts_crypt, 32>>(linux_variant("aes-256-xts-aesni-linux", "aesni", kAesni)));
#if FPUTUNE_LINUX_AES_GCM_AVX10
    out.push_back(kernel<LinuxGcm<AesGcmKeyAvx10, kGcmAvx10_512, 32>>(
        linux_variant("aes-256-gcm-vaes-avx512-linux", "vaes-avx512", kAvx10_512)));
#endif
#if FPUTUNE_LINUX_AES_GCM_AESNI
    out.push_back(kernel<LinuxGcm<AesGcmKeyAesni, kGcmAesniAvx, 32>>(
        linux_variant("aes-256-gcm-aesni-avx-linux", "aesni-avx", kAesniAvx)));
    out.push_back(
        kernel<LinuxGcm<AesGcmKeyAesni, kGcmAesni, 32>>(linux_variant("aes-256-gcm-aesni-linux", "aesni", kAesni)));
#endif
#if FPUTUNE_LINUX_AES_CTR_BY8
    out.push_back(kernel<LinuxCtr<ctr_by8, 32>>(linux_variant("aes-256-ctr-aesni-avx-linux", "aesni-avx", kAesniAvx)));
#endif
    out.push_back(kernel<LinuxCtr<aesni_ctr_enc, 32>>(linux_variant("aes-256-ctr-aesni-linux", "aesni", kAesni)));
}

}  // namespace fputune::linux_glue

#else

namespace fputune::linux_glue {
void add_aes(std::vector<Kernel>&) {}
}  // namespace fputune::linux_glue

#endif
