// SPDX-License-Identifier: MIT
// `fputune compare`: the significance test, sweeps with known changes, bench files, and the CLI.
#include <cmath>
#include <functional>
#include <map>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "compare.hpp"
#include "model_file.hpp"
#include "report_test_util.hpp"

using namespace fputune;
using namespace fputune::report_test;

namespace {

CompareOptions compare_options() {
    CompareOptions o;
    o.recommend.question.budget_s = 30e-6;
    o.recommend.question.min_freq_hz = 1e9;
    return o;
}

const CompareRow& row_of(const CompareResult& r, const std::string& kernel) {
    for (const auto& row : r.rows)
        if (row.kernel == kernel) return row;
    FAIL("no row " << kernel);
    throw std::logic_error("unreachable");
}

nlohmann::json bench_json(const std::string& brand, double cpb, double rel_ci, const std::string& masked = "") {
    nlohmann::json j;
    j["schema"] = "fputune.bench/1";
    j["context"] = {{"cpu_brand", brand},
                    {"date", "2025-01-01T00:00:00Z"},
                    {"tool_version", "test"},
                    {"tool_commit", "abc"},
                    {"masked_features", masked}};
    j["results"] = nlohmann::json::array();
    for (std::uint64_t bytes : {64, 4096})
        j["results"].push_back({{"kernel", "fake-avx2"},
                                {"algorithm", "fake"},
                                {"bytes", bytes},
                                {"core_cycles_per_byte", cpb},
                                {"rel_ci50", rel_ci}});
    return j;
}

}  // namespace

TEST_CASE("compare_estimates: p from both intervals, significance needs p < alpha and a change >= min_change",
          "[compare]") {
    const CompareOptions o = compare_options();  // alpha 0.05, min change 3 %
    const Estimate a{1.0, 0.98, 1.02};  // se = 0.02 / 1.96
    Change c = compare_estimates(a, a, 1, 1, true, o);
    CHECK(c.p == Approx(1));
    CHECK_FALSE(c.significant);
    CHECK(c.verdict == "no significant change");
    // 10 % slower, intervals of +-2 %: z = 0.1 / (sqrt(2) x 0.0102) ~ 6.9.
    c = compare_estimates(a, {1.1, 1.078, 1.122}, 1, 1.1, true, o);
    CHECK(c.rel == Approx(0.1));
    CHECK(c.p < 1e-6);
    CHECK(c.significant);
    CHECK(c.verdict == "slower");
    CHECK(compare_estimates(a, {0.9, 0.882, 0.918}, 1, 0.9, true, o).verdict == "faster");
    CHECK(compare_estimates(a, {1.1, 1.078, 1.122}, 1000, 1100, false, o).verdict == "larger");
    // z = 1.96 exactly at the edge: p = 0.05.
    const double d = 1.959963984540054 * std::sqrt(2.0) * (0.02 / 1.959963984540054);
    c = compare_estimates(a, {1.0 + d, 0.98 + d, 1.02 + d}, 1, 1 + d, true, o);
    CHECK(c.p == Approx(0.05).epsilon(0.01));
    // Significant in p, but below the smallest change that counts.
    c = compare_estimates({1.0, 0.999, 1.001}, {1.02, 1.019, 1.021}, 1, 1.02, true, o);
    CHECK(c.p < 1e-6);
    CHECK_FALSE(c.significant);
    CompareOptions strict = o;
    strict.min_change = 0;
    CHECK(compare_estimates({1.0, 0.999, 1.001}, {1.02, 1.019, 1.021}, 1, 1.02, true, strict).significant);
    // Wide intervals: a big change that the files cannot tell from noise.
    c = compare_estimates({1.0, 0.5, 1.5}, {1.2, 0.6, 1.8}, 1, 1.2, true, o);
    CHECK(c.p > 0.5);
    CHECK_FALSE(c.significant);
    // No interval on either side: said so, never significant.
    c = compare_estimates({1.0, 1.0, 1.0}, {2.0, 2.0, 2.0}, 1, 2, true, o);
    CHECK(std::isnan(c.p));
    CHECK(c.verdict == "no interval");
    CHECK_FALSE(c.significant);
}

