// SPDX-License-Identifier: MIT
// Contention as a user meets it: `sweep --sibling` refused without a sibling, `recommend --contention`
// garbage refused, a sweep file with a garbage contention field refused, one without contention read.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli_scratch.hpp"
#include "contention.hpp"

namespace fs = std::filesystem;

namespace {

const fputune_test::CliScratch kCli{"contention-cli"};
fs::path scratch() { return kCli.dir(); }
std::string put(const std::string& rel, const std::string& text) { return kCli.put(rel, text); }
std::string slurp(const fs::path& p) { return fputune_test::CliScratch::slurp(p); }
using Result = fputune_test::CliResult;
Result run_fputune(const std::string& args, const std::string& launcher = "") { return kCli.run(args, launcher); }

// A /sys tree in which CPU 0 and 1 are SMT siblings or not.
std::string topology(const std::string& name, bool siblings) {
    const std::string root = (scratch() / name).string();
    for (int c = 0; c < 2; ++c)
        put(name + "/sys/devices/system/cpu/cpu" + std::to_string(c) + "/topology/thread_siblings_list",
            siblings ? "0-1\n" : std::to_string(c) + "\n");
    return root;
}

void check_one_line(const Result& r, const std::string& says) {
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.rc == 2);
    CHECK_THAT(r.err, Catch::Contains(says));
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
}

}  // namespace

TEST_CASE("CLI sweep --sibling: refused without a sibling, or with a load that does not exist", "[contention][cli]") {
    const std::string alone = topology("alone", false), pair = topology("pair", true);
    const std::string out = " -o " + (scratch() / "s.json").string() + " -k sha256-generic --cpu 0 --root ";
    check_one_line(run_fputune("sweep --sibling busy" + out + alone), "CPU 0 has no SMT sibling");
    check_one_line(run_fputune("sweep --sibling busy:int" + out + alone), "drop --sibling");
    check_one_line(run_fputune("sweep --sibling busy:same" + out + alone), "CPU 0 has no SMT sibling");
    check_one_line(run_fputune("sweep --sibling busy:gpu" + out + pair),
                   "accepted: busy, busy:int, busy:vec, busy:mem, busy:same");
    check_one_line(run_fputune("sweep --sibling idle" + out + pair), "--sibling 'idle'");
    check_one_line(run_fputune("sweep --sibling busy --rounds 1" + out + pair), "needs 2 rounds");
    // Without a sibling the refusal names the option that loads another CPU instead.
    check_one_line(run_fputune("sweep --sibling busy:mem" + out + alone), "--neighbour busy:mem loads another CPU");
}

TEST_CASE("CLI sweep --neighbour: one co-runner at a time, a load that exists, another CPU to run it on",
          "[contention][cli]") {
    const std::string alone = topology("alone", false), pair = topology("pair", true);
    const std::string out = " -o " + (scratch() / "s.json").string() + " -k sha256-generic --cpu 0 --root ";
    check_one_line(run_fputune("sweep --neighbour busy:mem --sibling busy" + out + pair), "one co-runner at a time");
    check_one_line(run_fputune("sweep --neighbour busy:disk" + out + pair), "--neighbour 'busy:disk': accepted:");
    check_one_line(run_fputune("sweep --neighbour busy:mem --rounds 1" + out + pair), "--neighbour needs 2 rounds");
    // Pinned to one CPU (taskset): no other CPU to load.
    check_one_line(run_fputune("sweep --neighbour busy:mem" + out + alone, "taskset -c 0"),
                   "--neighbour busy:mem: CPU 0 is the only CPU this process may run on");
    // CPU 1, the only other one, is CPU 0's sibling.
    check_one_line(run_fputune("sweep --neighbour busy:mem" + out + pair, "taskset -c 0,1"),
                   "every CPU this process may run on is CPU 0 or its SMT sibling");
}

