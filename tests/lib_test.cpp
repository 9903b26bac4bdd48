// SPDX-License-Identifier: MIT
// lib/: units, statistics, the sweep file format and its errors, atomic writes, sweep sizes, clocks.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "atomic_file.hpp"
#include "bench.hpp"
#include "clock.hpp"
#include "cpu.hpp"
#include "fpu.hpp"
#include "registry.hpp"
#include "stats.hpp"
#include "sweep.hpp"
#include "sweep_file.hpp"
#include "units.hpp"

using namespace fputune;

TEST_CASE("units: sizes, durations and frequencies parse, and bad ones are named", "[units]") {
    CHECK(parse_size("64") == 64);
    CHECK(parse_size("1KiB") == 1024);
    CHECK(parse_size("4k") == 4096);
    CHECK(parse_size("1MiB") == 1048576);
    CHECK(parse_size_list("64,256,1KiB", 1ull << 30) == std::vector<std::uint64_t>{64, 256, 1024});
    CHECK_THROWS_WITH(parse_size("0"), Catch::Contains("'0'") && Catch::Contains("greater than 0"));
    CHECK_THROWS_WITH(parse_size("-5"), Catch::Contains("'-5'"));
    CHECK_THROWS_WITH(parse_size("1XB"), Catch::Contains("unknown unit 'XB'"));
    CHECK_THROWS_WITH(parse_size_list("64,2GiB", 1ull << 30), Catch::Contains("'2GiB'") && Catch::Contains("above"));
    CHECK(parse_duration_s("30us") == Approx(30e-6));
    CHECK(parse_duration_s("30µs") == Approx(30e-6));
    CHECK(parse_duration_s("0.5ms") == Approx(0.5e-3));
    CHECK_THROWS_WITH(parse_duration_s("30xs"), Catch::Contains("'30xs'") && Catch::Contains("unknown unit"));
    CHECK_THROWS_WITH(parse_duration_s("-1us"), Catch::Contains("greater than 0"));
    CHECK_THROWS_WITH(parse_duration_s("0"), Catch::Contains("'0'") && Catch::Contains("greater than 0"));
    CHECK_THROWS_WITH(parse_duration_s("30"), Catch::Contains("missing unit"));
    CHECK(parse_frequency_hz("1GHz") == Approx(1e9));
    CHECK(parse_frequency_hz("2200MHz") == Approx(2.2e9));
    CHECK_THROWS_WITH(parse_frequency_hz("-1GHz"), Catch::Contains("greater than 0"));
    CHECK_THROWS_WITH(parse_frequency_hz("0"), Catch::Contains("'0'") && Catch::Contains("greater than 0"));
    CHECK(format_size(12800) == "12.5 KiB");
    CHECK(format_frequency(2.2e9) == "2.2 GHz");
}

TEST_CASE("stats: quantiles, interrupted samples, the median's confidence", "[stats]") {
    std::vector<double> v;
    for (int i = 1; i <= 1000; ++i) v.push_back(1000 + i % 10);
    v.push_back(50000);  // an interrupt
    PointStats s = summarize(v);
    CHECK(s.samples == 1001);
    CHECK(s.min == 1000);
    CHECK(s.max == 50000);
    CHECK(s.p50 == Approx(1005).margin(1));
    CHECK(s.interrupted == 1);
    CHECK(s.p99_clean == Approx(1009).margin(1));
    CHECK(s.rel_ci50 < 0.01);
    // A 5 us interrupt (+10 000) on a 20 us section (40 000, spread ~1 %) is an interruption, though
    // it adds only 25 %; the section's own slow samples (+3 %) are not.
    std::vector<double> w;
    for (int i = 0; i < 1000; ++i) w.push_back(40000 + 40 * (i % 10) + (i % 100 == 0 ? 1200 : 0));
    for (int i = 0; i < 15; ++i) w.push_back(50000);
    PointStats t = summarize(w);
    CHECK(t.interrupted == 15);
    CHECK(t.p99_clean > 40300);
    CHECK(t.p99_clean < 42000);
    // Two speeds (a neighbour on the core slows 30 % of the samples by 25 %) widen the lower spread;
    // a stall that doubles a section is still an interruption.
    std::vector<double> u;
    for (int i = 0; i < 1000; ++i) u.push_back(i % 10 < 3 ? 30000 : 37500);
    for (int i = 0; i < 20; ++i) u.push_back(70000);
    PointStats b = summarize(u);
    CHECK(b.interrupted == 20);
    CHECK(b.p99_clean == 37500);
    CHECK(summarize({}).samples == 0);
}

