// SPDX-License-Identifier: MIT
// The sha family against published vectors (FIPS 180 examples as given by NIST's CSRC example files;
// GB/T 32905-2016 Appendix A for SM3) and against OpenSSL's one-shot digests on random inputs cut into
// random sections, one test case per kernel (test_util.hpp).
#include <algorithm>
#include <cstring>
#include <map>
#include <random>
#include <string>

#include <openssl/evp.h>
#include <openssl/sha.h>

#include <catch2/catch.hpp>

#include "cpu.hpp"
#include "registry.hpp"
#include "sha/sha.hpp"
#include "test_util.hpp"

using namespace fputune;
using namespace fputune::test;

namespace {

const char* const kAlgorithms[] = {"sha1", "sha224", "sha256", "sha384", "sha512", "sm3"};

// The single-stream sha kernels (sha256-shani-2x, two messages per call, has its own cases below).
bool is_sha(const Kernel& k) {
    return !is_multisource(k) &&
           std::find(std::begin(kAlgorithms), std::end(kAlgorithms), std::string(k.algorithm)) != std::end(kAlgorithms);
}

std::string hash_hex(const Kernel& k, const std::string& msg) {
    return digest_hex(k, {}, reinterpret_cast<const std::uint8_t*>(msg.data()), msg.size());
}

const std::string kM448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
const std::string kM896 =
    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";

struct Vectors {
    std::string empty, abc, m448, m896, million_a;
};
const std::map<std::string, Vectors>& nist_vectors() {
    static const std::map<std::string, Vectors> v = {
        {"sha1",
         {"da39a3ee5e6b4b0d3255bfef95601890afd80709", "a9993e364706816aba3e25717850c26c9cd0d89d",
          "84983e441c3bd26ebaae4aa1f95129e5e54670f1", "a49b2446a02c645bf419f995b67091253a04a259",
          "34aa973cd4c4daa4f61eeb2bdbad27316534016f"}},
        {"sha224",
         {"d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f",
          "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7",
          "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525",
          "c97ca9a559850ce97a04a96def6d99a9e0e0e2ab14e6b8df265fc0b3",
          "20794655980c91d8bbb4c1ea97618a4bf03f42581948b2ee4ee7ad67"}},
        {"sha256",
         {"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
          "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
          "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
          "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"}},
        {"sha384",
         {"38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b",
          "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
          "3391fdddfc8dc7393707a65b1b4709397cf8b1d162af05abfe8f450de5f36bc6b0455a8520bc4e6f5fe95b1fe3c8452b",
          "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039",
          "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b07b8b3dc38ecc4ebae97ddd87f3d8985"}},
        {"sha512",
         {"cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f"
          "63b931bd47417a81a538327af927da3e",
          "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd"
          "454d4423643ce80e2a9ac94fa54ca49f",
          "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c33596fd15c13b1b07f9aa1d3bea57789ca0"
          "31ad85c7a71dd70354ec631238ca3445",
          "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433a"
          "c7d329eeb6dd26545e96e55b874be909",
          "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31b"
          "eb009c5c2c49aa2e4eadb217ad8cc09b"}},
    };
    return v;
}

// OpenSSL's one-shot digest, the oracle.
std::string openssl_hex(const std::string& alg, const std::uint8_t* p, std::size_t n) {
    const EVP_MD* md = alg == "sha1"     ? EVP_sha1()
                       : alg == "sha224" ? EVP_sha224()
                       : alg == "sha256" ? EVP_sha256()
                       : alg == "sha384" ? EVP_sha384()
                       : alg == "sha512" ? EVP_sha512()
                                         : EVP_sm3();
    std::uint8_t out[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    REQUIRE(EVP_Digest(p, n, out, &len, md, nullptr) == 1);
    return to_hex(out, len);
}

void nist_vectors_of(const Kernel& k) {
    const std::string million_a(1000000, 'a');
    const Vectors& v = nist_vectors().at(k.algorithm);
    CHECK(hash_hex(k, "") == v.empty);
    CHECK(hash_hex(k, "abc") == v.abc);
    CHECK(hash_hex(k, kM448) == v.m448);
    CHECK(hash_hex(k, kM896) == v.m896);
    CHECK(hash_hex(k, million_a) == v.million_a);
}

void sm3_vectors_of(const Kernel& k) {
    std::string abcd16;
    for (int i = 0; i < 16; ++i) abcd16 += "abcd";
    // GB/T 32905-2016 Appendix A, examples 1 and 2.
    CHECK(hash_hex(k, "abc") == "66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0");
    CHECK(hash_hex(k, abcd16) == "debe9ff92275b8a138604889c18e5a4d6fdb70e5387e5765293dcba39c0c5732");
}

void equals_openssl(const Kernel& k) {
    std::mt19937_64 rng(4242);
    const auto data = random_bytes(20000, 4243);
    for (int trial = 0; trial < 60; ++trial) {
        const std::size_t len = trial < 30 ? rng() % 600 : rng() % 20000;
        const std::size_t start = rng() % (data.size() - len + 1);
        const std::uint8_t* p = data.data() + start;
        const std::string expect = openssl_hex(k.algorithm, p, len);
        INFO("length " << len << " offset " << start);
        CHECK(digest_hex(k, {}, p, len) == expect);
        // The same input as the glue loop cuts it: random whole-block sections, then final.
        CHECK(sectioned_hex(k, {}, p, len, random_sections(len / k.block_bytes, rng, len, 4)) == expect);
    }
}

const PerKernel kNist(
    "NIST vectors", "[sha][vectors]", [](const Kernel& k) { return is_sha(k) && std::string(k.algorithm) != "sm3"; },
    nist_vectors_of);
const PerKernel kSm3(
    "GB/T 32905 vectors", "[sha][sm3][vectors]", [](const Kernel& k) { return std::string(k.algorithm) == "sm3"; },
    sm3_vectors_of);
const PerKernel kOpenSsl("equals OpenSSL on random inputs in random sections", "[sha][oracle]", is_sha, equals_openssl);

}  // namespace

TEST_CASE("sha: the table has every variant with sane fields", "[sha]") {
    for (const char* alg : kAlgorithms) {
        INFO(alg);
        const Kernel* ref = reference_kernel(alg);
        REQUIRE(ref != nullptr);
        CHECK(std::string(ref->name) == std::string(alg) + "-generic");
        CHECK(select_kernels({std::string(alg) + "-openssl"}).size() == 1);
    }
    for (const Kernel* k : all_kernels()) {
        if (!is_sha(*k)) continue;
        const std::string alg = k->algorithm;
        INFO(k->name);
        CHECK(k->block_bytes == ((alg == "sha384" || alg == "sha512") ? 128u : 64u));
        if (!is_peer(*k)) CHECK(k->needs_fpu == (k->required != 0));
    }
}

// What each SIMD variant needs is what the kernel's glue asks for (sha1_ssse3_glue.c, sha256_ssse3_glue.c,
// sha512_ssse3_glue.c): the avx code runs on AVX alone (its rotates are shld, no BMI), avx2 also needs BMI2
// (rorx), so a CPU with AVX and no BMI2 still has the avx variants, as it has the kernel's.
TEST_CASE("sha: each variant needs the CPU features the kernel's glue checks for its code", "[sha]") {
    using F = Feature;
    const std::pair<const char*, FeatureSet> expect[] = {
        {"sha1-avx", features(F::avx)},       {"sha224-avx", features(F::avx)}, {"sha256-avx", features(F::avx)},
        {"sha384-avx", features(F::avx)},     {"sha512-avx", features(F::avx)}, {"sha256-ssse3", features(F::ssse3)},
        {"sha512-ssse3", features(F::ssse3)},
    };
    for (const auto& [name, want] : expect) {
        INFO(name);
        const std::vector<const Kernel*> k = select_kernels({name});
        REQUIRE(k.size() == 1);
        CHECK(k.front()->required == want);
    }
    for (const char* name : {"sha256-avx2", "sha512-avx2"}) {
        INFO(name);
        CHECK((select_kernels({name}).front()->required & features(F::bmi2)) != 0);
    }
}

// ---- sha256_finup_2x: two messages after one shared prefix ---------------------------------------------------

namespace {

std::string sha256_hex(const std::vector<std::uint8_t>& prefix, const std::uint8_t* data, std::size_t len) {
    std::vector<std::uint8_t> all(prefix);
    all.insert(all.end(), data, data + len);
    std::uint8_t out[32];
    SHA256(all.data(), all.size(), out);
    return to_hex(out, 32);
}

bool has_shani() {
    if (FeatureSet missing = missing_features(*select_kernels({"sha256-shani-2x"}).front(), usable_features())) {
        WARN("SKIPPED: sha256-shani-2x needs " << feature_list_string(missing));
        return false;
    }
    return true;
}

}  // namespace

// Every split of a message into the prefix (hashed by sha256_prefix_update, its partial block buffered) and
// the two-message finup, at lengths around the block and the padding edges: both digests are SHA-256's.
TEST_CASE("sha256-shani-2x: every split into prefix and two-message finup gives SHA-256 of each message",
          "[sha][sha256-shani-2x][sections]") {
    if (!has_shani()) return;
    const auto m1 = random_bytes(300, 1801), m2 = random_bytes(300, 1802);
    for (std::size_t total : {0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 129, 200, 300}) {
        for (std::size_t split = 0; split <= total; ++split) {
            INFO("message " << total << " bytes, prefix " << split);
            // The prefix is common: the first split bytes of m1 stand for the salt of both.
            const std::vector<std::uint8_t> prefix(m1.begin(), m1.begin() + static_cast<std::ptrdiff_t>(split));
            sha::Sha256Prefix p;
            sha::sha256_prefix_init(p);
            sha::sha256_prefix_update(p, prefix.data(), prefix.size());
            std::uint8_t out1[32], out2[32];
            const std::size_t len = total - split;
            sha::sha256_finup_2x_shani(p, m1.data() + split, m2.data() + split, len, out1, out2);
            CHECK(to_hex(out1, 32) == sha256_hex(prefix, m1.data() + split, len));
            CHECK(to_hex(out2, 32) == sha256_hex(prefix, m2.data() + split, len));
        }
    }
}

// Linux's policy (lib/crypto/x86/sha256.h): one two-message section only when 64 B <= len <= 64 KiB; outside
// it each message goes the one-stream way, with the same digests.
TEST_CASE("sha256-shani-2x: the two-message section runs only for 64 B to 64 KiB, digests equal everywhere",
          "[sha][sha256-shani-2x]") {
    if (!has_shani()) return;
    const auto m1 = random_bytes(70000, 1811), m2 = random_bytes(70000, 1812);
    const std::vector<std::uint8_t> salt = random_bytes(13, 1813);
    for (std::size_t len : {0, 1, 63, 64, 65, 4096, 65535, 65536, 65537, 70000}) {
        INFO("length " << len);
        sha::Sha256Prefix p;
        sha::sha256_prefix_init(p);
        sha::sha256_prefix_update(p, salt.data(), salt.size());
        std::uint8_t out1[32], out2[32];
        CHECK(sha::sha256_finup_2x(p, m1.data(), m2.data(), len, out1, out2) ==
              (len >= sha::kSha256Finup2xMinBytes && len <= sha::kSha256Finup2xMaxBytes));
        CHECK(to_hex(out1, 32) == sha256_hex(salt, m1.data(), len));
        CHECK(to_hex(out2, 32) == sha256_hex(salt, m2.data(), len));
    }
}

TEST_CASE("sha256-shani-2x: a multi-message kernel of sha256, two messages per section", "[sha][sha256-shani-2x]") {
    const Kernel& k = *select_kernels({"sha256-shani-2x"}).front();
    CHECK(is_multimessage(k));
    CHECK(std::string(kernel_kind(k)) == "hash");
    CHECK((k.min_sources == 2 && k.max_sources == 2 && k.dest_count == 2));
    CHECK(k.out_bytes == 32);
    CHECK(std::string(best_kernel("sha256", usable_features())->name) != "sha256-shani-2x");  // one-stream callers
}
