// SPDX-License-Identifier: MIT
// The kernel's sha1/sha256/sha512/sm3 transforms as kernels, through our Merkle-Damgard glue (sha.hpp):
// blocks() is what the kernel's glue runs between kernel_fpu_begin() and kernel_fpu_end(), one transform
// call over the whole blocks, as sha*_base_do_update() makes it; final() pads and calls the same transform.
#include <cstring>

#include "linux_glue.hpp"
#include "sha.hpp"

namespace fputune::linux_glue {
namespace {

// The kernel's transforms take the block count and a state struct that begins with the chaining words.
template <typename Word, void (*Transform)(Word*, const std::uint8_t*, std::size_t)>
void transform(Word* state, const std::uint8_t* data, std::size_t nblocks) noexcept {
    Transform(state, data, nblocks);
}

#if FPUTUNE_LINUX_SHA1_AVX2 && FPUTUNE_LINUX_SHA1_SSSE3
// sha1_apply_transform_avx2(): below SHA1_AVX2_BLOCK_OPTSIZE (4) blocks the AVX code runs instead.
void sha1_apply_transform_avx2(std::uint32_t* state, const std::uint8_t* data, std::size_t blocks) {
    if (blocks >= 4)
        sha1_transform_avx2(state, data, blocks);
    else
        sha1_transform_avx(state, data, blocks);
}
#endif

#if FPUTUNE_LINUX_SHA256_NI_2X
// sha256_finup_2x_arch() of lib/crypto/x86/sha256.h: the prefix as its struct __sha256_ctx, then the asm.
struct Sha256Ctx {
    std::uint32_t state[8];
    std::uint64_t bytecount;
    std::uint8_t buf[64];
};
void finup2x_ni(const sha::Sha256Prefix& p, const std::uint8_t* data1, const std::uint8_t* data2, std::size_t len,
                std::uint8_t out1[32], std::uint8_t out2[32]) noexcept {
    Sha256Ctx c;
    std::memcpy(c.state, p.state, sizeof c.state);
    c.bytecount = p.nbytes;
    std::memcpy(c.buf, p.buf, sizeof c.buf);
    sha256_ni_finup2x(&c, data1, data2, static_cast<int>(len), out1, out2);
}
#endif

}  // namespace

void add_sha(std::vector<Kernel>& out) {
    using namespace sha;
    using F = Feature;
    using W32 = std::uint32_t;
    using W64 = std::uint64_t;
    // What each glue checks before it registers (avx_usable() = AVX with the YMM state), plus what the asm
    // executes: the SHA-NI files also use pshufb and pextrd/pinsrd, the rorx files BMI2.
    [[maybe_unused]] constexpr FeatureSet kNi = features(F::sha, F::ssse3, F::sse41);
    [[maybe_unused]] constexpr FeatureSet kRorx = features(F::avx, F::avx2, F::bmi2);
    [[maybe_unused]] constexpr FeatureSet kAvx = features(F::avx);
    [[maybe_unused]] constexpr FeatureSet kSsse3 = features(F::ssse3);
#if FPUTUNE_LINUX_SHA1_NI
    out.push_back(kernel<Sha1<transform<W32, sha1_ni_transform>>>(linux_variant("sha1-shani-linux", "shani", kNi)));
#endif
#if FPUTUNE_LINUX_SHA1_AVX2 && FPUTUNE_LINUX_SHA1_SSSE3
    out.push_back(kernel<Sha1<transform<W32, sha1_apply_transform_avx2>>>(
        linux_variant("sha1-avx2-linux", "avx2", features(F::avx, F::avx2, F::bmi1, F::bmi2))));
#endif
#if FPUTUNE_LINUX_SHA1_SSSE3
    out.push_back(kernel<Sha1<transform<W32, sha1_transform_avx>>>(linux_variant("sha1-avx-linux", "avx", kAvx)));
    out.push_back(
        kernel<Sha1<transform<W32, sha1_transform_ssse3>>>(linux_variant("sha1-ssse3-linux", "ssse3", kSsse3)));
#endif
#if FPUTUNE_LINUX_SHA256_NI
    out.push_back(
        kernel<Sha256<transform<W32, sha256_ni_transform>>>(linux_variant("sha256-shani-linux", "shani", kNi)));
#endif
#if FPUTUNE_LINUX_SHA256_NI_2X
    out.push_back(kernel<Sha256Finup2x<finup2x_ni>>(linux_variant("sha256-shani-2x-linux", "shani-2x", kNi)));
#endif
#if FPUTUNE_LINUX_SHA256_AVX2
    out.push_back(
        kernel<Sha256<transform<W32, sha256_transform_rorx>>>(linux_variant("sha256-avx2-linux", "avx2", kRorx)));
#endif
#if FPUTUNE_LINUX_SHA256_AVX
    out.push_back(kernel<Sha256<transform<W32, sha256_transform_avx>>>(linux_variant("sha256-avx-linux", "avx", kAvx)));
#endif
#if FPUTUNE_LINUX_SHA256_SSSE3
    out.push_back(
        kernel<Sha256<transform<W32, sha256_transform_ssse3>>>(linux_variant("sha256-ssse3-linux", "ssse3", kSsse3)));
#endif
#if FPUTUNE_LINUX_SHA512_AVX2
    out.push_back(
        kernel<Sha512<transform<W64, sha512_transform_rorx>>>(linux_variant("sha512-avx2-linux", "avx2", kRorx)));
#endif
#if FPUTUNE_LINUX_SHA512_AVX
    out.push_back(kernel<Sha512<transform<W64, sha512_transform_avx>>>(linux_variant("sha512-avx-linux", "avx", kAvx)));
#endif
#if FPUTUNE_LINUX_SHA512_SSSE3
    out.push_back(
        kernel<Sha512<transform<W64, sha512_transform_ssse3>>>(linux_variant("sha512-ssse3-linux", "ssse3", kSsse3)));
#endif
#if FPUTUNE_LINUX_SM3_AVX
    out.push_back(kernel<Sm3<transform<W32, sm3_transform_avx>>>(
        linux_variant("sm3-avx-linux", "avx", features(F::avx, F::bmi2))));
#endif
    (void)out;
}

}  // namespace fputune::linux_glue
