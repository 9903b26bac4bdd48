// SPDX-License-Identifier: MIT
// The aes family table: per algorithm, best variant first, the portable reference last among ours, then
// OpenSSL. Baseline flags: the glue (aes_glue.hpp) runs here and calls the ISA entry points after the
// registry has checked the CPU. Which Linux code each variant stands for: see aes.hpp and README.
// Registered: XTS with AES-128 and AES-256 keys (dm-crypt, fscrypt), GCM and CTR with AES-256 keys (the
// slowest key size binds a section limit; AES-128 is tested in tests/aes_test.cpp).
#include "aes_glue.hpp"
#include "families.hpp"

namespace fputune {
namespace {

using namespace aes;
using F = Feature;
constexpr FeatureSet kAesni = features(F::aesni, F::pclmul, F::ssse3);
constexpr FeatureSet kAesniAvx = features(F::aesni, F::pclmul, F::avx);
constexpr FeatureSet kVaesAvx2 = features(F::avx2, F::vaes, F::vpclmulqdq, F::aesni, F::pclmul);
constexpr FeatureSet kVaesAvx512 =
    features(F::avx512f, F::avx512vl, F::avx512bw, F::vaes, F::vpclmulqdq, F::aesni, F::pclmul);

template <std::size_t K>
using XtsAvx512 = Xts<aes_xts_encrypt_iv_vaes_avx512, aes_xts_encrypt_vaes_avx512, K>;
template <std::size_t K>
using XtsAvx2 = Xts<aes_xts_encrypt_iv_vaes_avx2, aes_xts_encrypt_vaes_avx2, K>;
template <std::size_t K>
using XtsAesni = Xts<aes_xts_encrypt_iv_aesni, aes_xts_encrypt_aesni, K>;
template <std::size_t K>
using XtsGeneric = Xts<aes_xts_encrypt_iv_generic, aes_xts_encrypt_generic, K>;
#define FPUTUNE_AES_GCM(isa, K) Gcm<aes_gcm_setkey_##isa, aes_gcm_aad_##isa, aes_gcm_enc_##isa, aes_gcm_final_##isa, K>

// The reference is an oracle, not a kernel path: Linux has no scalar AES-CTR/XTS/GCM on x86
// (linux-x86-fpu-users-v7.1.csv, simd_min "none"), so no threshold is measured against it.
constexpr Variant reference(const char* name) { return {.name = name, .needs_fpu = false, .reference_only = true}; }

constexpr Kernel kKernels[] = {
    // aes-128-xts, aes-256-xts: key1 || key2 || 16-byte IV (the sector number); one message per request,
    // the tweak encrypted by its first section (Linux xts_crypt()).
    kernel<XtsAvx512<16>>({.name = "aes-128-xts-vaes-avx512", .required = kVaesAvx512}),
    kernel<XtsAvx2<16>>({.name = "aes-128-xts-vaes-avx2", .required = kVaesAvx2}),
    kernel<XtsAesni<16>>({.name = "aes-128-xts-aesni", .required = kAesni}),
    kernel<XtsGeneric<16>>(reference("aes-128-xts-generic")),
    kernel<XtsOpenSsl<16>>({.name = "aes-128-xts-openssl", .provider = "openssl"}),
    kernel<XtsAvx512<32>>({.name = "aes-256-xts-vaes-avx512", .required = kVaesAvx512}),
    kernel<XtsAvx2<32>>({.name = "aes-256-xts-vaes-avx2", .required = kVaesAvx2}),
    kernel<XtsAesni<32>>({.name = "aes-256-xts-aesni", .required = kAesni}),
    kernel<XtsGeneric<32>>(reference("aes-256-xts-generic")),
    kernel<XtsOpenSsl<32>>({.name = "aes-256-xts-openssl", .provider = "openssl"}),

    // aes-256-gcm: key || 12-byte IV; associated data through blocks() (its own section), the data
    // through crypt(), final() the rest and the 16-byte tag.
    kernel<FPUTUNE_AES_GCM(vaes_avx512, 32)>({.name = "aes-256-gcm-vaes-avx512", .required = kVaesAvx512}),
    kernel<FPUTUNE_AES_GCM(vaes_avx2, 32)>({.name = "aes-256-gcm-vaes-avx2", .required = kVaesAvx2}),
    kernel<FPUTUNE_AES_GCM(aesni_avx, 32)>({.name = "aes-256-gcm-aesni-avx", .required = kAesniAvx}),
    kernel<FPUTUNE_AES_GCM(aesni, 32)>({.name = "aes-256-gcm-aesni", .required = kAesni}),
    kernel<FPUTUNE_AES_GCM(generic, 32)>(reference("aes-256-gcm-generic")),
    kernel<GcmOpenSsl<32>>({.name = "aes-256-gcm-openssl", .provider = "openssl"}),

    // aes-256-ctr: key || 16-byte initial counter block (128-bit big-endian counter).
    kernel<Ctr<aes_ctr_vaes_avx512, 32>>({.name = "aes-256-ctr-vaes-avx512", .required = kVaesAvx512}),
    kernel<Ctr<aes_ctr_vaes_avx2, 32>>({.name = "aes-256-ctr-vaes-avx2", .required = kVaesAvx2}),
    kernel<Ctr<aes_ctr_aesni, 32>>({.name = "aes-256-ctr-aesni", .required = kAesni}),
    kernel<Ctr<aes_ctr_generic, 32>>(reference("aes-256-ctr-generic")),
    kernel<CtrOpenSsl<32>>({.name = "aes-256-ctr-openssl", .provider = "openssl"}),
};
#undef FPUTUNE_AES_GCM

}  // namespace

std::span<const Kernel> aes_kernels() noexcept { return kKernels; }

}  // namespace fputune