namespace {

// The committed Emerald Rapids sweep (4 rounds per point) with contention levels written in: rounds 2 and 4 at
// c = 1.8 and, for the -avx2 kernels, their statistics stretched by 1 + 0.7 (c - 1); the SHA-NI ones immune.
std::string contended_sweep() {
    nlohmann::json j =
        nlohmann::json::parse(slurp(FPUTUNE_SOURCE_DIR "/data/machines/emerald-rapids-2vcpu-vm-2026-11-30.json"));
    j["contention"] = {{"probes", 4000},
                       {"best_cycles", 2000},
                       {"level", {{"p10", 1.0}, {"p50", 1.02}, {"p90", 1.8}, {"max", 2.0}}},
                       {"contended_share", 0.45},
                       {"contended_above", 1.15}};
    for (auto& p : j["sections"]) {
        const std::string kernel = p["kernel"];
        const bool exposed = kernel.find("-avx2") != std::string::npos;
        for (std::size_t r = 0; r < p["rounds"].size(); ++r) {
            const double c = r % 2 ? 1.8 : 1.0;
            nlohmann::json& round = p["rounds"][r];
            round["contention"] = c;
            if (exposed)
                for (const char* q : {"p10", "p50", "p90", "p99_clean"})
                    round[q] = round[q].get<double>() * (1 + 0.7 * (c - 1));
        }
    }
    return put("contended.json", j.dump());
}

}  // namespace

TEST_CASE("CLI recommend --contention: the header states each variant's level and sensitivity", "[contention][cli]") {
    const std::string sweep = contended_sweep();
    const std::string h1 = (scratch() / "quiet.h").string(), h2 = (scratch() / "busy.h").string();
    const std::string common = "recommend --from " + sweep + " --budget 30us --min-freq 1GHz -k 'sha256-*' --header ";
    const Result quiet = run_fputune(common + h1);
    INFO(quiet.out << quiet.err);
    REQUIRE(quiet.rc == 0);
    const std::string header = slurp(h1);
    CHECK_THAT(header, Catch::Contains(" * Contention:    quiet:"));
    // The file's own rounds move a little too: s within 0.05 of what was written in.
    const auto lines = fputune::parse_header_contention(header);
    REQUIRE(lines.count({"sha256-avx2", "cold"}));
    CHECK(lines.at({"sha256-avx2", "cold"}).level == 1);
    CHECK(lines.at({"sha256-avx2", "cold"}).s == Approx(0.7).margin(0.05));
    REQUIRE(lines.count({"sha256-shani", "cold"}));
    CHECK(lines.at({"sha256-shani", "cold"}).s == Approx(0).margin(0.05));
    const Result busy = run_fputune(common + h2 + " --contention 2");
    REQUIRE(busy.rc == 0);
    CHECK(fputune::parse_header_contention(slurp(h2)).at({"sha256-avx2", "cold"}).level == 2);
    // At c = 2 an exposed kernel's limit is about 1 / 1.7 of its quiet one; an immune one's the same.
    auto limit = [](const std::string& text, const std::string& macro) {
        const auto at = text.find("#define " + macro + " ");
        return at == std::string::npos ? 0.0 : std::stod(text.substr(at + macro.size() + 9));
    };
    const double q_avx2 = limit(header, "FPUTUNE_SHA256_AVX2_FPU_BYTES"),
                 b_avx2 = limit(slurp(h2), "FPUTUNE_SHA256_AVX2_FPU_BYTES");
    REQUIRE(q_avx2 > 0);
    CHECK(b_avx2 / q_avx2 == Approx(1 / 1.7).margin(0.08));
    CHECK(limit(slurp(h2), "FPUTUNE_SHA256_SHANI_FPU_BYTES") ==
          Approx(limit(header, "FPUTUNE_SHA256_SHANI_FPU_BYTES")).epsilon(0.05));
    // A sweep from before the probe: as measured, said so.
    const Result old =
        run_fputune("recommend --from " FPUTUNE_SOURCE_DIR
                    "/data/machines/emerald-rapids-2vcpu-vm-2026-11-30.json --budget 30us -k sha256-avx2 "
                    "--header " +
                    h1);
    REQUIRE(old.rc == 0);
    CHECK_THAT(slurp(h1), Catch::Contains(" * Contention:    as measured"));
}

