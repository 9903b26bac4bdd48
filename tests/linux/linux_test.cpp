// SPDX-License-Identifier: MIT
// The linux provider (built only with FPUTUNE_LINUX_SRC): every asm file that built is registered under
// the tree's version, the kernel's entry points called directly give OpenSSL's digests, and every
// variant's output equals OpenSSL's (the conformance suite then holds them to our references).
#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <sstream>

#include <openssl/evp.h>

#include <catch2/catch.hpp>

#include "cpu.hpp"
#include "linux_asm.hpp"
#include "registry.hpp"
#include "../test_util.hpp"

using namespace fputune;
using namespace fputune::test;

namespace {

std::vector<const Kernel*> linux_variants() {
    std::vector<const Kernel*> out;
    for (const Kernel* k : all_kernels())
        if (std::strncmp(k->provider, "linux ", 6) == 0) out.push_back(k);
    return out;
}

bool usable(const Kernel& k) {
    if (FeatureSet missing = missing_features(k, usable_features())) {
        WARN("SKIPPED " << k.name << ": this CPU lacks " << feature_list_string(missing));
        return false;
    }
    return true;
}

std::string openssl_digest_hex(const char* alg, const std::uint8_t* p, std::size_t n) {
    EVP_MD* md = EVP_MD_fetch(nullptr, alg, nullptr);
    REQUIRE(md != nullptr);
    std::uint8_t out[EVP_MAX_MD_SIZE];
    unsigned len = 0;
    REQUIRE(EVP_Digest(p, n, out, &len, md, nullptr) == 1);
    EVP_MD_free(md);
    return to_hex(out, len);
}

std::string openssl_poly1305_hex(const std::vector<std::uint8_t>& key, const std::uint8_t* p, std::size_t n) {
    std::uint8_t out[16];
    std::size_t len = sizeof out;
    EVP_PKEY* pkey = EVP_PKEY_new_raw_private_key(EVP_PKEY_POLY1305, nullptr, key.data(), key.size());
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    REQUIRE(EVP_DigestSignInit(ctx, nullptr, nullptr, nullptr, pkey) == 1);
    REQUIRE(EVP_DigestSignUpdate(ctx, p, n) == 1);
    REQUIRE(EVP_DigestSignFinal(ctx, out, &len) == 1);
    EVP_MD_CTX_free(ctx);
    EVP_PKEY_free(pkey);
    return to_hex(out, len);
}

// The variants each asm file gives (kernels/linux/linux_*.cpp registers them).
const std::map<std::string, std::vector<std::string>> kUnitVariants = {
    {"sha1_ssse3", {"sha1-ssse3-linux", "sha1-avx-linux"}},
    {"sha1_avx2", {"sha1-avx2-linux"}},
    {"sha1_ni", {"sha1-shani-linux"}},
    {"sha256_ssse3", {"sha256-ssse3-linux"}},
    {"sha256_avx", {"sha256-avx-linux"}},
    {"sha256_avx2", {"sha256-avx2-linux"}},
    {"sha256_ni", {"sha256-shani-linux"}},
    {"sha256_ni_2x", {"sha256-shani-2x-linux"}},
    {"sha512_ssse3", {"sha512-ssse3-linux"}},
    {"sha512_avx", {"sha512-avx-linux"}},
    {"sha512_avx2", {"sha512-avx2-linux"}},
    {"sm3_avx", {"sm3-avx-linux"}},
    {"crc32c_pcl", {"crc32c-pclmul-linux"}},
    {"crc32_pclmul", {"crc32-pclmul-linux"}},
    {"crct10dif_pcl", {"crct10dif-pclmul-linux"}},
    {"crc32c_3way", {"crc32c-pclmul-linux"}},
    {"crc_consts", {}},  // the CRC template's constants: no variant of its own
    {"crc32_lsb", {"crc32-pclmul-linux", "crc32-vpclmul-avx2-linux", "crc32-vpclmul-avx512-linux"}},
    {"crc16_msb", {"crct10dif-pclmul-linux", "crct10dif-vpclmul-avx2-linux", "crct10dif-vpclmul-avx512-linux"}},
    {"crc64_lsb", {"crc64-pclmul-linux", "crc64-vpclmul-avx2-linux", "crc64-vpclmul-avx512-linux"}},
    {"ghash_clmulni", {"ghash-pclmul-linux"}},
    {"polyval_clmulni", {"polyval-pclmul-linux"}},
    {"nh_sse2", {"nh-sse2-linux", "nhpoly1305-sse2-linux"}},
    {"nh_avx2", {"nh-avx2-linux", "nhpoly1305-avx2-linux"}},
    {"blake2s", {"blake2s-ssse3-linux", "blake2s-avx512-linux"}},
    {"chacha_ssse3", {"chacha20-ssse3-linux"}},
    {"chacha_avx2", {"chacha20-avx2-linux"}},
    {"chacha_avx512vl", {"chacha20-avx512vl-linux"}},
    {"poly1305", {"poly1305-scalar-linux", "poly1305-avx-linux", "poly1305-avx2-linux", "poly1305-avx512-linux"}},
    {"aesni", {"aes-128-xts-aesni-linux", "aes-256-xts-aesni-linux", "aes-256-ctr-aesni-linux"}},
    {"aes_ctr_by8", {"aes-256-ctr-aesni-avx-linux"}},
    {"aes_xts_avx",
     {"aes-128-xts-vaes-avx512-linux", "aes-128-xts-vaes-avx2-linux", "aes-128-xts-aesni-avx-linux",
      "aes-256-xts-vaes-avx512-linux", "aes-256-xts-vaes-avx2-linux", "aes-256-xts-aesni-avx-linux"}},
    {"aes_gcm_aesni", {"aes-256-gcm-aesni-avx-linux", "aes-256-gcm-aesni-linux"}},
    {"aes_gcm_avx10", {"aes-256-gcm-vaes-avx512-linux"}},
    {"aes_gcm_vaes_avx2", {"aes-256-gcm-vaes-avx2-linux"}},
};

}  // namespace

