// SPDX-License-Identifier: MIT
// Measurement truth: the disturbance rules, the sampling pool (never an impossible sample, rounds), and
// the doctor's verdicts on synthetic /sys and /proc trees.
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include <catch2/catch.hpp>

#include "buffers.hpp"
#include "clock.hpp"
#include "disturbance.hpp"
#include "doctor.hpp"
#include "sampler.hpp"
#include "sweep.hpp"

using namespace fputune;

namespace {

Calibration calm_cal(std::uint64_t tsc = 0) { return {tsc, 48, 20, 1.30, 0}; }

}  // namespace

TEST_CASE("disturbances: a slow timer, a collapsed clock, a storm and a moved ratio are each told apart",
          "[disturbance]") {
    DisturbanceMonitor m(2e9);
    m.seed(calm_cal());
    const IntervalCounts quiet{500000, 100, 0};  // 0.25 ms of samples, none hit
    // Calm calibrations wobble a little: no disturbance, and the levels are learned.
    for (int i = 0; i < 40; ++i) {
        Calibration c{0, 48.0 + i % 5, 20.0 + 2 * (i % 2), 1.30 + 0.002 * (i % 3), 0};
        CHECK(m.observe(calm_cal(), c, quiet).kind == DisturbanceKind::none);
    }
    CHECK(m.overhead_level() == Approx(49).margin(2));
    CHECK(m.probe_floor() == Approx(0.8 * 1.30).epsilon(0.01));
    // The timer trapped (overhead 832, step 378 were seen): slow, in either field.
    const auto trapped = m.observe(calm_cal(), {0, 832, 22, 1.3, 0}, quiet);
    CHECK(trapped.kind == DisturbanceKind::timer_slow);
    CHECK_FALSE(trapped.step_only);
    // The step alone: samples of kStepResolved steps or more are still resolved (the sampler keeps them).
    const auto coarse = m.observe(calm_cal(), {0, 50, 378, 1.3, 0}, quiet);
    CHECK(coarse.kind == DisturbanceKind::timer_slow);
    CHECK(coarse.step_only);
    CHECK(m.ratio_moved({0, 48, 20, 1.30, 0}, {0, 48, 20, 1.50, 0}));
    CHECK_FALSE(m.ratio_moved({0, 48, 20, 1.30, 0}, {0, 48, 20, 1.33, 0}));
    CHECK(m.observe(calm_cal(), {0, 112, 40, 1.3, 0}, quiet).kind == DisturbanceKind::none);  // calm range on this host
    // Every probe read low: the clock collapsed (or the probes keep being interrupted).
    const auto collapse = m.observe(calm_cal(), {0, 48, 20, 0, 3}, quiet);
    CHECK(collapse.kind == DisturbanceKind::clock_collapse);
    CHECK_THAT(collapse.detail, Catch::Contains("3 probes"));
    // The ratio moved 15 % within one interval: not a disturbance, but its samples cannot be converted.
    const auto moved = m.observe({0, 48, 20, 1.30, 0}, {0, 48, 20, 1.50, 0}, quiet);
    CHECK(moved.kind == DisturbanceKind::none);
    CHECK(moved.ambiguous);
    CHECK_FALSE(m.observe({0, 48, 20, 1.30, 0}, {0, 48, 20, 1.33, 0}, quiet).ambiguous);
    // The sweep's own rate: ~0.5 stalls per ms. A window of 8 ms at 20 per ms is a storm; one at 2 per ms is not.
    for (int i = 0; i < 64; ++i)
        CHECK(m.observe(calm_cal(), calm_cal(), {500000, 100, i % 8 == 0 ? 1u : 0u}).kind == DisturbanceKind::none);
    bool storm = false;
    for (int i = 0; i < 40 && !storm; ++i)
        storm = m.observe(calm_cal(), calm_cal(), {500000, 100, 5}).kind == DisturbanceKind::interrupt_storm;
    CHECK(storm);
    DisturbanceMonitor m2(2e9);
    m2.seed(calm_cal());
    for (int i = 0; i < 64; ++i) m2.observe(calm_cal(), calm_cal(), {500000, 100, i % 8 == 0 ? 1u : 0u});
    for (int i = 0; i < 64; ++i)
        CHECK(m2.observe(calm_cal(), calm_cal(), {500000, 100, i % 2 ? 1u : 0u}).kind == DisturbanceKind::none);
    // A state that outlasts its wait becomes the new normal.
    m.adopt({0, 800, 350, 1.3, 0});
    CHECK(m.judge_calibration({0, 820, 360, 1.3, 0}) == DisturbanceKind::none);
}

TEST_CASE("disturbances: neighbouring events of one kind merge, others stay apart", "[disturbance]") {
    std::vector<DisturbanceEvent> ev;
    record_event(ev, {DisturbanceKind::preempted, 1.00, 0.005, 1, false, ""});
    record_event(ev, {DisturbanceKind::preempted, 1.02, 0.004, 1, false, ""});
    record_event(ev, {DisturbanceKind::timer_slow, 1.03, 0.2, 1, false, ""});
    record_event(ev, {DisturbanceKind::preempted, 3.0, 0.004, 1, false, ""});
    REQUIRE(ev.size() == 3);
    CHECK(ev[0].count == 2);
    CHECK(ev[0].length_s == Approx(0.024));
    CHECK(ev[1].kind == DisturbanceKind::timer_slow);
    CHECK(ev[2].start_s == 3.0);
}

