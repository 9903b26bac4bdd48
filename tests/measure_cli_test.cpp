// SPDX-License-Identifier: MIT
// `fputune doctor` and `fputune verify` as a user runs them: verdicts from a synthetic tree, PASS/OVER
// and their exit codes, and one clear line for each mistake.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli_scratch.hpp"

namespace fs = std::filesystem;

namespace {

const fputune_test::CliScratch kCli{"measure-cli"};
fs::path scratch() { return kCli.dir(); }
std::string put(const std::string& rel, const std::string& text) { return kCli.put(rel, text); }
using Result = fputune_test::CliResult;
Result fputune(const std::string& args) { return kCli.run(args); }

}  // namespace

TEST_CASE("CLI doctor: a synthetic unfit tree gives its verdict, advice and exit 1, JSON says the same",
          "[doctor][cli]") {
    const std::string root = (scratch() / "tree").string();
    put("tree/proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu sse2 hypervisor\n");  // no constant_tsc / nonstop_tsc
    put("tree/proc/stat", "cpu0 10 0 0 990 0 0 0 0 0 0\n");
    put("tree/sys/devices/system/cpu/online", "0\n");
    put("tree/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave\n");
    const Result text = fputune("doctor --cpu 0 --seconds 0.05 --root " + root);
    INFO(text.out << text.err);
    CHECK(text.rc == 1);
    CHECK_THAT(text.out, Catch::Contains("verdict: UNFIT"));
    CHECK_THAT(text.out, Catch::Contains("constant_tsc"));
    CHECK_THAT(text.out, Catch::Contains("echo performance > /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"));
    const Result json = fputune("doctor --json --cpu 0 --seconds 0.05 --root " + root);
    CHECK(json.rc == 1);
    const nlohmann::json j = nlohmann::json::parse(json.out);
    CHECK(j["schema"] == "fputune.doctor/1");
    CHECK(j["verdict"] == "unfit");
    CHECK(j["system"]["governor"] == "powersave");
    CHECK(j["timer"]["overhead_ticks_p50"].get<double>() > 0);
}

TEST_CASE("CLI verify: a constant within the budget passes, one over it fails with exit 1", "[verify][cli]") {
    const std::string header =
        put("ok.h",
            "/* hand-written */\n#define FPUTUNE_SHA256_FPU_BYTES 64U\n#define FPUTUNE_SHA256_SIMD_MIN_BYTES 256U\n"
            "#define FPUTUNE_NO_SUCH_KERNEL_FPU_BYTES 4096\n");
    const Result pass = fputune("verify " + header + " --budget 1ms --min-freq 1GHz --time-budget 2 --json");
    INFO(pass.out << pass.err);
    REQUIRE(pass.rc == 0);
    const nlohmann::json j = nlohmann::json::parse(pass.out);
    CHECK(j["schema"] == "fputune.verify/1");
    CHECK(j["pass"] == true);
    REQUIRE(!j["results"].empty());
    CHECK(j["over"] == 0);
    CHECK(j["marginal"] == 0);
    for (const auto& r : j["results"]) {
        CHECK(r["constant"] == "FPUTUNE_SHA256_FPU_BYTES");
        CHECK(r["bytes"] == 64);
        CHECK(r["verdict"] == "pass");
        CHECK(r["p_over"] == 1.0);  // not one sample of 64 B near 1 ms
        CHECK(r["bound_s"].get<double>() > 0);
        CHECK(r["bound_s"].get<double>() >= r["p50_s"].get<double>());
        // Each of its 4 rounds as measured; the judged bound (nothing stated: as measured) is the calmest's.
        REQUIRE(r["rounds"].size() == 4);
        double calmest = 1e9;
        int full = 0;  // rounds with samples enough for a tail (kBoundRoundMinSamples)
        for (const auto& round : r["rounds"]) {
            CHECK(round["samples"].get<std::uint64_t>() > 0);
            CHECK(round["bound_s"].get<double>() >= round["p50_s"].get<double>());
            if (round["samples"].get<std::uint64_t>() < 20) continue;
            ++full;
            calmest = std::min(calmest, round["bound_s"].get<double>());
        }
        if (full >= 2) CHECK(r["raw_bound_s"].get<double>() == Approx(calmest));
    }
    bool named = false;
    for (const auto& n : j["notes"])
        named |= n.get<std::string>().find("FPUTUNE_NO_SUCH_KERNEL_FPU_BYTES") != std::string::npos;
    CHECK(named);
    // 64 KiB of SHA-256 is ~130 us of core cycles at 1 GHz on any x86 core.
    const Result over = fputune("verify " + put("over.h", "#define FPUTUNE_SHA256_FPU_BYTES 65536U\n") +
                                " --budget 30us --min-freq 1GHz --time-budget 2");
    INFO(over.out << over.err);
    CHECK(over.rc == 1);
    CHECK_THAT(over.out, Catch::Contains("  OVER\n"));  // beyond any noise: every sample is over
    CHECK_THAT(over.out, Catch::Contains(" <1e-9  OVER\n"));  // its p, in the `p over` column
    CHECK_THAT(over.out, Catch::Contains("p over  verdict\n"));
}

