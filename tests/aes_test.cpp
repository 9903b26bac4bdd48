// SPDX-License-Identifier: MIT
// The aes family (kernels/aes): the portable reference against the published vectors (FIPS 197,
// SP 800-38A CTR, the GCM specification's test cases, IEEE 1619 XTS) and against OpenSSL EVP on random
// keys and lengths; every SIMD variant against the reference and the vectors, split into calls every
// way the kernel's walk may, misaligned, in place, with guard bytes; counter wrap-around.
#include <openssl/evp.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "aes.hpp"
#include "aes_glue.hpp"
#include "cpu.hpp"
#include "test_util.hpp"

using namespace fputune;
using namespace fputune::test;
using namespace fputune::aes;

namespace {

using Bytes = std::vector<std::uint8_t>;
using F = Feature;

struct IsaVariant {
    const char* name;
    FeatureSet required;
    decltype(&aes_ctr_generic) ctr;  // nullptr: the variant has GCM only
    decltype(&aes_xts_encrypt_iv_generic) xts_iv;
    decltype(&aes_xts_encrypt_generic) xts;
    decltype(&aes_gcm_setkey_generic) gcm_setkey;
    decltype(&aes_gcm_aad_generic) gcm_aad;
    decltype(&aes_gcm_enc_generic) gcm_enc;
    decltype(&aes_gcm_final_generic) gcm_final;
};

#define VARIANT_ALL(isa, req)                                                                            \
    IsaVariant {                                                                                         \
#isa, req, aes_ctr_##isa, aes_xts_encrypt_iv_##isa, aes_xts_encrypt_##isa, aes_gcm_setkey_##isa, \
            aes_gcm_aad_##isa, aes_gcm_enc_##isa, aes_gcm_final_##isa                                    \
    }
#define VARIANT_GCM(isa, req)                                                                             \
    IsaVariant {                                                                                          \
#isa, req, nullptr, nullptr, nullptr, aes_gcm_setkey_##isa, aes_gcm_aad_##isa, aes_gcm_enc_##isa, \
            aes_gcm_final_##isa                                                                           \
    }

const IsaVariant kReference = VARIANT_ALL(generic, 0);
const IsaVariant kVariants[] = {
    VARIANT_ALL(generic, 0),
    VARIANT_ALL(aesni, features(F::aesni, F::pclmul, F::ssse3)),
    VARIANT_GCM(aesni_avx, features(F::aesni, F::pclmul, F::avx)),
    VARIANT_ALL(vaes_avx2, features(F::avx2, F::vaes, F::vpclmulqdq, F::aesni, F::pclmul)),
    VARIANT_ALL(vaes_avx512,
                features(F::avx512f, F::avx512vl, F::avx512bw, F::vaes, F::vpclmulqdq, F::aesni, F::pclmul)),
};

// The variants this CPU runs; the others are skipped visibly.
std::vector<const IsaVariant*> runnable(bool need_ctr_xts) {
    std::vector<const IsaVariant*> out;
    for (const IsaVariant& v : kVariants) {
        if (need_ctr_xts && !v.ctr) continue;
        if (FeatureSet missing = v.required & ~usable_features()) {
            WARN("SKIPPED aes " << v.name << ": this CPU lacks " << feature_list_string(missing));
            continue;
        }
        out.push_back(&v);
    }
    return out;
}

Bytes hex(const std::string& h) { return from_hex(h); }

// Chunk sizes for a message of len bytes: every chunk a multiple of 16 except the last.
std::vector<std::size_t> random_split(std::size_t len, std::mt19937_64& rng, std::size_t max_blocks) {
    std::vector<std::size_t> chunks;
    while (len) {
        std::size_t n = 16 * (rng() % (max_blocks + 1));
        if (n >= len) n = len;
        chunks.push_back(n);
        len -= n;
    }
    return chunks;
}

// ---- one message through a variant, in the given calls ---------------------------------------------
Bytes ctr_run(const IsaVariant& v, const Bytes& key, const Bytes& iv, const std::uint8_t* pt, std::size_t len,
              const std::vector<std::size_t>& chunks, std::uint8_t* out) {
    AesKey k;
    aes_expand_key(&k, key.data(), key.size());
    std::uint8_t ctr[16];
    std::memcpy(ctr, iv.data(), 16);
    std::size_t off = 0;
    for (std::size_t n : chunks) {
        v.ctr(&k, ctr, pt + off, out + off, n);
        off += n;
    }
    REQUIRE(off == len);
    return Bytes(ctr, ctr + 16);
}

Bytes ctr_encrypt(const IsaVariant& v, const Bytes& key, const Bytes& iv, const Bytes& pt,
                  std::vector<std::size_t> chunks = {}) {
    if (chunks.empty()) chunks = {pt.size()};
    Bytes out(pt.size());
    ctr_run(v, key, iv, pt.data(), pt.size(), chunks, out.data());
    return out;
}

// key = key1 (data) || key2 (tweak), as IEEE 1619 and OpenSSL take it.
void xts_run(const IsaVariant& v, const Bytes& key, const Bytes& iv, const std::uint8_t* pt, std::size_t len,
             const std::vector<std::size_t>& chunks, std::uint8_t* out) {
    AesKey data_key, tweak_key;
    aes_expand_key(&data_key, key.data(), key.size() / 2);
    aes_expand_key(&tweak_key, key.data() + key.size() / 2, key.size() / 2);
    std::uint8_t tweak[16];
    v.xts_iv(&tweak_key, iv.data(), tweak);
    std::size_t off = 0;
    for (std::size_t n : chunks) {
        v.xts(&data_key, pt + off, out + off, n, tweak);
        off += n;
    }
    REQUIRE(off == len);
}

Bytes xts_encrypt(const IsaVariant& v, const Bytes& key, const Bytes& iv, const Bytes& pt,
                  std::vector<std::size_t> chunks = {}) {
    if (chunks.empty()) chunks = {pt.size()};
    Bytes out(pt.size());
    xts_run(v, key, iv, pt.data(), pt.size(), chunks, out.data());
    return out;
}

// Returns ciphertext || tag.
void gcm_run(const IsaVariant& v, const Bytes& key, const Bytes& iv, const std::uint8_t* aad, std::size_t aad_len,
             const std::vector<std::size_t>& aad_chunks, const std::uint8_t* pt, std::size_t len,
             const std::vector<std::size_t>& chunks, std::uint8_t* out) {
    GcmKey k;
    v.gcm_setkey(&k, key.data(), key.size());
    std::uint8_t ghash[16] = {}, ctr[16] = {};
    std::memcpy(ctr, iv.data(), 12);
    ctr[15] = 2;  // the first data block's counter: inc32(J0)
    std::size_t off = 0;
    for (std::size_t n : aad_chunks) {
        v.gcm_aad(&k, ghash, aad + off, n);
        off += n;
    }
    REQUIRE(off == aad_len);
    off = 0;
    for (std::size_t n : chunks) {
        v.gcm_enc(&k, ctr, ghash, pt + off, out + off, n);
        off += n;
    }
    REQUIRE(off == len);
    v.gcm_final(&k, iv.data(), ghash, aad_len, len, out + len);
}

Bytes gcm_seal(const IsaVariant& v, const Bytes& key, const Bytes& iv, const Bytes& aad, const Bytes& pt,
               std::vector<std::size_t> aad_chunks = {}, std::vector<std::size_t> chunks = {}) {
    if (aad_chunks.empty()) aad_chunks = {aad.size()};
    if (chunks.empty()) chunks = {pt.size()};
    Bytes out(pt.size() + 16);
    gcm_run(v, key, iv, aad.data(), aad.size(), aad_chunks, pt.data(), pt.size(), chunks, out.data());
    return out;
}

// ---- OpenSSL EVP, the oracle -------------------------------------------------------------------------
const EVP_CIPHER* evp_cipher(const char* mode, std::size_t key_bytes) {
    std::string name = "aes-" + std::to_string(key_bytes * 8) + "-" + mode;
    const EVP_CIPHER* c = EVP_get_cipherbyname(name.c_str());
    REQUIRE(c != nullptr);
    return c;
}

Bytes openssl_encrypt(const char* mode, const Bytes& key, const Bytes& iv, const Bytes& pt, const Bytes& aad = {}) {
    const bool gcm = std::strcmp(mode, "gcm") == 0;
    const bool xts = std::strcmp(mode, "xts") == 0;
    EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
    REQUIRE(ctx != nullptr);
    REQUIRE(EVP_EncryptInit_ex(ctx, evp_cipher(mode, xts ? key.size() / 2 : key.size()), nullptr, key.data(),
                               iv.data()) == 1);
    int n = 0;
    if (gcm && !aad.empty())
        REQUIRE(EVP_EncryptUpdate(ctx, nullptr, &n, aad.data(), static_cast<int>(aad.size())) == 1);
    Bytes out(pt.size() + 16);
    int len = 0;
    REQUIRE(EVP_EncryptUpdate(ctx, out.data(), &len, pt.data(), static_cast<int>(pt.size())) == 1);
    REQUIRE(EVP_EncryptFinal_ex(ctx, out.data() + len, &n) == 1);
    len += n;
    REQUIRE(static_cast<std::size_t>(len) == pt.size());
    if (gcm)
        REQUIRE(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, out.data() + len) == 1);
    else
        out.resize(pt.size());
    EVP_CIPHER_CTX_free(ctx);
    return out;
}