TEST_CASE("CLI recommend: --contention garbage, or a garbage contention field, is one line and exit 2",
          "[contention][cli]") {
    const std::string sweep = contended_sweep();
    const std::string common = " --budget 30us --min-freq 1GHz -k sha256-avx2";
    check_one_line(run_fputune("recommend --from " + sweep + common + " --contention loud"), "--contention 'loud'");
    check_one_line(run_fputune("recommend --from " + sweep + common + " --contention 0.5"), "quiet, observed");
    nlohmann::json j = nlohmann::json::parse(slurp(sweep));
    j["sections"][0]["rounds"][1]["contention"] = "busy";
    check_one_line(run_fputune("recommend --from " + put("bad-round.json", j.dump()) + common), "rounds[1].contention");
    j = nlohmann::json::parse(slurp(sweep));
    j["contention"].erase("level");
    check_one_line(run_fputune("recommend --from " + put("bad-trace.json", j.dump()) + common), "contention.level");
}

namespace {

// The row `check` prints for one constant ("" when there is none).
std::string check_row(const std::string& out, const std::string& macro) {
    const auto at = out.find("\n" + macro + " ");
    if (at == std::string::npos) return "";
    return out.substr(at + 1, out.find('\n', at + 1) - at - 1);
}

}  // namespace

TEST_CASE("CLI check: each constant is judged at the contention its header states", "[contention][cli]") {
    const std::string sweep = contended_sweep();
    const std::string quiet_h = (scratch() / "check-quiet.h").string(), busy_h = (scratch() / "check-busy.h").string();
    const std::string common = "recommend --from " + sweep + " --budget 30us --min-freq 1GHz -k sha256-avx2 --header ";
    REQUIRE(run_fputune(common + quiet_h).rc == 0);
    REQUIRE(run_fputune(common + busy_h + " --contention 2").rc == 0);
    const std::string judge = " --from " + sweep + " --budget 30us --min-freq 1GHz";
    // The limit for c = 2 holds at c = 2: judged there, said so.
    const Result busy = run_fputune("check " + busy_h + judge);
    INFO(busy.out << busy.err);
    CHECK(busy.rc == 0);
    CHECK_THAT(check_row(busy.out, "FPUTUNE_SHA256_AVX2_FPU_BYTES"), Catch::Contains("PASS") && Catch::Contains("c=2.00 header"));
    CHECK_THAT(busy.out, Catch::Contains("contention: each variant at the level c its header states"));
    // The quiet limit in a header that claims it holds at c = 2 (an exposed kernel, s = 0.7): over the budget there.
    std::string claimed = slurp(quiet_h);
    const auto at = claimed.find("contention sha256-avx2 cold c=1.00");
    REQUIRE(at != std::string::npos);
    claimed.replace(at + std::string("contention sha256-avx2 cold ").size(), 6, "c=2.00");
    const Result over = run_fputune("check " + put("check-claimed.h", claimed) + judge);
    INFO(over.out << over.err);
    CHECK(over.rc == 1);
    CHECK_THAT(check_row(over.out, "FPUTUNE_SHA256_AVX2_FPU_BYTES"), Catch::Contains("OVER") && Catch::Contains("c=2.00 header"));
    // A header of bounds as measured: judged as measured, said so.
    const std::string measured_h = (scratch() / "check-measured.h").string();
    REQUIRE(run_fputune(common + measured_h + " --contention as-measured").rc == 0);
    const Result measured = run_fputune("check " + measured_h + judge);
    CHECK_THAT(check_row(measured.out, "FPUTUNE_SHA256_AVX2_FPU_BYTES"), Catch::Contains("PASS") && Catch::Contains("as measured"));
    CHECK_THAT(measured.out, Catch::Contains("contention: as measured"));
    // The same quiet header as written: judged quiet.
    CHECK_THAT(check_row(run_fputune("check " + quiet_h + judge).out, "FPUTUNE_SHA256_AVX2_FPU_BYTES"),
               Catch::Contains("PASS") && Catch::Contains("c=1.00 header"));
}