TEST_CASE("sampling pool: impossible samples are counted and measured again, never kept, rounds cover every point",
          "[sampler]") {
    SamplingRules rules;
    rules.rounds = 3;
    rules.min_samples = 6;
    rules.min_samples90 = 9;
    rules.min_samples99 = 12;
    rules.point_cap_s = 0.003;
    std::vector<PointSpec> specs(4, PointSpec{true});
    specs[3].need90 = false;
    std::uint64_t calls = 0;
    // The on_point hook names each point before its sample (a busy:same sibling follows it).
    std::size_t named = specs.size(), unnamed = 0;
    // Point 0 returns an impossible sample every other time: less than the timer's own overhead.
    auto sample = [&](std::size_t i) -> RawSample {
        ++calls;
        unnamed += named != i;
        if (i == 0 && calls % 2 == 0) return {1, 1, 1, -1};
        const std::uint64_t t0 = tsc_begin();
        spin_core_cycles(2000 * (i + 1));
        const std::uint64_t t1 = tsc_end();
        return {static_cast<double>(t1 - t0), 1, 1, -1};
    };
    std::atomic<bool> stop{false};
    PoolHooks hooks;
    hooks.stop = &stop;
    hooks.on_point = [&](std::size_t i, std::size_t points) { named = points == specs.size() ? i : specs.size(); };
    const PoolResult r = sample_pool(specs, sample, rules, 1.0, calm_level(4), hooks);
    CHECK(r.complete);
    CHECK(calls > 0);
    CHECK(unnamed == 0);
    REQUIRE(r.points.size() == 4);
    CHECK(r.points[0].rejected > 0);
    CHECK(r.rejected >= r.points[0].rejected);
    for (const PointSamples& p : r.points) {
        CHECK(p.settled);
        REQUIRE(p.round_begin.size() == 3);
        for (std::size_t k = 0; k < 3; ++k) CHECK(p.round_cycles(k).size() >= 2);
        for (double t : p.ticks) CHECK((t > 0 && std::isfinite(t)));
        for (double c : p.cycles) CHECK((c > 0 && std::isfinite(c)));
    }
    CHECK(!r.clock.core_per_tsc.empty());
    for (double x : r.clock.core_per_tsc) CHECK(x > 0);
}

TEST_CASE("the TSC as a timeline: a step back, or far forward, is no time", "[sampler]") {
    const std::uint64_t gap = 1000;
    CHECK(tsc_step(5000, 5000, gap) == 0);
    CHECK(tsc_step(5000, 6000, gap) == 0);
    CHECK(tsc_step(5000, 6001, gap) == 1001);
    // Back by 4000: an anchor 300 before the last read ends 300 before the new one (modulo 2^64).
    const std::uint64_t back = tsc_step(5000, 1000, gap);
    CHECK(back != 0);
    CHECK((5000 - 300) + back == 1000 - 300);
    CHECK((std::uint64_t{1} << 63) + tsc_step(1, 0, gap) == (std::uint64_t{1} << 63) - 1);
    CHECK(tsc_seconds(100, 300, 100.0) == 2.0);
    CHECK(tsc_seconds(300, 100, 100.0) == 0.0);  // never the 2^64 - 200 ticks of an unsigned difference
}

TEST_CASE("sampling pool: a machine paused, restored or moved mid-pool (the TSC steps) costs no samples and no time",
          "[sampler]") {
    // On a Zen 5 VM a snapshot's restore put the TSC 5.6 hours back in the middle of a sweep: the pool took it as
    // twice its budget spent (each open point ended out of time) and wrote an elapsed time of 8.8e9 s.
    const double hz = tsc_info().hz;
    for (const double step_s : {-20195.0, 3600.0}) {
        for (const bool spread : {false, true}) {
            INFO("step " << step_s << " s, spread rounds " << spread);
            SamplingRules rules;
            rules.rounds = 4;
            rules.min_samples = 6;
            rules.max_samples = 40;
            rules.spread_rounds = spread;
            std::vector<PointSpec> specs(3);
            std::uint64_t shift = 0, samples = 0;
            auto sample = [&](std::size_t) -> RawSample {
                if (++samples == 30) shift = static_cast<std::uint64_t>(static_cast<std::int64_t>(step_s * hz));
                const std::uint64_t t0 = tsc_begin();
                spin_core_cycles(2000);
                return {static_cast<double>(tsc_end() - t0), 1, 1, -1};
            };
            PoolHooks hooks;
            hooks.tsc_shift = [&] { return shift; };
            const PoolResult r = sample_pool(specs, sample, rules, 0.4, calm_level(4), hooks);
            CHECK(shift != 0);
            CHECK(r.complete);
            CHECK(r.elapsed_s > 0);
            CHECK(r.elapsed_s < 0.8);  // within the pool's hard end, as without the step
            CHECK(r.waited_s < 0.8);
            std::size_t steps = 0;
            for (const DisturbanceEvent& e : r.events) {
                CHECK(e.start_s >= 0);
                CHECK(e.start_s < 1);
                CHECK(e.length_s < 1);
                if (e.kind != DisturbanceKind::clock_step) continue;
                ++steps;
                CHECK(e.detail.find(step_s < 0 ? "-2019" : "+3600") != std::string::npos);
            }
            CHECK(steps == 1);
            CHECK(std::string(disturbance_name(DisturbanceKind::clock_step)) == "clock_step");
            for (const PointSamples& p : r.points) {
                CHECK(p.settled);
                CHECK(p.unsettled_rounds == 0);
                CHECK(p.round_begin.size() == 4);
                CHECK(p.cycles.size() >= 6);
            }
        }
    }
}

