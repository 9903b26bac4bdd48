// SPDX-License-Identifier: MIT
// Entry points of the aes family (CTR, XTS, GCM encryption), one set per ISA file, shaped like the
// Linux assembly they stand for (arch/x86/crypto/aes-{ctr,xts,gcm}-*.S): the glue owns the state, each
// call is what one kernel_fpu_begin()..end() section runs. Plain structs and declarations only.
#pragma once

#include <cstddef>
#include <cstdint>

namespace fputune::aes {

// Encryption round keys as FIPS 197 expands them (round i at rk[i], bytes in state order).
struct alignas(64) AesKey {
    std::uint8_t rk[15][16];
    std::uint32_t rounds;  // 10, 12 or 14
};

// AES key expansion, portable (aes_generic.cpp, baseline flags): key_bytes 16, 24 or 32.
void aes_expand_key(AesKey* k, const std::uint8_t* key, std::size_t key_bytes) noexcept;

// GCM: the AES key and the GHASH key powers, in the layout of the ISA file that set them up
// (each ISA reads only what its own setkey wrote: the powers are not interchangeable).
inline constexpr std::size_t kGcmMaxPowers = 16;
struct alignas(64) GcmKey {
    AesKey aes;
    std::uint8_t hpow[kGcmMaxPowers + 4][16];  // ISA layout; the generic file keeps H alone
    std::uint8_t hmid[kGcmMaxPowers + 4][16];  // ISA layout: Karatsuba's middle operands, where used
    std::uint32_t npow;  // powers in use (8 or 16; generic 1)
};

// The per-ISA entry points. Buffers may be misaligned; dst == src is allowed, other overlap is not.
//
// ctr:  AES-CTR with a 128-bit big-endian counter (SP 800-38A, Linux ctr(aes), OpenSSL EVP aes-*-ctr):
//       encrypts len bytes and advances ctr by ceil(len / 16) blocks. Only the last call of a message
//       may have len % 16 != 0.
// xts_encrypt_iv: tweak = AES(tweak_key, iv), the first step of an XTS request (same section in Linux).
// xts_encrypt: XTS-AES encryption (IEEE 1619, SP 800-38E) of len >= 16 bytes under the data key,
//       tweak = the running tweak (in: of the first block; out: of the block after the last, so a
//       message may continue in another call when len % 16 == 0). len % 16 != 0: ciphertext stealing
//       over the last whole block and the tail, which ends the message.
// gcm_setkey: round keys, H = AES(K, 0) and its powers for this ISA's GHASH.
// gcm_aad: GHASH over the associated data; ghash is the running GHASH value X_i (SP 800-38D byte order).
//       Every call but the last of a message has len % 16 == 0 (the last is zero-padded).
// gcm_enc: CTR encryption with GCM's 32-bit counter and GHASH over the ciphertext. ctr is the next
//       counter block (IV || be32 count, initially IV || 2), advanced by ceil(len / 16). Every call but
//       the last of a message has len % 16 == 0.
// gcm_final: tag = AES(K, IV || 1) ^ GHASH(... || be64(aad bits) || be64(data bits)).
#define FPUTUNE_AES_CTR_XTS_DECL(isa)                                                                          \
    void aes_ctr_##isa(const AesKey* key, std::uint8_t ctr[16], const std::uint8_t* src, std::uint8_t* dst,    \
                       std::size_t len) noexcept;                                                              \
    void aes_xts_encrypt_iv_##isa(const AesKey* tweak_key, const std::uint8_t iv[16],                          \
                                  std::uint8_t tweak[16]) noexcept;                                            \
    void aes_xts_encrypt_##isa(const AesKey* key, const std::uint8_t* src, std::uint8_t* dst, std::size_t len, \
                               std::uint8_t tweak[16]) noexcept;
#define FPUTUNE_AES_GCM_DECL(isa)                                                                                    \
    void aes_gcm_setkey_##isa(GcmKey* key, const std::uint8_t* raw_key, std::size_t key_bytes) noexcept;             \
    void aes_gcm_aad_##isa(const GcmKey* key, std::uint8_t ghash[16], const std::uint8_t* aad,                       \
                           std::size_t len) noexcept;                                                                \
    void aes_gcm_enc_##isa(const GcmKey* key, std::uint8_t ctr[16], std::uint8_t ghash[16], const std::uint8_t* src, \
                           std::uint8_t* dst, std::size_t len) noexcept;                                             \
    void aes_gcm_final_##isa(const GcmKey* key, const std::uint8_t iv[12], const std::uint8_t ghash[16],             \
                             std::uint64_t aad_bytes, std::uint64_t data_bytes, std::uint8_t tag[16]) noexcept;

// portable reference, no FPU: S-box table, bit-serial GHASH (see aes_generic.cpp)
FPUTUNE_AES_CTR_XTS_DECL(generic)
FPUTUNE_AES_GCM_DECL(generic)
// AES-NI + PCLMULQDQ + SSSE3, 8 blocks in flight
FPUTUNE_AES_CTR_XTS_DECL(aesni)
FPUTUNE_AES_GCM_DECL(aesni)
// the aesni GCM body VEX-encoded, as Linux has an aesni-avx GCM
FPUTUNE_AES_GCM_DECL(aesni_avx)
// VAES + VPCLMULQDQ on ymm, 4 vectors (8 blocks) in flight
FPUTUNE_AES_CTR_XTS_DECL(vaes_avx2)
FPUTUNE_AES_GCM_DECL(vaes_avx2)
// VAES + VPCLMULQDQ on zmm, 4 vectors (16 blocks) in flight
FPUTUNE_AES_CTR_XTS_DECL(vaes_avx512)
FPUTUNE_AES_GCM_DECL(vaes_avx512)
#undef FPUTUNE_AES_CTR_XTS_DECL
#undef FPUTUNE_AES_GCM_DECL

}  // namespace fputune::aes