TEST_CASE("sweep sizes: whole blocks from one block past the maximum, with 1 KiB and 4 KiB", "[sweep]") {
    auto sizes = default_section_sizes(64, 1 << 20, 4);
    CHECK(sizes.front() == 64);
    CHECK(sizes.back() >= (1u << 20));
    for (auto s : sizes) CHECK(s % 64 == 0);
    CHECK(std::count(sizes.begin(), sizes.end(), 1024) == 1);
    CHECK(std::count(sizes.begin(), sizes.end(), 4096) == 1);
    CHECK(sizes.size() >= 48);  // ~4 per doubling over 14 doublings, fewer where rounding to blocks merges small sizes
    // Dense to 64 KiB, half as dense above: 2 per doubling from 64 KiB to 1 MiB.
    auto thin = default_section_sizes(64, 1 << 20, 4, 64 << 10);
    CHECK(thin.front() == 64);
    CHECK(thin.back() >= (1u << 20));
    CHECK(std::count_if(thin.begin(), thin.end(), [](std::uint64_t n) { return n <= (64u << 10); }) ==
          std::count_if(sizes.begin(), sizes.end(), [](std::uint64_t n) { return n <= (64u << 10); }));
    const auto above = std::count_if(thin.begin(), thin.end(), [](std::uint64_t n) { return n > (64u << 10); });
    CHECK(above >= 8);  // 4 doublings at 2 each
    CHECK(above <= 9);
    auto sparse = default_section_sizes(64, 1 << 20, 4, 0);  // half as dense throughout
    CHECK(sparse.size() <= sizes.size() / 2 + 3);
    CHECK(std::count(sparse.begin(), sparse.end(), 4096) == 1);
    auto big = default_section_sizes(128, 1 << 20, 4);
    for (auto s : big) CHECK(s % 128 == 0);
    auto lengths = default_threshold_lengths();
    CHECK(lengths.front() == 1);
    CHECK(lengths.back() == 4096);
}