TEST_CASE("CLI verify: an algorithm's constant is judged on the variants the header has a constant of",
          "[verify][cli]") {
    // What `sweep -k sha256-ssse3` then `recommend --header` writes: the variant's constant and its algorithm's,
    // computed over that one variant. The algorithm's constant does not promise the variants never swept.
    const std::string header =
        put("one.h", "#define FPUTUNE_SHA256_SSSE3_FPU_BYTES 64U\n#define FPUTUNE_SHA256_FPU_BYTES 64U\n");
    const Result r = fputune("verify " + header + " --budget 1ms --min-freq 1GHz --time-budget 2 --json");
    INFO(r.out << r.err);
    REQUIRE(r.rc == 0);
    const nlohmann::json j = nlohmann::json::parse(r.out);
    std::size_t algorithm_rows = 0;
    for (const auto& row : j["results"]) {
        CHECK(row["kernel"] == "sha256-ssse3");
        algorithm_rows += row["constant"] == "FPUTUNE_SHA256_FPU_BYTES";
    }
    CHECK(algorithm_rows == 1);
    // Without a variant's own constant beside it (a header written by hand), every variant this CPU runs.
    const Result all = fputune("verify " + put("all.h", "#define FPUTUNE_SHA256_FPU_BYTES 64U\n") +
                               " --budget 1ms --min-freq 1GHz --time-budget 2 --json");
    INFO(all.out << all.err);
    REQUIRE(all.rc == 0);
    std::size_t rows = nlohmann::json::parse(all.out)["results"].size();
    CHECK(rows >= 1);
    bool said = false;
    for (const auto& n : j["notes"])
        said |= n.get<std::string>().find(
                    "FPUTUNE_SHA256_FPU_BYTES (line 2): judged on the variants this header has "
                    "a constant of; not on") != std::string::npos;
    CHECK(said == (rows > 1));  // named where the CPU runs another variant
    // The same for a multi-source count: the algorithm's count on the variant that has its own.
    const Result count = fputune("verify " +
                                 put("xor.h",
                                     "#define FPUTUNE_XOR_SSE_MAX_SOURCES_4K 4U\n"
                                     "#define FPUTUNE_XOR_MAX_SOURCES_4K 4U\n") +
                                 " --budget 1ms --min-freq 1GHz --time-budget 2 --json");
    INFO(count.out << count.err);
    REQUIRE(count.rc == 0);
    std::size_t xor_rows = 0;
    const nlohmann::json counted = nlohmann::json::parse(count.out);
    for (const auto& row : counted["results"]) {
        CHECK(row["kernel"] == "xor-sse.x4");
        xor_rows += row["constant"] == "FPUTUNE_XOR_MAX_SOURCES_4K";
    }
    CHECK(xor_rows == 1);
}

