// SPDX-License-Identifier: MIT
// The contention probe and its levels (lib/contention_levels.hpp), as the sweep file and the doctor record them.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <fstream>

#include "clock.hpp"
#include "contention.hpp"
#include "contention_levels.hpp"
#include "doctor.hpp"
#include "errors.hpp"
#include "header.hpp"
#include "sampler.hpp"
#include "registry.hpp"
#include "sibling.hpp"
#include "stats.hpp"
#include "test_util.hpp"
#include "sweep_file.hpp"

using namespace fputune;

namespace {

std::string scratch_path(const std::string& name) {
    return (std::filesystem::temp_directory_path() / ("fputune-contention-" + std::to_string(getpid()) + "-" + name))
        .string();
}

SweepFile one_point_sweep() {
    SweepFile f;
    f.tool_version = "t";
    f.cpu = {{"brand", "Test CPU"}};
    f.tsc_hz = 2e9;
    f.core_per_tsc = 1.5;
    f.core_per_tsc_end = 1.5;
    f.kernels.push_back({"sha256-avx2", "sha256", "avx2", "fputune", 64, true});
    SectionPoint p;
    p.kernel = "sha256-avx2";
    p.cache = "hot";
    p.bytes = 64;
    p.ticks = PointStats{10, 1, 2, 3, 4, 5, 6, 7, 0, 0.01, 5};
    p.rounds = {{5, 1.6, 3.1, 4.7, 6.0, 0, 1.02}, {5, 1.7, 3.3, 4.9, 6.6, 1, 1.8}};
    p.contention = 1.3;
    f.sections.push_back(p);
    f.sampling.rounds = 2;
    return f;
}

// The file as JSON with one change made by `edit`, read back.
SweepFile read_edited(const SweepFile& f, const std::function<void(nlohmann::json&)>& edit) {
    nlohmann::json j = to_json(f);
    edit(j);
    return sweep_from_json(j, "edited.json");
}

// The one error reading the edited file gives ("(read)" when it reads).
std::string read_error(const SweepFile& f, const std::function<void(nlohmann::json&)>& edit) {
    try {
        read_edited(f, edit);
    } catch (const InputError& e) {
        return e.what();
    }
    return "(read)";
}

}  // namespace

TEST_CASE("contention levels: the best probe is 1, quantiles and the contended share follow", "[contention]") {
    const std::vector<double> probes = {2000, 2010, 0, 2040, 3000, 4000, 2020, 2005, 2100, 2600, 2030};
    CHECK(best_probe_cycles(probes) == 2000);
    CHECK(best_probe_cycles({0, -1}) == 0);
    CHECK(contention_level(3000, 2000) == 1.5);
    CHECK(contention_level(1900, 2000) == 1);  // never below the best
    CHECK(contention_level(0, 2000) == 0);  // unknown
    CHECK(median_contention({2000, 4000, 2200, 0}, 2000) == Approx(1.1));
    CHECK(median_contention({0, 0}, 2000) == 0);
    const ContentionTrace t = summarise_contention(probes);
    CHECK(t.probes == 10);  // the unknown one left out
    CHECK(t.best_cycles == 2000);
    CHECK(t.max == 2);
    CHECK(t.p50 == Approx(2030.0 / 2000).epsilon(0.02));
    CHECK(t.contended_share == Approx(0.3));  // 3000, 4000 and 2600 at >= 1.15
    CHECK(t.contended_above == kContendedAbove);
    CHECK(summarise_contention({}).probes == 0);
    // Against a best from elsewhere (e.g. the doctor's): levels relative to it.
    CHECK(summarise_contention({3000, 3000}, 1500).p50 == 2);
}

