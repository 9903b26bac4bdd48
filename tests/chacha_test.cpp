// SPDX-License-Identifier: MIT
// The chacha family against RFC 8439's vectors, OpenSSL's EVP_chacha20 as a random oracle (called directly,
// not through our peer's glue), every ISA entry point at every length of its dispatch, the 32-bit counter's
// wrap, and in-place use. Block edges, misalignment and section splits are the conformance suite's.
#include <openssl/evp.h>

#include <cstring>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>

#include "chacha.hpp"
#include "cpu.hpp"
#include "registry.hpp"
#include "test_util.hpp"

using namespace fputune;
using namespace fputune::test;

namespace {

std::vector<const Kernel*> runnable_chacha() {
    std::vector<const Kernel*> out;
    for (const Kernel* k : all_kernels()) {
        if (std::string(k->algorithm) != "chacha20") continue;
        if (FeatureSet missing = missing_features(*k, usable_features())) {
            WARN("SKIPPED " << k->name << ": this CPU lacks " << feature_list_string(missing));
            continue;
        }
        out.push_back(k);
    }
    return out;
}

// key || counter (little-endian) || nonce, the 48 bytes every chacha20 kernel's init reads.
std::vector<std::uint8_t> key_iv(const std::string& key_hex, std::uint32_t counter, const std::string& nonce_hex) {
    std::vector<std::uint8_t> k = from_hex(key_hex);
    for (int i = 0; i < 4; ++i) k.push_back(static_cast<std::uint8_t>(counter >> (8 * i)));
    const auto n = from_hex(nonce_hex);
    k.insert(k.end(), n.begin(), n.end());
    return k;
}

std::string seal_hex(const Kernel& k, const std::vector<std::uint8_t>& kiv, const std::vector<std::uint8_t>& msg) {
    return digest_hex(k, kiv, msg.data(), msg.size());
}

// OpenSSL's EVP_chacha20 on one message (no counter wrap in the messages given to it).
std::vector<std::uint8_t> openssl_chacha20(const std::vector<std::uint8_t>& kiv, const std::uint8_t* msg,
                                           std::size_t len) {
    std::vector<std::uint8_t> out(len + 1);
    EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
    REQUIRE(ctx != nullptr);
    REQUIRE(EVP_EncryptInit_ex(ctx, EVP_chacha20(), nullptr, kiv.data(), kiv.data() + 32) == 1);
    int outl = 0;
    REQUIRE(EVP_EncryptUpdate(ctx, out.data(), &outl, msg, static_cast<int>(len)) == 1);
    EVP_CIPHER_CTX_free(ctx);
    REQUIRE(static_cast<std::size_t>(outl) == len);
    out.resize(len);
    return out;
}

struct Entry {
    const char* name;
    chacha::XorFn fn;
    FeatureSet required;
};

std::vector<Entry> runnable_entries() {
    using F = Feature;
    const Entry all[] = {
        {"generic", chacha::chacha20_xor_generic, 0},
        {"ssse3", chacha::chacha20_xor_ssse3, features(F::ssse3)},
        {"avx2", chacha::chacha20_xor_avx2, features(F::avx, F::avx2)},
        {"avx512vl", chacha::chacha20_xor_avx512vl, features(F::avx512f, F::avx512vl, F::avx512bw)},
    };
    std::vector<Entry> out;
    for (const Entry& e : all) {
        if (FeatureSet missing = e.required & ~usable_features()) {
            WARN("SKIPPED chacha20_xor_" << e.name << ": this CPU lacks " << feature_list_string(missing));
            continue;
        }
        out.push_back(e);
    }
    return out;
}

const char* const kKey00to1f = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

}  // namespace

