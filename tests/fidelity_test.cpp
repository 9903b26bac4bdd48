// SPDX-License-Identifier: MIT
// Fidelity to the kernel: thresholds with the state save paid as the kernel pays it
// (--save-every), what each threshold is made of, and upstream's thresholds beside ours.
#include <algorithm>
#include <cmath>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "check.hpp"
#include "fit_sweep.hpp"
#include "header.hpp"
#include "model_json.hpp"
#include "recommend.hpp"
#include "recommendation_json.hpp"
#include "render.hpp"
#include "selection.hpp"
#include "sweep_file.hpp"
#include "thresholds.hpp"

using namespace fputune;

namespace {

constexpr double kRatio = 1.5;  // core cycles per TSC tick of the synthetic sweep

// An empty sweep of a test CPU at kRatio core cycles per tick.
SweepFile test_sweep() {
    SweepFile f;
    f.tool_version = f.tool_commit = "test";
    f.date = "2026-01-01T00:00:00Z";
    f.cpu = {{"brand", "Test CPU"}, {"vendor", "Test"}};
    f.tsc_hz = 2e9;
    f.core_per_tsc = f.core_per_tsc_end = kRatio;
    return f;
}

// A sweep of poly1305-avx2 (16-byte blocks: sections 2000 + 0.8 n ticks) and poly1305-scalar, with
// one-shot costs in ticks: scalar 50 + 4n, SIMD 300 + n without a save, and `save` more with ymm dirty
// (no "none" points when with_none is false).
SweepFile sweep(double save, bool with_none) {
    SweepFile f = test_sweep();
    f.kernels = {{"poly1305-avx2", "poly1305", "avx2", "fputune", 16, true},
                 {"poly1305-scalar", "poly1305", "scalar", "fputune", 16, false}};
    for (const char* cache : {"hot", "cold"})
        for (std::uint64_t n = 16; n <= 1 << 20; n *= 2) {
            PointStats s;
            s.samples = 100;
            s.p50 = 2000 + 0.8 * static_cast<double>(n);
            s.p10 = s.min = s.p50 * 0.98;
            s.p90 = s.p50 * 1.05;
            s.p99 = s.p999 = s.max = s.p50 * 1.2;
            f.sections.push_back({"poly1305-avx2", cache, n, s, s.p50, true, {}, {}});
        }
    for (std::uint64_t n = 16; n <= 4096; n += 16) {
        PointStats s;
        s.samples = 10;
        s.p50 = 50 + 4.0 * static_cast<double>(n);
        f.thresholds.push_back({"poly1305-scalar", "none", n, s, {}});
        s.p50 = 300 + 1.0 * static_cast<double>(n) + save;
        f.thresholds.push_back({"poly1305-avx2", "ymm", n, s, {}});
        if (!with_none) continue;
        s.p50 = 300 + 1.0 * static_cast<double>(n);
        f.thresholds.push_back({"poly1305-avx2", "none", n, s, {}});
    }
    return f;
}

RecommendOptions options(std::uint64_t save_every) {
    RecommendOptions o;
    o.question.budget_s = 30e-6;
    o.save_every = save_every;
    return o;
}

const AlgorithmRow& poly1305(const Recommendation& r) {
    REQUIRE(r.algorithms.size() == 1);
    return r.algorithms[0];
}

}  // namespace