TEST_CASE("contention probe: every calibration times it, in core cycles", "[contention]") {
    const double ticks = probe_contention_ticks();
    CHECK(ticks > 0);
    const Calibration c = calibrate_now(0);
    REQUIRE(c.core_per_tsc > 0);
    CHECK(c.contention_cycles > 0);
    // 800 iterations of 12 independent operations: at least ~2 cycles each on any core of today. In core cycles,
    // the ticks times the ratio probe's reading, which an interruption lowers (a CI run's parallel tests took
    // one to 460 cycles), and calibrate_now(0) takes any reading: the largest of five.
    double most = c.contention_cycles;
    for (int i = 0; i < 4; ++i) most = std::max(most, calibrate_now(0).contention_cycles);
    CHECK(most > 800);
    const Calibration calm = calm_level(4);
    CHECK(calm.contention_cycles > 0);
}

TEST_CASE("sweep file: contention levels round-trip, missing is unknown, garbage is an error", "[contention][format]") {
    SweepFile f = one_point_sweep();
    f.contention = {400, 2000, 1.01, 1.1, 1.7, 2.1, 0.3, kContendedAbove};
    const std::string path = scratch_path("sweep.json");
    write_sweep_file(path, f);
    const SweepFile back = read_sweep_file(path);
    std::filesystem::remove(path);
    CHECK(back.contention.probes == 400);
    CHECK(back.contention.best_cycles == 2000);
    CHECK(back.contention.p90 == 1.7);
    CHECK(back.contention.contended_share == 0.3);
    REQUIRE(back.sections.size() == 1);
    CHECK(back.sections[0].contention == 1.3);
    REQUIRE(back.sections[0].rounds.size() == 2);
    CHECK(back.sections[0].rounds[0].contention == 1.02);
    CHECK(back.sections[0].rounds[1].contention == 1.8);

    // An older file: no contention anywhere is "unknown", not an error.
    const SweepFile old = read_edited(f, [](nlohmann::json& j) {
        j.erase("contention");
        j["sections"][0].erase("contention");
        for (auto& r : j["sections"][0]["rounds"]) r.erase("contention");
    });
    CHECK(old.contention.probes == 0);
    CHECK(old.sections[0].contention == 0);
    CHECK(old.sections[0].rounds[1].contention == 0);

    // Garbage: one clear error naming the field.
    auto error_of = [&](const std::function<void(nlohmann::json&)>& edit) { return read_error(f, edit); };
    CHECK(error_of([](nlohmann::json& j) { j["sections"][0]["contention"] = 0.5; }).find("sections[0].contention") !=
          std::string::npos);
    CHECK(error_of([](nlohmann::json& j) {
              j["sections"][0]["rounds"][1]["contention"] = "busy";
          }).find("rounds[1].contention") != std::string::npos);
    CHECK(error_of([](nlohmann::json& j) { j["contention"]["level"].erase("p90"); }).find("contention.level.p90") !=
          std::string::npos);
    CHECK(error_of([](nlohmann::json& j) { j["contention"]["probes"] = -3; }).find("contention.probes") !=
          std::string::npos);
}