namespace {
std::string scratch(const std::string& name) {
    auto dir = std::filesystem::temp_directory_path() / ("fputune-lib-test-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    return (dir / name).string();
}
SweepFile tiny_sweep() {
    SweepFile f;
    f.tool_version = "t";
    f.cpu = {{"brand", "Test CPU"}};
    f.tsc_hz = 2e9;
    f.core_per_tsc = 1.5;
    f.core_per_tsc_end = 1.5;
    f.kernels.push_back({"sha256-avx2", "sha256", "avx2", "fputune", 64, true});
    f.ratio_trace = {100, 1.4, 1.45, 1.6, 1.7, 1.75};
    f.sections.push_back({"sha256-avx2",
                          "hot",
                          64,
                          PointStats{10, 1, 2, 3, 4, 5, 6, 7, 0, 0.01, 5},
                          3.5,
                          true,
                          PointStats{10, 1.6, 3.2, 4.8, 6.4, 8, 9.6, 11.2, 0, 0.01, 8},
                          {},
                          0,
                          0});
    f.thresholds.push_back({"sha256-avx2", "ymm", 16, PointStats{10, 1, 2, 3, 4, 5, 6, 7, 0, 0.01, 5}, {}, 0, 0});
    return f;
}
}  // namespace

TEST_CASE("sweep file: round trip, and each way a file can be wrong has its own message", "[format]") {
    const std::string path = scratch("sweep.json");
    write_sweep_file(path, tiny_sweep());
    SweepFile back = read_sweep_file(path);
    CHECK(back.sections.size() == 1);
    CHECK(back.sections[0].ticks.p90 == 4);
    CHECK(back.thresholds[0].dirty == "ymm");
    CHECK(back.core_per_tsc == 1.5);
    CHECK(back.sections[0].settled);
    // Per-sample core cycles and the probed ratio survive; models see cycles / the median ratio.
    CHECK(back.ratio_trace.probes == 100);
    CHECK(back.sections[0].cycles.p90 == 6.4);
    CHECK(back.thresholds[0].cycles.samples == 0);
    CHECK(model_core_per_tsc(back) == 1.6);
    CHECK(model_ticks(back, back.sections[0].ticks, back.sections[0].cycles).p90 == Approx(4.0));
    CHECK(model_ticks(back, back.thresholds[0].ticks, back.thresholds[0].cycles).p90 == 4);
    SweepFile old = back;
    old.ratio_trace = {};
    CHECK(model_core_per_tsc(old) == 1.5);  // an older file: the start ratio, raw ticks
    CHECK(model_ticks(old, old.sections[0].ticks, old.sections[0].cycles).p50 == 3);
    // The measurement record: rounds, rejected and re-taken samples, the timer trace, disturbances.
    SweepFile rec = tiny_sweep();
    rec.sections[0].rounds = {{5, 1.6, 3.1, 4.7, 6.0, 0}, {5, 1.7, 3.3, 4.9, 6.6, 1}};
    rec.sections[0].rejected = 2;
    rec.sections[0].retaken = 7;
    rec.timer_trace = {400, 46, 48, 60, 832, 20, 22, 378};
    rec.sampling = {4, 2, 7, 1, 0.25, 120, 1, 4096};
    rec.sections[0].unsettled_rounds = 1;  // its time ran out in one round
    rec.thresholds[0].unsettled_rounds = 2;
    rec.disturbances.push_back({"timer_slow", 12.5, 0.25, 3, false, "timer overhead 832 ticks"});
    rec.doctor = {{"verdict", "noisy"}};
    rec.cold_buffer = {256u << 20, 254 << 20, 1};
    write_sweep_file(path, rec);
    SweepFile rback = read_sweep_file(path);
    REQUIRE(rback.sections[0].rounds.size() == 2);
    CHECK(rback.sections[0].rounds[1].p99_clean == 6.6);
    CHECK(rback.sections[0].rounds[1].interrupted == 1);
    CHECK(rback.sections[0].rejected == 2);
    CHECK(rback.sections[0].retaken == 7);
    CHECK(rback.timer_trace.overhead_max == 832);
    CHECK(rback.sampling.rounds == 4);
    CHECK(rback.sampling.waited_s == 0.25);
    CHECK(rback.sampling.unsettled == 1);
    CHECK(rback.sampling.stack_spread_bytes == 4096);
    {
        nlohmann::json j = to_json(rec);
        j["sampling"].erase("stack_spread_bytes");  // an older file: unknown, as it did not move the stack
        CHECK(sweep_from_json(j, "old.json").sampling.stack_spread_bytes == -1);
        j["sampling"]["stack_spread_bytes"] = -16;
        CHECK_THROWS_WITH(sweep_from_json(j, "bad.json"), Catch::Contains("stack_spread_bytes"));
    }
    CHECK(rback.sections[0].unsettled_rounds == 1);
    CHECK(rback.thresholds[0].unsettled_rounds == 2);
    REQUIRE(rback.disturbances.size() == 1);
    CHECK(rback.disturbances[0].kind == "timer_slow");
    CHECK(rback.disturbances[0].count == 3);
    CHECK(rback.doctor["verdict"] == "noisy");
    CHECK(rback.cold_buffer.bytes == 256u << 20);
    CHECK(rback.cold_buffer.huge_page_bytes == 254 << 20);
    CHECK(back.cold_buffer.huge_page_bytes == -1);  // none written: unknown
    CHECK(rback.cold_buffer.writes_flushed == 1);
    CHECK(back.cold_buffer.writes_flushed == -1);  // an older file: unknown (not flushed)
    {
        SweepFile none = rec;
        none.cold_buffer.writes_flushed = 0;  // a CPU without CLFLUSHOPT
        CHECK(sweep_from_json(to_json(none), "none.json").cold_buffer.writes_flushed == 0);
        nlohmann::json j = to_json(rec);
        CHECK(j["cold_buffer"]["writes_flushed"] == true);
        j["cold_buffer"]["writes_flushed"] = "yes";
        CHECK_THROWS_WITH(sweep_from_json(j, "bad.json"), Catch::Contains("writes_flushed") && Catch::Contains("not true or false"));
    }
    CHECK(impossible_points(rback).empty());
    // What a sweep must never write: a quantile <= 0 or not finite, in ticks or cycles.
    SweepFile broken = tiny_sweep();
    broken.sections[0].ticks.p50 = -3;
    broken.thresholds[0].cycles = PointStats{10, 1, 2, std::nan(""), 4, 5, 6, 7, 0, 0.01, 5};
    CHECK(impossible_points(broken) ==
          std::vector<std::string>{"sha256-avx2 64 B hot", "sha256-avx2 16 B threshold ymm"});
    SweepFile cut = tiny_sweep();
    cut.partial = true;
    cut.sections[0].settled = false;  // a point Ctrl-C cut short is kept, marked
    write_sweep_file(path, cut);
    CHECK_FALSE(read_sweep_file(path).sections[0].settled);
    CHECK(read_sweep_file(path).partial);

    std::string text = read_file(path);
    write_file_atomic(path, text.substr(0, text.size() / 2));
    CHECK_THROWS_WITH(read_sweep_file(path), Catch::Contains("not valid JSON") && Catch::Contains(path));
    write_file_atomic(path, R"({"schema":"fputune.model/1"})");
    CHECK_THROWS_WITH(read_sweep_file(path), Catch::Contains("not a sweep"));
    write_file_atomic(path, R"({"schema":"fputune.sweep/2"})");
    CHECK_THROWS_WITH(read_sweep_file(path), Catch::Contains("newer"));
    write_file_atomic(path, R"({"name":"something else"})");
    CHECK_THROWS_WITH(read_sweep_file(path), Catch::Contains("not an fputune sweep file"));
    write_file_atomic(path, R"({"schema":"fputune.sweep/1","tool":{}})");
    CHECK_THROWS_WITH(read_sweep_file(path), Catch::Contains("malformed"));
    std::filesystem::remove_all(std::filesystem::path(path).parent_path());
}

TEST_CASE("atomic files: an unwritable target fails up front and leaves the old file untouched", "[format]") {
    const std::string path = scratch("keep.txt");
    write_file_atomic(path, "old contents\n");
    CHECK_THROWS_WITH(write_file_atomic(scratch("no/such/dir/x.json"), "x"), Catch::Contains("does not exist"));
    CHECK_THROWS_WITH(check_writable(std::filesystem::path(path).parent_path().string()), Catch::Contains("directory"));
    write_file_atomic(path, "new contents\n");
    CHECK(read_file(path) == "new contents\n");
    for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(path).parent_path()))
        CHECK(e.path().filename().string().find(".tmp.") == std::string::npos);  // no temporary left behind
    std::filesystem::remove_all(std::filesystem::path(path).parent_path());
}