TEST_CASE("compare: Holm's step-down shares alpha among all the tests of a comparison", "[compare]") {
    const CompareOptions o = compare_options();  // alpha 0.05, min change 3 %
    const Estimate a{1.0, 0.98, 1.02};  // se = 0.02 / 1.96
    // A B that is 10 % slower (p < 1e-6) and one 4.4 % slower, p ~ 0.002 alone: significant by itself.
    const Estimate slow{1.1, 1.078, 1.122}, bit{1.044, 1.0224, 1.0656};
    REQUIRE(compare_estimates(a, bit, 1, 1.044, true, o).significant);
    const double p_bit = compare_estimates(a, bit, 1, 1.044, true, o).p;
    REQUIRE(p_bit > 0.05 / 30);
    REQUIRE(p_bit < 0.05 / 10);
    auto rows_of = [&](std::size_t n) {
        std::vector<CompareRow> rows(n);
        for (std::size_t i = 0; i < n; ++i) {
            rows[i].kernel = "k" + std::to_string(i);
            rows[i].p50_cpb = compare_estimates(a, a, 1, 1, true, o);  // no change, p = 1
        }
        rows[0].p50_cpb = compare_estimates(a, slow, 1, 1.1, true, o);
        rows[1].p50_cpb = compare_estimates(a, bit, 1, 1.044, true, o);
        return rows;
    };
    // Ten tests: the smallest p against 0.05 / 10, the next against 0.05 / 9: both hold.
    std::vector<CompareRow> few = rows_of(10);
    CHECK(holm_step_down(few, o) == 10);
    CHECK(few[0].p50_cpb.significant);
    CHECK(few[1].p50_cpb.significant);
    CHECK(few[1].verdict.find("slower") != std::string::npos);
    // Thirty tests (as a comparison of ten variants' p50, bound and limit): the second is chance among them.
    std::vector<CompareRow> many = rows_of(30);
    CHECK(holm_step_down(many, o) == 30);
    CHECK(many[0].p50_cpb.significant);
    CHECK_FALSE(many[1].p50_cpb.significant);
    CHECK(many[1].p50_cpb.verdict == "no significant change");
    CHECK(many[1].verdict == "no significant change");
    CHECK(many[1].p50_cpb.p == Approx(p_bit));  // the p printed is its own
    // Tests not made (one side lacks it) or without an interval share nothing.
    std::vector<CompareRow> sparse = rows_of(2);
    sparse[0].bound_cpb = compare_estimates({1, 1, 1}, {2, 2, 2}, 1, 2, true, o);  // no interval: p NaN
    CHECK(holm_step_down(sparse, o) == 2);
}

TEST_CASE("compare sweeps: the same machine twice is no change - a 20 % slower kernel is slower with a smaller limit",
          "[compare]") {
    const ModelFile a = fit_sweep(synthetic_sweep("Test CPU", 2000, 0.8, 0.003, 1), "a.json");
    const ModelFile again = fit_sweep(synthetic_sweep("Test CPU", 2000, 0.8, 0.003, 2), "again.json");
    CompareResult r = compare_models(a, again, compare_options());
    REQUIRE(r.rows.size() == 1);
    CHECK(r.kind == "sweep");
    const CompareRow& same = r.rows[0];
    CHECK(same.kernel == "fake-avx2");
    CHECK(same.cache == Cache::cold);
    CHECK(same.p50_cpb.compared);
    CHECK(same.p50_cpb.shown_a == Approx(0.88 * 1.25).epsilon(0.01));  // core cycles per byte: b (cold 1.1x) x core/TSC
    CHECK_FALSE(same.changed());
    CHECK(same.verdict == "no significant change");
    CHECK(same.limit.compared);
    CHECK(std::abs(same.limit.rel) < 0.01);
    CHECK(r.changed() == 0);
    // The limit's test uses recommend's interval (its centre and ends), the one the report draws.
    const Recommendation rec_a = recommend({a}, compare_options().recommend);  // kept: va refers into it
    const VariantResult& va = rec_a.variants.at(0).bound;
    CHECK(same.limit.a.value == va.central_bytes);
    CHECK(same.limit.a.lo == va.interval_lo_bytes);
    CHECK(same.limit.a.hi == va.interval_hi_bytes);
    CHECK(same.limit.shown_a == static_cast<double>(va.bytes));

    const ModelFile slow = fit_sweep(synthetic_sweep("Slow CPU", 2000, 0.96, 0.003, 3), "slow.json");
    r = compare_models(a, slow, compare_options());
    const CompareRow& s = row_of(r, "fake-avx2");
    CHECK(s.p50_cpb.verdict == "slower");
    CHECK(s.p50_cpb.rel == Approx(0.2).epsilon(0.02));
    CHECK(s.bound_cpb.verdict == "slower");
    CHECK(s.limit.verdict == "smaller");
    CHECK(s.limit.rel < -0.1);
    CHECK(s.changed());
    CHECK_THAT(s.verdict, Catch::Contains("p50 slower +") && Catch::Contains("limit smaller -"));
    CHECK(regressions(r, 10).size() == 3);
    // Per algorithm: the constant to ship, and the variant that sets it, on each side.
    REQUIRE(r.algorithms.size() == 1);
    CHECK(r.algorithms[0].algorithm == "fake");
    CHECK(r.algorithms[0].limit_a == s.limit.shown_a);
    CHECK(r.algorithms[0].limit_b == s.limit.shown_b);
    CHECK(r.algorithms[0].bound_by_b == "fake-avx2");
    CHECK(r.algorithms[0].rel == Approx(s.limit.rel));
    REQUIRE(r.algorithms[0].threshold_a);
    CHECK(r.algorithms[0].threshold_a->bytes == 256);
    CHECK(regressions(r, 50).empty());
    // The other way round: faster, larger; no regression.
    CHECK(row_of(compare_models(slow, a, compare_options()), "fake-avx2").limit.verdict == "larger");
    CHECK(regressions(compare_models(slow, a, compare_options()), 1).empty());
    // The JSON says the same.
    const nlohmann::json j = to_json(r);
    CHECK(j["schema"] == kCompareSchema);
    CHECK(j["rows"][0]["p50_cycles_per_byte"]["verdict"] == "slower");
    CHECK(j["summary"]["changed"] == 1);
    CHECK(j["algorithms"][0]["bound_by_a"] == "fake-avx2");
}