TEST_CASE("contention levels: a round's quiet samples are counted apart, with their tail and level", "[contention]") {
    // 100 samples: 80 quiet (probe at 1000-1100 cycles against a best of 1000) of 1000-1079 cycles, 20 at a probe
    // of 1600 (c 1.6) of 2000 cycles each.
    std::vector<double> cycles, probes;
    for (int i = 0; i < 80; ++i) {
        cycles.push_back(1000 + i);
        probes.push_back(1000 + i);
    }
    for (int i = 0; i < 20; ++i) {
        cycles.push_back(2000);
        probes.push_back(1600);
    }
    RoundStats r{100, 1008, 1050, 2000, 2000, 0, 1.05};
    std::vector<double> quiet;
    quiet_round_stats(r, cycles, probes, 1000, &quiet);
    CHECK(quiet == std::vector<double>(cycles.begin(), cycles.begin() + 80));
    CHECK(r.quiet_samples == 80);
    CHECK(r.quiet_p90 == Approx(1071).margin(1));
    CHECK(r.quiet_p99_clean == Approx(1078).margin(1));
    CHECK(r.quiet_contention == Approx(1.04).margin(0.001));
    CHECK(r.quiet_p50 == Approx(1039.5));
    CHECK(r.contended_samples == 20);
    CHECK(r.contended_p50 == 2000);
    CHECK(r.contended_contention == Approx(1.6));
    // An unknown probe (0) is not quiet; levels that are not one per sample give nothing.
    probes[0] = 0;
    quiet_round_stats(r, cycles, probes, 1000);
    CHECK(r.quiet_samples == 79);
    probes.pop_back();
    quiet_round_stats(r, cycles, probes, 1000);
    CHECK(r.quiet_samples == 0);
    CHECK(r.quiet_p90 == 0);
    CHECK(r.contended_samples == 0);

    // A sweep's point records them per round, in the file, and reads them back; an older file has none.
    PointSamples s;
    s.cycles = cycles;
    s.contention_cycles = std::vector<double>(cycles.size(), 1000);
    std::fill(s.contention_cycles.begin() + 80, s.contention_cycles.end(), 1600);
    s.round_begin = {0, 50};
    SweepFile f = one_point_sweep();
    f.sections[0].rounds = {{50, 1004, 1025, 1045, 1049, 0, 0}, {50, 1054, 1075, 2000, 2000, 0, 0}};
    record_point_contention(f.sections[0], s, 1000);
    const RoundStats& second = f.sections[0].rounds[1];
    CHECK(second.contention == Approx(1.0));  // 30 quiet of 50: the median sample was quiet
    CHECK(second.quiet_samples == 30);
    CHECK(second.quiet_p99_clean < 1080);
    f.contention = {400, 1000, 1.0, 1.0, 1.6, 1.6, 0.2, kContendedAbove};
    const SweepFile back = read_edited(f, [](nlohmann::json&) {});
    CHECK(back.sections[0].rounds[1].quiet_samples == 30);
    CHECK(back.sections[0].rounds[1].quiet_p99_clean == Approx(second.quiet_p99_clean));
    CHECK(back.sections[0].rounds[1].quiet_contention == Approx(1.0));
    CHECK(back.sections[0].rounds[1].quiet_p50 == Approx(second.quiet_p50));
    CHECK(back.sections[0].rounds[1].contended_samples == 20);
    CHECK(back.sections[0].rounds[1].contended_p50 == 2000);
    CHECK(back.sections[0].rounds[1].contended_contention == Approx(1.6));
    const SweepFile old = read_edited(f, [](nlohmann::json& j) {
        for (auto& x : j["sections"][0]["rounds"]) {
            x.erase("quiet");
            x.erase("contended");
        }
    });
    CHECK(old.sections[0].rounds[1].quiet_samples == 0);
    CHECK(old.sections[0].rounds[1].contended_samples == 0);
    CHECK(read_error(f, [](nlohmann::json& j) {
              j["sections"][0]["rounds"][1]["quiet"]["samples"] = 51;
          }).find("rounds[1].quiet.samples") != std::string::npos);
    CHECK(read_error(f, [](nlohmann::json& j) {
              j["sections"][0]["rounds"][1]["quiet"]["contention"] = 0.5;
          }).find("rounds[1].quiet.contention") != std::string::npos);
    CHECK(read_error(f, [](nlohmann::json& j) {
              j["sections"][0]["rounds"][1]["contended"].erase("p50");
          }).find("rounds[1].contended.p50") != std::string::npos);
}

