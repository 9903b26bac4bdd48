// SPDX-License-Identifier: MIT
// One meaning per word across the commands: `-k` selects the same kernels everywhere, defaults in --help read as
// written, every command that fits or runs kernels takes --disable.
#include <regex>
#include <sstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli_test_util.hpp"

using namespace fputune::cli_test;
using fputune::read_file;

namespace {

const std::string kZen5 = source_file("data/machines/zen5-turin-vm-2026-11-30.json");

// The commands `fputune --help` lists.
std::vector<std::string> commands() {
    const Run r = run_fputune("--help");
    REQUIRE(r.rc == 0);
    std::vector<std::string> out;
    std::istringstream in(r.out);
    bool on = false;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("commands:", 0) == 0) {
            on = true;
        } else if (on && line.empty()) {
            on = false;
        } else if (on && line.size() > 2 && line[0] == ' ' && line[2] != ' ') {
            std::istringstream words(line);
            std::string name;
            words >> name;
            out.push_back(name);
        }
    }
    return out;
}

}  // namespace

TEST_CASE("help texts: every default reads as written (0.15, not 0.14999999999999999)", "[cli][words]") {
    const std::vector<std::string> cmds = commands();
    REQUIRE(cmds.size() >= 10);
    const std::regex long_float(R"(\(=-?[0-9]*\.[0-9]{6,}\))");
    for (const std::string& c : cmds) {
        const Run r = run_fputune(c + " --help");
        INFO(c << " --help:\n" << r.out);
        CHECK(r.rc == 0);
        CHECK_FALSE(std::regex_search(r.out, long_float));
    }
    CHECK(run_fputune("bench --help").out.find("(=0.15)") != std::string::npos);
    CHECK(run_fputune("compare --help").out.find("(=0.05)") != std::string::npos);
}

TEST_CASE("fit takes --disable like the commands that run kernels", "[cli][words]") {
    const std::string out = (temp_dir() / "fit-disable.json").string();
    const Run r = run_fputune("fit " + kZen5 + " --disable avx512f -o " + out);
    INFO(r.err);
    CHECK(r.rc == 0);
    CHECK(run_fputune("fit " + kZen5 + " --disable no-such-feature -o " + out).rc == 2);
}

TEST_CASE("kernel choice: recommend, check and simulate take an algorithm and a kind after -k, as sweep and list do", "[cli][words]") {
    // sweep and list: `-k sha256` is every sha256 variant.
    const Run list = run_fputune("list -k sha256");
    REQUIRE(list.rc == 0);
    CHECK(list.out.find("sha256-generic") != std::string::npos);
    CHECK(list.out.find("sha1-") == std::string::npos);

    const Run rec = run_fputune("recommend --from " + kZen5 + " -k sha256 --budget 30us --min-freq 1GHz");
    INFO(rec.err);
    REQUIRE(rec.rc == 0);
    CHECK(rec.out.find("sha256-avx2") != std::string::npos);
    CHECK(rec.out.find("sha512-avx2") == std::string::npos);
    const Run by_kind = run_fputune("recommend --from " + kZen5 + " -k hash --budget 30us --min-freq 1GHz");
    CHECK(by_kind.rc == 0);
    CHECK(by_kind.out.find("sha256-avx2") != std::string::npos);

    const std::string header = (temp_dir() / "k-limits.h").string();
    REQUIRE(run_fputune("recommend --from " + kZen5 + " --budget 30us --min-freq 1GHz --header " + header).rc == 0);
    const Run check = run_fputune("check " + header + " --from " + kZen5 + " -k sha256 --budget 30us --min-freq 1GHz");
    INFO(check.err);
    CHECK((check.rc == 0 || check.rc == 1));
    CHECK(check.out.find("SHA256") != std::string::npos);

    const Run sim =
        run_fputune("simulate --workload bigbuf --from " + kZen5 + " -k sha256 --budget 30us --min-freq 1GHz");
    INFO(sim.err);
    CHECK(sim.rc == 0);
    CHECK(sim.out.find("sha256-avx2") != std::string::npos);
    CHECK(sim.out.find("sha512-avx2") == std::string::npos);

    // A word that is none of these is still refused in one line, exit 2.
    const Run bad = run_fputune("recommend --from " + kZen5 + " -k no-such-kernel --budget 30us");
    CHECK(bad.rc == 2);
    CHECK(count(bad.err, "\n") == 1);
}