TEST_CASE("compare sweeps: variants in one file only are listed, not compared", "[compare]") {
    const ModelFile a = fit_sweep(synthetic_sweep("Test CPU", 2000, 0.8), "a.json");
    const ModelFile b = fit_sweep(synthetic_sweep("Test CPU", 2000, 0.8, 0.003, 2, "fake-sse2"), "b.json");
    const CompareResult r = compare_models(a, b, compare_options());
    CHECK(r.rows.empty());
    CHECK(r.only_a == std::vector<std::string>{"fake-avx2"});
    CHECK(r.only_b == std::vector<std::string>{"fake-sse2"});
    CHECK_THAT(r.notes.at(0), Catch::Contains("nothing to compare"));
}

TEST_CASE("compare bench files: per kernel and size, p50 only", "[compare]") {
    const CompareOptions o = compare_options();
    CompareResult r = compare_bench(bench_json("A", 1.0, 0.01), "a.json", bench_json("A", 1.005, 0.01), "b.json", o);
    REQUIRE(r.rows.size() == 2);
    CHECK(r.kind == "bench");
    CHECK(r.rows[0].bytes == 64);
    CHECK_FALSE(r.rows[0].changed());
    CHECK_FALSE(r.rows[0].bound_cpb.compared);
    CHECK_FALSE(r.rows[0].limit.compared);
    r = compare_bench(bench_json("A", 1.0, 0.01), "a.json", bench_json("B", 1.5, 0.01, "avx512f"), "b.json", o);
    CHECK(r.rows[1].p50_cpb.verdict == "slower");
    CHECK(r.b.masked_features == "avx512f");
    CHECK(regressions(r, 20).size() == 2);
    CHECK_THROWS_WITH(
        compare_bench(bench_json("A", 1, 0.01), "a.json", nlohmann::json{{"schema", "fputune.sweep/1"}}, "s.json", o),
        Catch::Contains("s.json") && Catch::Contains("not a bench file"));
    nlohmann::json broken = bench_json("A", 1, 0.01);
    broken["results"][0]["core_cycles_per_byte"] = -1;
    CHECK_THROWS_WITH(compare_bench(broken, "broken.json", broken, "broken.json", o), Catch::Contains("must be > 0"));
}

