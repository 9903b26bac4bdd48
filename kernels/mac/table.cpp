// SPDX-License-Identifier: MIT
// The mac family table: per algorithm, best variant first, the portable reference last among ours,
// then the peers. Baseline flags: the glue (mac.hpp) runs here and calls the ISA entry points after the
// registry has checked the CPU.
#include "families.hpp"
#include "mac.hpp"
#include "mac_peers.hpp"

namespace fputune {
namespace {

using namespace mac;
using F = Feature;
constexpr FeatureSet kVpclmulAvx512 = features(F::avx512f, F::avx512vl, F::avx512bw, F::vpclmulqdq, F::pclmul);
constexpr FeatureSet kVpclmulAvx2 = features(F::avx, F::avx2, F::vpclmulqdq, F::pclmul);
constexpr FeatureSet kPclmul = features(F::pclmul, F::ssse3);

constexpr Kernel kKernels[] = {
    // poly1305: key r||s (32 bytes), 16-byte blocks, 16-byte tag.
    kernel<Poly1305<poly1305_blocks_ifma>>({.name = "poly1305-ifma", .required = features(F::avx512f, F::avx512ifma)}),
    kernel<Poly1305<poly1305_blocks_avx512>>({.name = "poly1305-avx512", .required = features(F::avx512f)}),
    kernel<Poly1305<poly1305_blocks_avx2>>({.name = "poly1305-avx2", .required = features(F::avx, F::avx2)}),
    kernel<Poly1305<poly1305_blocks_avx>>({.name = "poly1305-avx", .required = features(F::avx)}),
    kernel<Poly1305<poly1305_blocks_scalar>>({.name = "poly1305-scalar", .needs_fpu = false}),
    kernel<peers::Poly1305OpenSsl>({.name = "poly1305-openssl", .provider = "openssl"}),
    kernel<peers::Poly1305Sodium>({.name = "poly1305-sodium", .provider = "sodium"}),

    // ghash: key H (16 bytes), 16-byte blocks; GCM's GHASH over the data zero-padded to 16 bytes, with no
    // length block (GCM appends one; here the caller hashes exactly the blocks it gives).
    kernel<Ghash<ghash_blocks_vpclmul_avx512>>({.name = "ghash-vpclmul-avx512", .required = kVpclmulAvx512}),
    kernel<Ghash<ghash_blocks_vpclmul_avx2>>({.name = "ghash-vpclmul-avx2", .required = kVpclmulAvx2}),
    kernel<Ghash<ghash_blocks_pclmul>>({.name = "ghash-pclmul", .required = kPclmul}),
    kernel<Ghash<ghash_blocks_generic>>({.name = "ghash-generic", .needs_fpu = false}),
    // OpenSSL's GHASH code through CRYPTO_gcm128 with a stand-in cipher (see peers/openssl.cpp): exact.
    kernel<peers::GhashOpenSsl>({.name = "ghash-openssl", .provider = "openssl"}),

    // polyval (RFC 8452): key H (16 bytes), 16-byte blocks, a tail zero-padded to a block.
    kernel<Polyval<polyval_blocks_vpclmul_avx512>>({.name = "polyval-vpclmul-avx512", .required = kVpclmulAvx512}),
    kernel<Polyval<polyval_blocks_vpclmul_avx2>>({.name = "polyval-vpclmul-avx2", .required = kVpclmulAvx2}),
    // Linux's polyval-clmulni is VEX-encoded and needs AVX: polyval-pclmul-avx; polyval-pclmul is legacy SSE.
    kernel<Polyval<polyval_blocks_pclmul_avx>>({.name = "polyval-pclmul-avx", .required = kPclmul | features(F::avx)}),
    kernel<Polyval<polyval_blocks_pclmul>>({.name = "polyval-pclmul", .required = kPclmul}),
    kernel<Polyval<polyval_blocks_generic>>({.name = "polyval-generic", .needs_fpu = false}),

    // nh: the NH key (1072 bytes), 16-byte units, output the lane-wise sum of the NH hashes of the 1024-byte
    // messages (defined in nh_generic.cpp). nhpoly1305: Linux crypto_nhpoly1305, key r (16) || NH key.
    kernel<Nh<nh_core_avx2>>({.name = "nh-avx2", .required = features(F::avx, F::avx2)}),
    kernel<Nh<nh_core_sse2>>({.name = "nh-sse2", .required = features(F::sse2)}),
    kernel<Nh<nh_core_generic>>({.name = "nh-generic", .needs_fpu = false}),
    kernel<NhPoly1305<nh_core_avx2>>({.name = "nhpoly1305-avx2", .required = features(F::avx, F::avx2)}),
    kernel<NhPoly1305<nh_core_sse2>>({.name = "nhpoly1305-sse2", .required = features(F::sse2)}),
    kernel<NhPoly1305<nh_core_generic>>({.name = "nhpoly1305-generic", .needs_fpu = false}),

    // blake2s: unkeyed BLAKE2s-256, 64-byte blocks.
    kernel<Blake2s<blake2s_compress_avx512>>({.name = "blake2s-avx512", .required = features(F::avx512f, F::avx512vl)}),
    kernel<Blake2s<blake2s_compress_ssse3>>({.name = "blake2s-ssse3", .required = features(F::ssse3)}),
    kernel<Blake2s<blake2s_compress_generic>>({.name = "blake2s-generic", .needs_fpu = false}),
    kernel<peers::Blake2sOpenSsl>({.name = "blake2s-openssl", .provider = "openssl"}),
};

}  // namespace

std::span<const Kernel> mac_kernels() noexcept { return kKernels; }

}  // namespace fputune