TEST_CASE("save-every: the threshold with the state save paid by one one-shot in N", "[fidelity]") {
    // Save 600 ticks: every one-shot pays -> 50 + 4n > 900 + n from n = 284 (-> 288, 18 blocks);
    // one in 2 -> 600 + n: from 184 (-> 192); none -> 300 + n: from 84 (-> 96).
    const ModelFile m = fit_sweep(sweep(600, true), "s.json");
    const SimdThreshold* ymm = nullptr;
    for (const auto& t : m.thresholds)
        if (t.kernel == "poly1305-avx2" && t.dirty == Dirty::ymm) ymm = &t;
    REQUIRE(ymm);
    CHECK(ymm->save_from == "threshold points");
    CHECK(ymm->save_cycles == Approx(600 * kRatio));
    CHECK(ymm->bytes == 288);
    CHECK(amortised(*ymm, 1).bytes == 288);
    CHECK(amortised(*ymm, 2).bytes == 192);
    CHECK(amortised(*ymm, 2).save_every == 2);
    CHECK(amortised(*ymm, kSaveNever).bytes == 96);

    const Recommendation every = recommend({m}, options(1));
    CHECK(poly1305(every).threshold->bytes == 288);
    const Recommendation half = recommend({m}, options(2));
    CHECK(poly1305(half).threshold->bytes == 192);
    CHECK(poly1305(half).threshold_every->bytes == 288);
    CHECK(poly1305(half).threshold_none->bytes == 96);
    CHECK(half.variants[0].bound.threshold->bytes == 192);
    // The default: one save in 193 (the laptop trace), 600 / 193 ticks more than none.
    const Recommendation trace = recommend({m}, options(kTraceSaveEvery));
    CHECK(trace.options.save_every == 193);
    CHECK(poly1305(trace).threshold->bytes == 96);
    CHECK(poly1305(trace).threshold->save_every == 193);
    // --dirty none: the unsaved points, whatever --save-every says.
    RecommendOptions none = options(1);
    none.dirty = Dirty::none;
    CHECK(poly1305(recommend({m}, none)).threshold->dirty == Dirty::none);
    CHECK(poly1305(recommend({m}, none)).threshold->bytes == 96);

    RecommendOptions zero = options(0);
    CHECK_THROWS_WITH(recommend({m}, zero), Catch::Contains("--save-every 0"));
}

TEST_CASE("save-every: without unsaved points the save comes from the XSAVE probe", "[fidelity]") {
    SweepFile f = sweep(600, false);
    f.cpu["xsave"] = {
        {"costs", {{{"dirty", "xmm"}, {"pair_ticks", 100.0}}, {{"dirty", "ymm"}, {"pair_ticks", 400.0}}}}};
    const ModelFile m = fit_sweep(f, "s.json");
    REQUIRE(m.thresholds.size() == 1);
    CHECK(m.thresholds[0].save_from == "xsave probe");
    CHECK(m.thresholds[0].save_cycles == Approx(400 * kRatio));
    // One in 2 pays 400: 900 - 200 + n against 50 + 4n -> from 217 (-> 224).
    CHECK(amortised(m.thresholds[0], 2).bytes == 224);
    // Neither unsaved points nor a probe: nothing to take off, every one-shot pays.
    const ModelFile bare = fit_sweep(sweep(600, false), "s.json");
    CHECK(bare.thresholds[0].save_cycles == 0);
    CHECK(amortised(bare.thresholds[0], 193).bytes == 288);
}

TEST_CASE("threshold parts: save, SIMD setup and per-byte gap explain the break-even", "[fidelity]") {
    const ModelFile m = fit_sweep(sweep(600, true), "s.json");
    const Recommendation r = recommend({m}, options(1));
    const AlgorithmRow& a = poly1305(r);
    REQUIRE(a.threshold_parts);
    CHECK(a.threshold_parts->save_cycles == Approx(600 * kRatio));
    CHECK(a.threshold_parts->setup_cycles == Approx(250 * kRatio).epsilon(0.01));
    CHECK(a.threshold_parts->gap_cycles_per_byte == Approx(3 * kRatio).epsilon(0.01));
    CHECK(a.threshold_parts->break_even_bytes == Approx(850.0 / 3).epsilon(0.01));
    CHECK(a.upstream_simd_min == "288");
    const std::string table = render_table(r);
    CHECK_THAT(table, Catch::Contains("SIMD thresholds against upstream's"));
    CHECK_THAT(table, Catch::Contains("paid by every one-shot (--save-every 1)"));
    CHECK_THAT(table, Catch::Contains("288 B"));
    const nlohmann::json j = to_json(r);
    CHECK(j["inputs"]["save_every"] == 1);
    CHECK(j["algorithms"][0]["upstream_simd_min"] == "288");
    CHECK(j["algorithms"][0]["simd_threshold_none_pays"]["bytes"] == 96);
    CHECK(j["algorithms"][0]["simd_threshold_parts"]["break_even_bytes"].get<double>() ==
          Approx(850.0 / 3).epsilon(0.01));
    const std::string header = render_header(recommend({m}, options(2)), "limits.h");
    CHECK_THAT(header, Catch::Contains("The state save is paid by one one-shot in 2 (--save-every 2)."));
    CHECK_THAT(header, Catch::Contains("#define FPUTUNE_POLY1305_SIMD_MIN_BYTES 192U /* poly1305-avx2 vs "
                                       "poly1305-scalar, ymm dirty, save 1 in 2 */"));
}