TEST_CASE("compare bench files: a row whose turns met other contention in the two files is widened by it",
          "[compare]") {
    const CompareOptions o = compare_options();
    auto at = [](double cpb, double level) {
        nlohmann::json j = bench_json("A", cpb, 0.005);
        j["context"]["contention"] = {
            {"probes", 96}, {"level", {{"p50", level}, {"p90", level}}}, {"contended_share", 0}};
        for (auto& row : j["results"]) row["contention"] = level;
        return j;
    };
    // A neighbour took the core in B's turns (c 1.9) and the row ran 1.5x as long: the contention explains it.
    CompareResult r = compare_bench(at(1.0, 1.0), "a.json", at(1.5, 1.9), "b.json", o);
    REQUIRE(r.rows.size() == 2);
    CHECK(r.b.contention == Approx(1.9));
    CHECK(r.rows[1].contention_se == Approx(0.9 / 1.959963984540054));
    CHECK_THAT(r.rows[1].contention_basis, Catch::Contains("c 1.00 in A, 1.90 in B"));
    CHECK_FALSE(r.rows[1].changed());
    CHECK(regressions(r, 5).empty());
    // The same move at the same level is the code's.
    r = compare_bench(at(1.0, 1.0), "a.json", at(1.5, 1.0), "b.json", o);
    CHECK(r.rows[1].contention_se == 0);
    CHECK(r.rows[1].p50_cpb.verdict == "slower");
    // An older file (no levels): as before, nothing widened.
    r = compare_bench(bench_json("A", 1.0, 0.005), "a.json", at(1.5, 1.9), "b.json", o);
    CHECK(r.rows[1].contention_se == 0);
    CHECK(r.rows[1].changed());
}

TEST_CASE("compare bench files: a move of every row on one kind of CPU is the host's - one row's beyond it is not",
          "[compare]") {
    const CompareOptions o = compare_options();
    // 12 kernels x 2 sizes; B: every row 4 % faster (a move of the host's core clock that the ratio missed, or
    // its memory), scattered +-0.3 %, and kernel 7 at 4 KiB 30 % slower than that.
    auto file = [](double tsc_hz, bool b) {
        nlohmann::json j = bench_json("A", 1, 0.005);
        j["context"]["cpu_vendor"] = "AuthenticAMD";
        j["context"]["tsc_hz"] = tsc_hz;
        j["results"] = nlohmann::json::array();
        for (int k = 0; k < 12; ++k)
            for (std::uint64_t bytes : {64, 4096}) {
                double cpb = 1 + 0.1 * k;
                if (b) cpb *= 0.96 * (1 + 0.003 * ((k % 3) - 1)) * (k == 7 && bytes == 4096 ? 1.3 : 1);
                j["results"].push_back({{"kernel", fmt::format("fake{}-avx2", k)},
                                        {"algorithm", "fake"},
                                        {"bytes", bytes},
                                        {"core_cycles_per_byte", cpb},
                                        {"rel_ci50", 0.002}});
            }
        return j;
    };
    CompareResult r = compare_bench(file(2.6e9, false), "a.json", file(2.6e9, true), "b.json", o);
    REQUIRE(r.rows.size() == 24);
    CHECK(r.host_p50.known);
    CHECK(std::expm1(r.host_p50.shift) == Approx(-0.04).margin(0.004));
    std::size_t changed = 0;
    for (const CompareRow& row : r.rows) changed += row.changed();
    CHECK(changed == 1);
    const std::vector<std::string> worse = regressions(r, 20);
    REQUIRE(worse.size() == 1);
    CHECK_THAT(worse[0], Catch::StartsWith("fake7-avx2 4096 B"));
    CHECK_THAT(fmt::format("{}", fmt::join(r.notes, "\n")), Catch::Contains("moved by -4"));
    // Another TSC (another kind of CPU, or another host): nothing is taken off; every row is its own change.
    r = compare_bench(file(2.6e9, false), "a.json", file(2.1e9, true), "b.json", o);
    CHECK_FALSE(r.host_p50.known);
    changed = 0;
    for (const CompareRow& row : r.rows) changed += row.changed();
    CHECK(changed == 24);
}