TEST_CASE("contention levels: a round's sampling rule is judged on its quiet samples once it has enough of them",
          "[contention][sampler]") {
    // 60 quiet samples near 1000 cycles and 40 contended ones at 1500-1540: the p90 of all lies in the contended
    // mode, that of the quiet ones where the bound is taken.
    std::vector<double> cycles, probes;
    for (int i = 0; i < 100; ++i) {
        const bool contended = i % 5 < 2;
        cycles.push_back(contended ? 1500 + i % 41 : 1000 + i % 7);
        probes.push_back(contended ? 1500 : 1010);
    }
    std::vector<double> all = cycles, quiet;
    std::sort(all.begin(), all.end());
    RoundStats r;
    quiet_round_stats(r, cycles, probes, 1000, &quiet);
    REQUIRE(quiet.size() == 60);
    const std::vector<double> judged = settle_samples(all, quiet, 25);
    REQUIRE(judged.size() == 60);
    CHECK(std::is_sorted(judged.begin(), judged.end()));
    CHECK(judged.back() <= 1006);
    CHECK(quantile_rel_ci(judged, 0.9) < quantile_rel_ci(all, 0.9));
    // Fewer quiet samples than the rule needs, every sample quiet, or levels unknown (none split off): all of them.
    CHECK(settle_samples(all, quiet, 61) == all);
    CHECK(settle_samples(all, all, 25) == all);
    CHECK(settle_samples(all, {}, 25) == all);
}

TEST_CASE("contention levels: a sweep whose core was contended most of the time says what that does to its limits",
          "[contention]") {
    ContentionTrace c{400, 2000, 1.3, 1.5, 1.8, 2.1, 0.65, kContendedAbove};
    const std::string note = busy_core_note(c);
    CHECK(note.find("65 %") != std::string::npos);
    CHECK(note.find("--time-budget") != std::string::npos);
    c.contended_share = 0.3;
    CHECK(busy_core_note(c).empty());
    c = {};
    CHECK(busy_core_note(c).empty());  // no probes: nothing known
}

TEST_CASE("doctor: contention is a finding, noisy when the core was contended", "[contention][doctor]") {
    SystemFacts f;
    f.cpu = 1;
    f.constant_tsc = f.nonstop_tsc = true;
    TimerHealth h;
    h.seconds = 5;
    h.overhead_p50 = 48;
    h.overhead_p99 = 56;
    h.step_p50 = 20;
    h.ratio_p50 = 1.3;
    h.contention = {2000, 1900, 1.0, 1.4, 2.0, 2.3, 0.45, kContendedAbove};
    h.contended_longest_s = 1.5;
    DoctorReport r = diagnose(f, h);
    bool noisy = false;
    for (const Finding& x : r.findings)
        if (x.check == "contention") {
            noisy = x.severity == Verdict::noisy;
            CHECK(x.what.find("2.30x") != std::string::npos);
            CHECK(x.what.find("45 %") != std::string::npos);
            CHECK(x.what.find("shows no sibling") != std::string::npos);
        }
    CHECK(noisy);
    CHECK(r.to_json()["contention"]["contended_share"] == 0.45);
    h.contention = {2000, 1900, 1.0, 1.01, 1.03, 1.2, 0.005, kContendedAbove};
    r = diagnose(f, h);
    for (const Finding& x : r.findings)
        if (x.check == "contention") CHECK(x.severity == Verdict::calm);
}

namespace {

// A synthetic /sys tree: cpuN/topology/thread_siblings_list for each entry of `lists`.
struct SysTree {
    std::filesystem::path root;
    explicit SysTree(const std::vector<std::string>& lists) {
        root = std::filesystem::temp_directory_path() /
               ("fputune-topology-" + std::to_string(getpid()) + "-" + std::to_string(lists.size()));
        std::filesystem::remove_all(root);
        for (std::size_t i = 0; i < lists.size(); ++i) {
            const auto dir = root / "sys/devices/system/cpu" / ("cpu" + std::to_string(i)) / "topology";
            std::filesystem::create_directories(dir);
            if (!lists[i].empty()) std::ofstream(dir / "thread_siblings_list") << lists[i] << "\n";
        }
    }
    ~SysTree() { std::filesystem::remove_all(root); }
};

}  // namespace