TEST_CASE("clock and FPU emulation: sane TSC, ratio and save costs", "[clock]") {
    const TscInfo& t = tsc_info();
    CHECK(t.hz > 1e8);
    CHECK(t.hz < 1e10);
    CHECK(t.overhead_ticks >= 0);
    CoreRatio r = measure_core_per_tsc(5);
    CHECK(r.best > 0.1);
    CHECK(r.best < 10);
    auto costs = measure_xsave_costs(101);
    REQUIRE(!costs.empty());
    for (const auto& c : costs) CHECK(c.pair_ticks > 0);
}

TEST_CASE("sweep plans: the series names and the file's kernel list are the plan's, and verify's plan measures each "
          "series and size once",
          "[sweep]") {
    const Kernel* sha = select_kernels({"sha256-generic"}).at(0);
    const Kernel* raid = nullptr;
    for (const Kernel* k : all_kernels())
        if (is_multisource(*k) && k->needs_fpu && !is_peer(*k)) raid = k;
    const Kernel* best = best_kernel("sha256", usable_features());
    REQUIRE(best != nullptr);
    SweepOptions opt;
    opt.kernels = {best, sha};
    opt.sizes = {64, 4096};
    opt.thresholds = false;
    const SweepPlan plan = plan_sweep(opt, nullptr);
    CHECK(plan.sections.size() == (best->needs_fpu ? 4u : 0u));  // hot and cold
    for (const SectionTarget& t : plan.sections) CHECK(t.name == series_name(*t.kernel, t.series));
    REQUIRE(plan.listed.size() == 2);
    CHECK(plan.listed[0].name == best->name);
    CHECK(plan.listed[1].name == "sha256-generic");  // no sections: listed for the thresholds
    REQUIRE(raid != nullptr);
    opt.cold = true;
    opt.hot = false;
    const SeriesSpec x4{SectionShape::stripe, 4}, x8{SectionShape::stripe, 8};
    std::vector<std::size_t> points;
    const SweepPlan v = plan_verify(
        {{raid, x4, 4096}, {sha, {}, 4096}, {raid, x4, 4096}, {raid, x8, 4096}, {sha, {}, 1024}}, opt, points);
    REQUIRE(v.sections.size() == 4);  // the repeated (raid x4, 4096) is one point
    CHECK(points == std::vector<std::size_t>{0, 1, 0, 2, 3});
    CHECK(v.sections[2].name == series_name(*raid, x8));
    CHECK(v.sections[0].cold);
    CHECK(v.kernels == std::vector<const Kernel*>{raid, sha});
    CHECK(v.listed.size() == 3);  // raid x4, sha256-generic, raid x8
    CHECK(v.thresholds.empty());
}