TEST_CASE("CLI: compare the committed machines, the same file, bench files - exit 0 unless --fail-on-regression",
          "[compare][cli]") {
    const std::string zen5 = source_file("data/machines/zen5-turin-vm-2026-11-30.json");
    const std::string er = source_file("data/machines/emerald-rapids-vm-2026-11-30.json");
    Run r = run_fputune("compare " + zen5 + " " + zen5);
    INFO(r.err);
    REQUIRE(r.rc == 0);
    CHECK_THAT(r.out, Catch::Contains("44 compared: 44 with no significant change, 0 changed"));
    r = run_fputune("compare " + zen5 + " " + zen5 + " --fail-on-regression 0");
    CHECK(r.rc == 0);
    CHECK_THAT(r.out, Catch::Contains("no regression over 0 %"));
    // Two different CPUs: changes both ways, told per variant.
    r = run_fputune("compare " + zen5 + " " + er);
    REQUIRE(r.rc == 0);
    CHECK_THAT(r.out, Catch::Contains("Oxide Virtual Turin-like Processor") &&
                          Catch::Contains("Intel(R) Xeon(R) Processor") && Catch::Contains("slower") &&
                          Catch::Contains("faster"));
    r = run_fputune("compare " + zen5 + " " + er + " --json --fail-on-regression 5");
    CHECK(r.rc == 1);
    const nlohmann::json j = nlohmann::json::parse(r.out);
    CHECK(j["schema"] == kCompareSchema);
    CHECK(j["rows"].size() == 44);
    CHECK_FALSE(j["regressions"].empty());
    // Bench files.
    const std::string ba = write_temp("cli_bench_a.json", bench_json("A", 1.0, 0.01).dump());
    const std::string bb = write_temp("cli_bench_b.json", bench_json("A", 1.3, 0.01).dump());
    r = run_fputune("compare " + ba + " " + bb + " --fail-on-regression 10");
    CHECK(r.rc == 1);
    CHECK_THAT(r.out, Catch::Contains("REGRESSION fake-avx2 64 B: p50 c/B +30.0 %"));
    // Bad input: one line, exit 2.
    const std::vector<std::pair<std::string, std::string>> bad = {
        {"compare " + ba, "which two files"},
        {"compare " + ba + " " + zen5, "is a bench file and"},
        {"compare " + zen5 + " " + write_temp("cli_other.json", R"({"schema": "other/1"})"), "other/1"},
        {"compare " + zen5 + " " + zen5 + " --fail-on-regression x", "--fail-on-regression x"},
        {"compare " + zen5 + " " + zen5 + " --min-change -1", "--min-change -1"},
        {"compare " + zen5 + " " + zen5 + " --budget 30xs", "30xs"},
        {"compare " + zen5 + " " + zen5 + " --cache warm", "--cache warm"},
        {"compare " + zen5 + " " + (temp_dir() / "absent.json").string(), "absent.json"},
    };
    for (const auto& [args, says] : bad) {
        const Run x = run_fputune(args);
        INFO(args << "\n" << x.err);
        CHECK(x.rc == 2);
        CHECK_THAT(x.err, Catch::Contains(says));
        CHECK(count(x.err, "\n") == 1);
    }
}

namespace {

// The synthetic sweep as met at contention level `level` (the whole trace there, so no sensitivity can be
// fitted: each point as measured), its sections `stretch` times slower.
SweepFile contended(SweepFile f, double level, double stretch) {
    f.contention.probes = 1000;
    f.contention.best_cycles = 2000;
    f.contention.p10 = f.contention.p50 = f.contention.p90 = f.contention.max = level;
    f.contention.contended_share = level >= 1.15 ? 1 : 0;
    f.contention.contended_above = 1.15;
    for (SectionPoint& p : f.sections)
        for (double* v : {&p.ticks.p10, &p.ticks.p50, &p.ticks.p90, &p.ticks.p99, &p.ticks.p99_clean, &p.ticks.p999,
                          &p.ticks.min, &p.ticks.max, &p.request_ticks_p50})
            *v *= stretch;
    return f;
}

}  // namespace

