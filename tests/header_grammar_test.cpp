// SPDX-License-Identifier: MIT
// The header reader's grammar (models/header_constants, c_constant), our macro names (models/macro_names)
// and the one candidate-selection pass (models/select_models).
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "c_constant.hpp"
#include "errors.hpp"
#include "header_constants.hpp"
#include "macro_names.hpp"
#include "select_models.hpp"

using namespace fputune;

namespace {

std::vector<HeaderConstant> parse(const std::string& text, std::vector<std::string>* notes = nullptr) {
    std::vector<std::string> skipped;
    auto out = parse_header_constants(text, skipped, "h.h");
    if (notes) *notes = skipped;
    return out;
}

std::uint64_t value_of(const std::string& expr) {
    const auto c = parse("#define FPUTUNE_X_FPU_BYTES " + expr + "\n");
    REQUIRE(c.size() == 1);
    return c[0].value;
}

}  // namespace

TEST_CASE("header grammar: integer constant expressions as kernel headers write them", "[check][grammar]") {
    CHECK(value_of("(4 * 1024)") == 4096);
    CHECK(value_of("4U*1024UL") == 4096);
    CHECK(value_of("(1 << 12)") == 4096);
    CHECK(value_of("0x2000 >> 1") == 4096);
    CHECK(value_of("4096 | 0") == 4096);
    CHECK(value_of("0x1fff & ~0xfff") == 4096);
    CHECK(value_of("8192 / 2") == 4096);
    CHECK(value_of("4000 + 100 - 4") == 4096);
    CHECK(value_of("2 + 3 * 4") == 14);  // C's precedence
    CHECK(value_of("(2 + 3) * 4") == 20);
    CHECK(value_of("1 ? 4096 : 8192") == 4096);
    CHECK(value_of("SZ_4K") == 4096);
    CHECK(value_of("(2 * SZ_1K)") == 2048);
    CHECK(value_of("SZ_1M") == 1048576);
    CHECK(value_of("SZ_1G") == 1073741824);
    CHECK(value_of("SZ_512") == 512);
    CHECK_FALSE(linux_size_macro("SZ_3K"));
    CHECK_FALSE(linux_size_macro("SZ_04K"));
    // Macros of the same file, before or after, through others.
    auto c = parse("#define KB 1024\n#define PAGES (4 * KB)\n#define FPUTUNE_X_FPU_BYTES PAGES\n");
    REQUIRE(c.size() == 3);
    CHECK(c[2].value == 4096);
    c = parse("#define FPUTUNE_X_FPU_BYTES (2 * K)\n#define K 2048\n");
    CHECK(c.at(0).value == 4096);
    // A file's own SZ_4K wins over linux/sizes.h's.
    CHECK(parse("#define SZ_4K 4000\n#define FPUTUNE_X_FPU_BYTES SZ_4K\n").at(1).value == 4000);
}

TEST_CASE("header grammar: a named constant that cannot be evaluated is refused, naming why",
          "[check][grammar]") {
    CHECK_THROWS_WITH(parse("#define FPUTUNE_X_FPU_BYTES (4 * PAGE_SIZE)\n"),
                      Catch::StartsWith("h.h:1: FPUTUNE_X_FPU_BYTES (4 * PAGE_SIZE): cannot evaluate") &&
                          Catch::Contains("PAGE_SIZE is not defined in this file"));
    CHECK_THROWS_WITH(parse("#define FPUTUNE_X_FPU_BYTES min(4096, 8192)\n"), Catch::Contains("function-like"));
    CHECK_THROWS_WITH(parse("#define FPUTUNE_X_FPU_BYTES 4096 / 0\n"), Catch::Contains("division by 0"));
    CHECK_THROWS_WITH(parse("#define FPUTUNE_X_FPU_BYTES (4096\n"), Catch::Contains("without its )"));
    CHECK_THROWS_WITH(parse("#define FPUTUNE_X_FPU_BYTES \"4096\"\n"), Catch::Contains("cannot evaluate"));
    CHECK_THROWS_WITH(parse("#define A B\n#define B A\n#define FPUTUNE_X_FPU_BYTES A\n"),
                      Catch::Contains("refers to itself"));
    CHECK_THROWS_WITH(parse("#define FPUTUNE_X_FPU_BYTES (1 - 2)\n"), Catch::Contains("is -1"));
    CHECK_THROWS_WITH(parse("#define FPUTUNE_X_FPU_BYTES (1ULL << 64)\n"), Catch::Contains("shift by 64"));
    CHECK_THROWS_WITH(parse("#define FPUTUNE_RAID6_MAX_DISKS_4K LIMIT\n"), Catch::Contains("cannot evaluate"));
    // Not ours: noted, as before.
    std::vector<std::string> notes;
    CHECK(parse("#define NAME \"x\"\n#define FPUTUNE_X_FPU_BYTES 4096\n", &notes).size() == 1);
    CHECK_THAT(notes.at(0), Catch::Contains("NAME (line 1): value is not an integer constant"));
    // A chain that doubles at every step is evaluated once per macro, not 2^40 times.
    std::string chain = "#define M0 1\n";
    for (int i = 1; i <= 40; ++i) chain += fmt::format("#define M{} (M{} + M{})\n", i, i - 1, i - 1);
    CHECK(parse(chain + "#define FPUTUNE_X_FPU_BYTES (M12 / 1)\n").back().value == 4096);
}