TEST_CASE("sampling pool: a point that never gives a possible sample ends at twice the budget, with none",
          "[sampler]") {
    SamplingRules rules;
    rules.rounds = 2;
    std::vector<PointSpec> specs(2);
    auto sample = [&](std::size_t i) -> RawSample {
        if (i == 1) return {0, 1, 1, -1};  // zero: never possible
        const std::uint64_t t0 = tsc_begin();
        spin_core_cycles(3000);
        return {static_cast<double>(tsc_end() - t0), 1, 1, -1};
    };
    PoolHooks hooks;
    const PoolResult r = sample_pool(specs, sample, rules, 0.05, calm_level(4), hooks);
    CHECK(r.points[1].cycles.empty());
    CHECK(r.points[1].rejected > 0);
    CHECK(!r.points[0].cycles.empty());
    CHECK(r.elapsed_s < 5);  // it ended (the bound itself is 2 x 0.05 s plus a calibration)
    // Each round began with a block of the memory probe (clock.hpp probe_memory_block).
    CHECK(r.clock.memory_ticks.size() == 2 * static_cast<std::size_t>(kMemoryBlockProbes));
}

TEST_CASE("sampling pool: a long point needs only its median, one whose time runs out is unsettled and counted",
          "[sampler]") {
    SamplingRules rules;
    rules.rounds = 2;
    rules.min_samples = 6;
    rules.min_samples90 = 400;  // 200 a round: never reached by a point that needs only its median
    rules.min_samples99 = 400;
    rules.max_samples = 1000000;  // no sample ceiling: only the rule or the time ends a round
    rules.tail_max_s = 1e-9;  // every point is longer than what the bounds are fitted on
    const std::vector<PointSpec> specs(2, PointSpec{true});
    std::mt19937 rng(7);
    // Times made up, not measured, so that a loaded host cannot make the steady point unsteady: point 0 is
    // steady; point 1 alternates between two times 100x apart, so its median lies between them however many
    // samples it has, and never settles.
    std::size_t unsteady = 0;
    auto sample = [&](std::size_t i) -> RawSample {
        if (i == 0) return {3000.0 + static_cast<double>(rng() % 3), 1, 1, -1};
        return {(++unsteady % 2 ? 1000.0 : 100000.0) + static_cast<double>(rng() % 3), 1, 1, -1};
    };
    PoolHooks hooks;
    // Each round has half the budget. The steady point needs a few microseconds of it, but a loaded host (the
    // sanitized tests run two at a time on two cores) can take the thread away for tens of milliseconds, and
    // a round whose share is gone ends it unsettled: the share is kept far above such a pause.
    const PoolResult r = sample_pool(specs, sample, rules, 0.4, calm_level(4), hooks);
    CHECK(r.complete);
    CHECK(r.points[0].unsettled_rounds == 0);
    for (std::size_t k = 0; k < 2; ++k) CHECK(r.points[0].round_cycles(k).size() < 200);
    CHECK(r.points[1].unsettled_rounds == 2);
    CHECK(r.points[1].settled);  // every round ended: on time
    CHECK(r.unsettled == 1);
}

namespace {
// A kernel of ours that needs no FPU, for tests that record what the glue loop calls, and options that take
// six samples of each point in one round.
Kernel recording_kernel(const char* name, const char* algorithm, std::uint32_t block_bytes) {
    Kernel k{};
    k.name = name;
    k.algorithm = algorithm;
    k.isa = "generic";
    k.provider = "fputune";
    k.block_bytes = block_bytes;
    k.needs_fpu = false;
    return k;
}
SweepOptions six_samples() {
    SweepOptions opt;
    opt.sampling.rounds = 1;
    opt.sampling.min_samples = 6;
    opt.sampling.max_samples = 6;
    return opt;
}
}  // namespace

namespace {
// A multi-source kernel that records where each call's first source and destination lie, and how long they are.
struct StripeCall {
    const std::uint8_t* src;
    const std::uint8_t* dst;
    std::size_t bytes;
};
std::vector<StripeCall> g_stripe_calls;
void recording_stripe(std::size_t, std::size_t bytes, const std::uint8_t* const* src,
                      std::uint8_t* const* dst) noexcept {
    g_stripe_calls.push_back({src[0], dst[0], bytes});
}
}  // namespace