TEST_CASE("sweep --resume takes its options from the file: --quick, the kernels, the cache, the sizes", "[cli][words]") {
    const std::string env = "FPUTUNE_LOCK_DIR=" + temp_dir().string();
    const std::string first = (temp_dir() / "resume-first.json").string();
    const std::string second = (temp_dir() / "resume-second.json").string();
    const Run a = run_fputune("sweep -k crc32c-pclmul -k crc32-pclmul --quick --cache hot --no-thresholds --sizes 64,256 "
                              "--time-budget 2 -o " + first, env);
    INFO(a.err);
    REQUIRE(a.rc == 0);
    // Nothing but the file and where to write: the options are the file's, not the defaults (every kernel, 150 s).
    const Run b = run_fputune("sweep --resume " + first + " -o " + second, env);
    INFO(b.err);
    REQUIRE(b.rc == 0);
    const nlohmann::json o = nlohmann::json::parse(read_file(second))["options"];
    CHECK(o["kernels"] == nlohmann::json::array({"crc32c-pclmul", "crc32-pclmul"}));
    CHECK(o["quick"] == true);
    CHECK(o["cache"] == "hot");
    CHECK(o["thresholds"] == false);
    CHECK(o["sizes"] == nlohmann::json::array({64, 256}));
    CHECK(o["time_budget_s"] == 2);
    // An option given beside --resume overrides the file's: here one more kernel, swept into the same file.
    const Run c = run_fputune("sweep --resume " + first + " -o " + second + " -k crc32c-3way", env);
    INFO(c.err);
    REQUIRE(c.rc == 0);
    const nlohmann::json merged = nlohmann::json::parse(read_file(second));
    CHECK(merged["options"]["kernels"] == nlohmann::json::array({"crc32c-pclmul", "crc32-pclmul", "crc32c-3way"}));
    bool swept = false;
    for (const auto& p : merged["sections"]) swept |= p["kernel"] == "crc32c-3way";
    CHECK(swept);
}

TEST_CASE("recommend answers first: the constants per algorithm, both policies labelled, then the variants",
          "[cli][words]") {
    const std::string emr = source_file("data/machines/emerald-rapids-2vcpu-vm-2026-11-30.json");
    const Run r = run_fputune("recommend --from " + emr + " --budget 30us --min-freq 1GHz");
    INFO(r.err);
    REQUIRE(r.rc == 0);
    const auto per_algorithm = r.out.find("per algorithm: the constants to paste");
    const auto per_variant = r.out.find("per variant");
    REQUIRE(per_algorithm != std::string::npos);
    REQUIRE(per_variant != std::string::npos);
    CHECK(per_algorithm < per_variant);
    CHECK(r.out.find("slowest variant *") != std::string::npos);  // what --header writes by default
    CHECK(r.out.find("the kernel's choice on the CPU swept") != std::string::npos);
    CHECK(r.out.find("how to choose: --per-algorithm") != std::string::npos);
    // sha256: the slowest variant (ssse3) and the one this CPU's kernel runs (shani), on one line.
    std::istringstream in(r.out.substr(per_algorithm, per_variant - per_algorithm));
    bool sha256 = false;
    for (std::string line; std::getline(in, line);)
        if (line.rfind("sha256 ", 0) == 0) {
            sha256 = true;
            CHECK(line.find("sha256-ssse3") != std::string::npos);
            CHECK(line.find("sha256-shani") != std::string::npos);
        }
    CHECK(sha256);
    // The fit-shape notes: one line per algorithm at most; --verbose keeps them on each variant.
    const std::size_t terse = count(r.out, "not a straight line"), algorithms = count(r.out, " variants, ") +
                                                                                count(r.out, " variant, ");
    const Run v = run_fputune("recommend --from " + emr + " --budget 30us --min-freq 1GHz --verbose");
    REQUIRE(v.rc == 0);
    const std::size_t verbose = count(v.out, "not a straight line");
    INFO("terse " << terse << ", verbose " << verbose);
    CHECK(verbose > 0);
    CHECK(terse == 0);
    CHECK(algorithms > 0);
    CHECK(algorithms < verbose);
    // The header defines the slowest variant's and says the kernel's choice beside it, labelled.
    const std::string header = (temp_dir() / "answer-first.h").string();
    REQUIRE(run_fputune("recommend --from " + emr + " --budget 30us --min-freq 1GHz -k sha256 --header " + header).rc == 0);
    const std::string h = read_file(header);
    const auto def = h.find("#define FPUTUNE_SHA256_FPU_BYTES ");
    REQUIRE(def != std::string::npos);
    const std::string next = h.substr(h.find('\n', def) + 1, 120);
    CHECK(next.rfind("/*   --per-algorithm selected: ", 0) == 0);
    CHECK(next.find("sha256-shani, the kernel's choice on the CPU swept") != std::string::npos);
    // --per-algorithm selected: the kernel's choice is what --header writes.
    const Run s = run_fputune("recommend --from " + emr + " --budget 30us --min-freq 1GHz --per-algorithm selected");
    REQUIRE(s.rc == 0);
    CHECK(s.out.find("the kernel's choice on the CPU swept *") != std::string::npos);
}

