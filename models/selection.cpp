// SPDX-License-Identifier: MIT
// The kernel's own choice of variant per algorithm, as its glue code makes it from the CPU features.
#include "selection.hpp"

#include <algorithm>

namespace fputune {

std::string_view name(PerAlgorithm p) noexcept { return p == PerAlgorithm::selected ? "selected" : "slowest"; }

const char* kernel_no_fpu_variant(std::string_view algorithm) noexcept {
    // 6.12 crc32c-intel_glue.c: crc32c_intel_le_hw (one crc32q chain) below CRC32C_PCL_BREAKEVEN (512 B);
    // the newer lib/crc/x86 crc32c_arch runs the same one-chain loop below its break-even.
    if (algorithm == "crc32c") return "crc32c-sse42";
    return nullptr;
}

std::optional<PerAlgorithm> parse_per_algorithm(std::string_view text) noexcept {
    if (text == "selected") return PerAlgorithm::selected;
    if (text == "slowest") return PerAlgorithm::slowest;
    return std::nullopt;
}

namespace {

// "avx" here stands for the kernel's boot_cpu_has(X86_FEATURE_AVX) && cpu_has_xfeatures(SSE | YMM):
// a feature is "usable" only when XCR0 enables its state, which is the same test.
std::vector<KernelSelection> make_table() {
    const std::string sha1_glue =
        "arch/x86/crypto/sha1_ssse3_glue.c (cra_priority: ni 250, avx2 170, avx 160, ssse3 150)";
    const std::string sha256_glue =
        "arch/x86/crypto/sha256_ssse3_glue.c (cra_priority: ni 250, avx2 170, avx 160, ssse3 150)";
    const std::string sha512_glue = "arch/x86/crypto/sha512_ssse3_glue.c (cra_priority: avx2 170, avx 160, ssse3 150)";
    const std::string crc_glue =
        "lib/crc/x86 crc-pclmul-template.h (vpclmul-avx512 if AVX-512 BW+VL, else vpclmul-avx2, else pclmul)";
    const std::string prefer_ymm =
        "the kernel also keeps to vpclmul-avx2 on CPUs it marks X86_FEATURE_PREFER_YMM, which the sweep does not "
        "record";
    std::vector<KernelSelection> t;
    t.push_back({"sha1",
                 {{"sha1-shani", {"sha"}},
                  {"sha1-avx2", {"avx", "avx2", "bmi1", "bmi2"}},
                  {"sha1-avx", {"avx"}},
                  {"sha1-ssse3", {"ssse3"}}},
                 sha1_glue,
                 "sha1-avx2's driver runs the AVX transform below 4 blocks"});
    for (const char* alg : {"sha224", "sha256"}) {
        const std::string a = alg;
        t.push_back({a,
                     {{a + "-shani", {"sha"}},
                      {a + "-avx2", {"avx", "avx2", "bmi2"}},
                      {a + "-avx", {"avx"}},
                      {a + "-ssse3", {"ssse3"}}},
                     sha256_glue,
                     ""});
    }
    for (const char* alg : {"sha384", "sha512"}) {
        const std::string a = alg;
        t.push_back({a,
                     {{a + "-avx2", {"avx", "avx2", "bmi2"}}, {a + "-avx", {"avx"}}, {a + "-ssse3", {"ssse3"}}},
                     sha512_glue,
                     ""});
    }
    t.push_back({"sm3", {{"sm3-avx", {"avx", "bmi2"}}}, "arch/x86/crypto/sm3_avx_glue.c (AVX and BMI2)", ""});
    t.push_back(
        {"crc32c",
         {{"crc32c-vpclmul-avx512", {"vpclmulqdq", "avx2", "avx512bw", "avx512vl"}},
          {"crc32c-3way", {"sse4.2", "pclmul"}},
          {"crc32c-pclmul", {"sse4.2", "pclmul"}}},
         "arch/x86/crypto/crc32c-intel_glue.c (crc32q, 3-way with PCLMULQDQ from 512 B); lib/crc/x86/crc32.h "
         "(vpclmul-avx512)",
         "crc32c-pclmul stands in for the kernel's 3-way crc32q/PCLMULQDQ code where crc32c-3way has no results; " +
             prefer_ymm});
    for (const char* alg : {"crc32", "crct10dif", "crc64"}) {
        const std::string a = alg;
        t.push_back({a,
                     {{a + "-vpclmul-avx512", {"vpclmulqdq", "avx2", "avx512bw", "avx512vl"}},
                      {a + "-vpclmul-avx2", {"vpclmulqdq", "avx2"}},
                      {a + "-pclmul", {"pclmul"}}},
                     crc_glue,
                     prefer_ymm});
    }
    t.push_back({"ghash",
                 {{"ghash-pclmul", {"pclmul"}}},
                 "arch/x86/crypto/ghash-clmulni-intel_glue.c (PCLMULQDQ only)",
                 "the kernel's VPCLMULQDQ GHASH runs inside AES-GCM only: ghash-vpclmul-avx512 is never selected"});
    t.push_back({"polyval",
                 {{"polyval-pclmul-avx", {"pclmul", "avx"}}},
                 "arch/x86/crypto/polyval-clmulni_glue.c (PCLMULQDQ and AVX)",
                 "polyval-vpclmul-avx512 has no kernel counterpart"});
    t.push_back({"poly1305",
                 {{"poly1305-avx512", {"avx", "avx2", "avx512f", "!skylake-x"}},
                  {"poly1305-avx2", {"avx", "avx2"}},
                  {"poly1305-avx", {"avx"}}},
                 "arch/x86/crypto/poly1305_glue.c (avx512 except on Skylake-X, else avx2, else avx)",
                 "poly1305-ifma has no kernel counterpart"});
    t.push_back({"nh",
                 {{"nh-avx2", {"avx2"}}, {"nh-sse2", {"sse2"}}},
                 "arch/x86/crypto/nhpoly1305-{avx2,sse2}-glue.c (cra_priority: avx2 300, sse2 200)",
                 ""});
    t.push_back({"nhpoly1305",
                 {{"nhpoly1305-avx2", {"avx2"}}, {"nhpoly1305-sse2", {"sse2"}}},
                 "arch/x86/crypto/nhpoly1305-{avx2,sse2}-glue.c (cra_priority: avx2 300, sse2 200)",
                 ""});
    t.push_back({"blake2s",
                 {{"blake2s-avx512", {"avx", "avx2", "avx512f", "avx512vl"}}, {"blake2s-ssse3", {"ssse3"}}},
                 "arch/x86/crypto/blake2s-glue.c (avx512 if AVX-512F+VL, else ssse3)",
                 ""});
    t.push_back({"chacha20",
                 {{"chacha20-avx512vl", {"avx", "avx2", "avx512vl", "avx512bw"}},
                  {"chacha20-avx2", {"avx", "avx2"}},
                  {"chacha20-ssse3", {"ssse3"}}},
                 "arch/x86/crypto/chacha_glue.c (avx512vl if AVX-512VL+BW, else avx2, else ssse3)",
                 ""});
    return t;
}

bool usable(const nlohmann::json& cpu, const std::string& feature) {
    if (feature == "!skylake-x") {
        // INTEL_SKYLAKE_X: GenuineIntel family 6 model 0x55.
        auto number = [&](const char* key) {
            return cpu.contains(key) && cpu[key].is_number_integer() ? cpu[key].get<long long>() : -1;
        };
        const bool intel =
            cpu.contains("vendor") && cpu["vendor"].is_string() && cpu["vendor"].get<std::string>() == "GenuineIntel";
        return !(intel && number("family") == 6 && number("model") == 0x55);
    }
    for (const auto& f : cpu["features"])
        if (f.is_object() && f.contains("name") && f["name"] == feature)
            return f.contains("usable") && f["usable"] == true;
    return false;
}

}  // namespace

const std::vector<KernelSelection>& kernel_selections() {
    static const std::vector<KernelSelection> table = make_table();
    return table;
}

const KernelSelection* kernel_selection(const std::string& algorithm) {
    for (const auto& s : kernel_selections())
        if (s.algorithm == algorithm) return &s;
    return nullptr;
}

std::optional<std::string> selected_variant(const std::string& algorithm, const nlohmann::json& cpu,
                                            const std::vector<std::string>& have, std::string* why) {
    auto say = [&](const std::string& s) {
        if (why) *why = s;
    };
    const KernelSelection* sel = kernel_selection(algorithm);
    if (!sel) {
        say("no table of the kernel's choice for " + algorithm);
        return std::nullopt;
    }
    if (!cpu.is_object() || !cpu.contains("features") || !cpu["features"].is_array()) {
        say("the input records no CPU features");
        return std::nullopt;
    }
    std::string passed;  // variants the kernel would run here but that have no results
    for (const auto& c : sel->order) {
        if (!std::all_of(c.features.begin(), c.features.end(), [&](const std::string& f) { return usable(cpu, f); }))
            continue;
        if (std::find(have.begin(), have.end(), c.variant) != have.end()) {
            say(passed.empty()
                    ? ""
                    : "the kernel would run " + passed + " here, which has no results: the next one stands in");
            return c.variant;
        }
        passed += (passed.empty() ? "" : ", ") + c.variant;
    }
    say("none of the kernel's variants for " + algorithm + " is usable on this CPU and has results");
    return std::nullopt;
}

}  // namespace fputune