TEST_CASE("compare sweeps: contention the files met is no change of the code - a real slowdown still is",
          "[compare][contention]") {
    const ModelFile quiet = fit_sweep(contended(synthetic_sweep("Test CPU", 2000, 0.8, 0.003, 1), 1.0, 1.0), "a.json");
    // Back to back on one host, the second sweep beside a busy neighbour (c = 1.3, the kernel s = 0.6: 18 %
    // slower as measured), with no sensitivity known in either: not a change of the binary.
    const ModelFile busy = fit_sweep(contended(synthetic_sweep("Test CPU", 2000, 0.8, 0.003, 2), 1.3, 1.18), "b.json");
    const CompareResult r = compare_models(quiet, busy, compare_options());
    const CompareRow& row = row_of(r, "fake-avx2");
    INFO(row.verdict);
    CHECK(row.contention_se == Approx(0.3 / 1.96).epsilon(0.01));
    CHECK_FALSE(row.changed());
    CHECK_THAT(row.verdict, Catch::StartsWith("no significant change") && Catch::Contains("from contention") &&
                                Catch::Contains("s unknown, c 1.00 in A, 1.30 in B"));
    CHECK(row.p50_cpb.contention_spread > 0.9 * row.p50_cpb.spread);
    CHECK(r.b.contention == 1.3);
    // 30 % slower at the same contention: flagged, nothing widened.
    const ModelFile slow = fit_sweep(contended(synthetic_sweep("Test CPU", 2000, 0.8, 0.003, 3), 1.0, 1.3), "c.json");
    const CompareResult slower = compare_models(quiet, slow, compare_options());  // outlives the row it holds
    const CompareRow& s = row_of(slower, "fake-avx2");
    CHECK(s.contention_se == 0);
    CHECK(s.p50_cpb.verdict == "slower");
    CHECK(s.limit.verdict == "smaller");
    CHECK(s.changed());
    // A file without contention (before the probe): nothing known, nothing widened.
    const ModelFile old = fit_sweep(synthetic_sweep("Test CPU", 2000, 0.8, 0.003, 4), "d.json");
    CHECK(row_of(compare_models(old, busy, compare_options()), "fake-avx2").contention_se == 0);
}

TEST_CASE("compare: a known sensitivity widens by its own uncertainty at the level each side met", "[compare][contention]") {
    CacheModel a, b;
    a.contention_known = b.contention_known = true;
    a.contention_s = b.contention_s = 0.6;
    a.contention_s_lo = 0.5, a.contention_s_hi = 0.7;
    b.contention_s_lo = 0.4, b.contention_s_hi = 0.8;
    std::string basis;
    // Quiet on both sides: moving to quiet moved nothing, so nothing is uncertain.
    CHECK(contention_widening(a, 1.0, b, 1.0, basis) == 0);
    const double w = contention_widening(a, 1.2, b, 1.5, basis);
    CHECK(w == Approx(std::hypot(0.1 / 1.96 * 0.2 / 1.12, 0.2 / 1.96 * 0.5 / 1.3)).epsilon(1e-3));
    CHECK_THAT(basis, Catch::Contains("0.40..0.80 at c 1.50"));
    CHECK_THAT(basis, !Catch::Contains("apart"));
    // Both known, and apart by more than their intervals (0.6 and 2.3, each 0.2 wide): the excess, 1.7 - 0.14,
    // is an error of the move to quiet too, at the higher level.
    CacheModel far = b;
    far.contention_s = 2.3, far.contention_s_lo = 2.2, far.contention_s_hi = 2.4;
    const double excess = 1.7 - std::hypot(0.2, 0.2) / 2;
    CHECK(contention_widening(a, 1.02, far, 1.02, basis) ==
          Approx(std::hypot(0.1 / 1.96 * 0.02 / 1.012, 0.1 / 1.96 * 0.02 / 1.046, excess / 1.96 * 0.02 / 1.029))
              .epsilon(1e-3));
    CHECK_THAT(basis, Catch::Contains("the two s 1.56 apart beyond their intervals"));
    // One side unknown: that side may be anywhere from immune to as exposed as the probe.
    b.contention_known = false;
    CHECK(contention_widening(a, 1.0, b, 1.4, basis) == Approx(0.4 / 1.96).epsilon(1e-3));
    CHECK_THAT(basis, Catch::Contains("s unknown in B"));
    CHECK(contention_widening(a, 0, b, 1.4, basis) == 0);
}

