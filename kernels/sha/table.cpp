// SPDX-License-Identifier: MIT
// The sha family table: sha1, sha224, sha256, sha384, sha512, sm3; per algorithm the best variant first,
// generic last among ours, then the OpenSSL peer. Also the glue shared by all our variants (state in
// ctx, padding and output in final), compiled with baseline flags; only block functions are ISA code.
#include <cassert>
#include <cstring>

#include "families.hpp"
#include "sha_blocks.hpp"
#include "sha_consts.hpp"

namespace fputune {
namespace sha {
namespace {

// The context of our variants: chaining state and the count of bytes already hashed.
template <typename Word>
struct MdCtx {
    Word h[8];
    std::uint64_t nbytes;
};

template <typename Word>
using BlockFn = void (*)(Word*, const std::uint8_t*, std::size_t) noexcept;

template <typename Word, const Word* Iv, std::size_t StateWords>
void md_init(void* ctx, const std::uint8_t*) noexcept {
    auto* c = static_cast<MdCtx<Word>*>(ctx);
    std::memcpy(c->h, Iv, StateWords * sizeof(Word));
    c->nbytes = 0;
}

template <typename Word, BlockFn<Word> Blocks>
void md_blocks(void* ctx, const std::uint8_t* data, std::size_t nblocks) noexcept {
    auto* c = static_cast<MdCtx<Word>*>(ctx);
    if (nblocks == 0) return;
    Blocks(c->h, data, nblocks);
    c->nbytes += nblocks * 16 * sizeof(Word);
}

// Merkle-Damgard padding as FIPS 180-4 5.1 (and SM3, identical): 0x80, zeros, the bit length
// big-endian in the last 8 (64-byte blocks) or 16 (128-byte blocks) bytes; output big-endian words.
template <typename Word, BlockFn<Word> Blocks, std::size_t OutBytes>
void md_final(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out) noexcept {
    constexpr std::size_t block = 16 * sizeof(Word);
    auto* c = static_cast<MdCtx<Word>*>(ctx);
    const std::size_t whole = len / block;
    md_blocks<Word, Blocks>(ctx, data, whole);
    data += whole * block;
    len -= whole * block;

    std::uint8_t buf[2 * block] = {};
    std::memcpy(buf, data, len);
    buf[len] = 0x80;
    const std::size_t nb = len + 1 + 2 * sizeof(Word) <= block ? 1 : 2;
    const std::uint64_t bits = (c->nbytes + len) * 8;
    for (int i = 0; i < 8; ++i) buf[nb * block - 1 - i] = static_cast<std::uint8_t>(bits >> (8 * i));
    Blocks(c->h, buf, nb);

    for (std::size_t i = 0; i < OutBytes; ++i)
        out[i] = static_cast<std::uint8_t>(c->h[i / sizeof(Word)] >> (8 * (sizeof(Word) - 1 - i % sizeof(Word))));
}

template <typename Word, const Word* Iv, std::size_t StateWords, BlockFn<Word> Blocks, std::size_t OutBytes>
constexpr Kernel make(const char* name, const char* algorithm, const char* isa, FeatureSet required) {
    return Kernel{name,
                  algorithm,
                  isa,
                  "fputune",
                  required,
                  16 * sizeof(Word),
                  sizeof(MdCtx<Word>),
                  0,
                  OutBytes,
                  required != 0,
                  md_init<Word, Iv, StateWords>,
                  md_blocks<Word, Blocks>,
                  md_final<Word, Blocks, OutBytes>};
}

template <BlockFn<std::uint32_t> B>
constexpr Kernel sha1(const char* name, const char* isa, FeatureSet req) {
    return make<std::uint32_t, kSha1Iv, 5, B, 20>(name, "sha1", isa, req);
}
template <BlockFn<std::uint32_t> B>
constexpr Kernel sha224(const char* name, const char* isa, FeatureSet req) {
    return make<std::uint32_t, kSha224Iv, 8, B, 28>(name, "sha224", isa, req);
}
template <BlockFn<std::uint32_t> B>
constexpr Kernel sha256(const char* name, const char* isa, FeatureSet req) {
    return make<std::uint32_t, kSha256Iv, 8, B, 32>(name, "sha256", isa, req);
}
template <BlockFn<std::uint64_t> B>
constexpr Kernel sha384(const char* name, const char* isa, FeatureSet req) {
    return make<std::uint64_t, kSha384Iv, 8, B, 48>(name, "sha384", isa, req);
}
template <BlockFn<std::uint64_t> B>
constexpr Kernel sha512(const char* name, const char* isa, FeatureSet req) {
    return make<std::uint64_t, kSha512Iv, 8, B, 64>(name, "sha512", isa, req);
}
template <BlockFn<std::uint32_t> B>
constexpr Kernel sm3(const char* name, const char* isa, FeatureSet req) {
    return make<std::uint32_t, kSm3Iv, 8, B, 32>(name, "sm3", isa, req);
}

using F = Feature;
// What each ISA file is compiled with (kernels/sha/CMakeLists.txt) is what it requires.
constexpr FeatureSet kShani = features(F::sha, F::ssse3, F::sse41);
constexpr FeatureSet kAvx2 = features(F::avx, F::avx2, F::bmi1, F::bmi2);
constexpr FeatureSet kAvxBmi2 = features(F::avx, F::bmi1, F::bmi2);
constexpr FeatureSet kSsse3 = features(F::ssse3);

}  // namespace
}  // namespace sha

std::span<const Kernel> sha_kernels() noexcept {
    using namespace sha;
    // Function-local so that the peers (constant-initialised in another file) are copied after they exist.
    static const Kernel table[] = {
        sha1<sha1_blocks_shani>("sha1-shani", "shani", kShani),
        sha1<sha1_blocks_avx2>("sha1-avx2", "avx2", kAvx2),
        sha1<sha1_blocks_ssse3>("sha1-ssse3", "ssse3", kSsse3),
        sha1<sha1_blocks_generic>("sha1-generic", "generic", 0),
        kSha1OpenSsl,

        sha224<sha256_blocks_shani>("sha224-shani", "shani", kShani),
        sha224<sha256_blocks_avx2>("sha224-avx2", "avx2", kAvx2),
        sha224<sha256_blocks_avx>("sha224-avx", "avx", kAvxBmi2),
        sha224<sha256_blocks_ssse3>("sha224-ssse3", "ssse3", kSsse3),
        sha224<sha256_blocks_generic>("sha224-generic", "generic", 0),
        kSha224OpenSsl,

        sha256<sha256_blocks_shani>("sha256-shani", "shani", kShani),
        sha256<sha256_blocks_avx2>("sha256-avx2", "avx2", kAvx2),
        sha256<sha256_blocks_avx>("sha256-avx", "avx", kAvxBmi2),
        sha256<sha256_blocks_ssse3>("sha256-ssse3", "ssse3", kSsse3),
        sha256<sha256_blocks_generic>("sha256-generic", "generic", 0),
        kSha256OpenSsl,

        sha384<sha512_blocks_avx2>("sha384-avx2", "avx2", kAvx2),
        sha384<sha512_blocks_avx>("sha384-avx", "avx", kAvxBmi2),
        sha384<sha512_blocks_ssse3>("sha384-ssse3", "ssse3", kSsse3),
        sha384<sha512_blocks_generic>("sha384-generic", "generic", 0),
        kSha384OpenSsl,

        sha512<sha512_blocks_avx2>("sha512-avx2", "avx2", kAvx2),
        sha512<sha512_blocks_avx>("sha512-avx", "avx", kAvxBmi2),
        sha512<sha512_blocks_ssse3>("sha512-ssse3", "ssse3", kSsse3),
        sha512<sha512_blocks_generic>("sha512-generic", "generic", 0),
        kSha512OpenSsl,

        sm3<sm3_blocks_avx>("sm3-avx", "avx", kAvxBmi2),
        sm3<sm3_blocks_generic>("sm3-generic", "generic", 0),
        kSm3OpenSsl,
    };
    return table;
}

}  // namespace fputune