TEST_CASE("save-every: the curve survives a model file, an older file keeps its threshold", "[fidelity]") {
    const ModelFile m = fit_sweep(sweep(600, true), "s.json");
    nlohmann::json j = to_json(m);
    const ModelFile back = model_from_json(j, "m.json");
    CHECK(poly1305(recommend({back}, options(2))).threshold->bytes == 192);
    for (auto& t : j["thresholds"]) t.erase("curve");
    const ModelFile old = model_from_json(j, "old.json");
    const Recommendation r = recommend({old}, options(2));  // the row below refers into it
    const AlgorithmRow& a = poly1305(r);
    CHECK(a.threshold->bytes == 288);  // as fitted: every one-shot paid
    CHECK_FALSE(a.threshold_parts);
    nlohmann::json bad = to_json(m);
    bad["thresholds"][0]["curve"]["simd_cycles"].erase(0);
    CHECK_THROWS_WITH(model_from_json(bad, "bad.json"),
                      Catch::Contains("same length") || Catch::Contains("one length"));
}

namespace {

// sha256 in three variants: shani 1 tick/B, avx2 4, ssse3 8 (sections a + b·n, both caches), on a CPU
// whose usable features are `usable`.
SweepFile sha256_sweep(const std::vector<std::string>& usable) {
    SweepFile f;
    f.tool_version = f.tool_commit = "test";
    f.date = "2026-01-01T00:00:00Z";
    f.cpu = {{"brand", "Test CPU"},
             {"vendor", "GenuineIntel"},
             {"family", 6},
             {"model", 0xcf},
             {"features", nlohmann::json::array()}};
    for (const char* feature : {"ssse3", "avx", "avx2", "bmi2", "sha"})
        f.cpu["features"].push_back(
            {{"name", feature}, {"usable", std::find(usable.begin(), usable.end(), feature) != usable.end()}});
    f.tsc_hz = 2e9;
    f.core_per_tsc = f.core_per_tsc_end = 1;
    const std::vector<std::pair<std::string, double>> variants = {
        {"sha256-shani", 1}, {"sha256-avx2", 4}, {"sha256-ssse3", 8}};
    for (const auto& [kernel, b] : variants) {
        f.kernels.push_back({kernel, "sha256", kernel.substr(7), "fputune", 64, true});
        for (const char* cache : {"hot", "cold"})
            for (std::uint64_t n = 64; n <= 1 << 20; n *= 2) {
                PointStats s;
                s.samples = 100;
                s.p50 = 1000 + b * static_cast<double>(n);
                s.p10 = s.min = s.p50 * 0.98;
                s.p90 = s.p50 * 1.05;
                s.p99 = s.p999 = s.max = s.p50 * 1.1;
                f.sections.push_back({kernel, cache, n, s, s.p50, true, {}, {}});
            }
    }
    return f;
}

RecommendOptions policy(PerAlgorithm p) {
    RecommendOptions o;
    o.question.budget_s = 30e-6;
    o.per_algorithm = p;
    return o;
}

std::uint64_t limit_of(const Recommendation& r, const std::string& kernel) {
    for (const auto& row : r.variants)
        if (row.bound.kernel == kernel) return row.bound.bytes;
    FAIL("no variant " << kernel);
    return 0;
}

}  // namespace

