// SPDX-License-Identifier: MIT
// The mac family against published vectors (RFC 8439 poly1305, GCM spec GHASH, RFC 8452 POLYVAL,
// RFC 7693 BLAKE2s), NH/NHPoly1305 variants against generic, and OpenSSL/libsodium against the
// references on random inputs; one test case per kernel (test_util.hpp).
#include <cstring>
#include <random>
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

bool is(const Kernel& k, const char* algorithm) { return std::string(k.algorithm) == algorithm; }

struct Vector {
    const char* key_hex;
    std::vector<std::uint8_t> msg;
    const char* out_hex;
};

void check_vectors(const Kernel& k, const std::vector<Vector>& vectors) {
    for (std::size_t i = 0; i < vectors.size(); ++i) {
        INFO("vector " << i);
        CHECK(digest_hex(k, from_hex(vectors[i].key_hex), vectors[i].msg.data(), vectors[i].msg.size()) ==
              vectors[i].out_hex);
    }
}

// A kernel equals its algorithm's reference on random keys and lengths (the same ones for every kernel).
void check_random_against_reference(const Kernel& k, int trials, std::size_t max_len, std::uint64_t seed) {
    const Kernel& ref = *reference_kernel(k.algorithm);
    std::mt19937_64 rng(seed);
    auto data = random_bytes(max_len, seed + 1);
    for (int t = 0; t < trials; ++t) {
        auto key = random_bytes(ref.key_bytes, rng());
        const std::size_t len = rng() % (max_len + 1);
        INFO("len " << len << " trial " << t);
        CHECK(digest_hex(k, key, data.data(), len) == digest_hex(ref, key, data.data(), len));
    }
}

// RFC 8439 2.5.2 and Appendix A.2's IETF text (375 bytes), used by A.3 vectors #2 and #3.
const std::string kIetfText =
    "Any submission to the IETF intended by the Contributor for publication as all or part of an IETF "
    "Internet-Draft or RFC and any statement made within the context of an IETF activity is considered an "
    "\"IETF Contribution\". Such statements include oral statements in IETF sessions, as well as written and "
    "electronic communications made at any time or place, which are addressed to";