TEST_CASE("sweep: a cold stripe point warms its code on resident buffers, never on the stretches it then times",
          "[sweep]") {
    Kernel k = recording_kernel("xor-recording", "xor", 512);
    k.stripe = recording_stripe;
    k.dest_count = 1;
    k.min_sources = 1;
    k.max_sources = 64;
    const SweepOptions opt = six_samples();
    SweepPlan plan;
    plan.kernels = {&k};
    for (bool cold : {false, true})
        plan.sections.push_back({&k, cold, 2048, SeriesSpec{SectionShape::stripe, 4}, cold ? "cold" : "hot"});
    g_stripe_calls.clear();
    PoolHooks hooks;
    const SweepMeasurement m = measure_plan(plan, opt, calm_level(4), hooks);
    REQUIRE(m.pool.points.size() == 2);
    REQUIRE(g_stripe_calls.size() >= 4);
    // Each sample is a warm-up call of one block, then the timed call of the point's bytes.
    std::size_t cold_pairs = 0, hot_pairs = 0;
    for (std::size_t i = 0; i + 1 < g_stripe_calls.size(); ++i) {
        const StripeCall& warm = g_stripe_calls[i];
        const StripeCall& timed = g_stripe_calls[i + 1];
        if (warm.bytes != 512 || timed.bytes != 2048) continue;
        ++i;
        if (warm.src == timed.src) {
            ++hot_pairs;  // a hot point: the same resident stretches
            CHECK(warm.dst == timed.dst);
        } else {
            ++cold_pairs;  // a cold point: the code warmed elsewhere, its own stretches untouched before it runs
            CHECK(warm.dst != timed.dst);
            CHECK((timed.src + 2048 <= warm.src || warm.src + 4 * 4096 <= timed.src));
        }
    }
    CHECK(hot_pairs >= 6);
    CHECK(cold_pairs >= 6);
}

namespace {
// A hash-shaped kernel that records each blocks() call: where its data lies and how many 64-byte blocks it got.
struct BlocksCall {
    const std::uint8_t* data;
    std::size_t nblocks;
};
std::vector<BlocksCall> g_blocks_calls;
void recording_init(void*, const std::uint8_t*) noexcept {}
void recording_blocks(void*, const std::uint8_t* data, std::size_t nblocks) noexcept {
    g_blocks_calls.push_back({data, nblocks});
}
void recording_final(void*, const std::uint8_t*, std::size_t, std::uint8_t*) noexcept {}
}  // namespace

TEST_CASE("sweep: a section's warm-up runs the section's own length (its tail's code too), on resident data",
          "[sweep]") {
    Kernel k = recording_kernel("hash-recording", "hash", 64);
    k.ctx_bytes = 64;
    k.out_bytes = 32;
    k.init = recording_init;
    k.blocks = recording_blocks;
    k.final = recording_final;
    const SweepOptions opt = six_samples();
    // 448 B: warmed whole (7 blocks); 20 KiB + 448 B: 4 KiB plus the same remainder mod 4 KiB (71 blocks).
    const std::uint64_t sizes[] = {448, 20 * 1024 + 448};
    const std::size_t expect_warm[] = {7, 71};
    SweepPlan plan;
    plan.kernels = {&k};
    for (std::uint64_t b : sizes)
        for (bool cold : {false, true}) plan.sections.push_back({&k, cold, b, SeriesSpec{}, cold ? "cold" : "hot"});
    g_blocks_calls.clear();
    PoolHooks hooks;
    const SweepMeasurement m = measure_plan(plan, opt, calm_level(4), hooks);
    REQUIRE(m.pool.points.size() == 4);
    // Each sample: the untimed warm-up call, then the timed one of the point's blocks.
    std::vector<std::pair<BlocksCall, BlocksCall>> pairs[2];
    for (std::size_t i = 0; i + 1 < g_blocks_calls.size(); ++i)
        for (std::size_t s = 0; s < 2; ++s)
            if (g_blocks_calls[i].nblocks == expect_warm[s] && g_blocks_calls[i + 1].nblocks == sizes[s] / 64) {
                pairs[s].push_back({g_blocks_calls[i], g_blocks_calls[i + 1]});
                ++i;
                break;
            }
    for (std::size_t s = 0; s < 2; ++s) {
        INFO("section of " << sizes[s] << " bytes");
        // The hot point times the same resident bytes every sample; the cold one a new stretch each time,
        // which its warm-up must not have touched.
        std::map<const std::uint8_t*, int> seen;
        for (const auto& [warm, timed] : pairs[s]) ++seen[timed.data];
        const auto hot = std::max_element(seen.begin(), seen.end(),
                                          [](const auto& a, const auto& b) { return a.second < b.second; });
        REQUIRE(hot != seen.end());
        CHECK(hot->second >= 6);
        std::size_t cold = 0;
        for (const auto& [warm, timed] : pairs[s]) {
            if (timed.data == hot->first) continue;
            ++cold;
            CHECK((timed.data + sizes[s] <= warm.data || warm.data + 64 * warm.nblocks <= timed.data));
        }
        CHECK(cold >= 6);
    }
}