TEST_CASE("CLI bench: an algorithm's kernels and its peer side by side, the ratio to the peer in each row",
          "[bench][cli]") {
    const Result r = fputune(
        "bench -k sha256-generic -k sha256-openssl -k crc32c-generic --no-peers --sizes 64,4KiB --time 0.01 --json");
    INFO(r.out << r.err);
    REQUIRE(r.rc == 0);
    const nlohmann::json j = nlohmann::json::parse(r.out);
    CHECK_THAT(j["context"]["method"].get<std::string>(), Catch::Contains("side by side"));
    // What else ran on the core: the contention probe as each turn began, over the run and per row.
    CHECK(j["context"]["contention"]["probes"].get<int>() >= 5);
    CHECK(j["context"]["contention"]["level"]["p50"].get<double>() >= 1);
    // The core/TSC ratio as each turn began: a row's core cycles are its turns' ticks each times that turn's ratio,
    // so they lie within the turns' range of ratios times its TSC cycles.
    const auto& turns = j["context"]["core_per_tsc_turns"];
    REQUIRE(turns["turns"].get<int>() >= 5);
    CHECK(turns["min"].get<double>() <= turns["p50"].get<double>());
    CHECK(turns["p50"].get<double>() <= turns["max"].get<double>());
    std::map<std::string, std::size_t> rows;
    for (const auto& row : j["results"]) {
        ++rows[row["kernel"].get<std::string>()];
        const double tsc = row["tsc_cycles_per_byte"], core = row["core_cycles_per_byte"];
        CHECK(core >= 0.9 * tsc * turns["min"].get<double>());
        CHECK(core <= 1.1 * tsc * turns["max"].get<double>());
        const std::string k = row["kernel"];
        if (k == "sha256-openssl") CHECK(row["vs_peer"].get<double>() == Approx(1.0));
        if (k == "sha256-generic") CHECK(row["vs_peer"].get<double>() > 0);
        if (k == "crc32c-generic") CHECK(row["vs_peer"].is_null());  // no peer of crc32c asked for
        CHECK((row["contention"].is_null() || row["contention"].get<double>() >= 1));
    }
    CHECK(rows ==
          std::map<std::string, std::size_t>{{"crc32c-generic", 2}, {"sha256-generic", 2}, {"sha256-openssl", 2}});
    // Rows in the order asked: each kernel's sizes together.
    CHECK(j["results"][0]["kernel"] == "sha256-generic");
    CHECK(j["results"][1]["kernel"] == "sha256-generic");
    CHECK(j["results"][1]["bytes"] == 4096);
}

TEST_CASE("CLI bench: -k without a peer measures the algorithm's peer beside it and says so, --no-peers does not",
          "[bench][cli]") {
    const Result r = fputune("bench -k sha256-generic --sizes 64 --time 0.01 --json");
    INFO(r.out << r.err);
    REQUIRE(r.rc == 0);
    const nlohmann::json j = nlohmann::json::parse(r.out);
    REQUIRE(j["context"]["peers_added"].size() == 1);
    const std::string peer = j["context"]["peers_added"][0];
    CHECK_THAT(peer, Catch::StartsWith("sha256-"));
    REQUIRE(j["results"].size() == 2);
    for (const auto& row : j["results"]) CHECK(row["vs_peer"].is_number());
    const Result text = fputune("bench -k sha256-generic --sizes 64 --time 0.01");
    CHECK_THAT(text.out, Catch::Contains("peers measured beside the kernels -k selected") && Catch::Contains(peer));
    const Result alone = fputune("bench -k sha256-generic --no-peers --sizes 64 --time 0.01 --json");
    REQUIRE(alone.rc == 0);
    const nlohmann::json a = nlohmann::json::parse(alone.out);
    CHECK(a["context"]["peers_added"].empty());
    REQUIRE(a["results"].size() == 1);
    CHECK(a["results"][0]["vs_peer"].is_null());
}

TEST_CASE("CLI bench: sizes that round to the same whole blocks are one row, at the size nearest its bytes",
          "[bench][cli]") {
    // xor-sse's blocks are 256 B: 64 and 256 both give 4 x 256 B (it runs at 256, the size asked for nearest);
    // sha256-generic's 64 B blocks: 64 and 100 both give 64 B.
    const Result r = fputune("bench -k xor-sse -k sha256-generic --no-peers --sizes 64,100,256 --time 0.01 --json");
    INFO(r.out << r.err);
    REQUIRE(r.rc == 0);
    const nlohmann::json j = nlohmann::json::parse(r.out);
    std::set<std::pair<std::string, std::uint64_t>> seen;
    for (const auto& row : j["results"])
        CHECK(seen.insert({row["kernel"].get<std::string>(), row["bytes"].get<std::uint64_t>()}).second);
    CHECK(seen == std::set<std::pair<std::string, std::uint64_t>>{
                      {"xor-sse", 4 * 256}, {"sha256-generic", 64}, {"sha256-generic", 256}});
    const std::string skipped = j["skipped"].dump();
    CHECK_THAT(skipped, Catch::Contains("xor-sse at 64 B: the same 256 B per call as at 256 B") &&
                            Catch::Contains("sha256-generic at 100 B: the same 64 B per call as at 64 B"));
}