std::vector<Vector> poly1305_vectors() {
    return {
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
        {"0200000000000000000000000000000000000000000000000000000000000000",
         from_hex("ffffffffffffffffffffffffffffffff"), "03000000000000000000000000000000"},
        {"02000000000000000000000000000000ffffffffffffffffffffffffffffffff",
         from_hex("02000000000000000000000000000000"), "03000000000000000000000000000000"},
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
        {"0200000000000000000000000000000000000000000000000000000000000000",
         from_hex("fdffffffffffffffffffffffffffffff"), "faffffffffffffffffffffffffffffff"},
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
}

// GHASH(H, A, C) of the GCM spec = our ghash over A || pad || C || pad || [len(A)]64 || [len(C)]64.
std::vector<Vector> ghash_vectors() {
    const std::string c3 =
        "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa05"
        "1ba30b396a0aac973d58e091473f5985";
    const std::string c4 = c3.substr(0, 120) + "00000000";  // 60 bytes, padded
    const std::string a4 = "feedfacedeadbeeffeedfacedeadbeefabaddad2000000000000000000000000";  // 20 bytes, padded
    return {
        {"66e94bd4ef8a2c3b884cfa59ca342b2e",
         from_hex("0388dace60b6a392f328c2b971b2fe78"
                  "00000000000000000000000000000080"),
         "f38cbb1ad69223dcc3457ae5b6b0f885"},
        {"b83b533708bf535d0aa6e52980d53b78",
         from_hex(c3 + "0000000000000000"
                       "0000000000000200"),
         "7f1b32b81b820d02614f8895ac1d4eac"},
        {"b83b533708bf535d0aa6e52980d53b78",
         from_hex(a4 + c4 +
                  "00000000000000a0"
                  "00000000000001e0"),
         "698e57f70e6ecc7fd9463b7260a9ae5f"},
        {"66e94bd4ef8a2c3b884cfa59ca342b2e", {}, "00000000000000000000000000000000"},
    };
}

void poly1305_vectors_of(const Kernel& k) {
    REQUIRE(kIetfText.size() == 375);
    check_vectors(k, poly1305_vectors());
}

void poly1305_random(const Kernel& k) {
    check_random_against_reference(k, 200, 5000, 0x1305);
    // Keys whose limbs are all ones after clamping, and all-ones data: the carries at their largest.
    auto key = from_hex("ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff");
    std::vector<std::uint8_t> ones(4096 + 15, 0xff);
    CHECK(digest_hex(k, key, ones.data(), ones.size()) ==
          digest_hex(*reference_kernel("poly1305"), key, ones.data(), ones.size()));
}

void ghash_vectors_of(const Kernel& k) { check_vectors(k, ghash_vectors()); }
void ghash_random(const Kernel& k) { check_random_against_reference(k, 100, 3000, 0x6a5); }

void polyval_vectors_and_relation(const Kernel& k) {
    check_vectors(k, {{"25629347589242761d31f826ba4b757b",
                       from_hex("4f4f95668c83dfb6401762bb2d01a262"
                                "d1a24ddd2721d006bbe45f20d3c9f362"),
                       "f7a3b47b846119fae5b7866cf5e5b77e"}});
    // RFC 8452 Appendix A: POLYVAL(H, X_1..X_n) = ByteReverse(GHASH(mulX_GHASH(ByteReverse(H)), ByteReverse(X_i)..)).
    const Kernel* ghash = reference_kernel("ghash");
    REQUIRE(ghash != nullptr);
    std::mt19937_64 rng(0x9e1);
    for (int t = 0; t < 20; ++t) {
        auto h = random_bytes(16, rng());
        const std::size_t nblocks = rng() % 40;
        auto x = random_bytes(16 * nblocks, rng());
        std::vector<std::uint8_t> hr(h.rbegin(), h.rend()), xr(x.size());
        for (std::size_t i = 0; i < x.size(); ++i) xr[i] = x[i / 16 * 16 + 15 - i % 16];
        // mulX_GHASH: a right shift in GCM's bit order, folding with 0xe1 || 0^120.
        std::vector<std::uint8_t> hx(16);
        const bool carry = hr[15] & 1;
        for (int i = 15; i >= 0; --i) hx[i] = static_cast<std::uint8_t>((hr[i] >> 1) | (i ? hr[i - 1] << 7 : 0));
        if (carry) hx[0] ^= 0xe1;
        auto g = from_hex(digest_hex(*ghash, hx, xr.data(), xr.size()));
        INFO("blocks " << nblocks);
        CHECK(digest_hex(k, h, x.data(), x.size()) == to_hex(std::vector<std::uint8_t>(g.rbegin(), g.rend())));
    }
}

void blake2s_vectors_and_random(const Kernel& k) {
    check_vectors(k, {{"", bytes_of("abc"), "508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982"},
                      {"", {}, "69217a3079908094e11121d042354a7c1f55b6482ca1a51e1b250dfd1ed0eef9"}});
    check_random_against_reference(k, 100, 3000, 0xb2);
}

void nh_random(const Kernel& k) { check_random_against_reference(k, 60, 5000, is(k, "nh") ? 0x4e48 : 0x4e4850); }

const PerKernel kPoly1305Vectors(
    "poly1305: RFC 8439 2.5.2 and the Appendix A.3 vectors", "[mac][poly1305][vectors]",
    [](const Kernel& k) { return is(k, "poly1305"); }, poly1305_vectors_of);
const PerKernel kPoly1305Random(
    "poly1305: equals the reference on random keys and lengths, and on all ones", "[mac][poly1305]",
    [](const Kernel& k) { return is(k, "poly1305"); }, poly1305_random);
const PerKernel kGhashVectors(
    "ghash: GCM spec test cases 2, 3 and 4 (McGrew-Viega), with the length block as data", "[mac][ghash][vectors]",
    [](const Kernel& k) { return is(k, "ghash"); }, ghash_vectors_of);
const PerKernel kGhashRandom(
    "ghash: equals the reference on random keys and lengths", "[mac][ghash]",
    [](const Kernel& k) { return is(k, "ghash"); }, ghash_random);
const PerKernel kPolyval(
    "polyval: RFC 8452 Appendix A, and POLYVAL = GHASH byte-reversed with H' = mulX(H)", "[mac][polyval][vectors]",
    [](const Kernel& k) { return is(k, "polyval"); }, polyval_vectors_and_relation);
const PerKernel kBlake2s(
    "blake2s: RFC 7693 \"abc\", the empty message, and the reference on random lengths", "[mac][blake2s][vectors]",
    [](const Kernel& k) { return is(k, "blake2s"); }, blake2s_vectors_and_random);
const PerKernel kNh(
    "nh: equals generic on random keys and lengths", "[mac][nh]",
    [](const Kernel& k) { return (is(k, "nh") || is(k, "nhpoly1305")) && &k != reference_kernel(k.algorithm); },
    nh_random);

}  // namespace

TEST_CASE("nhpoly1305: structure as in Linux (NH per 1024-byte message, Poly1305 of the hashes)", "[mac][nh]") {
    // Empty input: Poly1305 of nothing is 0. One unit: poly1305 (r only, no s) of the 32-byte NH hash of
    // that unit as two blocks, which the nh kernel gives for the same NH key.
    const Kernel* nhp = reference_kernel("nhpoly1305");
    const Kernel* nh = reference_kernel("nh");
    const Kernel* poly = reference_kernel("poly1305");
    REQUIRE((nhp && nh && poly));
    auto key = random_bytes(nhp->key_bytes, 5);
    CHECK(digest_hex(*nhp, key, nullptr, 0) == std::string(32, '0'));
    for (std::size_t len : {std::size_t{16}, std::size_t{1000}, std::size_t{1024}}) {
        INFO("len " << len);
        auto msg = random_bytes(len, 6);
        auto nh_hash =
            from_hex(digest_hex(*nh, std::vector<std::uint8_t>(key.begin() + 16, key.end()), msg.data(), len));
        std::vector<std::uint8_t> pkey(key.begin(), key.begin() + 16);
        pkey.resize(32, 0);  // s = 0: poly1305 then outputs h mod p
        CHECK(digest_hex(*nhp, key, msg.data(), len) == digest_hex(*poly, pkey, nh_hash.data(), 32));
    }
}
