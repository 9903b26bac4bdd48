// SPDX-License-Identifier: MIT
// The kernel's sha1/sha256/sha512/sm3 transforms as kernels: blocks() is what the kernel's glue runs
// between kernel_fpu_begin() and kernel_fpu_end() (one transform call over the whole blocks, as
// sha*_base_do_update() makes it); final() pads as FIPS 180-4 and calls the same transform.
#include <cstring>

#include "linux_glue.hpp"
#include "sha_consts.hpp"

namespace fputune::linux_glue {
namespace {

template <typename Word>
using Transform = void (*)(Word* state, const std::uint8_t* data, int blocks);

// struct sha1_state / sha256_state / sha512_state / sm3_state: the chaining words first, then the count.
template <typename Word>
struct MdCtx {
    Word h[8];
    std::uint64_t nbytes;
};

template <typename Word, Transform<Word> T>
void md_blocks(void* ctx, const std::uint8_t* data, std::size_t nblocks) noexcept {
    if (nblocks == 0) return;  // the kernel never calls a transform with no block
    auto* c = static_cast<MdCtx<Word>*>(ctx);
    T(c->h, data, static_cast<int>(nblocks));
    c->nbytes += nblocks * 16 * sizeof(Word);
}

// 0x80, zeros, the message length in bits big-endian in the last 8 (64-byte blocks) or 16 (128-byte
// blocks) bytes; the output is the chaining words big-endian.
template <typename Word, Transform<Word> T, std::size_t OutBytes>
void md_final(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out) noexcept {
    constexpr std::size_t block = 16 * sizeof(Word);
    auto* c = static_cast<MdCtx<Word>*>(ctx);
    md_blocks<Word, T>(ctx, data, len / block);
    data += len / block * block;
    len %= block;
    std::uint8_t buf[2 * block] = {};
    std::memcpy(buf, data, len);
    buf[len] = 0x80;
    const std::size_t nb = len + 1 + 2 * sizeof(Word) <= block ? 1 : 2;
    const std::uint64_t bits = (c->nbytes + len) * 8;
    for (int i = 0; i < 8; ++i) buf[nb * block - 1 - i] = static_cast<std::uint8_t>(bits >> (8 * i));
    T(c->h, buf, static_cast<int>(nb));
    for (std::size_t i = 0; i < OutBytes; ++i)
        out[i] = static_cast<std::uint8_t>(c->h[i / sizeof(Word)] >> (8 * (sizeof(Word) - 1 - i % sizeof(Word))));
}

template <typename Word, const Word* Iv, std::size_t IvWords>
void md_init(void* ctx, const std::uint8_t*) noexcept {
    auto* c = static_cast<MdCtx<Word>*>(ctx);
    std::memcpy(c->h, Iv, IvWords * sizeof(Word));
    c->nbytes = 0;
}

template <typename Word, const Word* Iv, std::size_t IvWords, std::size_t OutBytes, Transform<Word> T>
Kernel md(const char* name, const char* algorithm, const char* isa, FeatureSet required) {
    return Kernel{.name = name,
                  .algorithm = algorithm,
                  .isa = isa,
                  .provider = kProvider,
                  .required = required,
                  .block_bytes = 16 * sizeof(Word),
                  .ctx_bytes = sizeof(MdCtx<Word>),
                  .key_bytes = 0,
                  .out_bytes = OutBytes,
                  .needs_fpu = true,
                  .init = md_init<Word, Iv, IvWords>,
                  .blocks = md_blocks<Word, T>,
                  .final = md_final<Word, T, OutBytes>};
}

template <Transform<std::uint32_t> T>
Kernel sha1(const char* name, const char* isa, FeatureSet req) {
    return md<std::uint32_t, sha::kSha1Iv, 5, 20, T>(name, "sha1", isa, req);
}
template <Transform<std::uint32_t> T>
Kernel sha256(const char* name, const char* isa, FeatureSet req) {
    return md<std::uint32_t, sha::kSha256Iv, 8, 32, T>(name, "sha256", isa, req);
}
template <Transform<std::uint64_t> T>
Kernel sha512(const char* name, const char* isa, FeatureSet req) {
    return md<std::uint64_t, sha::kSha512Iv, 8, 64, T>(name, "sha512", isa, req);
}
template <Transform<std::uint32_t> T>
Kernel sm3(const char* name, const char* isa, FeatureSet req) {
    return md<std::uint32_t, sha::kSm3Iv, 8, 32, T>(name, "sm3", isa, req);
}

#if FPUTUNE_LINUX_SHA1_AVX2 && FPUTUNE_LINUX_SHA1_SSSE3
// sha1_apply_transform_avx2(): the AVX2 code below SHA1_AVX2_BLOCK_OPTSIZE (4) blocks is the AVX one.
void sha1_apply_transform_avx2(std::uint32_t* state, const std::uint8_t* data, int blocks) {
    if (blocks >= 4)
        sha1_transform_avx2(state, data, blocks);
    else
        sha1_transform_avx(state, data, blocks);
}
#endif

}  // namespace

void add_sha(std::vector<Kernel>& out) {
    using F = Feature;
    // What each glue checks before it registers (avx_usable() = AVX with the YMM state enabled), plus what
    // the asm executes: the SHA-NI files also use pshufb and pextrd/pinsrd.
    [[maybe_unused]] const FeatureSet ni = features(F::sha, F::ssse3, F::sse41);
    [[maybe_unused]] const FeatureSet rorx = features(F::avx, F::avx2, F::bmi2);
#if FPUTUNE_LINUX_SHA1_NI
    out.push_back(sha1<sha1_ni_transform>("sha1-shani-linux", "shani", ni));
#endif
#if FPUTUNE_LINUX_SHA1_AVX2 && FPUTUNE_LINUX_SHA1_SSSE3
    out.push_back(sha1<sha1_apply_transform_avx2>("sha1-avx2-linux", "avx2", features(F::avx, F::avx2, F::bmi1, F::bmi2)));
#endif
#if FPUTUNE_LINUX_SHA1_SSSE3
    out.push_back(sha1<sha1_transform_avx>("sha1-avx-linux", "avx", features(F::avx)));
    out.push_back(sha1<sha1_transform_ssse3>("sha1-ssse3-linux", "ssse3", features(F::ssse3)));
#endif
#if FPUTUNE_LINUX_SHA256_NI
    out.push_back(sha256<sha256_ni_transform>("sha256-shani-linux", "shani", ni));
#endif
#if FPUTUNE_LINUX_SHA256_AVX2
    out.push_back(sha256<sha256_transform_rorx>("sha256-avx2-linux", "avx2", rorx));
#endif
#if FPUTUNE_LINUX_SHA256_AVX
    out.push_back(sha256<sha256_transform_avx>("sha256-avx-linux", "avx", features(F::avx)));
#endif
#if FPUTUNE_LINUX_SHA256_SSSE3
    out.push_back(sha256<sha256_transform_ssse3>("sha256-ssse3-linux", "ssse3", features(F::ssse3)));
#endif
#if FPUTUNE_LINUX_SHA512_AVX2
    out.push_back(sha512<sha512_transform_rorx>("sha512-avx2-linux", "avx2", rorx));
#endif
#if FPUTUNE_LINUX_SHA512_AVX
    out.push_back(sha512<sha512_transform_avx>("sha512-avx-linux", "avx", features(F::avx)));
#endif
#if FPUTUNE_LINUX_SHA512_SSSE3
    out.push_back(sha512<sha512_transform_ssse3>("sha512-ssse3-linux", "ssse3", features(F::ssse3)));
#endif
#if FPUTUNE_LINUX_SM3_AVX
    out.push_back(sm3<sm3_transform_avx>("sm3-avx-linux", "avx", features(F::avx, F::bmi2)));
#endif
}

}  // namespace fputune::linux_glue