TEST_CASE("CLI check -k: shows fewer constants, judges each as without it", "[contention][cli]") {
    const std::string sweep = contended_sweep();
    const std::string header = put("check-k.h",
                                   "#define FPUTUNE_SHA256_FPU_BYTES 2048U\n#define FPUTUNE_SHA256_SHANI_FPU_BYTES 2048U\n"
                                   "#define FPUTUNE_SHA256_AVX2_FPU_BYTES 2048U\n");
    const std::string judge = "check " + header + " --from " + sweep + " --budget 30us --min-freq 1GHz";
    const Result all = run_fputune(judge);
    const Result one = run_fputune(judge + " -k sha256-shani");
    INFO(all.out << all.err << one.out << one.err);
    REQUIRE(all.rc == 0);
    REQUIRE(one.rc == 0);
    // The algorithm's constant stands for its slowest variant whether -k names it or not.
    const std::string algorithm = check_row(all.out, "FPUTUNE_SHA256_FPU_BYTES");
    REQUIRE_FALSE(algorithm.empty());
    CHECK_THAT(algorithm, !Catch::Contains("sha256-shani"));
    CHECK(check_row(one.out, "FPUTUNE_SHA256_FPU_BYTES") == algorithm);
    CHECK(check_row(one.out, "FPUTUNE_SHA256_SHANI_FPU_BYTES") == check_row(all.out, "FPUTUNE_SHA256_SHANI_FPU_BYTES"));
    CHECK(check_row(one.out, "FPUTUNE_SHA256_AVX2_FPU_BYTES").empty());
    check_one_line(run_fputune(judge + " -k 'md5-*'"), "-k");
}

namespace {

// The unrounded limit (bytes) of a kernel's row of the report's per-variant table (0 when there is none).
double report_unrounded(const std::string& html, const std::string& kernel) {
    const auto row = html.find("<tr><td><a href=\"#v-" + kernel + "\">");
    if (row == std::string::npos) return 0;
    std::size_t at = row;
    for (int cell = 0; cell < 4; ++cell) at = html.find("<td", at + 1);  // kernel, cache, limit, unrounded
    at = html.find('>', at) + 1;
    return std::stod(html.substr(at, html.find(' ', at) - at));
}

}  // namespace

TEST_CASE("CLI report --contention: the limits at that contention, the page says which", "[contention][cli]") {
    const std::string sweep = contended_sweep();
    const std::string quiet_html = (scratch() / "quiet.html").string(), busy_html = (scratch() / "busy.html").string();
    const std::string common = "report --from " + sweep + " --budget 30us --min-freq 1GHz -k sha256-avx2 --workload none -o ";
    const Result quiet = run_fputune(common + quiet_html);
    INFO(quiet.out << quiet.err);
    REQUIRE(quiet.rc == 0);
    const Result busy = run_fputune(common + busy_html + " --contention 2");
    INFO(busy.out << busy.err);
    REQUIRE(busy.rc == 0);
    const std::string q = slurp(quiet_html), b = slurp(busy_html);
    CHECK_THAT(q, Catch::Contains("the limits are stated at <b>quiet</b>") && Catch::Contains("[1] c = 1.00"));
    CHECK_THAT(b, Catch::Contains("the limits are stated at <b>2</b>") && Catch::Contains("[1] c = 2.00"));
    // The exposed kernel (s = 0.7): about 1 / 1.7 of its quiet limit at c = 2, as recommend gives.
    const double at_quiet = report_unrounded(q, "sha256-avx2"), at_two = report_unrounded(b, "sha256-avx2");
    REQUIRE(at_quiet > 0);
    CHECK(at_two / at_quiet == Approx(1 / 1.7).margin(0.08));
    check_one_line(run_fputune(common + busy_html + " --contention loud"), "--contention 'loud'");
}