TEST_CASE("sweep engine: plan, measure and summarise a tiny sweep, a stop gives a partial file", "[sweep]") {
    const Kernel* k = best_kernel("sha256", usable_features());
    REQUIRE(k != nullptr);
    SweepOptions opt;
    opt.kernels = {k, reference_kernel("sha256")};
    opt.sizes = {64, 1024, 4096};
    opt.cold = false;
    opt.sampling.rounds = 2;
    opt.sampling.min_samples = 5;
    opt.sampling.min_samples90 = 10;
    opt.sampling.min_samples99 = 20;
    opt.sampling.point_cap_s = 0.005;
    opt.budget_s = 2;
    const SweepPlan plan = plan_sweep(opt, nullptr);
    CHECK(plan.kernels.size() == 2);
    CHECK(plan.sections.size() == (k->needs_fpu ? 3u : 0u));
    CHECK(plan.thresholds.size() == (k->needs_fpu ? 2 * default_threshold_lengths().size() : 0u));
    std::atomic<bool> stop{false};
    PoolHooks hooks;
    hooks.stop = &stop;
    SweepInputs in;
    in.cpu = {{"brand", "Test CPU"}};
    const SweepFile f = measure_sweep(opt, in, hooks);
    CHECK(!f.partial);
    CHECK(f.options["rounds"] == 2);
    CHECK(f.sampling.rounds == 2);
    CHECK(f.sampling.stack_spread_bytes == kStackSpreadBytes);  // every sample at a stack moved afresh
    CHECK(f.timer_trace.calibrations > 0);
    CHECK(impossible_points(f).empty());  // whatever the host did meanwhile
    if (k->needs_fpu) {
        REQUIRE(f.sections.size() == 3);
        CHECK(f.sections[0].cycles.p50 < f.sections[2].cycles.p50);
        for (const auto& p : f.sections) {
            CHECK(p.settled);
            CHECK(p.rounds.size() == 2);  // every point has samples from every round
            for (const auto& r : p.rounds) CHECK(r.samples >= 3);
        }
        CHECK(!f.thresholds.empty());
        // A resumed complete sweep has nothing left to measure.
        const SweepPlan again = plan_sweep(opt, &f);
        CHECK(again.sections.empty());
        CHECK(again.thresholds.empty());
    }
    stop = true;
    const SweepFile g = measure_sweep(opt, in, hooks);
    CHECK((g.partial || !k->needs_fpu));
    CHECK(impossible_points(g).empty());
}