TEST_CASE("sampling pool: a round a disturbance cut short still lets its nearly done points finish", "[sampler]") {
    SamplingRules rules;
    rules.rounds = 1;
    rules.min_samples = 6;
    rules.max_samples = 100;  // the round's ceiling: a point ends settled there whatever its rule
    // No rule is ever met (the rule is "interval < target", and an interval can be 0: on a TSC that steps by 26
    // ticks, as on a Zen 5 VM, 2000-cycle samples all read alike): only the ceiling or the time ends a point.
    rules.target_rel_ci = 0;
    rules.point_cap_s = 10;
    const std::vector<PointSpec> specs(2);
    const double budget_s = 2, hz = tsc_info().hz;
    // Once both points have `stall_at` samples, one sample takes the round's whole share and a little more (the
    // host took the CPU); it is taken again, and the round's time is spent. The stall is placed by counting
    // calls: at 99 samples each when the host dropped none, and at 90 or more while it dropped at most 14 before
    // it (a moved ratio, an interrupt storm or a collapsed clock take samples again: on a 2-vCPU Zen 5 VM every
    // second or two). A try where the host dropped more, or whose waits for it took 0.2 s of the 0.3 s grace,
    // says nothing about the grace and is made again, up to 10 times. Where the host left none of them alone the
    // grace goes unjudged, said as a warning (in a CI run on that VM, 10 tries of 10 under the suite's load); at
    // 50 anything the host does only cuts the round shorter, so that case is judged every time.
    for (std::size_t stall_at : {99u, 50u}) {
        INFO("stalled at " << stall_at);
        bool judged = false;
        for (int attempt = 0; attempt < 10 && !judged; ++attempt) {
            std::size_t calls = 0;
            auto sample = [&](std::size_t) -> RawSample {
                const std::uint64_t t0 = tsc_begin();
                if (++calls == 2 * stall_at + 1)  // 0.05 s past the share, whose grace is 0.3 s (0.15 x 2 s)
                    while (static_cast<double>(tsc_begin() - t0) < (budget_s + 0.05) * hz) {}
                else
                    spin_core_cycles(2000);
                return {static_cast<double>(tsc_end() - t0), 1, 1, -1};
            };
            PoolHooks hooks;
            const PoolResult r = sample_pool(specs, sample, rules, budget_s, calm_level(4), hooks);
            CHECK(r.complete);
            double waited_s = 0;  // the host's own disturbances, the stall (taken again as preempted) aside
            bool stalled = false;
            for (const DisturbanceEvent& e : r.events) {
                if (!stalled && e.kind == DisturbanceKind::preempted && e.length_s > budget_s) {
                    stalled = true;
                    continue;
                }
                waited_s += e.length_s;
            }
            if (stall_at == 99 && (!stalled || r.retaken + r.rejected > 15 || waited_s > 0.2)) continue;
            judged = true;
            for (const PointSamples& p : r.points) {
                if (stall_at == 99) {  // within kGraceShare of 100: they finish in the grace
                    CHECK(p.unsettled_rounds == 0);
                    CHECK(p.cycles.size() == 100);
                } else {  // half way: cut
                    CHECK(p.unsettled_rounds == 1);
                    CHECK(p.cycles.size() < 100);
                }
            }
        }
        if (!judged) WARN("the host disturbed every try: the grace at " << stall_at << " samples was not judged");
        CHECK((judged || stall_at == 99));
    }
}

TEST_CASE("sampling pool: spread rounds start evenly over the budget, and a stop ends the wait", "[sampler]") {
    SamplingRules rules;
    rules.rounds = 4;
    rules.min_samples = 6;
    rules.max_samples = 24;
    std::vector<PointSpec> specs(2);
    auto sample = [&](std::size_t) -> RawSample {
        const std::uint64_t t0 = tsc_begin();
        spin_core_cycles(2000);
        return {static_cast<double>(tsc_end() - t0), 1, 1, -1};
    };
    PoolHooks hooks;
    const PoolResult back_to_back = sample_pool(specs, sample, rules, 0.4, calm_level(4), hooks);
    rules.spread_rounds = true;
    const PoolResult spread = sample_pool(specs, sample, rules, 0.4, calm_level(4), hooks);
    CHECK(back_to_back.complete);
    CHECK(spread.complete);
    CHECK(spread.elapsed_s >= 0.3);  // the last round starts at 3/4 of the budget
    CHECK(spread.elapsed_s < 0.8);  // within the pool's hard end, twice the budget
    for (const PointSamples& p : spread.points) {
        CHECK(p.settled);
        CHECK(p.round_begin.size() == 4);
    }
    // A stop while it waits for the next round: incomplete at once, not at the round's start.
    std::atomic<bool> stop{false};
    hooks.stop = &stop;
    hooks.progress = [&](const PoolProgress& p) {
        if (p.round == 1 && p.settled == p.points) stop = true;  // the first round has ended: the wait begins
    };
    const PoolResult stopped = sample_pool(specs, sample, rules, 30, calm_level(4), hooks);
    CHECK_FALSE(stopped.complete);
    CHECK(stopped.elapsed_s < 5);  // round 2 would have started at 7.5 s
    for (const PointSamples& p : stopped.points) CHECK(p.round_begin.size() == 1);
}