// IEEE 1619's 512-byte plaintext: bytes 0..255 twice.
Bytes ieee1619_ptx512() {
    Bytes p(512);
    for (std::size_t i = 0; i < p.size(); ++i) p[i] = static_cast<std::uint8_t>(i);
    return p;
}

Bytes concat(const Bytes& a, const Bytes& b) {
    Bytes r = a;
    r.insert(r.end(), b.begin(), b.end());
    return r;
}

}  // namespace

TEST_CASE("aes: FIPS 197 Appendix C block vectors, through CTR with the plaintext as counter", "[aes]") {
    // E(K, P) is the keystream of the counter block P.
    const Bytes pt = hex("00112233445566778899aabbccddeeff");
    struct {
        const char* key;
        const char* ct;
    } cases[] = {
        {"000102030405060708090a0b0c0d0e0f", "69c4e0d86a7b0430d8cdb78070b4c55a"},
        {"000102030405060708090a0b0c0d0e0f1011121314151617", "dda97ca4864cdfe06eaf70a0ec0d7191"},
        {"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "8ea2b7ca516745bfeafc49904b496089"},
    };
    for (const IsaVariant* v : runnable(true))
        for (const auto& c : cases) {
            INFO(v->name << " key " << c.key);
            CHECK(to_hex(ctr_encrypt(*v, hex(c.key), pt, Bytes(16, 0))) == c.ct);
        }
}

TEST_CASE("aes-ctr: NIST SP 800-38A F.5.1 and F.5.5 on every variant", "[aes][ctr]") {
    const Bytes iv = hex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff");
    const Bytes pt =
        hex("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
            "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710");
    struct {
        const char* key;
        const char* ct;
    } cases[] = {
        {"2b7e151628aed2a6abf7158809cf4f3c",  // F.5.1 CTR-AES128.Encrypt
         "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff"
         "5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee"},
        {"603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",  // F.5.5 CTR-AES256.Encrypt
         "601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c5"
         "2b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6"},
    };
    for (const IsaVariant* v : runnable(true))
        for (const auto& c : cases) {
            INFO(v->name << " key " << c.key);
            CHECK(to_hex(ctr_encrypt(*v, hex(c.key), iv, pt)) == c.ct);
            CHECK(to_hex(openssl_encrypt("ctr", hex(c.key), iv, pt)) == c.ct);
        }
}

TEST_CASE("aes-gcm: the GCM specification's test cases 1-4 and 13-16 on every variant", "[aes][gcm]") {
    // McGrew & Viega, "The Galois/Counter Mode of Operation (GCM)", Appendix B (96-bit IVs only:
    // Linux's gcm(aes) takes 12-byte IVs).
    const std::string k1 = "feffe9928665731c6d6a8f9467308308";
    const std::string p64 =
        "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
        "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255";
    const std::string p60 = p64.substr(0, 120);
    const std::string aad = "feedfacedeadbeeffeedfacedeadbeefabaddad2";
    const std::string iv = "cafebabefacedbaddecaf888";
    struct {
        int number;
        std::string key, iv, aad, pt, ct, tag;
    } cases[] = {
        {1, std::string(32, '0'), std::string(24, '0'), "", "", "", "58e2fccefa7e3061367f1d57a4e7455a"},
        {2, std::string(32, '0'), std::string(24, '0'), "", std::string(32, '0'), "0388dace60b6a392f328c2b971b2fe78",
         "ab6e47d42cec13bdf53a67b21257bddf"},
        {3, k1, iv, "", p64,
         "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
         "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985",
         "4d5c2af327cd64a62cf35abd2ba6fab4"},
        {4, k1, iv, aad, p60,
         "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
         "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
         "5bc94fbc3221a5db94fae95ae7121a47"},
        {13, std::string(64, '0'), std::string(24, '0'), "", "", "", "530f8afbc74536b9a963b4f1c4cb738b"},
        {14, std::string(64, '0'), std::string(24, '0'), "", std::string(32, '0'), "cea7403d4d606b6e074ec5d3baf39d18",
         "d0d1c8a799996bf0265b98b5d48ab919"},
        {15, k1 + k1, iv, "", p64,
         "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
         "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad",
         "b094dac5d93471bdec1a502270e3cc6c"},
        {16, k1 + k1, iv, aad, p60,
         "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
         "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
         "76fc6ece0f4e1768cddf8853bb2d551b"},
    };
    for (const auto& c : cases) {
        INFO("test case " << c.number);
        CHECK(to_hex(openssl_encrypt("gcm", hex(c.key), hex(c.iv), hex(c.pt), hex(c.aad))) == c.ct + c.tag);
        for (const IsaVariant* v : runnable(false)) {
            INFO(v->name);
            CHECK(to_hex(gcm_seal(*v, hex(c.key), hex(c.iv), hex(c.aad), hex(c.pt))) == c.ct + c.tag);
        }
    }
}

TEST_CASE("aes-xts: IEEE 1619-2007 Annex B vectors on every variant", "[aes][xts]") {
    // The IV is the data unit sequence number as a 16-byte little-endian integer.
    const Bytes p32_0(32, 0), p32_44(32, 0x44), p512 = ieee1619_ptx512();
    const Bytes p17 = hex("000102030405060708090a0b0c0d0e0f10");
    struct {
        int number;
        std::string key, iv;
        Bytes pt;
        std::string ct;
    } cases[] = {
        {1, std::string(64, '0'), std::string(32, '0'), p32_0,
         "917cf69ebd68b2ec9b9fe9a3eadda692cd43d2f59598ed858c02c2652fbf922e"},
        {2, std::string(32, '1') + std::string(32, '2'), "3333333333" + std::string(22, '0'), p32_44,
         "c454185e6a16936e39334038acef838bfb186fff7480adc4289382ecd6d394f0"},
        {3, "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0" + std::string(32, '2'), "3333333333" + std::string(22, '0'), p32_44,
         "af85336b597afc1a900b2eb21ec949d292df4c047e0b21532186a5971a227a89"},
        {4, "2718281828459045235360287471352631415926535897932384626433832795", std::string(32, '0'), p512,
         "27a7479befa1d476489f308cd4cfa6e2a96e4bbe3208ff25287dd3819616e89c"
         "c78cf7f5e543445f8333d8fa7f56000005279fa5d8b5e4ad40e736ddb4d35412"
         "328063fd2aab53e5ea1e0a9f332500a5df9487d07a5c92cc512c8866c7e860ce"
         "93fdf166a24912b422976146ae20ce846bb7dc9ba94a767aaef20c0d61ad0265"
         "5ea92dc4c4e41a8952c651d33174be51a10c421110e6d81588ede82103a252d8"
         "a750e8768defffed9122810aaeb99f9172af82b604dc4b8e51bcb08235a6f434"
         "1332e4ca60482a4ba1a03b3e65008fc5da76b70bf1690db4eae29c5f1badd03c"
         "5ccf2a55d705ddcd86d449511ceb7ec30bf12b1fa35b913f9f747a8afd1b130e"
         "94bff94effd01a91735ca1726acd0b197c4e5b03393697e126826fb6bbde8ecc"
         "1e08298516e2c9ed03ff3c1b7860f6de76d4cecd94c8119855ef5297ca67e9f3"
         "e7ff72b1e99785ca0a7e7720c5b36dc6d72cac9574c8cbbc2f801e23e56fd344"
         "b07f22154beba0f08ce8891e643ed995c94d9a69c9f1b5f499027a78572aeebd"
         "74d20cc39881c213ee770b1010e4bea718846977ae119f7a023ab58cca0ad752"
         "afe656bb3c17256a9f6e9bf19fdd5a38fc82bbe872c5539edb609ef4f79c203e"
         "bb140f2e583cb2ad15b4aa5b655016a8449277dbd477ef2c8d6c017db738b18d"
         "eb4a427d1923ce3ff262735779a418f20a282df920147beabe421ee5319d0568"},
        {10,
         "2718281828459045235360287471352662497757247093699959574966967627"
         "3141592653589793238462643383279502884197169399375105820974944592",
         "ff" + std::string(30, '0'), p512,
         "1c3b3a102f770386e4836c99e370cf9bea00803f5e482357a4ae12d414a3e63b"
         "5d31e276f8fe4a8d66b317f9ac683f44680a86ac35adfc3345befecb4bb188fd"
         "5776926c49a3095eb108fd1098baec70aaa66999a72a82f27d848b21d4a741b0"
         "c5cd4d5fff9dac89aeba122961d03a757123e9870f8acf1000020887891429ca"
         "2a3e7a7d7df7b10355165c8b9a6d0a7de8b062c4500dc4cd120c0f7418dae3d0"
         "b5781c34803fa75421c790dfe1de1834f280d7667b327f6c8cd7557e12ac3a0f"
         "93ec05c52e0493ef31a12d3d9260f79a289d6a379bc70c50841473d1a8cc81ec"
         "583e9645e07b8d9670655ba5bbcfecc6dc3966380ad8fecb17b6ba02469a020a"
         "84e18e8f84252070c13e9f1f289be54fbc481457778f616015e1327a02b140f1"
         "505eb309326d68378f8374595c849d84f4c333ec4423885143cb47bd71c5edae"
         "9be69a2ffeceb1bec9de244fbe15992b11b77c040f12bd8f6a975a44a0f90c29"
         "a9abc3d4d893927284c58754cce294529f8614dcd2aba991925fedc4ae74ffac"
         "6e333b93eb4aff0479da9a410e4450e0dd7ae4c6e2910900575da401fc07059f"
         "645e8b7e9bfdef33943054ff84011493c27b3429eaedb4ed5376441a77ed4385"
         "1ad77f16f541dfd269d50d6a5f14fb0aab1cbb4c1550be97f7ab4066193c4caa"
         "773dad38014bd2092fa755c824bb5e54c4f36ffda9fcea70b9c6e693e148c151"},
        // Ciphertext stealing: 17..20 bytes.
        {15, "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0", "9a78563412" + std::string(22, '0'),
         p17, "6c1625db4671522d3d7599601de7ca09ed"},
        {16, "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0", "9a78563412" + std::string(22, '0'),
         hex("000102030405060708090a0b0c0d0e0f1011"), "d069444b7a7e0cab09e24447d24deb1fedbf"},
        {17, "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0", "9a78563412" + std::string(22, '0'),
         hex("000102030405060708090a0b0c0d0e0f101112"), "e5df1351c0544ba1350b3363cd8ef4beedbf9d"},
        {18, "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0", "9a78563412" + std::string(22, '0'),
         hex("000102030405060708090a0b0c0d0e0f10111213"), "9d84c813f719aa2c7be3f66171c7c5c2edbf9dac"},
    };
    for (const auto& c : cases) {
        INFO("vector " << c.number);
        const Bytes key = hex(c.key);
        // OpenSSL refuses equal key halves (vector 1); the others it must agree on.
        if (c.number != 1) CHECK(to_hex(openssl_encrypt("xts", key, hex(c.iv), c.pt)) == c.ct);
        for (const IsaVariant* v : runnable(true)) {
            INFO(v->name);
            CHECK(to_hex(xts_encrypt(*v, key, hex(c.iv), c.pt)) == c.ct);
        }
    }
}

TEST_CASE("aes: the reference equals OpenSSL EVP on random keys, IVs and lengths", "[aes][oracle]") {
    std::mt19937_64 rng(1419);
    for (int trial = 0; trial < 60; ++trial) {
        const std::size_t key_bytes = trial % 3 == 0 ? 16 : trial % 3 == 1 ? 24 : 32;
        const std::size_t len = trial < 20 ? static_cast<std::size_t>(trial) : 16 + rng() % 3000;
        const Bytes key = random_bytes(key_bytes, rng()), iv = random_bytes(16, rng()), pt = random_bytes(len, rng());
        const Bytes aad = random_bytes(rng() % 80, rng());
        INFO("trial " << trial << " key bytes " << key_bytes << " length " << len << " aad " << aad.size());
        CHECK(ctr_encrypt(kReference, key, iv, pt) == openssl_encrypt("ctr", key, iv, pt));
        const Bytes iv12(iv.begin(), iv.begin() + 12);
        CHECK(gcm_seal(kReference, key, iv12, aad, pt) == openssl_encrypt("gcm", key, iv12, pt, aad));
        if (key_bytes != 24 && len >= 16) {
            const Bytes xkey = concat(key, random_bytes(key_bytes, rng()));
            CHECK(xts_encrypt(kReference, xkey, iv, pt) == openssl_encrypt("xts", xkey, iv, pt));
        }
    }
}

TEST_CASE("aes: every variant equals the reference at block and batch edges", "[aes][conformance]") {
    std::vector<std::size_t> lengths;
    for (std::size_t n = 0; n <= 300; ++n) lengths.push_back(n);  // every tail of the first 18 blocks
    for (std::size_t n : {511, 512, 513, 1023, 1024, 1025, 4095, 4096, 4097, 4096 + 15 * 16, 65536 + 13})
        lengths.push_back(n);
    const Bytes data = random_bytes(65536 + 64, 11), aad = random_bytes(700, 12);
    for (std::size_t key_bytes : {16, 32}) {
        const Bytes key = random_bytes(key_bytes, key_bytes), xkey = random_bytes(2 * key_bytes, 13 + key_bytes);
        const Bytes iv = random_bytes(16, 14), iv12(iv.begin(), iv.begin() + 12);
        for (std::size_t len : lengths) {
            const Bytes pt(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(len));
            const Bytes a(aad.begin(),
                          aad.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(len, aad.size())));
            const Bytes ctr_ref = ctr_encrypt(kReference, key, iv, pt);
            const Bytes gcm_ref = gcm_seal(kReference, key, iv12, a, pt);
            const Bytes xts_ref = len >= 16 ? xts_encrypt(kReference, xkey, iv, pt) : Bytes{};
            for (const IsaVariant* v : runnable(false)) {
                INFO(v->name << " key bytes " << key_bytes << " length " << len);
                CHECK(gcm_seal(*v, key, iv12, a, pt) == gcm_ref);
                if (!v->ctr) continue;
                CHECK(ctr_encrypt(*v, key, iv, pt) == ctr_ref);
                if (len >= 16) CHECK(xts_encrypt(*v, xkey, iv, pt) == xts_ref);
            }
        }
    }
}

