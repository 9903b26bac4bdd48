// SPDX-License-Identifier: MIT
// The mac family against published vectors (RFC 8439 poly1305, GCM spec GHASH, RFC 8452 POLYVAL,
// RFC 7693 BLAKE2s), NH/NHPoly1305 variants against generic, and OpenSSL/libsodium as random oracles.
#include <cstring>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "cpu.hpp"
#include "registry.hpp"
#include "test_util.hpp"

using namespace fputune;
using namespace fputune::test;

namespace {

std::vector<std::uint8_t> bytes_of(const std::string& s) { return {s.begin(), s.end()}; }

// Our variants and the peers of an algorithm the CPU can run; the others are skipped visibly.
std::vector<const Kernel*> runnable(const std::string& algorithm, bool with_peers) {
    std::vector<const Kernel*> out;
    for (const Kernel* k : all_kernels()) {
        if (algorithm != k->algorithm || (!with_peers && is_peer(*k))) continue;
        if (FeatureSet missing = missing_features(*k, usable_features())) {
            WARN("SKIPPED " << k->name << ": this CPU lacks " << feature_list_string(missing));
            continue;
        }
        out.push_back(k);
    }
    return out;
}

const Kernel* kernel_named(const std::string& name) {
    for (const Kernel* k : all_kernels())
        if (name == k->name) return k;
    return nullptr;
}

struct Vector {
    const char* key_hex;
    std::vector<std::uint8_t> msg;
    const char* out_hex;
};

void check_vectors(const std::string& algorithm, const std::vector<Vector>& vectors, bool with_peers) {
    auto kernels = runnable(algorithm, with_peers);
    REQUIRE(!kernels.empty());
    for (const Kernel* k : kernels)
        for (std::size_t i = 0; i < vectors.size(); ++i) {
            INFO(k->name << " vector " << i);
            CHECK(digest_hex(*k, from_hex(vectors[i].key_hex), vectors[i].msg.data(), vectors[i].msg.size()) ==
                  vectors[i].out_hex);
        }
}

// Every variant (and peer, when asked) equals the algorithm's reference on random keys and lengths.
void check_random_against_reference(const std::string& algorithm, bool with_peers, int trials, std::size_t max_len,
                                    std::uint64_t seed) {
    const Kernel* ref = reference_kernel(algorithm);
    REQUIRE(ref != nullptr);
    auto kernels = runnable(algorithm, with_peers);
    std::mt19937_64 rng(seed);
    auto data = random_bytes(max_len, seed + 1);
    for (int t = 0; t < trials; ++t) {
        auto key = random_bytes(ref->key_bytes, rng());
        const std::size_t len = rng() % (max_len + 1);
        const std::string expect = digest_hex(*ref, key, data.data(), len);
        for (const Kernel* k : kernels) {
            INFO(k->name << " len " << len << " trial " << t);
            CHECK(digest_hex(*k, key, data.data(), len) == expect);
        }
    }
}

// RFC 8439 2.5.2 and Appendix A.2's IETF text (375 bytes), used by A.3 vectors #2 and #3.
const std::string kIetfText =
    "Any submission to the IETF intended by the Contributor for publication as all or part of an IETF "
    "Internet-Draft or RFC and any statement made within the context of an IETF activity is considered an "
    "\"IETF Contribution\". Such statements include oral statements in IETF sessions, as well as written and "
    "electronic communications made at any time or place, which are addressed to";

}  // namespace

TEST_CASE("poly1305: RFC 8439 2.5.2 and the Appendix A.3 vectors, every variant and peer", "[mac][poly1305]") {
    REQUIRE(kIetfText.size() == 375);
    const std::vector<Vector> vectors = {
        // 2.5.2
        {"85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b",
         bytes_of("Cryptographic Forum Research Group"), "a8061dc1305136c6c22b8baf0c0127a9"},
        // A.3 #1 .. #11
        {"0000000000000000000000000000000000000000000000000000000000000000", std::vector<std::uint8_t>(64, 0),
         "00000000000000000000000000000000"},
        {"0000000000000000000000000000000036e5f6b5c5e06070f0efca96227a863e", bytes_of(kIetfText),
         "36e5f6b5c5e06070f0efca96227a863e"},
        {"36e5f6b5c5e06070f0efca96227a863e00000000000000000000000000000000", bytes_of(kIetfText),
         "f3477e7cd95417af89a6b8794c310cf0"},
        {"1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0",
         bytes_of("'Twas brillig, and the slithy toves\nDid gyre and gimble in the wabe:\nAll mimsy were the "
                  "borogoves,\nAnd the mome raths outgrabe."),
         "4541669a7eaaee61e708dc7cbcc5eb62"},
        {"0200000000000000000000000000000000000000000000000000000000000000", from_hex("ffffffffffffffffffffffffffffffff"),
         "03000000000000000000000000000000"},
        {"02000000000000000000000000000000ffffffffffffffffffffffffffffffff", from_hex("02000000000000000000000000000000"),
         "03000000000000000000000000000000"},
        {"0100000000000000000000000000000000000000000000000000000000000000",
         from_hex("ffffffffffffffffffffffffffffffff"
                  "f0ffffffffffffffffffffffffffffff"
                  "11000000000000000000000000000000"),
         "05000000000000000000000000000000"},
        {"0100000000000000000000000000000000000000000000000000000000000000",
         from_hex("ffffffffffffffffffffffffffffffff"
                  "fbfefefefefefefefefefefefefefefe"
                  "01010101010101010101010101010101"),
         "00000000000000000000000000000000"},
        {"0200000000000000000000000000000000000000000000000000000000000000", from_hex("fdffffffffffffffffffffffffffffff"),
         "faffffffffffffffffffffffffffffff"},
        {"0100000000000000040000000000000000000000000000000000000000000000",
         from_hex("e33594d7505e43b90000000000000000"
                  "3394d7505e4379cd0100000000000000"
                  "00000000000000000000000000000000"
                  "01000000000000000000000000000000"),
         "14000000000000005500000000000000"},
        {"0100000000000000040000000000000000000000000000000000000000000000",
         from_hex("e33594d7505e43b90000000000000000"
                  "3394d7505e4379cd0100000000000000"
                  "00000000000000000000000000000000"),
         "13000000000000000000000000000000"},
    };
    check_vectors("poly1305", vectors, true);
}

TEST_CASE("poly1305: OpenSSL and libsodium agree on random keys and lengths", "[mac][poly1305]") {
    check_random_against_reference("poly1305", true, 200, 5000, 0x1305);
    // Keys whose limbs are all ones after clamping, and all-ones data: the carries at their largest.
    auto key = from_hex("ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff");
    std::vector<std::uint8_t> ones(4096 + 15, 0xff);
    const std::string expect = digest_hex(*reference_kernel("poly1305"), key, ones.data(), ones.size());
    for (const Kernel* k : runnable("poly1305", true)) {
        INFO(k->name);
        CHECK(digest_hex(*k, key, ones.data(), ones.size()) == expect);
    }
}