TEST_CASE("sampling pool: the looser median of long sections is theirs alone, not the thresholds'", "[sampler]") {
    SamplingRules rules;
    rules.rounds = 1;
    rules.min_samples = 6;
    rules.max_samples = 40;
    rules.tail_max_s = 1e-9;  // every section is long
    rules.target_rel_ci = 0;  // never met
    rules.target_rel_ci_long = 10;  // always met
    std::vector<PointSpec> specs(2);
    specs[0].need90 = true;  // a section point
    auto sample = [&](std::size_t) -> RawSample {
        const std::uint64_t t0 = tsc_begin();
        spin_core_cycles(3000);
        return {static_cast<double>(tsc_end() - t0), 1, 1, -1};
    };
    PoolHooks hooks;
    const PoolResult r = sample_pool(specs, sample, rules, 10, calm_level(4), hooks);
    CHECK(r.points[0].cycles.size() < 40);  // its median rule met
    CHECK(r.points[1].cycles.size() == 40);  // a threshold point: target_rel_ci, never met, so max_samples
}

TEST_CASE("sampling pool: samples the thread was preempted in are taken again and do not spend the point's cap",
          "[sampler]") {
    SamplingRules rules;
    rules.rounds = 1;
    rules.min_samples = 6;
    rules.target_rel_ci = 0;  // never met: the point ends at max_samples, or on time
    rules.max_samples = 60;
    rules.point_cap_s = 0.02;  // less than the ~20 preemptions of 3 ms below
    const std::vector<PointSpec> specs(1);
    int calls = 0;
    auto sample = [&](std::size_t) -> RawSample {
        const std::uint64_t t0 = tsc_begin();
        spin_core_cycles(3000);
        // The thread loses the CPU for 3 ms inside every third sample once the point's median is known (after
        // its first 12), as beside a build. Not before: on a loaded machine a 3 ms sleep can take 10 ms or more,
        // and two of them before the median exists spend the whole cap, which is not what this case is about.
        if (++calls > 12 && calls % 3 == 0) {
            timespec ts{0, 3000000};
            nanosleep(&ts, nullptr);
        }
        return {static_cast<double>(tsc_end() - t0), 1, 1, -1};
    };
    PoolHooks hooks;
    const PoolResult r = sample_pool(specs, sample, rules, 10, calm_level(4), hooks);
    CHECK(r.points[0].retaken >= 15);  // the ones after its median was known
    CHECK(r.points[0].cycles.size() == 60);
    CHECK(r.points[0].unsettled_rounds == 0);
    CHECK(r.unsettled == 0);
}

TEST_CASE("sampling pool: a stop ends it at once, incomplete", "[sampler]") {
    SamplingRules rules;
    std::vector<PointSpec> specs(3);
    std::atomic<bool> stop{true};
    PoolHooks hooks;
    hooks.stop = &stop;
    const PoolResult r = sample_pool(
        specs,
        [](std::size_t) {
            return RawSample{1000, 1, 1, -1};
        },
        rules, 1.0, calm_level(2), hooks);
    CHECK_FALSE(r.complete);
    for (const PointSamples& p : r.points) CHECK_FALSE(p.settled);
}