TEST_CASE("CLI verify and doctor: each mistake is one line and exit 2", "[verify][doctor][cli]") {
    const std::string header = put("one.h", "#define FPUTUNE_SHA256_FPU_BYTES 4096U\n");
    const std::string none = put("none.h", "#define NOTHING 1\n");
    struct Case {
        std::string args, says;
    };
    const std::vector<Case> cases = {
        {"verify --budget 30us", "which header"},
        {"verify " + header, "--budget is required"},
        {"verify " + header + " --budget 30xs", "30xs"},
        {"verify " + header + " --budget 30us --min-freq -1GHz", "-1GHz"},
        {"verify " + header + " --budget 30us --quantile p98", "p98"},
        {"verify " + header + " --budget 30us --cache warm", "warm"},
        {"verify " + none + " --budget 30us", "no constant"},
        {"verify " + (scratch() / "absent.h").string() + " --budget 30us", "absent.h"},
        {"doctor --seconds 0", "--seconds"},
        {"doctor --cpu 4096", "--cpu 4096"},
    };
    for (const auto& c : cases) {
        const Result r = fputune(c.args);
        INFO(c.args << "\nstdout: " << r.out << "\nstderr: " << r.err);
        CHECK(r.rc == 2);
        CHECK_THAT(r.err, Catch::Contains(c.says));
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    }
}

TEST_CASE("CLI sweep: the closed loop measures each constant at its exact size and says so, --sizes has none",
          "[sweep][cli][closed-loop]") {
    const std::string out = (scratch() / "loop.json").string();
    const Result r = fputune("sweep --quick -k sha256-avx2 --no-thresholds --cache cold --time-budget 6 -o " + out);
    INFO(r.out << r.err);
    REQUIRE(r.rc == 0);
    CHECK_THAT(r.out, Catch::Contains("closed loop for 30.0 us at 1 GHz: "));
    const nlohmann::json j = nlohmann::json::parse(kCli.slurp(out));
    INFO(j.value("warnings", nlohmann::json::array()).dump());
    REQUIRE(j.contains("closed_loop"));
    const nlohmann::json& loop = j["closed_loop"];
    INFO(loop.dump());
    CHECK(loop["passes"].get<int>() >= 1);
    REQUIRE(loop["constants"].size() == 1);
    const nlohmann::json& c = loop["constants"][0];
    CHECK(c["series"] == "sha256-avx2");
    // Measured where it is (after the first pass: within 3 %), unless the loop says why not.
    CHECK((c["measured"] == true || !loop["stopped"].get<std::string>().empty()));
    if (c["measured"] == true) {
        const auto at = c["measured_bytes"].get<std::uint64_t>(), bytes = c["bytes"].get<std::uint64_t>();
        CHECK(at <= bytes + bytes * 3 / 100);
        CHECK(at >= bytes - bytes * 3 / 100);
        CHECK(c["exact"] == (at == bytes));
        bool has = false;
        for (const auto& p : j["sections"]) has = has || (p["kernel"] == "sha256-avx2" && p["bytes"] == at);
        CHECK(has);
    }
    CHECK(j["options"]["time_budget_s"] == 6);
    CHECK(j["options"]["closed_loop"]["budget_s"] == Approx(30e-6));
    // The count of unsettled points is of those the file holds (a point measured again replaced the first's).
    std::uint64_t unsettled = 0;
    for (const char* kind : {"sections", "thresholds"})
        for (const auto& p : j[kind]) unsettled += p.value("unsettled_rounds", 0) > 0;
    CHECK(j["sampling"]["unsettled_points"] == unsettled);

    const std::string sized = (scratch() / "sized.json").string();
    const Result s = fputune("sweep -k sha256-avx2 --no-thresholds --cache hot --sizes 64,1024 --time-budget 1 -o " + sized);
    INFO(s.err);
    REQUIRE(s.rc == 0);
    CHECK_FALSE(nlohmann::json::parse(kCli.slurp(sized)).contains("closed_loop"));
}

TEST_CASE("CLI sweep: a wrong closed-loop question is one line and exit 2", "[sweep][cli][closed-loop]") {
    for (const char* bad : {"--budget 30xs", "--min-freq -1GHz", "--budget 30s"}) {
        const Result r = fputune(std::string("sweep --quick -k sha256-avx2 -o ") + (scratch() / "no.json").string() +
                                 " " + bad);
        INFO(bad << ": " << r.err);
        CHECK(r.rc == 2);
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
        CHECK_FALSE(fs::exists(scratch() / "no.json"));
    }
}