TEST_CASE("aes: AES-192 keys for CTR and GCM on every variant", "[aes][conformance]") {
    const Bytes key = random_bytes(24, 21), iv = random_bytes(16, 22), iv12(iv.begin(), iv.begin() + 12);
    for (std::size_t len : {0, 1, 16, 100, 255, 256, 257, 1000, 4099}) {
        const Bytes pt = random_bytes(len, 23 + len), aad = random_bytes(len % 50, 24);
        const Bytes ctr_ref = openssl_encrypt("ctr", key, iv, pt), gcm_ref = openssl_encrypt("gcm", key, iv12, pt, aad);
        for (const IsaVariant* v : runnable(false)) {
            INFO(v->name << " length " << len);
            CHECK(gcm_seal(*v, key, iv12, aad, pt) == gcm_ref);
            if (v->ctr) CHECK(ctr_encrypt(*v, key, iv, pt) == ctr_ref);
        }
    }
}

TEST_CASE("aes: every split into calls gives the same output", "[aes][sections]") {
    std::mt19937_64 rng(31);
    for (std::size_t key_bytes : {16, 32}) {
        const Bytes key = random_bytes(key_bytes, 32), xkey = random_bytes(2 * key_bytes, 33);
        const Bytes iv = random_bytes(16, 34), iv12(iv.begin(), iv.begin() + 12);
        // Every composition of up to 7 blocks (plus a tail) into calls.
        for (std::size_t nblocks = 0; nblocks <= 7; ++nblocks)
            for (std::size_t tail : {std::size_t{0}, std::size_t{1}, std::size_t{15}}) {
                const std::size_t len = 16 * nblocks + tail;
                const Bytes pt = random_bytes(len, 35 + len), aad = random_bytes(len, 36 + len);
                const Bytes ctr_ref = ctr_encrypt(kReference, key, iv, pt);
                const Bytes gcm_ref = gcm_seal(kReference, key, iv12, aad, pt);
                const Bytes xts_ref = len >= 16 ? xts_encrypt(kReference, xkey, iv, pt) : Bytes{};
                for (unsigned mask = 0; mask < (1u << (nblocks ? nblocks - 1 : 0)); ++mask) {
                    std::vector<std::size_t> chunks;
                    std::size_t run = 16;
                    for (std::size_t i = 1; i < nblocks; ++i) {
                        if (mask & (1u << (i - 1))) {
                            chunks.push_back(run);
                            run = 0;
                        }
                        run += 16;
                    }
                    if (nblocks) chunks.push_back(run);
                    if (tail) {
                        if (chunks.empty()) chunks.push_back(0);
                        chunks.back() += tail;
                    }
                    if (chunks.empty()) chunks.push_back(0);
                    // XTS steals from the last whole block: the tail stays with it.
                    std::vector<std::size_t> xts_chunks = chunks;
                    if (tail && xts_chunks.size() > 1 && xts_chunks.back() < 16 + tail) {
                        xts_chunks[xts_chunks.size() - 2] -= 16;
                        xts_chunks.back() += 16;
                    }
                    for (const IsaVariant* v : runnable(false)) {
                        INFO(v->name << " key bytes " << key_bytes << " blocks " << nblocks << " tail " << tail
                                     << " mask " << mask);
                        CHECK(gcm_seal(*v, key, iv12, aad, pt, chunks, chunks) == gcm_ref);
                        if (!v->ctr) continue;
                        CHECK(ctr_encrypt(*v, key, iv, pt, chunks) == ctr_ref);
                        if (len >= 16) {
                            std::vector<std::size_t> xc = xts_chunks;
                            std::erase(xc, std::size_t{0});
                            CHECK(xts_encrypt(*v, xkey, iv, pt, xc) == xts_ref);
                        }
                    }
                }
            }
        // Random long splits, as the walk with any FPU limit makes them.
        const Bytes pt = random_bytes(20000 + 9, 37), aad = random_bytes(3000 + 5, 38);
        const Bytes ctr_ref = ctr_encrypt(kReference, key, iv, pt);
        const Bytes gcm_ref = gcm_seal(kReference, key, iv12, aad, pt);
        const Bytes xts_ref = xts_encrypt(kReference, xkey, iv, pt);
        for (int trial = 0; trial < 12; ++trial) {
            const auto chunks = random_split(pt.size(), rng, 1 + rng() % 70);
            const auto aad_chunks = random_split(aad.size(), rng, 1 + rng() % 70);
            auto xts_chunks = chunks;
            std::erase(xts_chunks, std::size_t{0});
            if (xts_chunks.back() < 16 + pt.size() % 16) {  // the stolen block goes with the tail
                xts_chunks[xts_chunks.size() - 2] -= 16;
                xts_chunks.back() += 16;
                std::erase(xts_chunks, std::size_t{0});
            }
            for (const IsaVariant* v : runnable(false)) {
                INFO(v->name << " trial " << trial);
                CHECK(gcm_seal(*v, key, iv12, aad, pt, aad_chunks, chunks) == gcm_ref);
                if (!v->ctr) continue;
                CHECK(ctr_encrypt(*v, key, iv, pt, chunks) == ctr_ref);
                CHECK(xts_encrypt(*v, xkey, iv, pt, xts_chunks) == xts_ref);
            }
        }
    }
}