TEST_CASE("sibling: the topology names each CPU's SMT siblings, or none", "[contention][sibling]") {
    // 4 CPUs, SMT pairs (0,2) and (1,3), written as lists and as ranges.
    const SysTree smt({"0,2", "1,3", "0,2", "1-1,3"});
    CHECK(smt_siblings(smt.root.string(), 0) == std::vector<int>{2});
    CHECK(smt_siblings(smt.root.string(), 3) == std::vector<int>{1});
    std::string why;
    CHECK(sibling_to_load(smt.root.string(), 1, why) == 3);
    CHECK(why.empty());
    // A VM's vCPUs without siblings (as on the machines this was built on), and a missing file.
    const SysTree alone({"0", "1", ""});
    CHECK(smt_siblings(alone.root.string(), 1).empty());
    CHECK_FALSE(sibling_to_load(alone.root.string(), 1, why).has_value());
    CHECK(why.find("CPU 1 has no SMT sibling") != std::string::npos);
    CHECK_FALSE(sibling_to_load(alone.root.string(), 2, why).has_value());
    CHECK_FALSE(sibling_to_load(alone.root.string(), 7, why).has_value());
    // --neighbour: another allowed CPU that is not a sibling, the last such.
    why.clear();
    CHECK(neighbour_to_load(alone.root.string(), 1, {0, 1}, why) == 0);
    CHECK(neighbour_to_load(alone.root.string(), 0, {0, 1, 2}, why) == 2);
    CHECK(neighbour_to_load(smt.root.string(), 1, {0, 1, 2, 3}, why) == 2);  // 3 is CPU 1's sibling
    CHECK(neighbour_to_load(smt.root.string(), 0, {0, 2}, why) == std::nullopt);  // only itself and its sibling
    CHECK_THAT(why, Catch::Contains("every CPU this process may run on is CPU 0 or its SMT sibling"));
    CHECK(neighbour_to_load(alone.root.string(), 1, {1}, why) == std::nullopt);
    CHECK_THAT(why, Catch::Contains("CPU 1 is the only CPU this process may run on"));
}

TEST_CASE("sibling: the loads parse by name, and the co-runner runs only while busy", "[contention][sibling]") {
    CHECK(parse_sibling_option("busy") == SiblingLoad::vec_alu);
    CHECK(parse_sibling_option("busy:int") == SiblingLoad::int_alu);
    CHECK(parse_sibling_option("busy:mem") == SiblingLoad::mem);
    CHECK_FALSE(parse_sibling_option("busy:").has_value());
    CHECK_FALSE(parse_sibling_option("idle").has_value());
    CHECK(std::string(sibling_load_name(SiblingLoad::mem)) == "mem");
    for (SiblingLoad load : {SiblingLoad::int_alu, SiblingLoad::vec_alu, SiblingLoad::mem}) {
        // Any allowed CPU serves to see it start and stop (this test needs no SMT).
        SiblingRunner r(last_allowed_cpu(), load);
        usleep(20000);
        CHECK(r.work() == 0);  // idle until told
        r.set_busy(true);
        for (int i = 0; i < 500 && r.work() == 0; ++i) usleep(2000);
        CHECK(r.work() > 0);
        r.set_busy(false);
        // The unit under way ends first; on a loaded host the thread may wait for a CPU a while to end it.
        std::uint64_t stopped = r.work();
        for (int i = 0; i < 100; ++i) {
            usleep(20000);
            if (r.work() == stopped) break;
            stopped = r.work();
        }
        usleep(50000);
        CHECK(r.work() == stopped);
        CHECK(r.pinned());
    }
}