TEST_CASE("kernel choice: recommend -k filters what is shown, not what its answer is computed from", "[cli][words]") {
    const std::string emr = source_file("data/machines/emerald-rapids-2vcpu-vm-2026-11-30.json");
    const std::string all = (temp_dir() / "k-all.h").string(), one = (temp_dir() / "k-one.h").string();
    REQUIRE(run_fputune("recommend --from " + emr + " --budget 30us --min-freq 1GHz --header " + all).rc == 0);
    const Run r = run_fputune("recommend --from " + emr + " --budget 30us --min-freq 1GHz -k sha256-avx2 --header " + one);
    INFO(r.err);
    REQUIRE(r.rc == 0);
    auto define = [](const std::string& text, const std::string& macro) {
        const auto at = text.find("#define " + macro + " ");
        return at == std::string::npos ? std::string() : text.substr(at, text.find('\n', at) - at);
    };
    const std::string a = read_file(all), o = read_file(one);
    // The algorithm's constant is the same (bound by its slowest variant, shown or not)...
    CHECK_FALSE(define(a, "FPUTUNE_SHA256_FPU_BYTES").empty());
    CHECK(define(o, "FPUTUNE_SHA256_FPU_BYTES") == define(a, "FPUTUNE_SHA256_FPU_BYTES"));
    // ...while only the variant asked for is shown.
    CHECK_FALSE(define(o, "FPUTUNE_SHA256_AVX2_FPU_BYTES").empty());
    CHECK(define(o, "FPUTUNE_SHA256_SSSE3_FPU_BYTES").empty());
    CHECK(define(o, "FPUTUNE_SHA1_FPU_BYTES").empty());
    CHECK(r.out.find("\nsha256-ssse3 ") == std::string::npos);
    CHECK(r.out.find("\nsha256-avx2 ") != std::string::npos);
}

TEST_CASE("verify ends with how many constants are OVER of how many, the worst by name, and what to do",
          "[cli][words]") {
    const std::string emr = source_file("data/machines/emerald-rapids-2vcpu-vm-2026-11-30.json");
    const std::string header = (temp_dir() / "verify-summary.h").string();
    REQUIRE(run_fputune("recommend --from " + emr + " -k crc32c-pclmul --budget 30us --min-freq 1GHz --header " + header)
                .rc == 0);
    const Run r = run_fputune("verify " + header + " --budget 30us --min-freq 1GHz --cache hot --time-budget 1",
                              "FPUTUNE_LOCK_DIR=" + temp_dir().string());
    INFO(r.out << r.err);
    REQUIRE((r.rc == 0 || r.rc == 1));
    const std::string last = r.out.substr(r.out.rfind('\n', r.out.size() - 2) + 1);
    CHECK(std::regex_search(last, std::regex(R"(^\d+ of \d+ OVER, \d+ MARGINAL, worst [+-]\d+\.\d % \(FPUTUNE_CRC32C_)")));
    const bool marginal = !std::regex_search(last, std::regex(R"(, 0 MARGINAL,)"));
    CHECK(std::regex_search(last, std::regex(r.rc == 1 || marginal ? "fputune recommend --from" : "holds the budget")));
}