TEST_CASE("bench: a multi-source kernel runs at the size given, per source, and says how many sources", "[bench]") {
    const Kernel* xor_sse = select_kernels({"xor-sse"}).at(0);
    const Kernel* sha = select_kernels({"sha256-generic"}).at(0);
    const BenchResult x = bench_kernel(*xor_sse, 16384, 0.002);
    CHECK(x.size_bytes == 16384);  // --sizes 16KiB: 16 KiB per source, as a 16 KiB stripe is
    CHECK(x.sources == kStripeSources[0]);
    CHECK(x.bytes == x.sources * x.size_bytes);  // the data one call reads
    CHECK(bench_call(*xor_sse).find("sources") != std::string::npos);
    const BenchResult s = bench_kernel(*sha, 16384, 0.002);
    CHECK(s.size_bytes == 16384);
    CHECK(s.bytes == 16384);
    CHECK(s.sources == 0);
}

TEST_CASE("bench: a group is measured side by side, every point in every round, results in the order asked",
          "[bench]") {
    const Kernel* sha = select_kernels({"sha256-generic"}).at(0);
    const Kernel* xor_sse = select_kernels({"xor-sse"}).at(0);
    const std::vector<BenchResult> g = bench_group({{sha, 4096}, {xor_sse, 1024}, {sha, 64}}, 0.002);
    REQUIRE(g.size() == 3);
    CHECK(g[0].bytes == 4096);
    CHECK(g[1].sources == kStripeSources[0]);
    CHECK(g[1].size_bytes == 1024);
    CHECK(g[2].bytes == 64);
    // One sample slot per round for each point: a round is one batch of every point in turn.
    CHECK(g[0].round_ticks.size() >= 5);
    CHECK(g[1].round_ticks.size() == g[0].round_ticks.size());
    CHECK(g[2].round_ticks.size() == g[0].round_ticks.size());
    for (const BenchResult& r : g) {
        CHECK(std::count_if(r.round_ticks.begin(), r.round_ticks.end(), [](double t) { return t > 0; }) ==
              static_cast<std::ptrdiff_t>(r.ticks_per_call.samples));
        CHECK(r.calls_per_sample >= 1);
    }
    CHECK(paired_ratio(g[0], g[2]).has_value());
    // The core/TSC ratio as each round began, one per round, each an accepted probe (within 20 % of the best).
    REQUIRE(g[0].round_core_per_tsc.size() == g[0].round_ticks.size());
    const auto [lo, hi] = std::minmax_element(g[0].round_core_per_tsc.begin(), g[0].round_core_per_tsc.end());
    CHECK(*lo >= 0.8 * *hi - 1e-9);
    CHECK(core_cycles_per_call(g[0]).has_value());
}