TEST_CASE("aes: misaligned, in place, guard bytes intact, input untouched", "[aes][conformance]") {
    const Bytes key = random_bytes(32, 41), xkey = random_bytes(64, 42), iv = random_bytes(16, 43);
    const Bytes iv12(iv.begin(), iv.begin() + 12), aad = random_bytes(77, 44);
    constexpr std::uint8_t kGuard = 0xa5;
    for (std::size_t len : {16, 17, 31, 100, 257, 1000, 1029}) {
        const Bytes pt = random_bytes(len, 45 + len);
        const Bytes ctr_ref = ctr_encrypt(kReference, key, iv, pt);
        const Bytes gcm_ref = gcm_seal(kReference, key, iv12, aad, pt);
        const Bytes xts_ref = xts_encrypt(kReference, xkey, iv, pt);
        for (const IsaVariant* v : runnable(false))
            for (std::size_t src_off : {1, 7, 15})
                for (std::size_t dst_off : {0, 3, 9}) {
                    INFO(v->name << " length " << len << " src +" << src_off << " dst +" << dst_off);
                    Bytes in(len + 64, 0), out(len + 16 + 128, kGuard);
                    std::memcpy(in.data() + src_off, pt.data(), len);
                    const auto guards_ok = [&](std::size_t n) {
                        return std::all_of(out.begin(), out.begin() + 64 + static_cast<std::ptrdiff_t>(dst_off),
                                           [](std::uint8_t x) { return x == kGuard; }) &&
                               std::all_of(out.begin() + 64 + static_cast<std::ptrdiff_t>(dst_off + n), out.end(),
                                           [](std::uint8_t x) { return x == kGuard; });
                    };
                    std::uint8_t* dst = out.data() + 64 + dst_off;
                    gcm_run(*v, key, iv12, aad.data(), aad.size(), {aad.size()}, in.data() + src_off, len, {len}, dst);
                    CHECK(Bytes(dst, dst + len + 16) == gcm_ref);
                    CHECK(guards_ok(len + 16));
                    CHECK(std::memcmp(in.data() + src_off, pt.data(), len) == 0);
                    if (!v->ctr) continue;
                    std::fill(out.begin(), out.end(), kGuard);
                    ctr_run(*v, key, iv, in.data() + src_off, len, {len}, dst);
                    CHECK(Bytes(dst, dst + len) == ctr_ref);
                    CHECK(guards_ok(len));
                    std::fill(out.begin(), out.end(), kGuard);
                    xts_run(*v, xkey, iv, in.data() + src_off, len, {len}, dst);
                    CHECK(Bytes(dst, dst + len) == xts_ref);
                    CHECK(guards_ok(len));
                    CHECK(std::memcmp(in.data() + src_off, pt.data(), len) == 0);
                }
        for (const IsaVariant* v : runnable(false)) {  // in place, misaligned
            INFO(v->name << " in place, length " << len);
            Bytes buf(len + 16 + 3);
            std::memcpy(buf.data() + 3, pt.data(), len);
            gcm_run(*v, key, iv12, aad.data(), aad.size(), {aad.size()}, buf.data() + 3, len, {len}, buf.data() + 3);
            CHECK(Bytes(buf.begin() + 3, buf.end()) == gcm_ref);
            if (!v->ctr) continue;
            std::memcpy(buf.data() + 3, pt.data(), len);
            ctr_run(*v, key, iv, buf.data() + 3, len, {len}, buf.data() + 3);
            CHECK(Bytes(buf.begin() + 3, buf.begin() + 3 + static_cast<std::ptrdiff_t>(len)) == ctr_ref);
            std::memcpy(buf.data() + 3, pt.data(), len);
            xts_run(*v, xkey, iv, buf.data() + 3, len, {len}, buf.data() + 3);
            CHECK(Bytes(buf.begin() + 3, buf.begin() + 3 + static_cast<std::ptrdiff_t>(len)) == xts_ref);
        }
    }
}