TEST_CASE("chacha20: the table has every variant in order, cipher-shaped", "[chacha]") {
    std::vector<std::string> names;
    for (const Kernel* k : all_kernels()) {
        if (std::string(k->algorithm) != "chacha20") continue;
        if (std::string_view(k->provider).substr(0, 6) == "linux ") continue;  // the kernel's own (kernels/linux)
        names.emplace_back(k->name);
        INFO(k->name);
        CHECK(is_cipher(*k));
        CHECK(k->blocks == nullptr);  // no associated data
        CHECK(k->block_bytes == 64);
        CHECK(k->key_bytes == 48);
        CHECK(k->iv_bytes == 16);
        CHECK(k->out_bytes == 0);
        CHECK(!k->reference_only);
    }
    CHECK(names == std::vector<std::string>{"chacha20-avx512vl", "chacha20-avx2", "chacha20-ssse3", "chacha20-generic",
                                            "chacha20-openssl"});
    const Kernel* ref = reference_kernel("chacha20");
    REQUIRE(ref != nullptr);
    CHECK(std::string(ref->name) == "chacha20-generic");
    CHECK(!ref->needs_fpu);  // a real no-FPU path: sweep measures its threshold
}

TEST_CASE("chacha20: RFC 8439 vectors, every variant and the peer", "[chacha][vectors]") {
    const std::string jabberwocky =
        "'Twas brillig, and the slithy toves\nDid gyre and gimble in the wabe:\nAll mimsy were the borogoves,\nAnd "
        "the mome raths outgrabe.";
    const std::string sunscreen =
        "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen "
        "would be it.";
    struct Vector {
        const char* what;
        std::vector<std::uint8_t> kiv;
        std::vector<std::uint8_t> msg;
        std::string out_hex;
    };
    const std::vector<Vector> vectors = {
        {"2.3.2 (the block function: keystream of counter 1)", key_iv(kKey00to1f, 1, "000000090000004a00000000"),
         std::vector<std::uint8_t>(64, 0),
         "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
         "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e"},
        {"2.4.2 (114 bytes from counter 1)", key_iv(kKey00to1f, 1, "000000000000004a00000000"),
         std::vector<std::uint8_t>(sunscreen.begin(), sunscreen.end()),
         "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b"
         "f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8"
         "07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736"
         "5af90bbf74a35be6b40b8eedf2785e42874d"},
        {"A.1 #1 (zero key, nonce and counter)", key_iv(std::string(64, '0'), 0, std::string(24, '0')),
         std::vector<std::uint8_t>(64, 0),
         "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
         "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"},
        {"A.2 #3 (127 bytes from counter 42)",
         key_iv("1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0", 42, "000000000000000000000002"),
         std::vector<std::uint8_t>(jabberwocky.begin(), jabberwocky.end()),
         "62e6347f95ed87a45ffae7426f27a1df5fb69110044c0d73118effa95b01e5cf"
         "166d3df2d721caf9b21e5fb14c616871fd84c54f9d65b283196c7fe4f60553eb"
         "f39c6402c42234e32a356b3e764312a61a5532055716ead6962568f87d3f3f77"
         "04c6a8d1bcd1bf4d50d6154b6da731b187b58dfd728afa36757a797ac188d1"},
    };
    REQUIRE(jabberwocky.size() == 127);
    REQUIRE(sunscreen.size() == 114);
    for (const Kernel* k : runnable_chacha())
        for (const Vector& v : vectors) {
            INFO(k->name << ": RFC 8439 " << v.what);
            CHECK(seal_hex(*k, v.kiv, v.msg) == v.out_hex);
        }
}

TEST_CASE("chacha20: every variant equals OpenSSL's EVP_chacha20 on random keys, counters and lengths",
          "[chacha][oracle]") {
    std::mt19937_64 rng(81);
    auto data = random_bytes(20000, 82);
    const auto kernels = runnable_chacha();
    for (int t = 0; t < 300; ++t) {
        auto kiv = random_bytes(48, rng());
        kiv[35] = 0;  // counter below 2^24: no wrap within these lengths (tested separately)
        const std::size_t len = t < 200 ? rng() % 1100 : rng() % data.size();
        const std::string expect = to_hex(openssl_chacha20(kiv, data.data(), len));
        for (const Kernel* k : kernels) {
            INFO(k->name << " len " << len << " trial " << t);
            CHECK(digest_hex(*k, kiv, data.data(), len) == expect);
        }
    }
}