namespace {

// Kernels of one CPU named `names`, each the synthetic sweep's k0 with every point's ticks times
// stretch(i, cold) for the i-th.
ModelFile stretched_kernels(std::uint64_t seed, const std::vector<std::string>& names,
                            const std::function<double(std::size_t, bool)>& stretch) {
    SweepFile one = synthetic_sweep("Test CPU", 2000, 0.8, 0.003, seed, "k0");
    for (const auto& [key, value] : {std::pair{"family", 6}, std::pair{"model", 167}, std::pair{"stepping", 1}})
        one.cpu[key] = value;
    SweepFile f = one;
    f.sections.clear();
    f.kernels.clear();  // no threshold kernels, so no limit is compared against a generic
    f.thresholds.clear();
    for (std::size_t i = 0; i < names.size(); ++i) {
        f.kernels.push_back({names[i], i ? "fake" + std::to_string(i) : "fake", "avx2", "fputune", 64, true});
        for (SectionPoint p : one.sections) {
            if (p.kernel != "k0") continue;
            p.kernel = names[i];
            const double x = stretch(i, p.cache == "cold");
            for (double* v : {&p.ticks.p10, &p.ticks.p50, &p.ticks.p90, &p.ticks.p99, &p.ticks.p99_clean,
                              &p.ticks.p999, &p.ticks.min, &p.ticks.max, &p.request_ticks_p50})
                *v *= x;
            f.sections.push_back(p);
        }
    }
    return fit_sweep(f, "kernels.json");
}

// Twelve kernels k0..k11 of one CPU (the synthetic sweep's, each 2 % slower per byte than the one before),
// every one `host` times slower, and those in `slower` that much more again.
ModelFile twelve_kernels(std::uint64_t seed, double host, const std::map<std::string, double>& slower = {}) {
    std::vector<std::string> names;
    for (int i = 0; i < 12; ++i) names.push_back("k" + std::to_string(i));
    return stretched_kernels(seed, names, [&](std::size_t i, bool) {
        return host * (1 + 0.02 * static_cast<double>(i)) * (slower.count(names[i]) ? slower.at(names[i]) : 1.0);
    });
}

}  // namespace

TEST_CASE("compare sweeps: a move of the whole host is not a change of each kernel - one kernel's still is",
          "[compare]") {
    const ModelFile a = twelve_kernels(1, 1.0);
    // The next sweep on the same machine met a slower host: every kernel 5 % slower, their intervals +-0.3 %.
    const CompareResult moved = compare_models(a, twelve_kernels(2, 1.05), compare_options());
    REQUIRE(moved.rows.size() == 12);
    CHECK(moved.host_p50.known);
    CHECK(std::expm1(moved.host_p50.shift) == Approx(0.05).epsilon(0.05));
    CHECK(moved.changed() == 0);
    CHECK(row_of(moved, "k5").p50_cpb.rel == Approx(0.05).epsilon(0.05));
    CHECK(std::abs(row_of(moved, "k5").p50_cpb.beyond_host) < 0.01);
    bool said = false;
    for (const std::string& n : moved.notes)
        said = said || (n.rfind("p50 c/B: the variants moved by +", 0) == 0 && n.find("(12 variants)") != n.npos);
    CHECK(said);
    CHECK(to_json(moved)["host_move"]["p50_cycles_per_byte"]["known"] == true);
    // Each sweep's memory probe, where both recorded one: a note sets them against each other.
    CHECK(std::none_of(moved.notes.begin(), moved.notes.end(),
                       [](const std::string& n) { return n.rfind("memory probe:", 0) == 0; }));
    ModelFile a_mem = a, b_mem = twelve_kernels(2, 1.05);
    a_mem.memory_p50_ticks = 2000;
    b_mem.memory_p50_ticks = 2100;
    a_mem.memory_bytes = b_mem.memory_bytes = 8192;
    a_mem.tsc_hz = b_mem.tsc_hz = 2e9;
    const CompareResult with_memory = compare_models(a_mem, b_mem, compare_options());
    CHECK(std::any_of(with_memory.notes.begin(), with_memory.notes.end(), [](const std::string& n) {
        return n.rfind("memory probe: a read in no cache took 1000.0 ns in A and 1050.0 ns in B", 0) == 0 &&
               n.find("(+5.0 %)") != n.npos;
    }));
    CHECK(to_json(with_memory)["b"]["memory_p50_ns"] == Approx(1050));
    CHECK(to_json(moved)["b"]["memory_p50_ns"].is_null());
    // The same host move, and k3 20 % slower on top of it: k3 alone is slower, by 20 % beyond the host's move.
    const CompareResult k3 = compare_models(a, twelve_kernels(3, 1.05, {{"k3", 1.2}}), compare_options());
    CHECK(k3.changed() == 1);
    const CompareRow& r3 = row_of(k3, "k3");
    CHECK(r3.p50_cpb.verdict == "slower");
    CHECK(r3.p50_cpb.rel == Approx(0.26).epsilon(0.02));
    CHECK(r3.p50_cpb.beyond_host == Approx(0.2).epsilon(0.02));
    CHECK_THAT(r3.verdict, Catch::Contains("beyond the host's move"));
    const std::vector<std::string> reg = regressions(k3, 15);
    REQUIRE_FALSE(reg.empty());
    CHECK_THAT(reg[0], Catch::StartsWith("k3: p50 c/B +2") && Catch::Contains("beyond the host's move"));
    CHECK(regressions(k3, 22).size() <= 1);  // +26 % itself, but +20 % beyond the host: not over 22 % (p50)
    // Between two CPUs (another model of the same brand) the common move is what is compared: each kernel keeps
    // its own, and all twelve are slower.
    ModelFile other = twelve_kernels(4, 1.05);
    other.cpu["model"] = 207;
    const CompareResult two = compare_models(a, other, compare_options());
    CHECK_FALSE(two.host_p50.known);
    CHECK(two.changed() == 12);
}