TEST_CASE("sibling busy:same: the swept kernels' own code, the one named when one is", "[contention][sibling]") {
    CHECK(parse_sibling_option("busy:same") == SiblingLoad::same);
    CHECK(std::string(sibling_load_name(SiblingLoad::same)) == "same");
    CHECK_THAT(kSiblingLoads, Catch::Contains("busy:same"));
    // Every kernel this CPU runs: a hash, a cipher, a MAC, a RAID and a two-message one among them.
    std::vector<const Kernel*> swept;
    for (const Kernel* k : all_kernels())
        if (!missing_features(*k, fputune::test::test_usable_features())) swept.push_back(k);
    SiblingRunner r(last_allowed_cpu(), SiblingLoad::same, swept);
    REQUIRE_FALSE(r.kernels().empty());
    for (const Kernel* k : r.kernels()) {
        CHECK(k->needs_fpu);
        CHECK_FALSE(is_peer(*k));  // never swept, so never the same kernel
    }
    usleep(20000);
    CHECK(r.work() == 0);  // idle until told
    r.set_busy(true);
    // Nothing named: each kernel in turn.
    auto all_ran = [&] {
        return std::all_of(r.kernels().begin(), r.kernels().end(), [&](const Kernel* k) { return r.runs_of(k) > 0; });
    };
    for (int i = 0; i < 5000 && !all_ran(); ++i) usleep(2000);
    for (const Kernel* k : r.kernels()) {
        INFO(k->name);
        CHECK(r.runs_of(k) > 0);
    }
    // One named (the kernel the main thread measures): only it runs, from the section after the one under way.
    const Kernel* named = r.kernels().back();
    r.set_kernel(named);
    const std::uint64_t from = r.runs_of(named);
    for (int i = 0; i < 5000 && r.runs_of(named) < from + 2; ++i) usleep(2000);
    std::vector<std::uint64_t> others;
    for (const Kernel* k : r.kernels()) others.push_back(r.runs_of(k));
    const std::uint64_t settled = r.runs_of(named);
    for (int i = 0; i < 5000 && r.runs_of(named) < settled + 20; ++i) usleep(2000);
    CHECK(r.runs_of(named) >= settled + 20);
    for (std::size_t i = 0; i + 1 < r.kernels().size(); ++i) {
        INFO(r.kernels()[i]->name);
        if (r.kernels()[i] != named) CHECK(r.runs_of(r.kernels()[i]) == others[i]);
    }
    r.set_busy(false);
    // In a sweep the pool names each point's kernel as it samples it: sections first, then thresholds.
    SweepPlan plan;
    SectionTarget section{};
    section.kernel = r.kernels().front();
    section.bytes = 4096;
    plan.sections.push_back(section);
    plan.thresholds.push_back({named, DirtyState::none, 64});
    const auto hook = same_kernel_hook(r, plan);
    REQUIRE(hook);
    hook(0, 2);
    CHECK(r.named() == r.kernels().front());
    hook(1, 2);
    CHECK(r.named() == named);
    // Another pool (a closed loop's extra points): none named, each kernel in turn.
    hook(0, 5);
    CHECK(r.named() == nullptr);
    SiblingRunner vec(last_allowed_cpu(), SiblingLoad::vec_alu);
    CHECK_FALSE(same_kernel_hook(vec, plan));
    // No kernel given: the vector load stands in, and it still runs.
    SiblingRunner none(last_allowed_cpu(), SiblingLoad::same);
    none.set_busy(true);
    for (int i = 0; i < 500 && none.work() == 0; ++i) usleep(2000);
    CHECK(none.work() > 0);
}

TEST_CASE("contention: the models' contended level is the probe's", "[contention]") {
    CHECK(kContendedLevel == kContendedAbove);
}

TEST_CASE("contention levels: a few probes that read low do not set the quiet level", "[contention]") {
    std::vector<double> probes(1000, 2000);
    for (std::size_t i = 0; i < probes.size(); i += 3) probes[i] = 2600;  // contended a third of the time
    probes[10] = 1600;  // its calibration's ratio probe read 20 % low
    probes[20] = 1650;
    CHECK(best_probe_cycles(probes) == 2000);
    const ContentionTrace t = summarise_contention(probes);
    CHECK(t.p50 == 1);
    CHECK(t.contended_share == Approx(334.0 / 1000).margin(0.005));
    // Few probes: the fastest.
    CHECK(best_probe_cycles({2100, 2000, 2050}) == 2000);
}