TEST_CASE("bench: core cycles per call are each round's ticks times that round's core/TSC, then their median",
          "[bench]") {
    BenchResult r;
    // The host lowers the core clock 4 % from round 3 on: the code takes 4 % more TSC ticks and the same
    // core cycles; a run-wide ratio would have called it a change of the code.
    r.round_ticks = {1000, 1000, 1000, 1041.67, 1041.67, 1041.67, 1041.67};
    r.round_core_per_tsc = {1.75, 1.75, 1.75, 1.68, 1.68, 1.68, 1.68};
    REQUIRE(core_cycles_per_call(r).has_value());
    CHECK(*core_cycles_per_call(r) == Approx(1750).epsilon(1e-4));
    // A round without a sample (0 ticks) or without an accepted ratio (0) is left out; the median of the rest.
    r.round_ticks = {1000, 0, 1000, 5000, 1000};
    r.round_core_per_tsc = {1.5, 1.5, 0, 1.5, 1.7};
    CHECK(*core_cycles_per_call(r) == Approx(1700));
    // Fewer than 3 rounds with both: none (the caller falls back to the run's ratio).
    r.round_ticks = {1000, 0, 1000};
    r.round_core_per_tsc = {1.5, 1.5, 0};
    CHECK_FALSE(core_cycles_per_call(r).has_value());
    r.round_core_per_tsc.clear();
    CHECK_FALSE(core_cycles_per_call(r).has_value());
}

TEST_CASE("bench: a ratio is taken within each round, then its median, rounds either lacks left out", "[bench]") {
    BenchResult a, b;
    a.bytes = 1000;
    b.bytes = 500;
    // A phase doubles rounds 2-4 of both: the ratio in each round is the same (a per byte = 1.5 x b per byte).
    a.round_ticks = {300, 300, 600, 600, 600, 0, 300};
    b.round_ticks = {100, 100, 200, 200, 200, 100, 0};
    REQUIRE(paired_ratio(a, b).has_value());
    CHECK(*paired_ratio(a, b) == Approx(1.5));
    CHECK(*paired_ratio(b, a) == Approx(1 / 1.5));
    // The median, not the mean: one round a disturbance hit alone moves nothing.
    a.round_ticks = {300, 300, 3000, 300, 300};
    b.round_ticks = {100, 100, 100, 100, 100};
    CHECK(*paired_ratio(a, b) == Approx(1.5));
    // An even count: the middle two's mean.
    a.round_ticks = {300, 300, 600, 600};
    CHECK(*paired_ratio(a, b) == Approx(2.25));
    // Fewer than 3 rounds in common: no ratio.
    a.round_ticks = {300, 0, 300, 0};
    b.round_ticks = {100, 100, 0, 100};
    CHECK_FALSE(paired_ratio(a, b).has_value());
    b.bytes = 0;
    CHECK_FALSE(paired_ratio(a, b).has_value());
}

TEST_CASE("sweep: the closed loop's extra points are planned once, those the file has never, new series listed",
          "[sweep]") {
    const Kernel* raid = select_kernels({"raid6-sse2"}).at(0);
    SweepFile have;
    SectionPoint p;
    p.kernel = "raid6-sse2.x8";
    p.cache = "cold";
    p.bytes = 4096;
    have.sections.push_back(p);
    const SeriesSpec x8{SectionShape::stripe, 8}, x21{SectionShape::stripe, 21};
    const SweepPlan plan = plan_extra({{raid, x8, true, {2048, 4096}},
                                       {raid, x21, true, {4096, 4096, 8192}, true},
                                       {raid, x8, false, {4096}}},
                                      have);
    REQUIRE(plan.sections.size() == 4);  // x8 cold 2048, x21 cold 4096 and 8192, x8 hot 4096
    CHECK(plan.sections[0].name == "raid6-sse2.x8");
    CHECK(plan.sections[0].bytes == 2048);
    CHECK(plan.sections[1].name == "raid6-sse2.x21");
    CHECK(plan.sections[1].series.sources == 21);
    CHECK_FALSE(plan.sections[3].cold);
    CHECK(plan.thresholds.empty());
    CHECK(plan.kernels.size() == 1);
    const bool listed = std::any_of(plan.listed.begin(), plan.listed.end(), [](const KernelInfo& k) {
        return k.name == "raid6-sse2.x21" && k.sources == 21 && k.of == "raid6-sse2" && k.count_only;
    });
    CHECK(listed);
    // Points planned again are planned even where the file has them.
    CHECK(plan_extra({{raid, x8, true, {4096}, false, true}}, have).sections.size() == 1);
    CHECK(plan_extra({{raid, x8, true, {4096}, false, false}}, have).sections.empty());
}