TEST_CASE("chacha20: each ISA entry point at every length up to 17 blocks, counter advanced by the blocks used",
          "[chacha]") {
    auto src = random_bytes(17 * 64 + 1, 91);
    auto kiv = random_bytes(48, 92);
    std::uint32_t ref_state[16];
    chacha::chacha20_init_state(ref_state, kiv.data());
    for (const Entry& e : runnable_entries())
        for (std::size_t len = 0; len <= src.size(); ++len) {
            INFO("chacha20_xor_" << e.name << " len " << len);
            std::uint32_t s0[16], s1[16];
            std::memcpy(s0, ref_state, sizeof s0);
            std::memcpy(s1, ref_state, sizeof s1);
            std::vector<std::uint8_t> expect(len + 8, 0x5a), got(len + 8, 0x5a);
            chacha::chacha20_xor_generic(s0, expect.data(), src.data(), len);
            e.fn(s1, got.data(), src.data(), len);
            CHECK(got == expect);  // the 8 bytes after len stay 0x5a in both
            CHECK(s1[12] == ref_state[12] + (len + 63) / 64);
            CHECK(std::memcmp(s0, s1, sizeof s0) == 0);
        }
}

TEST_CASE("chacha20: the 32-bit block counter wraps to 0 as Linux's does, and OpenSSL's peer follows", "[chacha]") {
    auto data = random_bytes(20 * 64 + 9, 101);
    // Counter 2^32 - 3: blocks 3.. of the message use counters 0, 1, ... with the same nonce.
    auto kiv = key_iv(kKey00to1f, 0xfffffffdu, "0102030405060708090a0b0c");
    auto kiv_zero = key_iv(kKey00to1f, 0, "0102030405060708090a0b0c");
    const std::string head = to_hex(openssl_chacha20(kiv, data.data(), 3 * 64));
    const std::string tail = to_hex(openssl_chacha20(kiv_zero, data.data() + 3 * 64, data.size() - 3 * 64));
    for (const Kernel* k : runnable_chacha()) {
        INFO(k->name);
        CHECK(digest_hex(*k, kiv, data.data(), data.size()) == head + tail);
        // Sectioned across the wrap: 2 blocks, then 5 (crossing it), then the rest.
        alignas(kCtxAlign) std::uint8_t ctx[kMaxCtxBytes];
        std::vector<std::uint8_t> out(data.size());
        k->init(ctx, kiv.data());
        k->crypt(ctx, data.data(), out.data(), 2);
        k->crypt(ctx, data.data() + 128, out.data() + 128, 5);
        k->final(ctx, data.data() + 448, data.size() - 448, out.data() + 448);
        CHECK(to_hex(out) == head + tail);
    }
}

TEST_CASE("chacha20: in place (dst == src) gives the same output", "[chacha]") {
    auto kiv = random_bytes(48, 111);
    auto data = random_bytes(4096 + 77, 112);
    for (const Kernel* k : runnable_chacha()) {
        INFO(k->name);
        const std::string expect = digest_hex(*k, kiv, data.data(), data.size());
        std::vector<std::uint8_t> buf = data;
        alignas(kCtxAlign) std::uint8_t ctx[kMaxCtxBytes];
        k->init(ctx, kiv.data());
        k->crypt(ctx, buf.data(), buf.data(), 13);
        k->crypt(ctx, buf.data() + 13 * 64, buf.data() + 13 * 64, 40);
        k->final(ctx, buf.data() + 53 * 64, buf.size() - 53 * 64, buf.data() + 53 * 64);
        CHECK(to_hex(buf) == expect);
        // Decrypting is encrypting again.
        std::vector<std::uint8_t> back(buf.size());
        kernel_digest(*k, kiv.data(), buf.data(), buf.size(), back.data());
        CHECK(back == data);
    }
}