namespace {

// Twelve kernels c0..c11 whose cold sections cost what their hot ones do (they wait on no memory) and twelve
// m0..m11 whose cold ones cost 1.5-2.6 times as much per byte (memory shares 0.33-0.62); in B every cold
// section is `memory` x its share slower again (the host's memory), and those in `slower` that much more.
ModelFile memory_kernels(std::uint64_t seed, double memory, const std::map<std::string, double>& slower = {}) {
    std::vector<std::string> names;
    for (int i = 0; i < 24; ++i) names.push_back((i >= 12 ? "m" : "c") + std::to_string(i % 12));
    return stretched_kernels(seed, names, [&](std::size_t i, bool cold) {
        const double cold_per_hot = i >= 12 ? 1.5 + 0.1 * static_cast<double>(i % 12) : 1.0;
        const double share = 1 - 1 / cold_per_hot;  // the synthetic cold line is 1.1 x the hot
        return (1 + 0.02 * static_cast<double>(i % 12)) * (cold ? cold_per_hot / 1.1 * (1 + memory * share) : 1.0) *
               (slower.count(names[i]) ? slower.at(names[i]) : 1.0);
    });
}

}  // namespace

TEST_CASE(
    "compare sweeps: the host's memory moves cold sections by their memory share - a compute kernel's "
    "change is judged by the compute kernels' scatter",
    "[compare]") {
    const ModelFile a = memory_kernels(1, 0.0);
    // B met a slower memory: each cold section 20 % x its memory share slower; the compute kernels did not move.
    const CompareResult moved = compare_models(a, memory_kernels(2, 0.2), compare_options());
    REQUIRE(moved.rows.size() == 24);
    CHECK(row_of(moved, "c4").memory_share == Approx(0).margin(0.01));
    // m0 waits a third of its cold time in A, and 1 - 1 / (1.5 x 1.067) in B: the mean of the two.
    CHECK(row_of(moved, "m0").memory_share == Approx((1 / 3.0 + (1 - 1 / 1.6)) / 2).epsilon(0.02));
    const HostMove& h = moved.host_p50;
    REQUIRE(h.known);
    CHECK(h.memory_known);
    CHECK(h.memory_rows == 12);
    CHECK(std::abs(h.shift) < 0.005);
    CHECK(std::expm1(h.memory) == Approx(0.2).epsilon(0.15));
    CHECK(h.sd < 0.01);
    CHECK(moved.changed() == 0);
    CHECK(std::abs(row_of(moved, "m11").p50_cpb.beyond_host) < 0.01);
    CHECK(row_of(moved, "m11").p50_cpb.rel > 0.1);
    CHECK(std::any_of(moved.notes.begin(), moved.notes.end(), [](const std::string& n) {
        return n.rfind("p50 c/B: the variants that wait on no memory moved by", 0) == 0 &&
               n.find("(12 of 24 variants wait 5 % of it or more)") != n.npos;
    }));
    const nlohmann::json j = to_json(moved);
    CHECK(j["host_move"]["p50_cycles_per_byte"]["memory"]["known"] == true);
    CHECK(j["rows"][0]["memory_share"].is_number());
    // The same memory move, and c3 6 % slower: flagged by the compute kernels' scatter, not the memory-bound ones'.
    const CompareResult c3 = compare_models(a, memory_kernels(3, 0.2, {{"c3", 1.06}}), compare_options());
    CHECK(c3.changed() == 1);
    CHECK(row_of(c3, "c3").p50_cpb.verdict == "slower");
    CHECK(row_of(c3, "c3").p50_cpb.beyond_host == Approx(0.06).epsilon(0.15));
    // One median for all (no hot lines, so no shares): the memory rows' spread hides it.
    std::vector<const Change*> changes;
    for (const CompareRow& row : c3.rows) changes.push_back(&row.p50_cpb);
    const HostMove one = host_move(changes);
    CHECK_FALSE(one.memory_known);
    CHECK(one.sd > 0.02);
}
