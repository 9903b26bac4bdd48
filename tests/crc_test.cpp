// SPDX-License-Identifier: MIT
// The crc family: check values, every variant against generic at every length to 1 KiB and beyond,
// misaligned, split at any byte, and against ISA-L and a bit-at-a-time model on random inputs; one test
// case per kernel (test_util.hpp).
#include <isa-l/crc.h>

#include <cstring>
#include <set>
#include <string>
#include <string_view>

#include <catch2/catch.hpp>

#include "cpu.hpp"
#include "crc/crc.hpp"
#include "crc/crc_peers.hpp"
#include "registry.hpp"
#include "test_util.hpp"

using namespace fputune;
using namespace fputune::test;

namespace {

const char* const kCrcAlgorithms[] = {"crc32c", "crc32", "crct10dif", "crc64"};

bool is_crc(const Kernel& k) {
    for (const char* a : kCrcAlgorithms)
        if (std::string(k.algorithm) == a) return true;
    return false;
}

std::uint64_t value_of(const Kernel& k, const std::uint8_t* data, std::size_t len) {
    std::uint8_t out[8] = {};
    kernel_digest(k, nullptr, data, len, out);
    std::uint64_t v = 0;
    for (unsigned i = 0; i < k.out_bytes; ++i) v |= std::uint64_t{out[i]} << (8 * i);
    return v;
}

// Bit-at-a-time models straight from the definitions, sharing nothing with the kernels.
std::uint64_t model_crc(std::string_view alg, const std::uint8_t* p, std::size_t len) {
    if (alg == "crct10dif") {
        std::uint32_t c = 0;
        for (std::size_t i = 0; i < len; ++i) {
            c ^= std::uint32_t{p[i]} << 8;
            for (int b = 0; b < 8; ++b) c = (c & 0x8000) ? ((c << 1) ^ 0x8BB7) & 0xffff : (c << 1) & 0xffff;
        }
        return c;
    }
    const std::uint64_t poly = alg == "crc32c" ? 0x82F63B78 : alg == "crc32" ? 0xEDB88320 : 0x9A6C9329AC4BC9B5;
    const std::uint64_t ones = alg == "crc64" ? ~std::uint64_t{0} : 0xffffffff;
    std::uint64_t c = ones;
    for (std::size_t i = 0; i < len; ++i) {
        c ^= p[i];
        for (int b = 0; b < 8; ++b) c = (c & 1) ? (c >> 1) ^ poly : c >> 1;
    }
    return c ^ ones;
}

void check_value(const Kernel& k) {
    const auto* msg = reinterpret_cast<const std::uint8_t*>("123456789");
    const std::string alg = k.algorithm;
    const std::uint64_t expect = alg == "crc32c"      ? 0xE3069283
                                 : alg == "crc32"     ? 0xCBF43926
                                 : alg == "crct10dif" ? 0xD0DB
                                                      : 0xAE8B14860A799888;
    CHECK(value_of(k, msg, 9) == expect);
}

void equals_generic_misaligned(const Kernel& k) {
    const Kernel& ref = *reference_kernel(k.algorithm);
    auto data = random_bytes(300000 + 64, 502);
    std::mt19937_64 rng(503);
    int mismatches = 0;
    for (std::size_t len = 0; len <= 1024; ++len)
        for (std::size_t off : {std::size_t{0}, 1 + len % 63})
            if (value_of(k, data.data() + off, len) != value_of(ref, data.data() + off, len)) {
                if (++mismatches <= 5) FAIL_CHECK("length " << len << " offset " << off);
            }
    for (int i = 0; i < 40; ++i) {
        const std::size_t len = 1025 + rng() % 300000, off = len % 64;
        INFO("length " << len << " offset " << off);
        CHECK(value_of(k, data.data() + off, len) == value_of(ref, data.data() + off, len));
    }
    CHECK(mismatches == 0);
}

void random_sections_any_tail(const Kernel& k) {
    auto data = random_bytes(20000, 504);
    std::mt19937_64 rng(505);
    for (int trial = 0; trial < 200; ++trial) {
        const std::size_t len = rng() % (trial < 150 ? 600 : 20000);
        const auto sections = random_sections(len / k.block_bytes, rng, len, 4);
        INFO("length " << len << ", " << sections.size() << " sections");
        CHECK(sectioned_hex(k, {}, data.data(), len, sections) == digest_hex(k, {}, data.data(), len));
    }
}

// The update entry points (crc.hpp, crc_peers.hpp) of the kernels of the same name.
struct Entry {
    const char* name;
    crc::UpdateFn fn;
    crc::UpdateFn ref;
};
const Entry kEntries[] = {
    {"crc32c-sse42", crc::crc32c_update_sse42, crc::crc32c_update_generic},
    {"crc32c-sse42-3stream", crc::crc32c_update_sse42_3stream, crc::crc32c_update_generic},
    {"crc32c-3way", crc::crc32c_update_3way, crc::crc32c_update_generic},
    {"crc32c-pclmul", crc::crc32c_update_pclmul, crc::crc32c_update_generic},
    {"crc32c-vpclmul-avx2", crc::crc32c_update_vpclmul_avx2, crc::crc32c_update_generic},
    {"crc32c-vpclmul-avx512", crc::crc32c_update_vpclmul_avx512, crc::crc32c_update_generic},
    {"crc32-pclmul", crc::crc32_update_pclmul, crc::crc32_update_generic},
    {"crc32-vpclmul-avx2", crc::crc32_update_vpclmul_avx2, crc::crc32_update_generic},
    {"crc32-vpclmul-avx512", crc::crc32_update_vpclmul_avx512, crc::crc32_update_generic},
    {"crct10dif-pclmul", crc::crct10dif_update_pclmul, crc::crct10dif_update_generic},
    {"crct10dif-vpclmul-avx2", crc::crct10dif_update_vpclmul_avx2, crc::crct10dif_update_generic},
    {"crct10dif-vpclmul-avx512", crc::crct10dif_update_vpclmul_avx512, crc::crct10dif_update_generic},
    {"crc64-pclmul", crc::crc64_update_pclmul, crc::crc64_update_generic},
    {"crc64-vpclmul-avx2", crc::crc64_update_vpclmul_avx2, crc::crc64_update_generic},
    {"crc64-vpclmul-avx512", crc::crc64_update_vpclmul_avx512, crc::crc64_update_generic},
    {"crc32c-isal", peers::crc32c_update_isal, crc::crc32c_update_generic},
    {"crc32-isal", peers::crc32_update_isal, crc::crc32_update_generic},
    {"crct10dif-isal", peers::crct10dif_update_isal, crc::crct10dif_update_generic},
};
const Entry* entry_of(const Kernel& k) {
    for (const Entry& e : kEntries)
        if (std::string(e.name) == k.name) return &e;
    return nullptr;
}

void split_at_any_byte(const Kernel& k) {
    const Entry& e = *entry_of(k);
    auto data = random_bytes(3000, 506);
    std::mt19937_64 rng(507);
    for (int trial = 0; trial < 300; ++trial) {
        const std::size_t len = rng() % 3000, cut = len ? rng() % (len + 1) : 0;
        const std::uint64_t init = rng() & (k.out_bytes == 8 ? ~0ull : (1ull << (8 * k.out_bytes)) - 1);
        INFO("length " << len << " cut " << cut);
        CHECK(e.fn(e.fn(init, data.data(), cut), data.data() + cut, len - cut) == e.ref(init, data.data(), len));
    }
}

void isal_oracle(const Kernel& k) {
    std::mt19937_64 rng(508);
    auto data = random_bytes(70000, 509);
    const std::string alg = k.algorithm;
    for (int trial = 0; trial < 60; ++trial) {
        const std::size_t len = trial < 30 ? rng() % 256 : rng() % 70000;
        auto* p = const_cast<unsigned char*>(data.data());
        const std::uint64_t oracle = alg == "crc32c"  ? ~crc32_iscsi(p, static_cast<int>(len), 0xffffffff) & 0xffffffffu
                                     : alg == "crc32" ? crc32_gzip_refl(0, p, len)
                                                      : crc16_t10dif(0, p, len);
        INFO("length " << len);
        CHECK(value_of(k, data.data(), len) == oracle);
    }
}

const PerKernel kCheckValue("crc: check value of \"123456789\"", "[crc]", is_crc, check_value);
const PerKernel kEqualsGeneric(
    "crc: equals generic at every length 0..1024 and random longer ones, misaligned", "[crc]",
    [](const Kernel& k) { return is_crc(k) && &k != reference_kernel(k.algorithm); }, equals_generic_misaligned);
const PerKernel kSections("crc: sections of random block counts, any tail, give the one-shot value", "[crc][sections]",
                          is_crc, random_sections_any_tail);
const PerKernel kSplit(
    "crc: the update entry point continues across a split at any byte", "[crc]",
    [](const Kernel& k) { return entry_of(k) != nullptr; }, split_at_any_byte);
// ISA-L 2.30 lacks the NVMe polynomial (crc64); the bit-at-a-time model covers it.
const PerKernel kIsal(
    "crc: ISA-L as oracle on random inputs", "[crc][oracle]",
    [](const Kernel& k) { return is_crc(k) && std::string(k.algorithm) != "crc64"; }, isal_oracle);

}  // namespace