TEST_CASE("linux: every asm file that built is registered, under the tree's version", "[linux]") {
    std::set<std::string> expected;
    std::stringstream built(FPUTUNE_LINUX_BUILT_UNITS);
    for (std::string unit; std::getline(built, unit, ',');) {
        INFO("unit " << unit);
        REQUIRE(kUnitVariants.count(unit) == 1);
        expected.insert(kUnitVariants.at(unit).begin(), kUnitVariants.at(unit).end());
    }
    std::set<std::string> registered;
    for (const Kernel* k : linux_variants()) {
        INFO(k->name);
        registered.insert(k->name);
        CHECK(std::string(k->provider) == "linux " FPUTUNE_LINUX_TREE_VERSION);
        CHECK(std::string(k->name) == std::string(k->algorithm) + "-" + k->isa + "-linux");
        CHECK_FALSE(is_peer(*k));  // measured like ours: swept, recommended, checked
    }
    CHECK(registered == expected);
    CHECK(!registered.empty());
}

TEST_CASE("linux: digests and tags equal OpenSSL's", "[linux]") {
    const auto data = random_bytes(70000, 1601);
    const auto key = random_bytes(32, 1602);
    for (const Kernel* k : linux_variants()) {
        const std::string alg = k->algorithm;
        const char* md = alg == "sha1"      ? "SHA1"
                         : alg == "sha256"  ? "SHA256"
                         : alg == "sha512"  ? "SHA512"
                         : alg == "sm3"     ? "SM3"
                         : alg == "blake2s" ? "BLAKE2S-256"
                                            : nullptr;
        if ((!md && alg != "poly1305") || is_multisource(*k) || !usable(*k)) continue;
        INFO(k->name);
        for (std::size_t len : {0, 1, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129, 287, 288, 1000, 4096, 65536 + 3}) {
            INFO("length " << len);
            if (md)
                CHECK(digest_hex(*k, {}, data.data(), len) == openssl_digest_hex(md, data.data(), len));
            else
                CHECK(digest_hex(*k, key, data.data(), len) == openssl_poly1305_hex(key, data.data(), len));
        }
    }
}

// The AES modes: ciphertext (and GCM's tag) equal OpenSSL EVP's through its peer kernel.
TEST_CASE("linux: AES ciphertexts and tags equal OpenSSL's", "[linux]") {
    const auto data = random_bytes(70000, 1605);
    for (const Kernel* k : linux_variants()) {
        if (!is_cipher(*k) || std::string_view(k->algorithm).substr(0, 4) != "aes-" || !usable(*k)) continue;
        const Kernel* peer = select_kernels({std::string(k->algorithm) + "-openssl"}).front();
        INFO(k->name << " vs " << peer->name);
        const auto key = random_bytes(k->key_bytes, 1606);
        for (std::size_t len : {0, 16, 17, 31, 32, 100, 128, 255, 256, 4096, 65536 + 5}) {
            if (len < k->final_min_bytes && len != 0) continue;
            INFO("length " << len);
            CHECK(digest_hex(*k, key, data.data(), len) == digest_hex(*peer, key, data.data(), len));
        }
    }
}

