// SPDX-License-Identifier: MIT
// `fputune doctor` and `fputune verify` as a user runs them: verdicts from a synthetic tree, PASS/OVER
// and their exit codes, and one clear line for each mistake.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
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
    for (const auto& r : j["results"]) {
        CHECK(r["constant"] == "FPUTUNE_SHA256_FPU_BYTES");
        CHECK(r["bytes"] == 64);
        CHECK(r["bound_s"].get<double>() > 0);
        CHECK(r["bound_s"].get<double>() >= r["p50_s"].get<double>());
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
    CHECK_THAT(over.out, Catch::Contains("OVER"));
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