TEST_CASE("crc: the family registers these variants and ISA-L's, generic the reference of each", "[crc]") {
    std::set<std::string> names;
    for (const Kernel* k : all_kernels())
        if (is_crc(*k) && (std::string_view(k->provider) == "fputune" || std::string_view(k->provider) == "isal"))
            names.emplace(k->name);
    CHECK(names == std::set<std::string>{"crc32c-vpclmul-avx512",
                                         "crc32c-vpclmul-avx2",
                                         "crc32c-3way",
                                         "crc32c-pclmul",
                                         "crc32c-sse42",
                                         "crc32c-sse42-3stream",
                                         "crc32c-generic",
                                         "crc32c-isal",
                                         "crc32c-vpclmul-avx512-isal",
                                         "crc32c-3way-isal",
                                         "crc32c-sse42-3stream-isal",
                                         "crc32-vpclmul-avx512",
                                         "crc32-vpclmul-avx2",
                                         "crc32-pclmul",
                                         "crc32-generic",
                                         "crc32-isal",
                                         "crc32-vpclmul-avx512-isal",
                                         "crc32-pclmul-isal",
                                         "crct10dif-vpclmul-avx512",
                                         "crct10dif-vpclmul-avx2",
                                         "crct10dif-pclmul",
                                         "crct10dif-generic",
                                         "crct10dif-isal",
                                         "crct10dif-vpclmul-avx512-isal",
                                         "crct10dif-pclmul-isal",
                                         "crc64-vpclmul-avx512",
                                         "crc64-vpclmul-avx2",
                                         "crc64-pclmul",
                                         "crc64-generic"});
    for (const char* a : kCrcAlgorithms) {
        const Kernel* ref = reference_kernel(a);
        REQUIRE(ref != nullptr);
        CHECK(std::string(ref->isa) == "generic");
    }
    // Every update entry point belongs to a kernel of that name.
    for (const Entry& e : kEntries) CHECK(select_kernels({e.name}).size() == 1);
}

TEST_CASE("crc: the output is little-endian", "[crc]") {
    // crct10dif's check value 0xD0DB is written DB D0.
    const auto* msg = reinterpret_cast<const std::uint8_t*>("123456789");
    std::uint8_t out[2];
    kernel_digest(*reference_kernel("crct10dif"), nullptr, msg, 9, out);
    CHECK((out[0] == 0xDB && out[1] == 0xD0));
}

TEST_CASE("crc: generic equals the bit-at-a-time model", "[crc]") {
    auto data = random_bytes(5000, 501);
    for (const char* a : kCrcAlgorithms) {
        INFO(a);
        const Kernel& g = *reference_kernel(a);
        for (std::size_t len = 0; len <= 300; ++len)
            CHECK(value_of(g, data.data(), len) == model_crc(a, data.data(), len));
        for (std::size_t len : {1000, 4093, 5000})
            CHECK(value_of(g, data.data(), len) == model_crc(a, data.data(), len));
    }
}