TEST_CASE("per-algorithm: the kernel's own choice of variant from the CPU features", "[fidelity]") {
    const std::vector<std::string> have = {"sha256-shani", "sha256-avx2", "sha256-avx", "sha256-ssse3"};
    nlohmann::json cpu = sha256_sweep({"ssse3", "avx", "avx2", "bmi2", "sha"}).cpu;
    CHECK(selected_variant("sha256", cpu, have) == "sha256-shani");
    cpu = sha256_sweep({"ssse3", "avx", "avx2", "bmi2"}).cpu;
    CHECK(selected_variant("sha256", cpu, have) == "sha256-avx2");
    cpu = sha256_sweep({"ssse3", "avx", "avx2"}).cpu;  // AVX2 without BMI2: the kernel's avx driver
    CHECK(selected_variant("sha256", cpu, have) == "sha256-avx");
    std::string why;
    CHECK(selected_variant("sha256", cpu, {"sha256-avx2", "sha256-ssse3"}, &why) == "sha256-ssse3");
    CHECK_THAT(why, Catch::Contains("sha256-avx"));
    CHECK_FALSE(selected_variant("fake", cpu, {"fake-avx2"}, &why));
    CHECK_THAT(why, Catch::Contains("no table"));
    CHECK_FALSE(selected_variant("sha256", nlohmann::json{{"brand", "x"}}, have, &why));
    CHECK_THAT(why, Catch::Contains("no CPU features"));
    // poly1305: AVX-512 except on Skylake-X (family 6 model 0x55).
    nlohmann::json skx = {
        {"vendor", "GenuineIntel"}, {"family", 6}, {"model", 0x55}, {"features", nlohmann::json::array()}};
    for (const char* feature : {"avx", "avx2", "avx512f"})
        skx["features"].push_back({{"name", feature}, {"usable", true}});
    const std::vector<std::string> poly = {"poly1305-ifma", "poly1305-avx512", "poly1305-avx2", "poly1305-avx"};
    CHECK(selected_variant("poly1305", skx, poly) == "poly1305-avx2");
    skx["model"] = 0x8f;
    CHECK(selected_variant("poly1305", skx, poly) == "poly1305-avx512");
    CHECK(parse_per_algorithm("selected") == PerAlgorithm::selected);
    CHECK_FALSE(parse_per_algorithm("fastest"));
    // Every table row names variants of its own algorithm, each with at least one feature.
    for (const auto& s : kernel_selections())
        for (const auto& c : s.order) {
            CHECK(c.variant.rfind(s.algorithm + "-", 0) == 0);
            CHECK_FALSE(c.features.empty());
        }
}

TEST_CASE("per-algorithm: selected or slowest bounds the algorithm's constant, and the header says which",
          "[fidelity]") {
    const ModelFile sha = fit_sweep(sha256_sweep({"ssse3", "avx", "avx2", "bmi2", "sha"}), "sha.json");
    const Recommendation slowest = recommend({sha}, policy(PerAlgorithm::slowest));
    const Recommendation selected = recommend({sha}, policy(PerAlgorithm::selected));
    REQUIRE(slowest.algorithms.size() == 1);
    REQUIRE(selected.algorithms.size() == 1);
    CHECK(slowest.algorithms[0].kernel == "sha256-ssse3");
    CHECK(slowest.algorithms[0].bytes == limit_of(slowest, "sha256-ssse3"));
    CHECK(selected.algorithms[0].kernel == "sha256-shani");
    CHECK(selected.algorithms[0].bytes == limit_of(selected, "sha256-shani"));
    CHECK(selected.algorithms[0].bytes > slowest.algorithms[0].bytes);
    CHECK(selected.algorithms[0].policy == PerAlgorithm::selected);
    const std::string h = render_header(selected, "limits.h");
    CHECK_THAT(h, Catch::Contains("--per-algorithm selected"));
    CHECK_THAT(h, Catch::Contains("bound by sha256-shani (selected)"));
    CHECK_THAT(render_header(slowest, "limits.h"), Catch::Contains("--per-algorithm slowest"));
    CHECK(to_json(selected)["algorithms"][0]["selected"][0] == "sha256-shani");
    CHECK(to_json(selected)["inputs"]["per_algorithm"] == "selected");
    // Two machines: each one's own choice, then the smaller (the machine without SHA-NI runs avx2).
    const ModelFile old = fit_sweep(sha256_sweep({"ssse3", "avx", "avx2", "bmi2"}), "old.json");
    ModelFile renamed = old;
    renamed.machine = "Old CPU";
    const Recommendation both = recommend({sha, renamed}, policy(PerAlgorithm::selected));
    CHECK(both.algorithms[0].kernel == "sha256-avx2");
    CHECK(both.algorithms[0].selected.size() == 2);
    // A CPU without a feature list: the slowest variant stands in, and says so.
    SweepFile bare = sha256_sweep({});
    bare.cpu.erase("features");
    const Recommendation fallback = recommend({fit_sweep(bare, "bare.json")}, policy(PerAlgorithm::selected));
    CHECK(fallback.algorithms[0].kernel == "sha256-ssse3");
    CHECK(fallback.algorithms[0].policy == PerAlgorithm::slowest);
    CHECK_THAT(fallback.algorithms[0].selection_note, Catch::Contains("slowest variant stands in"));
    // Three sweeps of that CPU: the reason once, not once per sweep; two CPUs with different reasons: each named.
    const ModelFile bare_model = fit_sweep(bare, "bare.json");
    ModelFile again = bare_model, third = bare_model;
    again.source = "bare2.json";
    third.source = "bare3.json";
    const std::string note =
        recommend({bare_model, again, third}, policy(PerAlgorithm::selected)).algorithms[0].selection_note;
    INFO(note);
    const std::string why = fallback.algorithms[0].selection_note;
    CHECK(note == why);
    ModelFile other = fit_sweep(sha256_sweep({"ssse3", "avx", "avx2", "bmi2", "sha"}), "other.json");
    other.machine = "Other CPU";  // its choice is known: the note names the machine whose choice is not
    const std::string two = recommend({bare_model, other}, policy(PerAlgorithm::selected)).algorithms[0].selection_note;
    INFO(two);
    CHECK(two.find(bare_model.machine + ": the input records no CPU features") != std::string::npos);
    CHECK(two.find("Other CPU") == std::string::npos);
}