TEST_CASE("header grammar: #if branches the file cannot decide are alternatives, each judged", "[check][grammar]") {
    auto c = parse(
        "#ifdef CONFIG_SMALL\n#define FPUTUNE_X_FPU_BYTES 1024\n#elif defined(CONFIG_MID)\n"
        "#define FPUTUNE_X_FPU_BYTES 2048\n#else\n#define FPUTUNE_X_FPU_BYTES SZ_4K\n#endif\n");
    REQUIRE(c.size() == 3);
    CHECK(c[0].value == 1024);
    CHECK(c[1].value == 2048);
    CHECK(c[2].value == 4096);
    CHECK(c[0].branch == "#ifdef CONFIG_SMALL (line 1)");
    CHECK(c[2].branch == "#else (line 5)");
    // Decided by the file: only the branch taken.
    c = parse("#define BIG 1\n#if BIG\n#define FPUTUNE_X_FPU_BYTES 8192\n#else\n#define FPUTUNE_X_FPU_BYTES 4096\n#endif\n");
    REQUIRE(c.size() == 2);
    CHECK(c[1].value == 8192);
    c = parse("#define KB 1024\n#ifndef KB\n#define FPUTUNE_X_FPU_BYTES 1\n#else\n#define FPUTUNE_X_FPU_BYTES (4*KB)\n#endif\n");
    REQUIRE(c.size() == 2);
    CHECK(c[1].value == 4096);
    c = parse("#if SZ_4K > 1024\n#define FPUTUNE_X_FPU_BYTES 4096\n#else\n#define FPUTUNE_X_FPU_BYTES 1\n#endif\n");
    REQUIRE(c.size() == 1);
    // A macro with a value per branch gives the constant a value per branch.
    c = parse("#ifdef CONFIG_A\n#define KB 1000\n#define FPUTUNE_X_FPU_BYTES (4 * KB)\n#else\n#define KB 1024\n"
              "#define FPUTUNE_X_FPU_BYTES (4 * KB)\n#endif\n");
    REQUIRE(c.size() == 4);
    CHECK(c[1].value == 4000);
    CHECK(c[3].value == 4096);
    // Outside the alternatives a value depending on them cannot be told.
    CHECK_THROWS_WITH(parse("#ifdef CONFIG_A\n#define KB 1000\n#else\n#define KB 1024\n#endif\n"
                            "#define FPUTUNE_X_FPU_BYTES (4 * KB)\n"),
                      Catch::Contains("different values at lines 2 and 4"));
    // Two values that can both be in force are still defined twice.
    CHECK_THROWS_WITH(parse("#ifdef CONFIG_A\n#define FPUTUNE_X_FPU_BYTES 4096\n#endif\n#define FPUTUNE_X_FPU_BYTES 8192\n"),
                      Catch::StartsWith("h.h:4: FPUTUNE_X_FPU_BYTES is defined twice, 4096 at line 2 and 8192 here"));
    CHECK_THROWS_WITH(parse("#ifdef CONFIG_A\n#define FPUTUNE_X_FPU_BYTES 4096\n#endif\n#ifdef CONFIG_B\n"
                            "#define FPUTUNE_X_FPU_BYTES 8192\n#endif\n"),
                      Catch::Contains("defined twice"));
}