TEST_CASE("memory probe: reads in no cache, in blocks, summarised in quantiles", "[contention][memory]") {
    CHECK(probe_memory_ticks() > 0);
    const std::vector<double> block = probe_memory_block(16);
    CHECK(block.size() == 16);
    // 8 KiB from memory: at least a few hundred ns on any machine of today (~25 GB/s for one core).
    for (double t : block) CHECK(t / tsc_info().hz > 2e-7);
    const MemoryTrace t = summarise_memory({0, -5, 1000, 1100, 1200, 1300, 1400, 1500, 1600, 1700, 1800, 1900, 2000});
    CHECK(t.probes == 11);  // the unknown ones left out
    CHECK(t.bytes == kMemoryProbeBytes);
    CHECK(t.p10 == 1100);
    CHECK(t.p50 == 1500);
    CHECK(t.p90 == 1900);
    CHECK(summarise_memory({}).probes == 0);
    // A sweep's file takes the trace of whichever run probed more (a resumed file keeps the longer one).
    SweepFile f = one_point_sweep();
    PoolResult pool;
    pool.clock.memory_ticks = {1000, 1200, 1100};
    record_contention(f, pool, [](const SectionPoint&) { return nullptr; });
    CHECK(f.memory.probes == 3);
    CHECK(f.memory.p50 == 1100);
    pool.clock.memory_ticks = {5000};
    record_contention(f, pool, [](const SectionPoint&) { return nullptr; });
    CHECK(f.memory.p50 == 1100);
}

TEST_CASE("sweep file: the memory trace round-trips, missing is unknown, garbage is an error",
          "[contention][memory][format]") {
    SweepFile f = one_point_sweep();
    f.memory = {300, 8192, 1900, 2050, 2400};
    const SweepFile back = read_edited(f, [](nlohmann::json&) {});
    CHECK(back.memory.probes == 300);
    CHECK(back.memory.bytes == 8192);
    CHECK(back.memory.p10 == 1900);
    CHECK(back.memory.p50 == 2050);
    CHECK(back.memory.p90 == 2400);
    CHECK(read_edited(f, [](nlohmann::json& j) { j.erase("memory"); }).memory.probes == 0);  // an older file
    auto error_of = [&](const std::function<void(nlohmann::json&)>& edit) { return read_error(f, edit); };
    CHECK_THAT(error_of([](nlohmann::json& j) { j["memory"]["ticks"]["p50"] = -1; }),
               Catch::Contains("memory.ticks.p50"));
    CHECK_THAT(error_of([](nlohmann::json& j) { j["memory"]["ticks"]["p10"] = 3000; }),
               Catch::Contains("memory.ticks") && Catch::Contains("p10 <= p50 <= p90"));
    CHECK_THAT(error_of([](nlohmann::json& j) { j["memory"].erase("bytes"); }), Catch::Contains("memory"));
}

TEST_CASE("header: the sweep's memory probe is stated, one line per machine, and read back", "[contention][memory]") {
    const std::string line = header_memory_line(2048, 8192, 2.6e9);
    CHECK_THAT(line, Catch::Contains("memory probe: a 8 KiB read in no cache took 787.7 ns (2048 TSC ticks)"));
    const std::optional<double> ns = parse_header_memory_ns("/*\n * CPU: x\n" + line + " */\n");
    REQUIRE(ns);
    CHECK(*ns == Approx(787.7));
    CHECK_FALSE(parse_header_memory_ns("/* no probe */"));
    // Two machines (recommend --from a --from b): no one figure to set verify's probe against.
    CHECK_FALSE(parse_header_memory_ns(line + header_memory_line(3000, 8192, 2e9)));
    CHECK_FALSE(parse_header_memory_ns(" * memory probe: a 8 KiB read in no cache took many ns\n"));
}
