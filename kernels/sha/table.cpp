// SPDX-License-Identifier: MIT
// The sha family table: sha1, sha224, sha256, sha384, sha512, sm3; per algorithm the best variant first,
// generic last among ours, then the OpenSSL peer. Baseline flags: the glue (sha.hpp) runs here and calls
// the ISA block functions after the registry has checked the CPU.
#include "families.hpp"
#include "sha_peers.hpp"
#include "sha.hpp"

namespace fputune {
namespace {

using namespace sha;
using F = Feature;
// What each ISA file is compiled with (kernels/sha/CMakeLists.txt) is what it requires.
constexpr FeatureSet kShani = features(F::sha, F::ssse3, F::sse41);
constexpr FeatureSet kAvx2 = features(F::avx, F::avx2, F::bmi1, F::bmi2);
constexpr FeatureSet kAvx = features(F::avx);
constexpr FeatureSet kAvxBmi2 = features(F::avx, F::bmi1, F::bmi2);
constexpr FeatureSet kSsse3 = features(F::ssse3);

constexpr Kernel kKernels[] = {
    kernel<Sha1<sha1_blocks_shani>>({.name = "sha1-shani", .required = kShani}),
    kernel<Sha1<sha1_blocks_avx2>>({.name = "sha1-avx2", .required = kAvx2}),
    kernel<Sha1<sha1_blocks_avx>>({.name = "sha1-avx", .required = kAvx}),
    kernel<Sha1<sha1_blocks_ssse3>>({.name = "sha1-ssse3", .required = kSsse3}),
    kernel<Sha1<sha1_blocks_generic>>({.name = "sha1-generic", .needs_fpu = false}),
    kernel<peers::Sha1OpenSsl>({.name = "sha1-openssl", .provider = "openssl"}),

    kernel<Sha224<sha256_blocks_shani>>({.name = "sha224-shani", .required = kShani}),
    kernel<Sha224<sha256_blocks_avx2>>({.name = "sha224-avx2", .required = kAvx2}),
    kernel<Sha224<sha256_blocks_avx>>({.name = "sha224-avx", .required = kAvx}),
    kernel<Sha224<sha256_blocks_ssse3>>({.name = "sha224-ssse3", .required = kSsse3}),
    kernel<Sha224<sha256_blocks_generic>>({.name = "sha224-generic", .needs_fpu = false}),
    kernel<peers::Sha224OpenSsl>({.name = "sha224-openssl", .provider = "openssl"}),

    kernel<Sha256<sha256_blocks_shani>>({.name = "sha256-shani", .required = kShani}),
    // Two messages per section (sha.hpp, sha256_finup_2x): a multi-message kernel, after the one-stream best.
    kernel<Sha256Finup2x<sha256_finup_2x_shani>>({.name = "sha256-shani-2x", .required = kShani}),
    kernel<Sha256<sha256_blocks_avx2>>({.name = "sha256-avx2", .required = kAvx2}),
    kernel<Sha256<sha256_blocks_avx>>({.name = "sha256-avx", .required = kAvx}),
    kernel<Sha256<sha256_blocks_ssse3>>({.name = "sha256-ssse3", .required = kSsse3}),
    kernel<Sha256<sha256_blocks_generic>>({.name = "sha256-generic", .needs_fpu = false}),
    kernel<peers::Sha256OpenSsl>({.name = "sha256-openssl", .provider = "openssl"}),

    kernel<Sha384<sha512_blocks_avx2>>({.name = "sha384-avx2", .required = kAvx2}),
    kernel<Sha384<sha512_blocks_avx>>({.name = "sha384-avx", .required = kAvx}),
    kernel<Sha384<sha512_blocks_ssse3>>({.name = "sha384-ssse3", .required = kSsse3}),
    kernel<Sha384<sha512_blocks_generic>>({.name = "sha384-generic", .needs_fpu = false}),
    kernel<peers::Sha384OpenSsl>({.name = "sha384-openssl", .provider = "openssl"}),

    kernel<Sha512<sha512_blocks_avx2>>({.name = "sha512-avx2", .required = kAvx2}),
    kernel<Sha512<sha512_blocks_avx>>({.name = "sha512-avx", .required = kAvx}),
    kernel<Sha512<sha512_blocks_ssse3>>({.name = "sha512-ssse3", .required = kSsse3}),
    kernel<Sha512<sha512_blocks_generic>>({.name = "sha512-generic", .needs_fpu = false}),
    kernel<peers::Sha512OpenSsl>({.name = "sha512-openssl", .provider = "openssl"}),

    kernel<Sm3<sm3_blocks_avx>>({.name = "sm3-avx", .required = kAvxBmi2}),
    kernel<Sm3<sm3_blocks_generic>>({.name = "sm3-generic", .needs_fpu = false}),
    // OpenSSL's SM3 is portable C on x86: no vector registers.
    kernel<peers::Sm3OpenSsl>({.name = "sm3-openssl", .provider = "openssl", .needs_fpu = false}),
};

}  // namespace

std::span<const Kernel> sha_kernels() noexcept { return kKernels; }

}  // namespace fputune