TEST_CASE("aes-ctr: the 128-bit counter carries across 2^32 and 2^64 and wraps at 2^128 as OpenSSL's does",
          "[aes][ctr]") {
    const Bytes key = random_bytes(16, 51), pt = random_bytes(16 * 40 + 7, 52);
    for (const char* iv_hex :
         {"0000000000000005fffffffffffffff3", "fffffffffffffffffffffffffffffffa", "000102030405060708090a0bfffffffa",
          "00000000000000000000000000000000", "0123456789abcdefffffffffffffffff"}) {
        const Bytes iv = hex(iv_hex);
        const Bytes expect = openssl_encrypt("ctr", key, iv, pt);
        CHECK(ctr_encrypt(kReference, key, iv, pt) == expect);
        for (const IsaVariant* v : runnable(true)) {
            INFO(v->name << " iv " << iv_hex);
            CHECK(ctr_encrypt(*v, key, iv, pt) == expect);
            CHECK(ctr_encrypt(*v, key, iv, pt, {48, 16 * 17, pt.size() - 48 - 16 * 17}) == expect);
        }
    }
}

TEST_CASE("aes-gcm: the 32-bit block counter wraps alone (inc32)", "[aes][gcm]") {
    const Bytes key = random_bytes(16, 61), pt = random_bytes(16 * 45 + 3, 62);
    GcmKey ref_key;
    aes_gcm_setkey_generic(&ref_key, key.data(), key.size());
    std::uint8_t ctr0[16];
    std::memcpy(ctr0, hex("0102030405060708090a0b0cfffffff5").data(), 16);
    Bytes expect(pt.size());
    std::uint8_t ref_ctr[16], ref_ghash[16] = {};
    std::memcpy(ref_ctr, ctr0, 16);
    aes_gcm_enc_generic(&ref_key, ref_ctr, ref_ghash, pt.data(), expect.data(), pt.size());
    CHECK(to_hex(ref_ctr, 16) == "0102030405060708090a0b0c00000023");  // 0xfffffff5 + 46 mod 2^32
    for (const IsaVariant* v : runnable(false)) {
        INFO(v->name);
        GcmKey k;
        v->gcm_setkey(&k, key.data(), key.size());
        std::uint8_t ctr[16], ghash[16] = {};
        std::memcpy(ctr, ctr0, 16);
        Bytes out(pt.size());
        v->gcm_enc(&k, ctr, ghash, pt.data(), out.data(), pt.size());
        CHECK(out == expect);
        CHECK(to_hex(ghash, 16) == to_hex(ref_ghash, 16));
        CHECK(to_hex(ctr, 16) == to_hex(ref_ctr, 16));
    }
}