// The conformance suite compares with the reference under one key; the key preparation of the glue
// (ghash's multiplication by x, polyval's powers, poly1305's clamping) has branches on key bits.
TEST_CASE("linux: keyed variants equal the reference under many keys", "[linux]") {
    const auto data = random_bytes(5000, 1604);
    for (const Kernel* k : linux_variants()) {
        if (k->key_bytes == 0 || !usable(*k)) continue;
        const Kernel* ref = reference_kernel(k->algorithm);
        REQUIRE(ref != nullptr);
        INFO(k->name << " vs " << ref->name);
        for (std::uint64_t seed = 0; seed < 16; ++seed) {
            auto key = random_bytes(k->key_bytes, 1700 + seed);
            key[0] = static_cast<std::uint8_t>(seed & 1 ? key[0] | 0x80 : key[0] & 0x7f);  // both values of
            key[15] = static_cast<std::uint8_t>(seed & 2 ? key[15] | 0x80 : key[15] & 0x7f);  // the edge bits
            for (std::size_t len : {1, 16, 100, 4096, 5000}) {
                if (len < k->final_min_bytes) continue;  // XTS: no message shorter than a block
                INFO("key seed " << seed << " length " << len);
                CHECK(digest_hex(*k, key, data.data(), len) == digest_hex(*ref, key, data.data(), len));
            }
        }
    }
}

TEST_CASE("linux: the CRCs' check values (\"123456789\")", "[linux]") {
    const auto* msg = reinterpret_cast<const std::uint8_t*>("123456789");
    const std::map<std::string, std::string> expect = {
        {"crc32c", "839206e3"}, {"crc32", "2639f4cb"}, {"crct10dif", "dbd0"}};  // little-endian bytes
    for (const Kernel* k : linux_variants()) {
        if (!expect.count(k->algorithm) || !usable(*k)) continue;
        INFO(k->name);
        CHECK(digest_hex(*k, {}, msg, 9) == expect.at(k->algorithm));
    }
}

#if FPUTUNE_LINUX_SHA256_AVX2
// The entry point as sha256_ssse3_glue.c calls it, with no fputune glue: the state after the padded
// blocks of a 100-byte message is SHA-256 of it.
TEST_CASE("linux: sha256_transform_rorx(state, data, nblocks) gives SHA-256", "[linux]") {
    const Kernel* k = select_kernels({"sha256-avx2-linux"}).front();
    if (!usable(*k)) return;
    const auto msg = random_bytes(100, 1603);
    std::uint8_t padded[128] = {};
    std::memcpy(padded, msg.data(), msg.size());
    padded[100] = 0x80;
    padded[126] = (100 * 8) >> 8;
    padded[127] = (100 * 8) & 0xff;
    std::uint32_t state[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                              0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    sha256_transform_rorx(state, padded, 2);
    std::uint8_t digest[32];
    for (int i = 0; i < 32; ++i) digest[i] = static_cast<std::uint8_t>(state[i / 4] >> (24 - 8 * (i % 4)));
    CHECK(to_hex(digest, 32) == openssl_digest_hex("SHA256", msg.data(), msg.size()));
}
#endif

#if FPUTUNE_LINUX_SHA256_NI_2X && FPUTUNE_LINUX_SHA256_NI
// sha256_ni_finup2x as sha256_finup_2x_arch() calls it: a struct __sha256_ctx holding a prefix (its partial
// block buffered), two messages of len >= 64 bytes. Every split of a message into prefix and finup, both
// digests OpenSSL's SHA-256 of prefix || message.
TEST_CASE("linux: sha256_ni_finup2x gives SHA-256 of both messages after every prefix", "[linux]") {
    const Kernel* k = select_kernels({"sha256-shani-2x-linux"}).front();
    if (!usable(*k)) return;
    const auto m1 = random_bytes(400, 1621), m2 = random_bytes(400, 1622);
    struct {
        std::uint32_t state[8];
        std::uint64_t bytecount;
        std::uint8_t buf[64];
    } ctx;
    for (std::size_t total : {64, 65, 119, 120, 127, 128, 129, 200, 400})
        for (std::size_t split = 0; split + 64 <= total; ++split) {
            INFO("message " << total << " bytes, prefix " << split);
            // The prefix's whole blocks through the one-stream transform, the rest buffered, as __sha256_update.
            const std::uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                         0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
            std::memcpy(ctx.state, iv, sizeof iv);
            ctx.bytecount = split;
            const std::size_t whole = split / 64;
            if (whole) sha256_ni_transform(ctx.state, m1.data(), whole);
            std::memcpy(ctx.buf, m1.data() + whole * 64, split % 64);
            std::uint8_t out1[32], out2[32];
            const std::size_t len = total - split;
            sha256_ni_finup2x(&ctx, m1.data() + split, m2.data() + split, static_cast<int>(len), out1, out2);
            std::vector<std::uint8_t> msg2(m1.begin(), m1.begin() + static_cast<std::ptrdiff_t>(split));
            msg2.insert(msg2.end(), m2.begin() + static_cast<std::ptrdiff_t>(split),
                        m2.begin() + static_cast<std::ptrdiff_t>(total));
            CHECK(to_hex(out1, 32) == openssl_digest_hex("SHA256", m1.data(), total));
            CHECK(to_hex(out2, 32) == openssl_digest_hex("SHA256", msg2.data(), msg2.size()));
        }
}
#endif