namespace {

// A synthetic machine under a temporary root: /proc and /sys as the doctor reads them.
struct Tree {
    std::filesystem::path root;
    explicit Tree(const std::string& name) {
        root = std::filesystem::temp_directory_path() / ("fputune-doctor-" + name + "-" + std::to_string(getpid()));
        std::filesystem::remove_all(root);
    }
    ~Tree() { std::filesystem::remove_all(root); }
    Tree& file(const std::string& rel, const std::string& text) {
        const auto p = root / rel;
        std::filesystem::create_directories(p.parent_path());
        std::ofstream(p) << text;
        return *this;
    }
    // Two CPUs (0 and 1, SMT siblings when `smt`), the TSC flags, and /proc/stat with the given busy jiffies.
    Tree& machine(bool hypervisor, bool invariant_tsc, bool smt) {
        std::string flags = "fpu sse2 avx2";
        if (invariant_tsc) flags += " constant_tsc nonstop_tsc";
        if (hypervisor) flags += " hypervisor";
        file("proc/cpuinfo", "processor\t: 0\nflags\t\t: " + flags + "\n\nprocessor\t: 1\nflags\t\t: " + flags + "\n");
        file("sys/devices/system/cpu/online", "0-1\n");
        file("sys/devices/system/cpu/cpu0/topology/thread_siblings_list", smt ? "0-1\n" : "0\n");
        file("sys/devices/system/cpu/cpu1/topology/thread_siblings_list", smt ? "0-1\n" : "1\n");
        file("sys/devices/system/clocksource/clocksource0/current_clocksource", "tsc\n");
        file("sys/devices/system/clocksource/clocksource0/available_clocksource", "tsc hpet acpi_pm\n");
        file("proc/interrupts",
             "           CPU0       CPU1\n  0:         10          0   IO-APIC   2-edge      timer\n"
             "LOC:       1000       1000   Local timer interrupts\n");
        return stat(0, 0);
    }
    // /proc/stat with cumulative jiffies: `busy` of each CPU's `total`.
    Tree& stat(std::uint64_t busy0, std::uint64_t busy1, std::uint64_t total = 1000) {
        auto line = [&](int c, std::uint64_t busy) {
            // user nice system idle iowait irq softirq steal guest guest_nice
            return "cpu" + std::to_string(c) + " " + std::to_string(busy) + " 0 0 " + std::to_string(total - busy) +
                   " 0 0 0 0 0 0\n";
        };
        return file("proc/stat", "cpu  1 1 1 1 1 1 1 1 0 0\n" + line(0, busy0) + line(1, busy1) + "intr 0\n");
    }
    // Facts between two snapshots one second apart, in which the CPUs were busy busy0 and busy1 of 1000 jiffies.
    SystemFacts facts(int cpu, std::uint64_t busy0, std::uint64_t busy1) {
        stat(0, 0);
        const SystemSnapshot a = read_snapshot(root.string());
        stat(busy0, busy1, 2000);
        SystemSnapshot b = read_snapshot(root.string());
        b.at_s = a.at_s + 1;
        return read_system_facts(root.string(), cpu, a, b);
    }
};

TimerHealth calm_health() {
    TimerHealth h;
    h.seconds = 5;
    h.overhead_p50 = 48;
    h.overhead_p99 = 56;
    h.overhead_max = 60;
    h.step_p50 = 20;
    h.step_max = 24;
    h.ratio_p50 = 1.3;
    h.ratio_spread = 0.004;
    h.stalls_per_ms = 0.01;
    h.stall_p50_us = 3;
    h.stall_max_us = 8;
    h.lost_share = 0.0001;
    return h;
}

bool has_finding(const DoctorReport& r, const std::string& check, Verdict v) {
    for (const Finding& f : r.findings)
        if (f.check == check && f.severity == v) return true;
    return false;
}

}  // namespace

