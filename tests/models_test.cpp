// SPDX-License-Identifier: MIT
// Models, recommendations, header and check on synthetic sweeps and the reference data (no CPU needed),
// then the CLI on the same inputs (the built binary beside this test binary).
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "atomic_file.hpp"
#include "check.hpp"
#include "cli_test_util.hpp"
#include "fit.hpp"
#include "header.hpp"
#include "model_file.hpp"
#include "recommend.hpp"
#include "recommendation_json.hpp"
#include "render.hpp"
#include "sweep_file.hpp"

using namespace fputune;
using namespace fputune::cli_test;

namespace {

constexpr double kCorePerTsc = 1.4;

// A sweep of one SIMD kernel "fake-avx2" (64-byte blocks) with ticks = a + b·n (+ relative noise),
// p90 = 1.05 · p50, both caches, and a no-FPU "fake-generic" for thresholds.
SweepFile synthetic_sweep(const std::string& brand, double a, double b, double noise = 0.003, std::uint64_t seed = 1) {
    SweepFile f;
    f.tool_version = "test";
    f.tool_commit = "test";
    f.date = "2025-01-01T00:00:00Z";
    f.cpu = {{"brand", brand}, {"vendor", "Test"}};
    f.tsc_hz = 2.6e9;
    f.core_per_tsc = f.core_per_tsc_end = kCorePerTsc;
    f.kernels = {{"fake-avx2", "fake", "avx2", "fputune", 64, true},
                 {"fake-generic", "fake", "generic", "fputune", 64, false}};
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-noise, noise);
    for (const char* cache : {"hot", "cold"}) {
        const double scale = std::string(cache) == "cold" ? 1.1 : 1.0;
        for (double n = 64; n <= 1 << 20; n *= std::pow(2.0, 0.25)) {
            std::uint64_t bytes = static_cast<std::uint64_t>(std::round(n / 64)) * 64;
            PointStats s;
            s.samples = 100;
            s.p50 = (a + b * scale * static_cast<double>(bytes)) * (1 + u(rng));
            s.p90 = s.p50 * 1.05;
            s.p10 = s.min = s.p50 * 0.98;
            s.p99 = s.p999 = s.max = s.p50 * 1.2;
            f.sections.push_back(
                {"fake-avx2", cache, bytes, s, s.p50, true, {}, {}});  // no per-sample cycles, no rounds
        }
    }
    return f;
}

void add_threshold_points(SweepFile& f, double scalar_a, double scalar_b, double simd_a, double simd_b) {
    for (std::uint64_t n = 1; n <= 4096; n += (n < 512 ? 1 : 64)) {
        PointStats s;
        s.samples = 10;
        s.p50 = scalar_a + scalar_b * static_cast<double>(n);
        f.thresholds.push_back({"fake-generic", "none", n, s, {}});
        s.p50 = simd_a + simd_b * static_cast<double>(n);
        f.thresholds.push_back({"fake-avx2", "ymm", n, s, {}});
    }
}

RecommendOptions options(double budget_s, double f_hz = 1e9) {
    RecommendOptions o;
    o.question.budget_s = budget_s;
    o.question.min_freq_hz = f_hz;
    return o;
}