// ---- the cipher-shaped entry points (aes_glue.hpp) and the OpenSSL peers -------------------------------
namespace {

struct CipherEntry {
    std::string name;
    FeatureSet required;
    std::size_t key_bytes, iv_bytes, ctx_bytes, tag_bytes, final_min_bytes;
    void (*init)(void*, const std::uint8_t*) noexcept;
    void (*blocks)(void*, const std::uint8_t*, std::size_t) noexcept;  // associated data (GCM) or nullptr
    void (*crypt)(void*, const std::uint8_t*, std::uint8_t*, std::size_t) noexcept;
    void (*final)(void*, const std::uint8_t*, std::size_t, std::uint8_t*) noexcept;
};

template <class G>
CipherEntry entry(std::string name, FeatureSet required, std::size_t tag_bytes, std::size_t final_min_bytes) {
    CipherEntry e{std::move(name), required, G::key_bytes, G::iv_bytes, G::ctx_bytes, tag_bytes,
                  final_min_bytes, G::init,  nullptr,      G::crypt,    G::final};
    if constexpr (requires { G::blocks; }) e.blocks = G::blocks;
    return e;
}

template <std::size_t K>
std::vector<CipherEntry> cipher_entries() {
    const std::string bits = std::to_string(8 * K);
    std::vector<CipherEntry> v;
    auto add_isa = [&]<class CtrG, class XtsG>(const char* isa, FeatureSet req, CtrG*, XtsG*) {
        v.push_back(entry<CtrG>("aes-" + bits + "-ctr-" + isa, req, 0, 0));
        v.push_back(entry<XtsG>("aes-" + bits + "-xts-" + isa, req, 0, 16));
    };
#define ISA_CTR_XTS(isa)                                                               \
    add_isa(#isa, kVariants[0].required, static_cast<Ctr<aes_ctr_##isa, K>*>(nullptr), \
            static_cast<Xts<aes_xts_encrypt_iv_##isa, aes_xts_encrypt_##isa, K>*>(nullptr))
#define ISA_GCM(isa)                                                                                \
    entry<Gcm<aes_gcm_setkey_##isa, aes_gcm_aad_##isa, aes_gcm_enc_##isa, aes_gcm_final_##isa, K>>( \
        "aes-" + bits + "-gcm-" #isa, 0, 16, 0)
    ISA_CTR_XTS(generic);
    ISA_CTR_XTS(aesni);
    ISA_CTR_XTS(vaes_avx2);
    ISA_CTR_XTS(vaes_avx512);
    v.push_back(ISA_GCM(generic));
    v.push_back(ISA_GCM(aesni));
    v.push_back(ISA_GCM(aesni_avx));
    v.push_back(ISA_GCM(vaes_avx2));
    v.push_back(ISA_GCM(vaes_avx512));
#undef ISA_CTR_XTS
#undef ISA_GCM
    v.push_back(entry<CtrOpenSsl<K>>("aes-" + bits + "-ctr-openssl", 0, 0, 0));
    v.push_back(entry<XtsOpenSsl<K>>("aes-" + bits + "-xts-openssl", 0, 0, 16));
    v.push_back(entry<GcmOpenSsl<K>>("aes-" + bits + "-gcm-openssl", 0, 16, 0));
    // Each entry's features: those of the variant its name ends with.
    for (CipherEntry& e : v)
        for (const IsaVariant& var : kVariants)
            if (e.name.size() > std::strlen(var.name) && e.name.ends_with(std::string("-") + var.name))
                e.required = var.required;
    return v;
}

// init, blocks() over the AAD sections, crypt() over the data sections (whole blocks), final() on the rest.
Bytes run_sections(const CipherEntry& e, const Bytes& key_iv, const Bytes& aad,
                   const std::vector<std::size_t>& aad_blocks, const std::uint8_t* src, std::size_t len,
                   const std::vector<std::size_t>& data_blocks) {
    alignas(64) std::uint8_t ctx[4096];
    REQUIRE(e.ctx_bytes <= sizeof ctx);
    e.init(ctx, key_iv.data());
    std::size_t off = 0;
    for (std::size_t nb : aad_blocks) {
        REQUIRE(e.blocks != nullptr);
        e.blocks(ctx, aad.data() + off, nb);
        off += 16 * nb;
    }
    REQUIRE(off == aad.size());
    Bytes out(len + e.tag_bytes);
    off = 0;
    for (std::size_t nb : data_blocks) {
        e.crypt(ctx, src + off, out.data() + off, nb);
        off += 16 * nb;
    }
    REQUIRE(off <= len);
    e.final(ctx, src + off, len - off, out.data() + off);
    return out;
}

std::vector<std::size_t> random_blocks(std::size_t nblocks, std::mt19937_64& rng) {
    std::vector<std::size_t> v;
    while (nblocks) {
        const std::size_t n = std::min<std::size_t>(nblocks, rng() % 40);
        v.push_back(n);
        nblocks -= n;
    }
    return v;
}

template <std::size_t K>
void check_cipher_entries() {
    std::mt19937_64 rng(70 + K);
    const auto entries = cipher_entries<K>();
    for (const char* mode : {"-ctr-", "-xts-", "-gcm-"}) {
        const CipherEntry* ref = nullptr;
        for (const CipherEntry& e : entries)
            if (e.name.find(mode) != std::string::npos && e.name.ends_with("generic")) ref = &e;
        REQUIRE(ref != nullptr);
        for (const CipherEntry& e : entries) {
            if (e.name.find(mode) == std::string::npos) continue;
            if (FeatureSet missing = e.required & ~usable_features()) {
                WARN("SKIPPED " << e.name << ": this CPU lacks " << feature_list_string(missing));
                continue;
            }
            const Bytes key_iv = random_bytes(e.key_bytes + e.iv_bytes, rng());
            const Bytes aad = e.blocks ? random_bytes(16 * (rng() % 20), rng()) : Bytes{};
            for (std::size_t len : {0, 1, 15, 16, 17, 31, 32, 33, 100, 255, 256, 257, 1000, 4096, 4100, 20000 + 7}) {
                if (len && len < e.final_min_bytes) continue;  // XTS: no message shorter than a block
                INFO(e.name << " length " << len);
                const Bytes src = random_bytes(len + 16, rng());
                const std::size_t whole = len / 16 - (len % 16 && e.final_min_bytes ? 1 : 0);
                const std::vector<std::size_t> aad_one =
                    e.blocks ? std::vector<std::size_t>{aad.size() / 16} : std::vector<std::size_t>{};
                const Bytes expect = run_sections(*ref, key_iv, aad, aad_one, src.data(), len, {});
                CHECK(run_sections(e, key_iv, aad, aad_one, src.data(), len, {}) == expect);
                CHECK(run_sections(e, key_iv, aad, aad_one, src.data(), len, {whole}) == expect);
                for (int trial = 0; trial < 4; ++trial) {
                    const auto aad_split = e.blocks ? random_blocks(aad.size() / 16, rng) : std::vector<std::size_t>{};
                    CHECK(run_sections(e, key_iv, aad, aad_split, src.data(), len, random_blocks(whole, rng)) ==
                          expect);
                }
            }
        }
    }
}

}  // namespace

TEST_CASE("aes: the cipher entry points of every variant and of OpenSSL give the reference's output, any split",
          "[aes][glue]") {
    check_cipher_entries<16>();
    check_cipher_entries<32>();
}