TEST_CASE("doctor: a bare-metal machine set apart for measuring is calm", "[doctor]") {
    Tree t("calm");
    t.machine(false, true, false)
        .file("sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "performance\n")
        .file("sys/devices/system/cpu/intel_pstate/no_turbo", "1\n")
        .file("sys/devices/system/cpu/isolated", "1\n")
        .file("sys/devices/system/cpu/nohz_full", "1\n")
        .file("proc/cmdline", "BOOT_IMAGE=/vmlinuz isolcpus=1 nohz_full=1 rcu_nocbs=1 quiet\n")
        .file("sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n");
    const SystemFacts f = t.facts(1, 30, 990);
    CHECK(f.transparent_hugepage == "madvise");
    CHECK(f.isolated == std::vector<int>{1});
    CHECK(f.rcu_nocbs == std::vector<int>{1});
    CHECK(f.boost == 0);
    CHECK(f.busy.at(0) == Approx(0.03));
    // Device interrupts by the CPU they fired on (the timer's 10, all on CPU 0), from one read of /proc/interrupts.
    CHECK(f.device_irqs.empty());
    CHECK(t.facts(0, 30, 990).device_irqs == std::vector<std::string>{"0 timer"});
    CHECK(f.irq_per_s.count(1) == 1);
    const DoctorReport r = diagnose(f, calm_health());
    CHECK(r.verdict == Verdict::calm);
    CHECK(r.to_json()["verdict"] == "calm");
}

TEST_CASE("doctor: a VM with scaling, boost, no isolation and a host that interrupts is noisy, and says what to do",
          "[doctor]") {
    Tree t("noisy");
    t.machine(true, true, false)
        .file("sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "powersave\n")
        .file("sys/devices/system/cpu/cpufreq/boost", "1\n")
        .file("proc/cmdline", "console=ttyS0 quiet\n")
        .file("sys/kernel/mm/transparent_hugepage/enabled", "always madvise [never]\n");
    TimerHealth h = calm_health();
    h.stalls_per_ms = 1.1;  // this VM: ~1 host stall per ms of ~38 us
    h.stall_p50_us = 38;
    h.lost_share = 0.04;
    const DoctorReport r = diagnose(t.facts(1, 700, 1000), h);
    CHECK(r.verdict == Verdict::noisy);
    CHECK(has_finding(r, "hypervisor", Verdict::noisy));
    CHECK(has_finding(r, "governor", Verdict::noisy));
    CHECK(has_finding(r, "boost", Verdict::noisy));
    CHECK(has_finding(r, "interruptions", Verdict::noisy));
    CHECK(has_finding(r, "load", Verdict::noisy));  // CPU 0 busy 70 %
    CHECK(has_finding(r, "huge pages", Verdict::noisy));  // THP "never": the cold buffer on 4 KiB pages
    CHECK(r.to_json()["system"]["transparent_hugepage"] == "never");
    for (const Finding& f : r.findings) {
        if (f.check == "governor")
            CHECK_THAT(f.advice,
                       Catch::Contains("echo performance > /sys/devices/system/cpu/cpu1/cpufreq/scaling_governor"));
        if (f.check == "isolation") CHECK_THAT(f.advice, Catch::Contains("isolcpus=1 nohz_full=1 rcu_nocbs=1"));
    }
    CHECK(r.findings.front().severity == Verdict::noisy);  // the worst first
}

TEST_CASE("doctor: no invariant TSC, or a busy SMT sibling, or a host that takes most of the CPU is unfit",
          "[doctor]") {
    {
        Tree t("unfit-tsc");
        t.machine(false, false, false);
        const DoctorReport r = diagnose(t.facts(1, 0, 1000), calm_health());
        CHECK(r.verdict == Verdict::unfit);
        CHECK(has_finding(r, "tsc", Verdict::unfit));
    }
    {
        Tree t("unfit-smt");
        t.machine(false, true, true);
        const SystemFacts f = t.facts(1, 900, 1000);
        CHECK(f.siblings == std::vector<int>{0});
        const DoctorReport r = diagnose(f, calm_health());
        CHECK(r.verdict == Verdict::unfit);
        CHECK(has_finding(r, "smt", Verdict::unfit));
        for (const Finding& x : r.findings)
            if (x.check == "smt") CHECK_THAT(x.advice, Catch::Contains("cpu0/online"));
    }
    {
        Tree t("unfit-host");
        t.machine(true, true, false)
            .file("sys/devices/system/clocksource/clocksource0/current_clocksource", "hpet\n")
            .file("sys/devices/system/clocksource/clocksource0/available_clocksource", "hpet acpi_pm\n");
        TimerHealth h = calm_health();
        h.lost_share = 0.3;
        h.stalls_per_ms = 3;
        const DoctorReport r = diagnose(t.facts(1, 0, 1000), h);
        CHECK(r.verdict == Verdict::unfit);
        CHECK(has_finding(r, "interruptions", Verdict::unfit));
        CHECK(has_finding(r, "clocksource", Verdict::unfit));
    }
}

TEST_CASE("doctor: the timer measured here gives figures a verdict can use", "[doctor]") {
    const TimerHealth h = measure_timer_health(0.05);
    CHECK(h.seconds >= 0.05);
    CHECK(h.overhead_p50 > 0);
    CHECK(h.ratio_p50 > 0);
    CHECK(h.calm.core_per_tsc > 0);
    CHECK(h.calm.overhead_ticks > 0);
}

TEST_CASE("cold buffer: 2 MiB pages are asked for, counted from smaps, and a shortfall is said", "[buffers]") {
    // Two mappings; the range covers the second only, whose AnonHugePages count.
    std::istringstream smaps(
        "7f0000000000-7f0000200000 rw-p 00000000 00:00 0 \n"
        "Size:               2048 kB\n"
        "AnonHugePages:      2048 kB\n"
        "7f1000000000-7f1010000000 rw-p 00000000 00:00 0 \n"
        "Size:             262144 kB\n"
        "AnonHugePages:    129024 kB\n"
        "VmFlags: rd wr mr mw me ac hg\n");
    CHECK(anon_huge_bytes(smaps, 0x7f1000000000, 0x7f1010000000) == std::uint64_t{129024} * 1024);
    std::istringstream none("7f0000000000-7f0000200000 rw-p 00000000 00:00 0 \nAnonHugePages: 0 kB\n");
    CHECK_FALSE(anon_huge_bytes(none, 0x7f1000000000, 0x7f1000001000).has_value());

    const MappedBuffer cold(5u << 20, true);
    CHECK(reinterpret_cast<std::uintptr_t>(cold.p) % kHugePageBytes == 0);
    CHECK(cold.p[(5u << 20) - 1] != cold.p[0]);  // filled to the end (xorshift: no two bytes 5 MiB apart alike here)
    const std::optional<std::uint64_t> huge = anon_huge_bytes(cold.p, cold.n);
    REQUIRE(huge.has_value());  // this process's own smaps lists the mapping
    CHECK(*huge <= (6u << 20));
    const MappedBuffer hot(10000, false);
    CHECK(reinterpret_cast<std::uintptr_t>(hot.p) % 4096 == 0);

    CHECK(cold_buffer_warning({256u << 20, 256 << 20}).empty());
    CHECK(cold_buffer_warning({256u << 20, -1}).empty());  // unknown: nothing to say
    CHECK(cold_buffer_warning({0, -1}).empty());  // no cold point
    const std::string w = cold_buffer_warning({256u << 20, 64 << 20});
    CHECK_THAT(w, Catch::Contains("only 25 % of the cold buffer got 2 MiB pages") &&
                      Catch::Contains("transparent_hugepage/enabled"));
}