const VariantResult& variant(const Recommendation& r, const std::string& kernel) {
    for (const auto& row : r.variants)
        if (row.bound.kernel == kernel) return row.bound;
    FAIL("no variant " << kernel);
    throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("enums: each name parses back to its value, other spellings do not parse", "[models][enums]") {
    for (Round v : {Round::block, Round::kib, Round::pow2}) CHECK(parse_round(name(v)) == v);
    for (Cache v : {Cache::hot, Cache::cold}) CHECK(parse_cache(name(v)) == v);
    for (Quantile v : {Quantile::p90, Quantile::p99}) CHECK(parse_quantile(name(v)) == v);
    for (ThresholdKind v : {ThresholdKind::bytes, ThresholdKind::always, ThresholdKind::never})
        CHECK(parse_threshold_kind(name(v)) == v);
    for (Dirty v : {Dirty::none, Dirty::xmm, Dirty::ymm, Dirty::zmm}) CHECK(parse_dirty_state(name(v)) == v);
    // The spellings the CLI and the files have always used.
    CHECK(name(Round::kib) == "kib");
    CHECK(name(Cache::cold) == "cold");
    CHECK(name(Quantile::p99) == "p99");
    CHECK(name(ThresholdKind::always) == "always");
    CHECK(name(Dirty::zmm) == "zmm");
    for (const char* bad : {"", "Block", "KiB", "octets", "block "}) CHECK_FALSE(parse_round(bad));
    for (const char* bad : {"", "warm", "HOT", "both"}) CHECK_FALSE(parse_cache(bad));
    for (const char* bad : {"", "p98", "P99", "99"}) CHECK_FALSE(parse_quantile(bad));
    for (const char* bad : {"", "byte", "sometimes"}) CHECK_FALSE(parse_threshold_kind(bad));
    for (const char* bad : {"", "all", "amx", "YMM"}) CHECK_FALSE(parse_dirty_state(bad));
    CHECK(other(Cache::hot) == Cache::cold);
    CHECK(other(Cache::cold) == Cache::hot);
}

TEST_CASE("files with a value outside an enum's names: one message naming the value", "[models][enums]") {
    SweepFile f = synthetic_sweep("Test CPU", 2000, 0.8);
    add_threshold_points(f, 50, 4, 600, 1);
    SweepFile bad = f;
    bad.sections[0].cache = "warm";
    CHECK_THROWS_WITH(fit_sweep(bad, "s.json"), Catch::Contains("s.json") && Catch::Contains("cache 'warm'"));
    bad = f;
    bad.thresholds[0].dirty = "amx";
    CHECK_THROWS_WITH(fit_sweep(bad, "s.json"), Catch::Contains("s.json") && Catch::Contains("dirty 'amx'"));
    bad = f;
    bad.dirty = "amx";
    CHECK_THROWS_WITH(fit_sweep(bad, "s.json"), Catch::Contains("s.json") && Catch::Contains("dirty 'amx'"));
    const nlohmann::json good = to_json(fit_sweep(f, "s.json"));
    nlohmann::json j = good;
    j["models"][0]["cache"] = "warm";
    CHECK_THROWS_WITH(model_from_json(j, "m.json"), Catch::Contains("m.json") && Catch::Contains("cache 'warm'"));
    j = good;
    j["thresholds"][0]["kind"] = "sometimes";
    CHECK_THROWS_WITH(model_from_json(j, "m.json"), Catch::Contains("kind 'sometimes'"));
    j = good;
    j["thresholds"][0]["dirty"] = "amx";
    CHECK_THROWS_WITH(model_from_json(j, "m.json"), Catch::Contains("dirty 'amx'"));
    j = good;
    j["source"]["dirty"] = "amx";
    CHECK_THROWS_WITH(model_from_json(j, "m.json"), Catch::Contains("dirty 'amx'"));
    j["source"]["dirty"] = "";  // not stated (a reference CSV's model): no dirty state, as before
    CHECK_FALSE(model_from_json(j, "m.json").dirty);
}

TEST_CASE("fit recovers A and B of a synthetic line within 1 %", "[models]") {
    // The sweep in ticks (no per-sample cycles); the model in core cycles: ticks x its core/TSC ratio.
    const double a = 2000 * kCorePerTsc, b = 0.8 * kCorePerTsc;
    const ModelFile m = fit_sweep(synthetic_sweep("Test CPU", 2000, 0.8), "synthetic");
    const CacheModel* hot = m.model("fake-avx2", Cache::hot);
    REQUIRE(hot);
    CHECK(hot->p50.a == Approx(a).epsilon(0.01));
    CHECK(hot->p50.b == Approx(b).epsilon(0.01));
    CHECK(hot->p50.a_lo <= a);
    CHECK(hot->p50.a_hi >= a);
    CHECK(hot->p50.b_lo <= b);
    CHECK(hot->p50.b_hi >= b);
    CHECK(hot->p50.r2 > 0.99);
    CHECK(hot->p50.straight);
    CHECK(hot->p50.max_rel_residual < 0.01);
    CHECK(hot->p90.b == Approx(b * 1.05).epsilon(0.01));
    const CacheModel* cold = m.model("fake-avx2", Cache::cold);
    REQUIRE(cold);
    CHECK(cold->p50.b == Approx(b * 1.1).epsilon(0.01));
    CHECK(m.machine == "Test CPU");
    CHECK(m.core_per_tsc == kCorePerTsc);
}

TEST_CASE("fit uses per-sample core cycles when the sweep has them, at the median probed ratio", "[models]") {
    const double a = 2000, b = 0.8;
    SweepFile f = synthetic_sweep("Test CPU", a, b);
    // The same points in core cycles (the truth x 1.6); the raw ticks as if the clock had moved 10 %.
    f.ratio_trace = {1000, 1.5, 1.55, 1.6, 1.65, 1.7};
    for (auto& p : f.sections) {
        p.cycles = scaled(p.ticks, 1 / 1.6);
        p.ticks = scaled(p.ticks, 1.1);
    }
    const ModelFile m = fit_sweep(f, "synthetic");
    CHECK(m.core_per_tsc == 1.6);
    const CacheModel* hot = m.model("fake-avx2", Cache::hot);
    REQUIRE(hot);
    // In core cycles: the per-sample cycles as they are, whatever the raw ticks say.
    CHECK(hot->p50.a == Approx(a * 1.6).epsilon(0.01));
    CHECK(hot->p50.b == Approx(b * 1.6).epsilon(0.01));
}

TEST_CASE("the bounds are fitted on short sections, long ones hit by a host's interruptions do not move them",
          "[models]") {
    const double a = 2000, b = 0.8;
    SweepFile f = synthetic_sweep("Test CPU", a, b);
    // Sections longer than kBoundFitMaxSeconds: their p90 and p99 take a 40 us stall (+30..50 %).
    for (auto& p : f.sections)
        if (p.ticks.p50 / f.tsc_hz > kBoundFitMaxSeconds) {
            p.ticks.p90 += 40e-6 * f.tsc_hz;
            p.ticks.p99_clean = p.ticks.p90;
        }
    const ModelFile m = fit_sweep(f, "synthetic");
    const CacheModel* hot = m.model("fake-avx2", Cache::hot);
    REQUIRE(hot);
    CHECK(hot->p90.b == Approx(b * 1.05 * kCorePerTsc).epsilon(0.01));  // in cycles: the ticks x core/TSC
    CHECK(hot->bound_bytes.size() < hot->bytes.size());
    CHECK(hot->bound_bytes.size() >= kBoundFitMinPoints);
    CHECK(static_cast<double>(hot->bound_bytes.back()) * b / f.tsc_hz <= kBoundFitMaxSeconds);
    CHECK(hot->p50.b == Approx(b * kCorePerTsc).epsilon(0.01));  // the p50 line still spans every size
    CHECK(hot->bytes.back() >= (1u << 20));
}

TEST_CASE("fit flags a cache-size step: a straight line does not fit", "[models]") {
    SweepFile f = synthetic_sweep("Test CPU", 2000, 0.8, 0);
    for (auto& p : f.sections)
        if (p.bytes > 256 * 1024) {
            p.ticks.p50 *= 1.6;
            p.ticks.p90 *= 1.6;
        }
    const ModelFile m = fit_sweep(f, "step");
    const CacheModel* hot = m.model("fake-avx2", Cache::hot);
    REQUIRE(hot);
    CHECK_FALSE(hot->p50.straight);
    CHECK(hot->p50.max_rel_residual > kMaxRelResidualForLine);
    CHECK_THAT(hot->p50.note, Catch::Contains("not a straight line"));
}

TEST_CASE("fit: one point hit by interruptions moves the line little (Huber reweighting)", "[models]") {
    std::vector<double> xs, ys;
    for (double n = 64; n <= 1 << 20; n *= 2) {
        xs.push_back(n);
        ys.push_back(500 + 2 * n);
    }
    ys[12] *= 1.4;  // 256 KiB, 40 % high
    const LineFit f = fit_line(xs, ys);
    CHECK(f.a == Approx(500).epsilon(0.02));
    CHECK(f.b == Approx(2).epsilon(0.02));
    CHECK_FALSE(f.straight);  // still said: the point is 40 % off the line
    CHECK(f.max_residual_bytes == 256 * 1024);
    CHECK_THAT(f.note, Catch::Contains("a cache-size step?"));
}

TEST_CASE("fit_line edge cases: exact, two points, one size", "[models]") {
    LineFit exact = fit_line({64, 128, 256, 512}, {164, 228, 356, 612});
    CHECK(exact.a == Approx(100));
    CHECK(exact.b == Approx(1));
    CHECK(exact.r2 == Approx(1));
    LineFit two = fit_line({64, 128}, {164, 228});
    CHECK(two.a == Approx(100));
    CHECK(two.a_hi == two.a);
    CHECK_THAT(two.note, Catch::Contains("two sizes"));
    LineFit one = fit_line({4096}, {8192});
    CHECK(one.a == 0);
    CHECK(one.b == Approx(2));
    CHECK_THROWS(fit_line({}, {}));
    CHECK_THROWS(fit_line({64}, {0}));
    CHECK(student_t95(1) == Approx(12.706));
    CHECK(student_t95(1000) == Approx(1.962).epsilon(0.001));
}

TEST_CASE("the recommended size is the largest that fits, one more block does not", "[models]") {
    const ModelFile m = fit_sweep(synthetic_sweep("Test CPU", 2000, 0.8), "synthetic");
    for (const char* round : {"block", "kib", "pow2"}) {
        for (double budget : {5e-6, 30e-6, 100e-6}) {
            RecommendOptions o = options(budget);
            o.round = *parse_round(round);
            const Recommendation r = recommend({m}, o);
            const VariantResult& v = variant(r, "fake-avx2");
            INFO("round " << round << ", budget " << budget);
            REQUIRE(v.fits);
            CHECK(v.cache == Cache::cold);
            const CacheModel& cm = *m.model("fake-avx2", Cache::cold);
            auto t = [&](double n) { return predict_upper_s(cm, n, o.question.min_freq_hz); };
            CHECK(v.bytes % 64 == 0);
            CHECK(t(static_cast<double>(v.bytes)) <= budget);
            CHECK(v.time_s == Approx(t(static_cast<double>(v.bytes))));
            CHECK(v.unrounded_bytes >= static_cast<double>(v.bytes));
            if (std::string(round) == "block") CHECK(t(static_cast<double>(v.bytes + 64)) > budget);
            if (std::string(round) == "kib") {
                CHECK(v.bytes % 1024 == 0);
                CHECK(t(static_cast<double>(v.bytes + 1024)) > budget);
            }
            if (std::string(round) == "pow2") {
                CHECK((v.bytes & (v.bytes - 1)) == 0);
                CHECK(t(static_cast<double>(2 * v.bytes)) > budget);
            }
            // Throughput cost A / (A + B n) on the p50 fit.
            const CacheModel& cold = *m.model("fake-avx2", Cache::cold);
            const double a = cold.p50.a, bn = cold.p50.b * static_cast<double>(v.bytes);
            CHECK(v.throughput_cost == Approx(a / (a + bn)));
        }
    }
    // Margin 2 halves the time the limit may take.
    RecommendOptions o = options(30e-6);
    o.question.margin = 2;
    CHECK(variant(recommend({m}, o), "fake-avx2").time_s <= 15e-6);
    // Hot cache on request.
    o = options(30e-6);
    o.question.cache = Cache::hot;
    CHECK(variant(recommend({m}, o), "fake-avx2").cache == Cache::hot);
}

TEST_CASE("no size fits: said per kernel, never 0", "[models]") {
    const ModelFile m = fit_sweep(synthetic_sweep("Test CPU", 2000, 0.8), "synthetic");
    const Recommendation r = recommend({m}, options(1e-9));
    const VariantResult& v = variant(r, "fake-avx2");
    CHECK_FALSE(v.fits);
    const std::string table = render_table(r);
    CHECK_THAT(table, Catch::Contains("no size fits: one block (64 B) takes"));
    CHECK_THAT(table, !Catch::Contains(" 0 B"));
    const std::string header = render_header(r, "limits.h");
    CHECK_THAT(header, Catch::Contains("/* FPUTUNE_FAKE_AVX2_FPU_BYTES: no size fits"));
    CHECK_THAT(header, !Catch::Contains("#define FPUTUNE_FAKE_AVX2_FPU_BYTES"));
    CHECK(to_json(r)["variants"][0]["bytes"].is_null());
}

TEST_CASE("header: a limit that rounding put below its own interval is said once, naming it", "[models]") {
    const ModelFile m = load_models(source_file("data/reference/elliott-2022-4k-cycles.csv"));
    Recommendation r = recommend({m}, options(30e-6, 2.2e9));
    const std::string says = "A limit is rounded down to whole blocks, its interval is not";
    // sha256-avx2: 12 736 B (199 blocks) against an interval from 12 764 B.
    std::string header = render_header(r, "limits.h");
    CHECK_THAT(header, Catch::Contains(says) && Catch::Contains(" FPUTUNE_SHA256_AVX2_FPU_BYTES,"));
    const auto at = header.find(says);
    CHECK(header.find(says, at + 1) == std::string::npos);  // once
    CHECK(at < header.find("*/\n#ifndef"));  // in the opening comment
    // Only when it happens, and only the constants it happened to.
    for (auto& row : r.variants)
        if (row.bound.kernel != "sha512-avx2") row.bound.interval_lo_bytes = static_cast<double>(row.bound.bytes);
    header = render_header(r, "limits.h");
    CHECK_THAT(header, Catch::Contains("rounding put this limit below the low\n * end of its interval") &&
                           Catch::Contains(" *   FPUTUNE_SHA512_AVX2_FPU_BYTES\n") &&
                           !Catch::Contains("FPUTUNE_SHA256_AVX2_FPU_BYTES,"));
    for (auto& row : r.variants) row.bound.interval_lo_bytes = static_cast<double>(row.bound.bytes);
    CHECK_THAT(render_header(r, "limits.h"), !Catch::Contains("rounding put"));
}

TEST_CASE("the 2022 reference CSV gives 12 764 B for sha256-avx2 and 18 537 B for sha512-avx2", "[models]") {
    const ModelFile m = load_models(source_file("data/reference/elliott-2022-4k-cycles.csv"));
    CHECK(m.machine == "Intel Cascade Lake");
    CHECK(m.core_per_tsc == 1);
    REQUIRE(m.kernel("sha256-avx2"));
    CHECK(m.kernel("sha256-avx2")->algorithm == "sha256");
    CHECK(m.kernel("sha512-avx2")->block_bytes == 128);
    CHECK(m.kernel("crc32c")->block_bytes == 8);
    CHECK(m.kernel("crct10dif")->block_bytes == 16);
    const Recommendation r = recommend({m}, options(30e-6, 2.2e9));
    // 66 000 cycles / (21 179 / 4096) = 12 764.3; / (14 584 / 4096) = 18 536.5 (the 18 537
    // divides by the per-byte cost rounded to 3.5605): within a byte of both.
    const VariantResult& sha256 = variant(r, "sha256-avx2");
    const VariantResult& sha512 = variant(r, "sha512-avx2");
    CHECK(std::abs(sha256.unrounded_bytes - 12764) <= 1);
    CHECK(std::abs(sha512.unrounded_bytes - 18537) <= 1);
    CHECK(sha256.bytes == 12736);  // 199 blocks of 64
    CHECK(sha512.bytes == 18432);  // 144 blocks of 128
    CHECK(sha256.upstream_known);
    CHECK_FALSE(sha256.upstream_bytes.has_value());  // upstream: no limit for SHA
    CHECK_FALSE(sha256.upstream_pass);
    CHECK(variant(r, "sha384-avx2").upstream_known);  // sha384 takes sha512's glue
}

TEST_CASE("is_peer: ours and the reference tables' drivers are recommended, everyone else compared with", "[models]") {
    KernelInfo k;
    for (const char* provider : {"fputune", "reference"}) {
        k.provider = provider;
        CHECK_FALSE(is_peer(k));
    }
    // An empty provider is not ours: the registry's is_peer says the same (provider != "fputune").
    for (const char* provider : {"openssl", "isal", "sodium", ""}) {
        k.provider = provider;
        CHECK(is_peer(k));
    }
    const ModelFile m = load_models(source_file("data/reference/elliott-2022-4k-cycles.csv"));
    for (const auto& info : m.kernels) CHECK_FALSE(is_peer(info));
}

TEST_CASE("several machines merge to the most conservative value and name it", "[models]") {
    const ModelFile fast = fit_sweep(synthetic_sweep("Fast CPU", 2000, 0.8, 0.003, 1), "fast.json");
    const ModelFile slow = fit_sweep(synthetic_sweep("Slow CPU", 2500, 1.2, 0.003, 2), "slow.json");
    const Recommendation alone_fast = recommend({fast}, options(30e-6));
    const Recommendation alone_slow = recommend({slow}, options(30e-6));
    for (const auto& order : {std::vector<ModelFile>{fast, slow}, std::vector<ModelFile>{slow, fast}}) {
        const Recommendation r = recommend(order, options(30e-6));
        const VariantResult& v = variant(r, "fake-avx2");
        CHECK(v.machine == "Slow CPU");
        CHECK(v.bytes == variant(alone_slow, "fake-avx2").bytes);
        CHECK(v.bytes < variant(alone_fast, "fake-avx2").bytes);
        REQUIRE(r.algorithms.size() == 1);
        CHECK(r.algorithms[0].machine == "Slow CPU");
        CHECK(r.algorithms[0].bytes == v.bytes);
        CHECK(r.machines.size() == 2);
        CHECK_THAT(render_table(r), Catch::Contains("Slow CPU") && Catch::Contains("Fast CPU"));
        CHECK_THAT(render_header(r, "limits.h"), Catch::Contains("Slow CPU"));
        CHECK(to_json(r)["variants"][0]["per_machine"].size() == 2);
    }
}

TEST_CASE("thresholds: where SIMD starts to win for every longer length", "[models]") {
    SECTION("crossing") {
        // scalar 50 + 4n, SIMD 600 + n: SIMD wins from n = 184 on, rounded up to 192 (3 blocks).
        SweepFile f = synthetic_sweep("Test CPU", 2000, 0.8);
        add_threshold_points(f, 50, 4, 600, 1);
        const auto t = compute_thresholds(f);
        REQUIRE(t.size() == 1);
        CHECK(t[0].kind == ThresholdKind::bytes);
        CHECK(t[0].bytes == 192);
        CHECK(t[0].dirty == Dirty::ymm);
        CHECK(t[0].scalar_kernels == "fake-generic");
        const Recommendation r = recommend({fit_sweep(f, "t")}, options(30e-6));
        REQUIRE(r.algorithms[0].threshold);
        CHECK(r.algorithms[0].threshold->bytes == 192);
        CHECK_THAT(render_header(r, "limits.h"), Catch::Contains("#define FPUTUNE_FAKE_SIMD_MIN_BYTES 192U"));
    }
    SECTION("never and always") {
        SweepFile never = synthetic_sweep("Test CPU", 2000, 0.8);
        add_threshold_points(never, 50, 1, 600, 1);
        auto t = compute_thresholds(never);
        REQUIRE(t.size() == 1);
        CHECK(t[0].kind == ThresholdKind::never);
        CHECK_THAT(render_header(recommend({fit_sweep(never, "t")}, options(30e-6)), "l.h"),
                   Catch::Contains("FPUTUNE_FAKE_SIMD_MIN_BYTES: the SIMD path never won"));
        SweepFile always = synthetic_sweep("Test CPU", 2000, 0.8);
        add_threshold_points(always, 600, 4, 50, 1);
        t = compute_thresholds(always);
        REQUIRE(t.size() == 1);
        CHECK(t[0].kind == ThresholdKind::always);
        CHECK(t[0].bytes == 64);
    }
    SECTION("a win then a loss again: the threshold is after the last loss") {
        SweepFile f = synthetic_sweep("Test CPU", 2000, 0.8);
        add_threshold_points(f, 50, 4, 600, 1);
        for (auto& p : f.thresholds)
            if (p.kernel == "fake-avx2" && p.bytes == 300) p.ticks.p50 = 1e6;  // one bad length
        const auto t = compute_thresholds(f);
        REQUIRE(t.size() == 1);
        CHECK(t[0].bytes == 320);  // 301 rounded up to whole blocks
    }
}

TEST_CASE("model files round-trip through JSON", "[models]") {
    SweepFile f = synthetic_sweep("Test CPU", 2000, 0.8);
    add_threshold_points(f, 50, 4, 600, 1);
    const ModelFile m = fit_sweep(f, "synthetic");
    const nlohmann::json j = to_json(m);
    CHECK(j["schema"] == kModelSchema);
    CHECK(j["source"]["clock"]["core_per_tsc"] == kCorePerTsc);
    const ModelFile back = model_from_json(j, "m.json");
    REQUIRE(back.models.size() == m.models.size());
    CHECK(back.models[0].p90.b_hi == m.models[0].p90.b_hi);
    CHECK(back.machine == "Test CPU");
    CHECK(back.thresholds.size() == 1);
    CHECK(variant(recommend({back}, options(30e-6)), "fake-avx2").bytes ==
          variant(recommend({m}, options(30e-6)), "fake-avx2").bytes);
    nlohmann::json newer = j;
    newer["schema"] = "fputune.model/3";
    CHECK_THROWS_WITH(model_from_json(newer, "m.json"), Catch::Contains("newer"));
}

TEST_CASE("a tick-only sweep is converted to core cycles once, on load: ticks x its core/TSC ratio", "[models]") {
    SweepFile ticks = synthetic_sweep("Test CPU", 2000, 0.8);
    add_threshold_points(ticks, 50, 4, 600, 1);
    // The same sweep as a newer fputune writes it: every sample in core cycles, at a steady ratio.
    SweepFile cycles = ticks;
    cycles.ratio_trace = {1000, kCorePerTsc, kCorePerTsc, kCorePerTsc, kCorePerTsc, kCorePerTsc};
    for (auto& p : cycles.sections) p.cycles = scaled(p.ticks, 1 / kCorePerTsc);
    for (auto& p : cycles.thresholds) p.cycles = scaled(p.ticks, 1 / kCorePerTsc);
    const ModelFile old_m = fit_sweep(ticks, "old.json"), new_m = fit_sweep(cycles, "new.json");
    REQUIRE(old_m.models.size() == new_m.models.size());
    for (std::size_t i = 0; i < old_m.models.size(); ++i) {
        INFO(old_m.models[i].kernel << " " << name(old_m.models[i].cache));
        for (auto line : {&CacheModel::p50, &CacheModel::p90, &CacheModel::p99}) {
            const LineFit &x = old_m.models[i].*line, &y = new_m.models[i].*line;
            CHECK(x.a == Approx(y.a).epsilon(1e-9));
            CHECK(x.b == Approx(y.b).epsilon(1e-9));
            CHECK(x.a_hi == Approx(y.a_hi).epsilon(1e-9));
            CHECK(x.b_hi == Approx(y.b_hi).epsilon(1e-9));
        }
        CHECK(old_m.models[i].bound_bytes == new_m.models[i].bound_bytes);
    }
    REQUIRE(old_m.thresholds.size() == 1);
    CHECK(old_m.thresholds[0].simd_cycles_at_max == Approx((600 + 4096) * kCorePerTsc));
    CHECK(old_m.thresholds[0].simd_cycles_at_max == Approx(new_m.thresholds[0].simd_cycles_at_max));
    CHECK(variant(recommend({old_m}, options(30e-6)), "fake-avx2").bytes ==
          variant(recommend({new_m}, options(30e-6)), "fake-avx2").bytes);
}

TEST_CASE("a fputune.model/1 file (lines in ticks) is read and converted to cycles with its core/TSC ratio",
          "[models]") {
    SweepFile f = synthetic_sweep("Test CPU", 2000, 0.8);
    add_threshold_points(f, 50, 4, 600, 1);
    const ModelFile m = fit_sweep(f, "synthetic");
    // The same model as fputune wrote it before: schema /1, every line and threshold cost in ticks.
    nlohmann::json old = to_json(m);
    CHECK(old["schema"] == "fputune.model/2");
    old["schema"] = "fputune.model/1";
    const double ratio = old["source"]["clock"]["core_per_tsc"].get<double>();
    for (auto& cm : old["models"])
        for (const char* q : {"p50", "p90", "p99"}) {
            nlohmann::json& l = cm[q];
            l["a_ticks"] = l["a_cycles"].get<double>() / ratio;
            l["b_ticks_per_byte"] = l["b_cycles_per_byte"].get<double>() / ratio;
            l.erase("a_cycles");
            l.erase("b_cycles_per_byte");
            for (const char* ci : {"a_ci95", "b_ci95"})
                l[ci] = {l[ci][0].get<double>() / ratio, l[ci][1].get<double>() / ratio};
        }
    for (auto& t : old["thresholds"]) {
        t["simd_ticks_at_max"] = t["simd_cycles_at_max"].get<double>() / ratio;
        t.erase("simd_cycles_at_max");
    }
    const ModelFile back = model_from_json(old, "old-model.json");
    CHECK(back.schema == kModelSchema);  // converted: held as /2, in cycles
    REQUIRE(back.models.size() == m.models.size());
    for (std::size_t i = 0; i < m.models.size(); ++i) {
        CHECK(back.models[i].p50.a == Approx(m.models[i].p50.a).epsilon(1e-12));
        CHECK(back.models[i].p90.b_hi == Approx(m.models[i].p90.b_hi).epsilon(1e-12));
        CHECK(back.models[i].p99.a_lo == Approx(m.models[i].p99.a_lo).epsilon(1e-12));
    }
    CHECK(back.thresholds.at(0).simd_cycles_at_max == Approx(m.thresholds.at(0).simd_cycles_at_max).epsilon(1e-12));
    for (Quantile q : {Quantile::p90, Quantile::p99}) {
        RecommendOptions o = options(30e-6);
        o.question.quantile = q;
        CHECK(variant(recommend({back}, o), "fake-avx2").bytes == variant(recommend({m}, o), "fake-avx2").bytes);
    }
    // A hand-written /1 line: 1000 ticks + 2 ticks/byte at core/TSC 1.5 is 1500 + 3 cycles/byte.
    nlohmann::json tiny = old;
    tiny["source"]["clock"]["core_per_tsc"] = 1.5;
    tiny["models"] = {tiny["models"][0]};
    tiny["models"][0]["p50"] = {
        {"a_ticks", 1000}, {"b_ticks_per_byte", 2}, {"a_ci95", {900, 1100}}, {"b_ci95", {1.5, 2.5}}};
    const CacheModel l = model_from_json(tiny, "tiny.json").models.at(0);  // a copy: the model file is a temporary
    CHECK(l.p50.a == 1500);
    CHECK(l.p50.b == 3);
    CHECK(l.p50.a_hi == 1650);
    CHECK(l.p50.b_lo == 2.25);
    // A /1 file with /2 field names (or the reverse) is malformed, not silently zero.
    tiny["models"][0]["p50"] = {
        {"a_cycles", 1000}, {"b_cycles_per_byte", 2}, {"a_ci95", {900, 1100}}, {"b_ci95", {1.5, 2.5}}};
    CHECK_THROWS_WITH(model_from_json(tiny, "tiny.json"), Catch::Contains("malformed model file"));
}

TEST_CASE("the generated header compiles with cc -Wall -Werror", "[models]") {
    SweepFile f = synthetic_sweep("Test CPU */ with a comment closer", 2000, 0.8);
    add_threshold_points(f, 50, 4, 600, 1);
    RecommendOptions o = options(30e-6);
    o.command_line = "fputune recommend -k 'sha*/x' --budget 30us";
    const Recommendation r =
        recommend({fit_sweep(f, "t"), load_models(source_file("data/reference/elliott-2022-4k-cycles.csv"))}, o);
    const std::string header = render_header(r, "limits.h");
    CHECK_THAT(header, Catch::StartsWith("/* SPDX-License-Identifier: GPL-2.0 */"));
    CHECK_THAT(header, Catch::Contains("#ifndef _FPUTUNE_LIMITS_H"));
    CHECK_THAT(header, Catch::Contains("#define FPUTUNE_SHA256_AVX2_FPU_BYTES"));
    CHECK_THAT(header, Catch::Contains("#define FPUTUNE_SHA256_FPU_BYTES"));
    CHECK_THAT(header, Catch::Contains("Budget:        30.0 us"));
    const std::string h = write_temp("limits.h", header);
    const std::string c =
        write_temp("use_limits.c",
                   "#include \"limits.h\"\n#include \"limits.h\"\n"
                   "unsigned fputune_use(void) { return FPUTUNE_SHA256_FPU_BYTES + FPUTUNE_FAKE_AVX2_FPU_BYTES"
                   " + FPUTUNE_FAKE_SIMD_MIN_BYTES; }\n");
    const std::string cmd = "cc -std=c11 -Wall -Wextra -Werror -pedantic -c " + c + " -o " +
                            (temp_dir() / "use_limits.o").string() + " 2>&1";
    INFO(header);
    CHECK(std::system(cmd.c_str()) == 0);

    // Every kind of comment line: no size fits (variant and algorithm), a threshold that never wins.
    SweepFile never = synthetic_sweep("Test CPU", 2000, 0.8);
    add_threshold_points(never, 50, 1, 600, 1);
    const std::string tiny = render_header(recommend({fit_sweep(never, "t")}, options(1e-9)), "tiny.h");
    CHECK_THAT(tiny, Catch::Contains("no size fits") && Catch::Contains("never won"));
    write_temp("tiny.h", tiny);
    const std::string c2 = write_temp("use_tiny.c", "#include \"tiny.h\"\nint fputune_tiny;\n");
    INFO(tiny);
    CHECK(std::system(("cc -std=c11 -Wall -Wextra -Werror -pedantic -c " + c2 + " -o " +
                       (temp_dir() / "use_tiny.o").string() + " 2>&1")
                          .c_str()) == 0);
    for (const std::string& text : {header, tiny}) {
        std::size_t open = 0, close = 0;
        for (std::size_t i = 0; (i = text.find("/*", i)) != std::string::npos; ++i) ++open;
        for (std::size_t i = 0; (i = text.find("*/", i)) != std::string::npos; ++i) ++close;
        CHECK(open == close);
    }
}

TEST_CASE("check: PASS at the recommended size, OVER above, algorithm constants, others ignored", "[models]") {
    const ModelFile m = fit_sweep(synthetic_sweep("Test CPU", 2000, 0.8), "synthetic");
    const RecommendOptions o = options(30e-6);
    const std::uint64_t limit = variant(recommend({m}, o), "fake-avx2").bytes;
    const std::string text =
        "#ifndef X_H\n#define X_H\n"
        "#define FPUTUNE_FAKE_AVX2_FPU_BYTES " +
        std::to_string(limit) +
        "U /* ours */\n"
        "#define FPUTUNE_FAKE_FPU_BYTES (" +
        std::to_string(limit + 64) +
        "UL)\n"
        "#define FAKE_AVX2_FPU_BYTES 0x1000\n"
        "#define FPUTUNE_FAKE_SIMD_MIN_BYTES 288U\n"
        "#define UNRELATED 5\n#define STRINGY \"x\"\n#endif\n";
    const CheckReport rep = check_header(text, "x.h", {m}, o);
    REQUIRE(rep.results.size() == 3);
    CHECK(rep.results[0].pass);
    CHECK(rep.results[0].target == "fake-avx2");
    CHECK_FALSE(rep.results[1].pass);
    CHECK(rep.results[1].is_algorithm);
    CHECK(rep.results[2].constant.value == 4096);
    CHECK_FALSE(rep.all_pass());
    const std::string out = render_check(rep, "x.h", {m}, o);
    CHECK_THAT(out, Catch::Contains("PASS") && Catch::Contains("OVER"));
    CHECK_THAT(out, Catch::Contains("ignored UNRELATED") && Catch::Contains("ignored FPUTUNE_FAKE_SIMD_MIN_BYTES") &&
                        Catch::Contains("ignored STRINGY"));
    CHECK(check_header("#define FPUTUNE_FAKE_AVX2_FPU_BYTES 1024U\n", "y.h", {m}, o).all_pass());
    CHECK_THROWS_WITH(check_header("#define NOTHING 1\n", "z.h", {m}, o), Catch::Contains("no constant"));
}

TEST_CASE("bad inputs to the models: one clear message each", "[models]") {
    const ModelFile m = fit_sweep(synthetic_sweep("Test CPU", 2000, 0.8), "synthetic");
    RecommendOptions o = options(30e-6);
    o.question.margin = 0.5;
    CHECK_THROWS_WITH(recommend({m}, o), Catch::Contains("--margin 0.5") && Catch::Contains("at least 1"));
    CHECK_THROWS_WITH(recommend({m}, options(0)), Catch::Contains("--budget"));
    CHECK_THROWS_WITH(recommend({m}, options(30e-6, 0)), Catch::Contains("--min-freq"));
    // A value outside an enum's names cannot reach recommend(): the CLI says "--round octets: ..." (below).
    CHECK_FALSE(parse_round("octets"));

    // Sweep files: no points for a requested kernel; a listed FPU kernel without points; no points at all.
    const SweepFile f = synthetic_sweep("Test CPU", 2000, 0.8);
    CHECK_THROWS_WITH(fit_sweep(f, "s.json", {"sha256-*"}), Catch::Contains("no section points for kernel 'sha256-*'"));
    CHECK(fit_sweep(f, "s.json", {"fake-*"}).models.size() == 2);
    SweepFile missing = f;
    missing.kernels.push_back({"other-avx2", "other", "avx2", "fputune", 64, true});
    CHECK_THROWS_WITH(fit_sweep(missing, "s.json"), Catch::Contains("no section points for kernel 'other-avx2'"));
    missing.partial = true;
    CHECK(fit_sweep(missing, "s.json").notes.size() >= 1);
    missing.partial = false;
    missing.kernels.back().provider = "openssl";  // a peer listed for thresholds only: a note
    CHECK_THAT(fit_sweep(missing, "s.json").notes.front(), Catch::Contains("other-avx2: no section points"));
    SweepFile empty = f;
    empty.sections.clear();
    CHECK_THROWS_WITH(fit_sweep(empty, "s.json"), Catch::Contains("no section points"));

    // Files by content: truncated, another schema, newer, not ours at all.
    const std::string good = to_json(f).dump();
    CHECK(load_models(write_temp("good.json", good)).models.size() == 2);
    CHECK_THROWS_WITH(load_models(write_temp("trunc.json", good.substr(0, good.size() / 2))),
                      Catch::Contains("not valid JSON"));
    nlohmann::json other = to_json(f);
    other["schema"] = "fputune.recommendation/1";
    CHECK_THROWS_WITH(load_models(write_temp("other.json", other.dump())), Catch::Contains("neither a sweep"));
    other["schema"] = "fputune.sweep/2";
    CHECK_THROWS_WITH(load_models(write_temp("newer.json", other.dump())), Catch::Contains("newer"));
    CHECK_THROWS_WITH(load_models(write_temp("junk.txt", "hello\n")), Catch::Contains("neither"));
    CHECK_THROWS_WITH(load_models(write_temp("badcsv.csv", "# x\nalgorithm,bytes,cycles_per_op\nsha1-avx2,4096,abc\n")),
                      Catch::Contains(":3:"));
    CHECK_THROWS(load_models((temp_dir() / "does-not-exist.json").string()));
}

// ---- The CLI, run as a process ----

namespace {

std::string elliott() { return source_file("data/reference/elliott-2022-4k-cycles.csv"); }

}  // namespace

TEST_CASE("CLI: recommend on the reference CSV, table, JSON and header", "[models][cli]") {
    REQUIRE(fs::exists(fputune_binary()));
    Run r = run_fputune("recommend --from " + elliott() + " --budget 30us --min-freq 2.2GHz");
    INFO(r.err);
    REQUIRE(r.rc == 0);
    CHECK_THAT(r.out, Catch::Contains("12736 B (12.4 KiB)") && Catch::Contains("12764 B") &&
                          Catch::Contains("Intel Cascade Lake"));
    CHECK_THAT(r.out, Catch::Contains("budget 30.0 us") && Catch::Contains("2.2 GHz") &&
                          Catch::Contains("margin 1.0") && Catch::Contains("rounding block") &&
                          Catch::Contains("fputune 0.1"));
    r = run_fputune("recommend --from " + elliott() + " --budget 30us --min-freq 2.2GHz --json");
    REQUIRE(r.rc == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["schema"] == kRecommendationSchema);
    CHECK(j["inputs"]["min_freq_hz"] == 2.2e9);
    bool seen = false;
    for (const auto& v : j["variants"])
        if (v["kernel"] == "sha512-avx2") {
            seen = true;
            CHECK(std::abs(v["unrounded_bytes"].get<double>() - 18537) <= 1);
            CHECK(v["bytes"] == 18432);
        }
    CHECK(seen);
    const std::string h = (temp_dir() / "cli_limits.h").string();
    r = run_fputune("recommend --from " + elliott() + " --budget 30us --min-freq 2.2GHz --header " + h);
    REQUIRE(r.rc == 0);
    CHECK_THAT(read_file(h), Catch::Contains("#define FPUTUNE_SHA256_AVX2_FPU_BYTES 12736U"));
    // check on what we just wrote: all PASS at the same budget; OVER at a tighter one (exit 1).
    r = run_fputune("check " + h + " --from " + elliott() + " --budget 30us --min-freq 2.2GHz");
    CHECK(r.rc == 0);
    CHECK_THAT(r.out, Catch::Contains("PASS"));
    r = run_fputune("check " + h + " --from " + elliott() + " --budget 20us --min-freq 2.2GHz");
    CHECK(r.rc == 1);
    CHECK_THAT(r.out, Catch::Contains("OVER"));
    // Upstream's 4 KiB for sha256 written by hand: 4096 B at 1 GHz is 21.2 us.
    const std::string hand = write_temp("hand.h", "#define FPUTUNE_SHA256_FPU_BYTES 4096\n");
    CHECK(run_fputune("check " + hand + " --from " + elliott() + " --budget 30us").rc == 0);
    CHECK(run_fputune("check " + hand + " --from " + elliott() + " --budget 20us").rc == 1);
}

TEST_CASE("CLI: fit prints a table and writes a model file that recommend reads", "[models][cli]") {
    SweepFile f = synthetic_sweep("Test CPU", 2000, 0.8);
    add_threshold_points(f, 50, 4, 600, 1);
    const std::string sweep = (temp_dir() / "sweep.json").string();
    write_sweep_file(sweep, f);
    const std::string model = (temp_dir() / "model.json").string();
    Run r = run_fputune("fit " + sweep + " -o " + model);
    INFO(r.err);
    REQUIRE(r.rc == 0);
    CHECK_THAT(r.out, Catch::Contains("fake-avx2") && Catch::Contains("R^2") && Catch::Contains("Test CPU"));
    CHECK(nlohmann::json::parse(read_file(model))["schema"] == kModelSchema);
    const Run from_sweep = run_fputune("recommend --from " + sweep + " --budget 30us --json");
    const Run from_model = run_fputune("recommend --from " + model + " --budget 30us --json");
    REQUIRE(from_sweep.rc == 0);
    REQUIRE(from_model.rc == 0);
    const auto vs = nlohmann::json::parse(from_sweep.out)["variants"][0],
               vm = nlohmann::json::parse(from_model.out)["variants"][0];
    CHECK(vs["bytes"] == vm["bytes"]);
    CHECK(vs["unrounded_bytes"] == vm["unrounded_bytes"]);
    CHECK(vs["simd_threshold"] == vm["simd_threshold"]);
    // Two machines: merged to the slower, named.
    const std::string slow = (temp_dir() / "slow.json").string();
    write_sweep_file(slow, synthetic_sweep("Slow CPU", 2500, 1.2));
    r = run_fputune("recommend --from " + sweep + " " + slow + " --budget 30us");
    REQUIRE(r.rc == 0);
    CHECK_THAT(r.out, Catch::Contains("Slow CPU") && Catch::Contains("bound by"));
    r = run_fputune("recommend --from " + sweep + " --budget 1ns --force");  // below 100 ns: needs --force
    CHECK(r.rc == 0);
    CHECK_THAT(r.out, Catch::Contains("no size fits: one block (64 B) takes"));
}

TEST_CASE("CLI: bad input is one line, exit 2, and leaves existing outputs untouched", "[models][cli]") {
    SweepFile f = synthetic_sweep("Test CPU", 2000, 0.8);
    const std::string sweep = (temp_dir() / "bad_sweep.json").string();
    write_sweep_file(sweep, f);
    const std::string text = read_file(sweep);
    const std::string from = " --from " + sweep;
    const std::string out = (temp_dir() / "keep.h").string();
    struct Case {
        std::string args, says;
    };
    const std::vector<Case> cases = {
        {"recommend" + from + " --budget 30xs", "30xs"},
        {"recommend" + from + " --budget -1us", "-1us"},
        {"recommend" + from + " --budget 0", "'0'"},
        {"recommend" + from, "--budget is required"},
        {"recommend" + from + " --budget 30us --min-freq 0", "--min-freq"},
        {"recommend" + from + " --budget 30us --margin 0.5", "--margin 0.5"},
        {"recommend" + from + " --budget 30us --margin x", "--margin x"},
        {"recommend" + from + " --budget 30us --round bytes", "--round bytes"},
        {"recommend" + from + " --budget 30us --round octets", "--round octets: expected block, kib or pow2"},
        {"recommend" + from + " --budget 30us --quantile p98", "--quantile p98"},
        {"recommend" + from + " --budget 30us --dirty amx", "--dirty amx: expected xmm, ymm, zmm or none"},
        {"recommend" + from + " --budget 30us --cache warm", "--cache warm"},
        {"recommend" + from + " --budget 30us -k 'sha256-*'", "no section points for kernel 'sha256-*'"},
        {"recommend --from " + write_temp("trunc.json", text.substr(0, text.size() / 3)) + " --budget 30us",
         "not valid JSON"},
        {"recommend --from " + write_temp("schema.json", "{\"schema\": \"other/1\"}") + " --budget 30us", "other/1"},
        {"recommend --from " + write_temp("newer.json", "{\"schema\": \"fputune.sweep/9\"}") + " --budget 30us",
         "newer"},
        {"recommend --from " + (temp_dir() / "absent.json").string() + " --budget 30us", "absent.json"},
        {"recommend" + from + " --budget 30us --header /nonexistent-dir/limits.h", "/nonexistent-dir/limits.h"},
        {"fit " + sweep + " -o /nonexistent-dir/model.json", "/nonexistent-dir/model.json"},
        {"recommend" + from + " --budget 30xs --header " + out, "30xs"},
        {"fit " + write_temp("trunc2.json", text.substr(0, 100)) + " -o " + out, "not valid JSON"},
        {"check " + write_temp("none.h", "#define NOTHING 1\n") + from + " --budget 30us", "no constant"},
        {"check" + from + " --budget 30us", "which header"},
    };
    for (const auto& c : cases) {
        write_temp("keep.h", "keep me\n");
        const Run r = run_fputune(c.args);
        INFO(c.args << "\nstdout: " << r.out << "\nstderr: " << r.err);
        CHECK(r.rc == 2);
        CHECK_THAT(r.err, Catch::Contains(c.says));
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
        CHECK(read_file(out) == "keep me\n");
    }
}