TEST_CASE("macro names: formatted and parsed by one set of rules, round trip", "[check][macro]") {
    for (const std::string name : {"FPUTUNE_SHA256_AVX2_FPU_BYTES", "FPUTUNE_SHA256_SIMD_MIN_BYTES",
                                   "FPUTUNE_RAID6_AVX512_MAX_DISKS_4K", "SHA256_FPU_BYTES", "FPUTUNE_FPU_BYTES",
                                   "_FPUTUNE_LIMITS_H", "FPUTUNE_RAID6_10_DISKS_FPU_BYTES"})
        CHECK(format_macro_name(parse_macro_name(name)) == name);
    const MacroName m = parse_macro_name("FPUTUNE_SHA256_AVX2_FPU_BYTES");
    CHECK(m.kind == MacroKind::fpu_bytes);
    CHECK(m.stem == "SHA256_AVX2");
    CHECK(parse_macro_name("SHA256_FPU_BYTES").prefixed == false);
    CHECK(parse_macro_name("FPUTUNE_CRC32C_SIMD_MIN_BYTES").kind == MacroKind::simd_min_bytes);
    CHECK(parse_macro_name("FPUTUNE_FPU_BYTES").kind == MacroKind::other);  // no stem
    CHECK(variant_macro("sha256-avx2") == "FPUTUNE_SHA256_AVX2_FPU_BYTES");
    CHECK(algorithm_macro("aes-256-gcm") == "FPUTUNE_AES_256_GCM_FPU_BYTES");
    CHECK(threshold_macro("poly1305") == "FPUTUNE_POLY1305_SIMD_MIN_BYTES");
    // A multi-source series: its stem carries Linux's count, and the count parses back.
    KernelInfo raid{"raid6-avx512.x8", "raid6.x8", "avx512", "fputune", 64, true};
    raid.of = "raid6-avx512";
    raid.shape = "stripe";
    raid.sources = 8;
    raid.dest_count = 2;
    CHECK(series_stem(raid) == "RAID6_AVX512_10_DISKS");
    CHECK(series_algorithm_stem(raid) == "RAID6_10_DISKS");
    CHECK(stem_count(parse_macro_name(fpu_bytes_macro(series_stem(raid))).stem, "RAID6_AVX512_", "DISKS") == 10);
    CHECK(stem_count("RAID6_AVX512_DISKS", "RAID6_AVX512_", "DISKS") == 0);
    CHECK(stripe_count_stem("raid6-avx512", stripe_unit(raid)) == "RAID6_AVX512_MAX_DISKS_4K");
}

namespace {

ModelFile machine(const std::string& name, const std::vector<std::pair<KernelInfo, std::vector<Cache>>>& kernels) {
    ModelFile m;
    m.machine = m.source = name;
    for (const auto& [k, caches] : kernels) {
        m.kernels.push_back(k);
        for (Cache c : caches) {
            CacheModel cm;
            cm.kernel = k.name;
            cm.cache = c;
            m.models.push_back(cm);
        }
    }
    return m;
}

}  // namespace

TEST_CASE("select_models: one policy for the cache fallback and which variants stand for an algorithm",
          "[models][select]") {
    const KernelInfo ours{"sha256-avx2", "sha256", "avx2", "fputune", 64, true};
    const KernelInfo peer{"sha256-openssl", "sha256", "avx2", "openssl", 64, true};
    const KernelInfo lone_peer{"blake2s-openssl", "blake2s", "avx2", "openssl", 64, true};
    const KernelInfo no_points{"sha512-avx2", "sha512", "avx2", "fputune", 128, true};
    const KernelInfo peer512{"sha512-openssl", "sha512", "avx2", "openssl", 128, true};
    const std::vector<ModelFile> sources = {
        machine("A", {{ours, {Cache::hot}}, {peer, {Cache::cold, Cache::hot}}, {lone_peer, {Cache::cold}},
                      {no_points, {}}, {peer512, {Cache::cold}}})};
    BudgetQuestion q;
    q.cache = Cache::cold;
    const ModelSelection s = select_models(sources, q);
    REQUIRE(s.choices.size() == 4);  // sha512-avx2 has no section points
    const ModelChoice* c = s.find(sources[0], "sha256-avx2");
    REQUIRE(c);
    CHECK(c->fallback);
    CHECK(c->cache == Cache::hot);
    CHECK(c->stands_for_algorithm);
    CHECK_FALSE(s.find(sources[0], "sha256-openssl")->stands_for_algorithm);  // beside a variant of ours
    CHECK(s.find(sources[0], "blake2s-openssl")->stands_for_algorithm);  // its algorithm has none of ours
    // A variant of ours without section points does not keep its algorithm's peer out (check's old copy did).
    CHECK(s.find(sources[0], "sha512-openssl")->stands_for_algorithm);
    CHECK(fallback_note({"sha256-avx2"}, Cache::cold) == "no cold-cache points for sha256-avx2: used hot cache");
}
