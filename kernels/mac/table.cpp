// SPDX-License-Identifier: MIT
// The mac family table: per algorithm, best variant first, the portable reference last among ours,
// then the peers. Baseline flags: this file only takes the addresses of the ISA entry points.
#include "families.hpp"
#include "mac.hpp"

namespace fputune {

namespace {

using F = Feature;
using namespace mac;

constexpr std::uint32_t P1305_SIMD = kPoly1305SimdCtxBytes;
constexpr std::uint32_t GF128 = kGf128CtxBytes;
constexpr std::uint32_t B2S = kBlake2sCtxBytes;
constexpr std::uint32_t NH = kNhCtxBytes;
constexpr std::uint32_t NHP = kNhPoly1305CtxBytes;

const Kernel kMacKernels[] = {
    // poly1305: key r||s (32 bytes), 16-byte blocks, 16-byte tag.
    {"poly1305-ifma", "poly1305", "ifma", "fputune", features(F::avx512f, F::avx512ifma), 16, P1305_SIMD, 32, 16, true,
     poly1305_init_ifma, poly1305_blocks_ifma, poly1305_final_ifma},
    {"poly1305-avx512", "poly1305", "avx512", "fputune", features(F::avx512f), 16, P1305_SIMD, 32, 16, true,
     poly1305_init_avx512, poly1305_blocks_avx512, poly1305_final_avx512},
    {"poly1305-avx2", "poly1305", "avx2", "fputune", features(F::avx, F::avx2), 16, P1305_SIMD, 32, 16, true,
     poly1305_init_avx2, poly1305_blocks_avx2, poly1305_final_avx2},
    {"poly1305-avx", "poly1305", "avx", "fputune", features(F::avx), 16, P1305_SIMD, 32, 16, true,
     poly1305_init_avx, poly1305_blocks_avx, poly1305_final_avx},
    {"poly1305-scalar", "poly1305", "scalar", "fputune", 0, 16, kPoly1305ScalarCtxBytes, 32, 16, false,
     poly1305_init_scalar, poly1305_blocks_scalar, poly1305_final_scalar},
    {"poly1305-openssl", "poly1305", "openssl", "openssl", 0, 16, kPeerCtxBytes, 32, 16, true,
     poly1305_init_openssl, poly1305_blocks_openssl, poly1305_final_openssl},
    {"poly1305-sodium", "poly1305", "sodium", "sodium", 0, 16, kPeerCtxBytes, 32, 16, true,
     poly1305_init_sodium, poly1305_blocks_sodium, poly1305_final_sodium},

    // ghash: key H (16 bytes), 16-byte blocks; GCM's GHASH over the data zero-padded to 16 bytes, with no
    // length block (GCM appends one; here the caller hashes exactly the blocks it gives).
    {"ghash-vpclmul-avx512", "ghash", "vpclmul-avx512", "fputune", features(F::avx512f, F::avx512vl, F::avx512bw, F::vpclmulqdq, F::pclmul), 16, GF128, 16, 16, true,
     ghash_init_vpclmul_avx512, ghash_blocks_vpclmul_avx512, ghash_final_vpclmul_avx512},
    {"ghash-pclmul", "ghash", "pclmul", "fputune", features(F::pclmul, F::ssse3), 16, GF128, 16, 16, true,
     ghash_init_pclmul, ghash_blocks_pclmul, ghash_final_pclmul},
    {"ghash-generic", "ghash", "generic", "fputune", 0, 16, GF128, 16, 16, false,
     ghash_init_generic, ghash_blocks_generic, ghash_final_generic},
    // OpenSSL's GHASH code through CRYPTO_gcm128 with a stand-in cipher (see mac_openssl.cpp): exact.
    {"ghash-openssl", "ghash", "openssl", "openssl", 0, 16, kPeerCtxBytes, 16, 16, true,
     ghash_init_openssl, ghash_blocks_openssl, ghash_final_openssl},

    // polyval (RFC 8452): key H (16 bytes), 16-byte blocks, a tail zero-padded to a block.
    {"polyval-vpclmul-avx512", "polyval", "vpclmul-avx512", "fputune", features(F::avx512f, F::avx512vl, F::avx512bw, F::vpclmulqdq, F::pclmul), 16, GF128, 16, 16, true,
     polyval_init_vpclmul_avx512, polyval_blocks_vpclmul_avx512, polyval_final_vpclmul_avx512},
    {"polyval-pclmul", "polyval", "pclmul", "fputune", features(F::pclmul, F::ssse3), 16, GF128, 16, 16, true,
     polyval_init_pclmul, polyval_blocks_pclmul, polyval_final_pclmul},
    {"polyval-generic", "polyval", "generic", "fputune", 0, 16, GF128, 16, 16, false,
     polyval_init_generic, polyval_blocks_generic, polyval_final_generic},

    // nh: the NH key (1072 bytes), 16-byte units, output the lane-wise sum of the NH hashes of the 1024-byte
    // messages (defined in nh_generic.cpp). nhpoly1305: Linux crypto_nhpoly1305, key r (16) || NH key.
    {"nh-avx2", "nh", "avx2", "fputune", features(F::avx, F::avx2), 16, NH, kNhKeyBytes, 32, true,
     nh_init_avx2, nh_blocks_avx2, nh_final_avx2},
    {"nh-sse2", "nh", "sse2", "fputune", features(F::sse2), 16, NH, kNhKeyBytes, 32, true,
     nh_init_sse2, nh_blocks_sse2, nh_final_sse2},
    {"nh-generic", "nh", "generic", "fputune", 0, 16, NH, kNhKeyBytes, 32, false,
     nh_init_generic, nh_blocks_generic, nh_final_generic},
    {"nhpoly1305-avx2", "nhpoly1305", "avx2", "fputune", features(F::avx, F::avx2), 16, NHP, kNhPoly1305KeyBytes, 16, true,
     nhpoly1305_init_avx2, nhpoly1305_blocks_avx2, nhpoly1305_final_avx2},
    {"nhpoly1305-sse2", "nhpoly1305", "sse2", "fputune", features(F::sse2), 16, NHP, kNhPoly1305KeyBytes, 16, true,
     nhpoly1305_init_sse2, nhpoly1305_blocks_sse2, nhpoly1305_final_sse2},
    {"nhpoly1305-generic", "nhpoly1305", "generic", "fputune", 0, 16, NHP, kNhPoly1305KeyBytes, 16, false,
     nhpoly1305_init_generic, nhpoly1305_blocks_generic, nhpoly1305_final_generic},

    // blake2s: unkeyed BLAKE2s-256, 64-byte blocks.
    {"blake2s-avx512", "blake2s", "avx512", "fputune", features(F::avx512f, F::avx512vl), 64, B2S, 0, 32, true,
     blake2s_init_avx512, blake2s_blocks_avx512, blake2s_final_avx512},
    {"blake2s-ssse3", "blake2s", "ssse3", "fputune", features(F::ssse3), 64, B2S, 0, 32, true,
     blake2s_init_ssse3, blake2s_blocks_ssse3, blake2s_final_ssse3},
    {"blake2s-generic", "blake2s", "generic", "fputune", 0, 64, B2S, 0, 32, false,
     blake2s_init_generic, blake2s_blocks_generic, blake2s_final_generic},
    {"blake2s-openssl", "blake2s", "openssl", "openssl", 0, 64, kPeerCtxBytes, 0, 32, true,
     blake2s_init_openssl, blake2s_blocks_openssl, blake2s_final_openssl},
};

}  // namespace

std::span<const Kernel> mac_kernels() noexcept { return kMacKernels; }

}  // namespace fputune