TEST_CASE("per-algorithm: check judges an algorithm constant on the variant its policy names", "[fidelity]") {
    const ModelFile sha = fit_sweep(sha256_sweep({"ssse3", "avx", "avx2", "bmi2", "sha"}), "sha.json");
    const Recommendation selected = recommend({sha}, policy(PerAlgorithm::selected));
    const std::string header = render_header(selected, "limits.h");
    // Its own header passes under its own policy; under slowest the sha-ni-sized constant is over budget on ssse3.
    const CheckReport as_selected = check_header(header, "limits.h", {sha}, policy(PerAlgorithm::selected));
    CHECK(as_selected.all_pass());
    const CheckReport as_slowest = check_header(header, "limits.h", {sha}, policy(PerAlgorithm::slowest));
    CHECK_FALSE(as_slowest.all_pass());
    bool judged_on_ssse3 = false;
    for (const auto& c : as_slowest.results) judged_on_ssse3 |= c.is_algorithm && c.kernel == "sha256-ssse3" && !c.pass;
    CHECK(judged_on_ssse3);
}

TEST_CASE("crc32c: the threshold is measured against the kernel's one-chain crc32q path, not our 3-stream one",
          "[fidelity]") {
    // One-shot costs in ticks: crc32c-sse42 (one chain) 20 + 0.3n, crc32c-sse42-3stream 40 + 0.1n,
    // crc32c-3way 100 + 0.1n. Against the one chain the 3-way pays from n > 400 (-> 408, 8-byte
    // blocks); against the three-stream code it never would.
    SweepFile f = test_sweep();
    f.kernels = {{"crc32c-3way", "crc32c", "3way", "fputune", 8, true},
                 {"crc32c-sse42-3stream", "crc32c", "sse42-3stream", "fputune", 8, false},
                 {"crc32c-sse42", "crc32c", "sse42", "fputune", 8, false}};
    for (std::uint64_t n = 8; n <= 2048; n += 8) {
        PointStats s;
        s.samples = 10;
        const auto x = static_cast<double>(n);
        s.p50 = 20 + 0.3 * x;
        f.thresholds.push_back({"crc32c-sse42", "none", n, s, {}});
        s.p50 = 40 + 0.1 * x;
        f.thresholds.push_back({"crc32c-sse42-3stream", "none", n, s, {}});
        s.p50 = 100 + 0.1 * x;
        f.thresholds.push_back({"crc32c-3way", "none", n, s, {}});
    }
    const auto ts = compute_thresholds(f);
    REQUIRE(ts.size() == 1);
    CHECK(ts[0].kernel == "crc32c-3way");
    CHECK(ts[0].scalar_kernels == "crc32c-sse42");
    CHECK(ts[0].kind == ThresholdKind::bytes);
    CHECK(ts[0].bytes == 408);
    // Without the kernel's path in the sweep, the best no-FPU kernel stands in (and the 3-way never pays).
    std::erase_if(f.thresholds, [](const ThresholdPoint& p) { return p.kernel == "crc32c-sse42"; });
    const auto best = compute_thresholds(f);
    REQUIRE(best.size() == 1);
    CHECK(best[0].scalar_kernels == "crc32c-sse42-3stream");
    CHECK(best[0].kind == ThresholdKind::never);
}
