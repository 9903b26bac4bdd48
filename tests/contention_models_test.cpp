// SPDX-License-Identifier: MIT
// The contention sensitivity fit (models/contention.hpp) on synthetic rounds, and on committed sweeps that
// record no contention.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <functional>
#include <random>
#include <string>
#include <utility>

#include "compare.hpp"
#include "contention.hpp"
#include "fit_sweep.hpp"
#include "header.hpp"
#include "model_json.hpp"
#include "recommend.hpp"
#include "report_test_util.hpp"
#include "stats.hpp"
#include "sweep_file.hpp"

using namespace fputune;

namespace {

// A round's quiet part: `samples` of them at c 1.02, p50 880, p90 950 and p99 `p99` cycles.
void with_quiet_part(RoundStats& r, std::uint64_t samples, double p99) {
    r.quiet_samples = samples;
    r.quiet_p50 = 880;
    r.quiet_p90 = 950;
    r.quiet_p99_clean = p99;
    r.quiet_contention = 1.02;
}

// `points` points of quiet cost 1000 x (i + 1) cycles, 4 rounds each at levels drawn from 1..2.2, time =
// quiet x (1 + s (c - 1)) x (1 + noise).
std::vector<std::vector<ContentionObservation>> synthetic(double s, std::size_t points, double noise,
                                                          unsigned seed = 7) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> level(1, 2.2);
    std::normal_distribution<double> jitter(0, noise);
    std::vector<std::vector<ContentionObservation>> out(points);
    for (std::size_t p = 0; p < points; ++p)
        for (int r = 0; r < 4; ++r) {
            const double c = r == 0 ? 1.0 : level(rng);
            out[p].push_back({c, 1000.0 * static_cast<double>(p + 1) * (1 + s * (c - 1)) * (1 + jitter(rng))});
        }
    return out;
}

// Four rounds of 500 normal samples (mean, sd) at contention `level`: each round's samples, their statistics,
// and all of them pooled.
struct NormalRounds {
    std::vector<std::vector<double>> samples = std::vector<std::vector<double>>(4);
    std::vector<RoundStats> rounds;
    std::vector<double> pooled;
};
NormalRounds normal_rounds(double mean, double sd, double level, unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(mean, sd);
    NormalRounds out;
    for (auto& s : out.samples) {
        for (int i = 0; i < 500; ++i) s.push_back(noise(rng));
        out.pooled.insert(out.pooled.end(), s.begin(), s.end());
        const PointStats st = summarize(s);
        out.rounds.push_back({st.samples, st.p10, st.p50, st.p90, st.p99_clean, 0, level});
    }
    return out;
}

// `all` with its quiet part (nq samples at level cq: p50 q, p90 1.05 q, p99 1.1 q) and its contended part (nc samples
// at level cc, p50 pc).
RoundStats split_round(RoundStats all, std::uint64_t nq, double q, double cq, std::uint64_t nc, double pc, double cc) {
    all.quiet_samples = nq;
    all.quiet_p50 = q;
    all.quiet_p90 = 1.05 * q;
    all.quiet_p99_clean = 1.1 * q;
    all.quiet_contention = cq;
    all.contended_samples = nc;
    all.contended_p50 = pc;
    all.contended_contention = cc;
    return all;
}

// Three points of kernel "k" (1, 2, 4 KiB) in `cache`, four rounds each: `round(q)` makes a round whose quiet part's
// p50 is q (the point's size, 1 % more each round).
SweepFile three_point_sweep(const char* cache, const std::function<RoundStats(double)>& round) {
    SweepFile f;
    for (std::uint64_t bytes : {1024, 2048, 4096}) {
        SectionPoint p;
        p.kernel = "k";
        p.cache = cache;
        p.bytes = bytes;
        for (int r = 0; r < 4; ++r) p.rounds.push_back(round(static_cast<double>(bytes) * (1 + 0.01 * r)));
        f.sections.push_back(p);
    }
    return f;
}

}  // namespace

TEST_CASE("contention: an immune kernel fits s near 0, an exposed one its own s", "[contention]") {
    const Sensitivity immune = fit_sensitivity(synthetic(0, 20, 0.01));
    REQUIRE(immune.known);
    CHECK(std::abs(immune.s) < 0.03);
    CHECK(immune.lo < 0.01);  // its 95 % interval reaches 0 (within the noise of one synthetic draw)
    CHECK(immune.hi > -0.01);
    CHECK(immune.hi - immune.lo < 0.05);
    for (double s : {0.3, 0.8, 1.2}) {
        const Sensitivity exposed = fit_sensitivity(synthetic(s, 20, 0.01, 11));
        REQUIRE(exposed.known);
        CHECK(exposed.s == Approx(s).margin(0.05));
        CHECK(exposed.lo < exposed.s);
        CHECK(exposed.hi > exposed.s);
        CHECK(exposed.hi - exposed.lo < 0.2);
        CHECK(exposed.points == 20);
        CHECK(exposed.observations == 80);
        CHECK(exposed.level_min == 1.0);
    }
}

TEST_CASE("contention: the interval widens with the noise and the fit holds with few points", "[contention]") {
    const Sensitivity calm = fit_sensitivity(synthetic(0.6, 6, 0.005));
    const Sensitivity noisy = fit_sensitivity(synthetic(0.6, 6, 0.05));
    REQUIRE(calm.known);
    REQUIRE(noisy.known);
    CHECK(calm.s == Approx(0.6).margin(0.05));
    CHECK(noisy.hi - noisy.lo > 3 * (calm.hi - calm.lo));
}

TEST_CASE("contention: a phase that moves a whole round widens the interval when the rounds are named",
          "[contention]") {
    // 20 points, 4 rounds. Each round is a window of time: its level c is near the round's own, and a phase the
    // probe does not see (another kind of neighbour) moves every point of the round alike, by 0.88..1.12. The
    // least-squares interval takes the 80 observations as independent and is narrow; the points of a round are
    // not, and the interval clustered by round must be the wider one, and still hold the true s.
    const double s_true = 0.6;
    const double round_level[4] = {1.05, 1.25, 1.15, 1.35};
    const double phase[4] = {1.00, 0.88, 1.12, 0.95};
    std::mt19937 rng(5);
    std::normal_distribution<double> jitter(0, 0.005), level_jitter(0, 0.03);
    std::vector<std::vector<ContentionObservation>> named(20), unnamed(20);
    for (std::size_t p = 0; p < 20; ++p)
        for (int r = 0; r < 4; ++r) {
            const double c = std::max(1.0, round_level[r] + level_jitter(rng));
            const double quiet = 1000.0 * static_cast<double>(p + 1);
            const double t = quiet * (1 + s_true * (c - 1)) * phase[r] * (1 + jitter(rng));
            named[p].push_back({c, t, r});
            unnamed[p].push_back({c, t});
        }
    const Sensitivity a = fit_sensitivity(named);
    const Sensitivity b = fit_sensitivity(unnamed);
    REQUIRE(a.known);
    REQUIRE(b.known);
    CHECK(a.s == Approx(b.s));  // the same fit; only its interval differs
    CHECK(a.hi - a.lo > 2 * (b.hi - b.lo));
    CHECK(a.lo < s_true);
    CHECK(a.hi > s_true);
    CHECK_FALSE((b.lo < s_true && b.hi > s_true));  // the phase biases s, and the narrow interval misses it
}

TEST_CASE("contention: without levels that move, or with too few rounds, the sensitivity is unknown", "[contention]") {
    // Every round at the same level: nothing to fit on.
    std::vector<std::vector<ContentionObservation>> flat(5, {{1.3, 100}, {1.3, 120}, {1.3, 90}});
    const Sensitivity a = fit_sensitivity(flat);
    CHECK_FALSE(a.known);
    CHECK(a.s == 0);
    CHECK(a.why_unknown.find("hardly moved") != std::string::npos);
    // One point only.
    const Sensitivity b = fit_sensitivity({{{1, 100}, {2, 200}, {1.5, 150}, {1.2, 120}}});
    CHECK_FALSE(b.known);
    CHECK(b.why_unknown.find("points") != std::string::npos);
    // Nothing at all, and levels below 1 (unknown: 0) ignored.
    CHECK_FALSE(fit_sensitivity({}).known);
    CHECK_FALSE(fit_sensitivity({{{0, 100}, {0, 120}}, {{0, 100}, {0, 130}}}).known);
}

TEST_CASE("contention: the factor is 1 when quiet or unknown and grows with s", "[contention]") {
    CHECK(contention_factor(0.8, 1) == 1);
    CHECK(contention_factor(0.8, 0) == 1);
    CHECK(contention_factor(0.8, 2) == Approx(1.8));
    CHECK(contention_factor(0, 2.5) == 1);
    CHECK(contention_factor(-3, 2) == 0.5);  // never below half
}

TEST_CASE("contention: committed sweeps from before the probe read as unknown, without a crash", "[contention]") {
    for (const char* name : {"zen5-turin-vm-2026-11-30.json", "emerald-rapids-vm-2026-11-30.json"}) {
        const SweepFile f = read_sweep_file(std::string(FPUTUNE_SOURCE_DIR "/data/machines/") + name);
        CHECK_FALSE(has_contention(f));
        const auto all = sweep_sensitivities(f);
        CHECK_FALSE(all.empty());
        for (const auto& [key, s] : all) {
            CHECK_FALSE(s.known);
            CHECK(s.s == 0);
            CHECK(s.why_unknown.find("records no contention") != std::string::npos);
        }
    }
}

TEST_CASE(
    "contention: on the committed machines' Zen 5 sweep, SHA-NI is immune and the SHA-2 AVX and SSSE3 code "
    "exposed",
    "[contention][golden]") {
    // AMD EPYC (Zen 5) VM, 2026-12-03: a default sweep whose core's other thread was busy part of the time
    // (c p50 1.15, p90 1.31; contended in 51 % of its probes). SHA-NI runs on its own unit, which the
    // neighbour's integer and vector work does not take; the SHA-2 message schedule on xmm/ymm shares the vector
    // ports with it.
    const SweepFile f = read_sweep_file(FPUTUNE_ZEN5_SWEEP);
    REQUIRE(has_contention(f));
    const auto all = sweep_sensitivities(f);
    for (const char* k : {"sha1-shani", "sha256-shani"}) {
        INFO(k);
        const Sensitivity& s = all.at({k, "hot"});
        REQUIRE(s.known);
        CHECK(std::abs(s.s) < 0.2);
        CHECK(s.hi - s.lo < 0.25);
    }
    for (const char* k : {"sha256-avx2", "sha256-ssse3", "sha512-avx2", "sm3-avx"}) {
        INFO(k);
        const Sensitivity& s = all.at({k, "hot"});
        REQUIRE(s.known);
        CHECK(s.s > 0.4);
        CHECK(s.lo > 0.25);
        CHECK(s.points >= 20);
    }
}

TEST_CASE("contention: a sweep file's levels are read from its rounds and fitted per kernel", "[contention]") {
    SweepFile f;
    f.kernels.push_back({"k", "sha256", "avx2", "fputune", 64, true});
    f.contention.probes = 100;
    f.contention.best_cycles = 2000;
    for (int p = 1; p <= 8; ++p) {
        SectionPoint pt;
        pt.kernel = "k";
        pt.cache = "hot";
        pt.bytes = 64u * static_cast<unsigned>(p);
        for (double c : {1.0, 1.5, 2.0, 1.2}) {
            RoundStats r;
            r.samples = 50;
            r.p50 = 100.0 * p * (1 + 0.7 * (c - 1));
            r.p90 = r.p50 * 1.05;
            r.contention = c;
            pt.rounds.push_back(r);
        }
        f.sections.push_back(pt);
    }
    const auto all = sweep_sensitivities(f);
    REQUIRE(all.count({"k", "hot"}));
    const Sensitivity& s = all.at({"k", "hot"});
    REQUIRE(s.known);
    CHECK(s.s == Approx(0.7).margin(1e-3));
    CHECK(s.level_max == 2.0);
    CHECK(s.quiet_share == Approx(0.25));
}

TEST_CASE("contention: --contention takes quiet, observed or a factor, and refuses anything else", "[contention]") {
    CHECK(parse_contention_target("quiet")->kind == ContentionTarget::Kind::quiet);
    CHECK(parse_contention_target("observed")->kind == ContentionTarget::Kind::observed);
    CHECK(parse_contention_target("1.5")->factor == 1.5);
    CHECK(parse_contention_target("2x")->factor == 2);
    CHECK(parse_contention_target("2x")->text() == "2");
    for (const char* bad : {"", "x", "loud", "0.5", "11", "1.5y", "nan", "inf", "-2", "1e400", "1.5xx"})
        CHECK_FALSE(parse_contention_target(bad).has_value());
    CHECK(target_level(*parse_contention_target("quiet"), 1.8) == 1);
    CHECK(target_level(*parse_contention_target("observed"), 1.8) == 1.8);
    CHECK(target_level(*parse_contention_target("observed"), 0) == 0);  // unknown
    CHECK(target_level(*parse_contention_target("1.3"), 1.8) == 1.3);
}

TEST_CASE("contention: the bound statistic moves each round to the stated level before the calmest is taken",
          "[contention]") {
    // Two rounds: one quiet (c = 1), one at c = 2 and 1.8x slower (s = 0.8): quiet, they are the same.
    std::vector<RoundStats> rounds(2);
    rounds[0] = {100, 900, 1000, 1100, 1200, 0, 1.0};
    rounds[1] = {100, 1620, 1800, 1980, 2160, 0, 2.0};
    const PointStats pooled{200, 900, 950, 1400, 1800, 2000, 2100, 2200, 0, 0.01, 2100};
    const BoundStats raw = bound_stats(pooled, rounds);
    CHECK(raw.p99 == 1200);  // the calmest round, as measured
    const BoundStats quiet = bound_stats(pooled, rounds, OverRounds::calmest, {true, 0.8, 1, {}});
    CHECK(quiet.p99 == Approx(1200));
    const BoundStats busy = bound_stats(pooled, rounds, OverRounds::calmest, {true, 0.8, 2, {}});
    CHECK(busy.p99 == Approx(2160));  // both rounds moved to c = 2
    // The calmest after adjustment: a round that met more contention but was not slower for it wins.
    rounds[1].p99_clean = 1500;
    rounds[1].p90 = 1400;
    CHECK(bound_stats(pooled, rounds, OverRounds::calmest, {true, 0.8, 1, {}}).p99 == Approx(1500 / 1.8));
    // Unknown sensitivity or level: as measured.
    CHECK(bound_stats(pooled, rounds, OverRounds::calmest, {false, 0.8, 1, {}}).p99 == 1200);
    rounds[1].contention = 0;
    CHECK(bound_stats(pooled, rounds, OverRounds::calmest, {true, 0.8, 1, {}}).p99 == 1200);
}

TEST_CASE("contention: a round's contended minority does not set its bound, its quiet samples do, moved by s",
          "[contention]") {
    // One round whose median sample was quiet (c 1.02) while a fifth of them met c = 1.6: its tail is theirs
    // (p90 1500, p99 1700), its quiet samples' 1100 and 1200 at c 1.01.
    RoundStats r{200, 900, 1000, 1500, 1700, 0, 1.02};
    r.quiet_samples = 160;
    r.quiet_p90 = 1100;
    r.quiet_p99_clean = 1200;
    r.quiet_contention = 1.01;
    const ContentionAdjust quiet{true, 0.5, 1, {}}, busy{true, 0.5, 1.6, {}};
    // Moved by the median level, the contended tail stayed (1700 / 1.01); from the quiet samples it is theirs.
    CHECK(round_bound(r, quiet).first == Approx(1100 / 1.005));
    CHECK(round_bound(r, quiet).second == Approx(1200 / 1.005));
    // Restated at a contended level, the quiet samples are moved up by s, not read off the minority.
    CHECK(round_bound(r, busy).second == Approx(1200 * 1.3 / 1.005));
    // As measured (sensitivity unknown): every sample, as before.
    CHECK(round_bound(r, {}).second == 1700);
    // Too few quiet samples for a tail, or a file from before them: the round's all, moved by its median level.
    r.quiet_samples = kBoundRoundMinSamples - 1;
    CHECK(round_bound(r, quiet).second == Approx(1700 / 1.01));
    r.quiet_samples = 0;
    CHECK(round_bound(r, quiet).second == Approx(1700 / 1.01));
    // bound_stats and verify take the same: the calmest round of the quiet samples.
    std::vector<RoundStats> rounds(2, r);
    for (RoundStats& x : rounds) {
        x.quiet_samples = 160;
        x.quiet_p90 = 1100;
        x.quiet_p99_clean = 1200;
        x.quiet_contention = 1.01;
    }
    rounds[1].quiet_p99_clean = 1250;
    const PointStats pooled{400, 900, 1000, 1500, 1700, 1900, 2000, 2100, 0, 0.01, 1700};
    CHECK(bound_stats(pooled, rounds, OverRounds::calmest, quiet).p99 == Approx(1200 / 1.005));
    const HeaderContention stated{"k", "cold", true, 1, 0.5, 0.4, 0.6, {}};
    const VerifyBound v = verify_bound(pooled, rounds, &stated);
    CHECK(v.raw_p99 == 1700);
    CHECK(v.adjusted_p99 == Approx(1200 / 1.005));
}

TEST_CASE("contention: a round split into quiet and contended samples gives the fit both levels", "[contention]") {
    // Three points of one kernel, four rounds each, every round's median level 1.02 (the median sample was quiet),
    // while in each a quarter of the samples met c = 1.5 and took 1.4x as long (s = 0.8).
    SweepFile f = three_point_sweep("hot", [](double q) {
        return split_round({100, 0.9 * q, q, 1.4 * q, 1.45 * q, 0, 1.02}, 75, q, 1.0, 25, 1.4 * q, 1.5);
    });
    const auto obs = section_observations(f, "k", "hot");
    REQUIRE(obs.size() == 3);
    CHECK(obs[0].size() == 8);  // two a round
    CHECK(obs[0][1].round == obs[0][0].round);
    const Sensitivity s = fit_sensitivity(obs);
    REQUIRE(s.known);
    CHECK(s.s == Approx(0.8).margin(0.02));
    // The medians alone (a file from before the split) say nothing: every level is 1.02.
    for (SectionPoint& p : f.sections)
        for (RoundStats& x : p.rounds) x.quiet_samples = x.contended_samples = 0;
    CHECK_FALSE(fit_sensitivity(section_observations(f, "k", "hot")).known);
    // Too few contended samples in a round: its median, as before.
    f.sections[0].rounds[0].quiet_samples = 95;
    f.sections[0].rounds[0].contended_samples = kSplitRoundMinSamples - 1;
    CHECK(section_observations(f, "k", "hot")[0].size() == 4);
}

TEST_CASE("contention: a round the neighbour held throughout is moved by the tail sensitivity its kernel showed",
          "[contention]") {
    // Three points, four rounds each: every round mostly contended (median level 1.5) with a quiet part at 1.02.
    // The p50 moves with s = 0.3, the tails further: all / quiet = f(0.8, 1.5) / f(0.8, 1.02) at p90, 1.0 at p99.
    const auto ratio = [](double t) { return contention_factor(t, 1.5) / contention_factor(t, 1.02); };
    SweepFile f = three_point_sweep("cold", [&](double q) {
        return split_round({300, 0.95 * q, q * ratio(0.3), 1.05 * q * ratio(0.8), 1.1 * q * ratio(1.0), 0, 1.5}, 40, q,
                           1.02, 260, q * ratio(0.3) * 1.01, 1.52);
    });
    Sensitivity s;
    fit_tail_sensitivity(s, f, "k", "cold");
    REQUIRE(s.tail.known);
    CHECK(s.tail_rounds == 12);
    CHECK(s.tail.p90 == Approx(0.8).margin(1e-9));
    CHECK(s.tail.p99 == Approx(1.0).margin(1e-9));
    // A round with too few quiet samples for its own tail: its all-sample p99 moved by the tail lands on the quiet
    // one; moved by s (0.3) it stayed 1.29x above.
    RoundStats held = f.sections[0].rounds[0];
    held.quiet_samples = kBoundRoundMinSamples - 1;
    const ContentionAdjust by_s{true, 0.3, 1, {}}, by_tail{true, 0.3, 1, s.tail};
    const double quiet_p99 = 1.1 * 1024 / contention_factor(0.3, 1.02);
    CHECK(round_bound(held, by_tail).second == Approx(1.1 * 1024 / contention_factor(1.0, 1.02)));
    CHECK(round_bound(held, by_s).second / quiet_p99 ==
          Approx(ratio(1.0) * contention_factor(0.3, 1.02) / contention_factor(0.3, 1.5)));
    CHECK(round_bound(held, by_s).second > 1.25 * quiet_p99);
    // Too few rounds with both parts, or rounds whose median level is not above their quiet part's: not known.
    Sensitivity few;
    f.sections.resize(1);
    f.sections[0].rounds.resize(kTailMinRounds - 1);
    fit_tail_sensitivity(few, f, "k", "cold");
    CHECK_FALSE(few.tail.known);
    for (RoundStats& x : f.sections[0].rounds) x.contention = 1.05;
    f.sections[0].rounds.resize(kTailMinRounds + 2, f.sections[0].rounds[0]);
    fit_tail_sensitivity(few, f, "k", "cold");
    CHECK_FALSE(few.tail.known);
}

TEST_CASE("contention: a point with two rounds bounded on their quiet samples leaves out a round that has none",
          "[contention]") {
    // Rounds 0 and 1: quiet parts of 60 samples (p99 1000, 1010 at c 1.02); round 2 held by the neighbour: 8 quiet
    // samples, all of them p99 1900 at c 1.55. Its statistic would be a guess moved by s; the others say it.
    std::vector<RoundStats> rounds(3, RoundStats{300, 800, 900, 1500, 1900, 0, 1.55});
    for (int r = 0; r < 2; ++r) with_quiet_part(rounds[r], 60, 1000 + 10 * r);
    rounds[2].quiet_samples = 8;
    const ContentionAdjust adjust{true, 0.3, 1, {}};
    CHECK(rounds_kept(rounds, adjust) == RoundKeep::clean);  // no contended samples counted: clean
    CHECK(round_left_out(rounds[2], RoundKeep::quiet));
    CHECK_FALSE(round_left_out(rounds[0], RoundKeep::quiet));
    const PointStats pooled{900, 800, 900, 1400, 1800, 1900, 2000, 2100, 0, 0.01, 1800};
    const double f = contention_factor(0.3, 1.02);
    CHECK(bound_stats(pooled, rounds, OverRounds::mean, adjust).p99 == Approx(1005 / f));
    // One round on its quiet part only: every round is taken, the held one moved by s.
    rounds[1].quiet_samples = 8;
    CHECK(rounds_kept(rounds, adjust) == RoundKeep::all);
    CHECK(bound_stats(pooled, rounds, OverRounds::mean, adjust).p99 ==
          Approx((1000 / f + 2 * 1900 / contention_factor(0.3, 1.55)) / 3));
    // As measured (nothing known): every round as it was.
    CHECK(rounds_kept(rounds, {}) == RoundKeep::all);
}

TEST_CASE("contention: where two rounds were clean, a round the neighbour shared is left out, quiet part and all",
          "[contention]") {
    // Four rounds with quiet parts (p99 1000-1030 at c 1.02); round 3 shared with the neighbour: 46 % of its samples
    // contended, and its "quiet" ones slower too (p99 1300: the probe reads the neighbour only now and then).
    std::vector<RoundStats> rounds(4, RoundStats{300, 800, 900, 1500, 1900, 0, 1.03});
    for (int r = 0; r < 4; ++r) {
        with_quiet_part(rounds[r], 290, 1000 + 10 * r);
        rounds[r].contended_samples = 10;  // 3 %
    }
    rounds[3].quiet_samples = 162;
    rounds[3].contended_samples = 138;
    rounds[3].quiet_p99_clean = 1300;
    const ContentionAdjust adjust{true, 0.3, 1, {}};
    REQUIRE(rounds_kept(rounds, adjust) == RoundKeep::clean);
    CHECK(round_left_out(rounds[3], RoundKeep::clean));
    CHECK_FALSE(round_left_out(rounds[3], RoundKeep::quiet));
    for (int r = 0; r < 3; ++r) CHECK_FALSE(round_left_out(rounds[r], RoundKeep::clean));
    const PointStats pooled{900, 800, 900, 1400, 1800, 1900, 2000, 2100, 0, 0.01, 1800};
    const double f = contention_factor(0.3, 1.02);
    CHECK(bound_stats(pooled, rounds, OverRounds::mean, adjust).p99 == Approx(1010 / f));
    // Only one clean round: every round with a quiet part counts, the shared one too.
    rounds[1].contended_samples = rounds[2].contended_samples = 40;
    CHECK(rounds_kept(rounds, adjust) == RoundKeep::quiet);
    CHECK(bound_stats(pooled, rounds, OverRounds::mean, adjust).p99 == Approx((1000 + 1010 + 1020 + 1300) / 4.0 / f));
}

TEST_CASE("verify: a point judged only on rounds a neighbour shared is told apart, one with two clean rounds is not",
          "[verify][contention]") {
    // Four rounds with quiet parts (c 1.02), a tenth of each round's samples contended: none clean.
    std::vector<RoundStats> rounds(4, RoundStats{300, 800, 900, 1500, 1900, 0, 1.15});
    for (int r = 0; r < 4; ++r) {
        with_quiet_part(rounds[r], 270, 1000 + 10 * r);
        rounds[r].contended_samples = 30;
    }
    const HeaderContention quiet{"k", "cold", true, 1, 0.4, 0.3, 0.5, {}};
    CHECK(judged_on_shared_rounds(rounds, &quiet));
    // As measured (the header states no level, or none for this kernel): judged as it ran, nothing to tell apart.
    const HeaderContention as_measured{"k", "cold", false, 0, 0, 0, 0, {}};
    CHECK_FALSE(judged_on_shared_rounds(rounds, &as_measured));
    CHECK_FALSE(judged_on_shared_rounds(rounds, nullptr));
    // One clean round is not enough: the shared ones are still judged.
    rounds[0].contended_samples = 5;
    CHECK(judged_on_shared_rounds(rounds, &quiet));
    // Two clean rounds: only those are judged, and the neighbour's rounds are left out.
    rounds[2].contended_samples = 15;  // 5 %: at most kCleanRoundMaxShare
    CHECK_FALSE(judged_on_shared_rounds(rounds, &quiet));
    // Rounds the neighbour held throughout (no quiet part), every one contended: judged on all samples, shared.
    for (RoundStats& r : rounds) {
        r.quiet_samples = 3;
        r.contended_samples = 297;
    }
    CHECK(judged_on_shared_rounds(rounds, &quiet));
}

TEST_CASE("contention: restating a model moves lines, bounds and rounds by the same factor", "[contention]") {
    ModelFile m;
    m.contention = "quiet";
    m.contention_observed = 1.6;
    CacheModel cm;
    cm.kernel = "k";
    cm.p90 = {.a = 100, .b = 2, .a_lo = 90, .a_hi = 110, .b_lo = 1.9, .b_hi = 2.1, .note = {}};
    cm.p99 = {.a = 120, .b = 3, .a_lo = 110, .a_hi = 130, .b_lo = 2.8, .b_hi = 3.2, .note = {}};
    cm.bound_bytes = {64, 128};
    cm.bound_p90 = {228, 356};
    cm.bound_p99 = {312, 504};
    cm.round_p90 = {{228, 356}, {230, 360}};
    cm.round_p99 = {{312, 504}, {315, 510}};
    cm.contention_known = true;
    cm.contention_s = 0.5;
    cm.contention_level = 1;
    CacheModel immune = cm;
    immune.kernel = "immune";
    immune.contention_s = 0;
    CacheModel unknown = cm;
    unknown.kernel = "unknown";
    unknown.contention_known = false;
    unknown.contention_level = 0;
    m.models = {cm, immune, unknown};
    restate_contention(m, *parse_contention_target("observed"));
    CHECK(m.contention == "observed");
    const double k = 1 + 0.5 * 0.6;
    CHECK(m.models[0].contention_level == 1.6);
    CHECK(m.models[0].p99.a == Approx(120 * k));
    CHECK(m.models[0].p99.b_hi == Approx(3.2 * k));
    CHECK(m.models[0].bound_p90[1] == Approx(356 * k));
    CHECK(m.models[0].round_p99[1][0] == Approx(315 * k));
    CHECK(m.models[1].p99.a == 120);  // s = 0: the same at every level
    CHECK(m.models[2].p99.a == 120);  // unknown: as measured
    CHECK(m.models[2].contention_level == 0);
    // And back: quiet again.
    restate_contention(m, ContentionTarget{});
    CHECK(m.models[0].p99.a == Approx(120));
    CHECK(m.models[0].contention_level == 1);
    // A file without contention stays as it is.
    ModelFile old;
    old.models = {unknown};
    restate_contention(old, *parse_contention_target("2"));
    CHECK(old.contention.empty());
}

TEST_CASE("contention: the header's lines say each variant's level and sensitivity, and read back", "[contention]") {
    const std::string comment =
        contention_comment("quiet", {{"sha256-avx2", "cold", true, 1, 0.62, 0.55, 0.7, {true, 0.9, 1.4}},
                                     {"sha1-shani", "cold", true, 1, 0.02, -0.01, 0.05, {}},
                                     {"crc32-pclmul", "hot", false, 0, 0, 0, 0, {}}});
    CHECK(comment.find("Contention:    quiet") != std::string::npos);
    CHECK(comment.find(" *   contention sha256-avx2 cold c=1.00 s=0.62 (0.55..0.70) tail=0.90/1.40\n") !=
          std::string::npos);
    CHECK(comment.find(" *   contention sha1-shani cold c=1.00 s=0.02 (-0.01..0.05)\n") != std::string::npos);
    CHECK(comment.find(" *   contention crc32-pclmul hot as-measured\n") != std::string::npos);
    const auto back = parse_header_contention("/*\n" + comment + " */\n#define X 1\n");
    REQUIRE(back.size() == 3);
    const HeaderContention& a = back.at({"sha256-avx2", "cold"});
    CHECK(a.known);
    CHECK(a.level == 1);
    CHECK(a.s == 0.62);
    CHECK(a.hi == 0.7);
    CHECK(a.tail.known);
    CHECK(a.tail.p90 == 0.9);
    CHECK(a.tail.p99 == 1.4);
    // A line without a tail (an older header, or a kernel whose tail was not fitted): s moves every round.
    CHECK(back.at({"sha1-shani", "cold"}).known);
    CHECK_FALSE(back.at({"sha1-shani", "cold"}).tail.known);
    CHECK_FALSE(back.at({"crc32-pclmul", "hot"}).known);
    CHECK(contention_comment("", {}).find("as measured") != std::string::npos);
    CHECK(parse_header_contention("/* contention is high */\n *   contention x warm c=1 s=1 (0..2)\n").empty());
}

TEST_CASE("contention: verify judges the calmest round moved to the header's level", "[contention]") {
    std::vector<RoundStats> rounds(4);
    // Quiet rounds at 1000 cycles p99, contended ones (c = 1.8) at 1800: s = 1.
    for (std::size_t r = 0; r < 4; ++r) {
        const double c = r % 2 ? 1.8 : 1.0;
        rounds[r] = {200, 800 * c, 900 * c, 950 * c, 1000 * c, 0, c};
    }
    const PointStats pooled{800, 800, 1000, 1500, 1700, 1800, 1900, 1900, 0, 0.01, 1750};
    const HeaderContention quiet{"k", "cold", true, 1, 1.0, 0.9, 1.1, {}};
    VerifyBound v = verify_bound(pooled, rounds, &quiet);
    CHECK(v.adjusted);
    CHECK(v.raw_p99 == 1000);
    CHECK(v.adjusted_p99 == Approx(1000));
    CHECK(v.met == Approx(1.8));  // the median of 1, 1, 1.8, 1.8 (the upper middle)
    // Every round contended: raw is the slow one, adjusted what the header's quiet bound speaks of.
    for (auto& r : rounds) r = {200, 1440, 1620, 1710, 1800, 0, 1.8};
    v = verify_bound(pooled, rounds, &quiet);
    CHECK(v.raw_p99 == 1800);
    CHECK(v.adjusted_p99 == Approx(1000));
    // A header at c = 2 judges the same rounds as slower than measured.
    const HeaderContention busy{"k", "cold", true, 2, 1.0, 0.9, 1.1, {}};
    CHECK(verify_bound(pooled, rounds, &busy).adjusted_p99 == Approx(2000));
    // No statement, or "as-measured": as measured.
    CHECK_FALSE(verify_bound(pooled, rounds, nullptr).adjusted);
    const HeaderContention as_measured{"k", "cold", false, 0, 0, 0, 0, {}};
    CHECK(verify_bound(pooled, rounds, &as_measured).adjusted_p99 == 1800);
}

TEST_CASE("contention: verify takes a series' own line, else its kernel's series nearest in sources", "[contention]") {
    std::map<std::pair<std::string, std::string>, HeaderContention> lines;
    for (const auto& [series, s] : std::vector<std::pair<std::string, double>>{
             {"raid6-avx2.x4", 0.49}, {"raid6-avx2.x8", 0.58}, {"raid6-avx2.x16", 1.08}, {"raid6-avx2.x24", 1.11}})
        lines[{series, "cold"}] = {series, "cold", true, 1, s, s - 0.1, s + 0.1, {}};
    lines[{"raid6-avx2.x8", "hot"}] = {"raid6-avx2.x8", "hot", true, 1, 0.2, 0.1, 0.3, {}};
    lines[{"sha256-avx2", "hot"}] = {"sha256-avx2", "hot", true, 1, 0.3, 0.2, 0.4, {}};
    auto s_of = [&](const std::string& series, const std::string& cache) {
        const HeaderContention* h = header_contention_for(lines, series, cache);
        return h ? h->s : -1.0;
    };
    CHECK(s_of("raid6-avx2.x8", "cold") == 0.58);  // its own
    CHECK(s_of("raid6-avx2.x18", "cold") == 1.08);  // the count's series: the nearest, not the last by name (x8)
    CHECK(s_of("raid6-avx2.x21", "cold") == 1.11);
    CHECK(s_of("raid6-avx2.x6", "hot") == 0.2);  // this cache first
    CHECK(s_of("sha256-avx2", "cold") == 0.3);  // its own line in the other cache
    CHECK(s_of("raid6-avx512.x18", "cold") == -1);  // nothing of its kernel
}

TEST_CASE("verify: over only beyond what the stated interval of s explains, on the samples the bound is of",
          "[verify][stats]") {
    // Four rounds of 500 samples near 1500 cycles (p99 ~1600), every round at c 1.5: the header states quiet, s 0.6
    // (0.4..1.0). At s 0.6 a budget of 1150 is 1495 at c 1.5, under most samples: over. At s 1.0 (the upper end)
    // it is 1725, over every sample: not beyond what s leaves open.
    auto [samples, rounds, pooled] = normal_rounds(1500, 30, 1.5, 11);
    const HeaderContention wide{"k", "cold", true, 1, 0.6, 0.4, 1.0, {}},
        narrow{"k", "cold", true, 1, 0.6, 0.55, 0.65, {}};
    CHECK(over_budget_p(pooled, samples, rounds, &narrow, 1150, false) < 1e-6);
    CHECK(over_budget_p(pooled, samples, rounds, &wide, 1150, false) == 1);
    // A header that states a tail sensitivity moves a round judged on all its samples by it, as verify_bound does:
    // at 1.2 the budget is 1840 at c 1.5, above every sample.
    const HeaderContention tailed{"k", "cold", true, 1, 0.6, 0.55, 0.65, {true, 1.2, 1.2}};
    CHECK(over_budget_p(pooled, samples, rounds, &tailed, 1150, false) == 1);
    CHECK(verify_bound(PointStats{}, rounds, &tailed).adjusted_p99 < 1150);
    // A round whose bound comes from its quiet samples is tested on them: 400 quiet samples at 1000 cycles (c 1.0)
    // are under a quiet budget of 1150 whatever the contended fifth did.
    std::vector<std::vector<double>> quiet(4, std::vector<double>(400, 1000));
    for (RoundStats& r : rounds) {
        r.quiet_samples = 400;
        r.quiet_p50 = r.quiet_p90 = r.quiet_p99_clean = 1000;
        r.quiet_contention = 1.0;
    }
    CHECK(over_budget_p(pooled, samples, rounds, &narrow, 1150, false, quiet) == 1);
    // Without the quiet samples at hand (or as measured): all of them, as before.
    CHECK(over_budget_p(pooled, samples, rounds, &narrow, 1150, false) < 1e-6);
}

TEST_CASE("verify: a binomial tail and Holm's step-down, against values worked by hand", "[verify][stats]") {
    CHECK(binomial_at_least(10, 0.5, 0) == 1);
    CHECK(binomial_at_least(10, 0.5, 11) == 0);
    CHECK(binomial_at_least(10, 0.5, 10) == Approx(1.0 / 1024));
    CHECK(binomial_at_least(10, 0.5, 9) == Approx(11.0 / 1024));
    // 500 samples, 1 % above: the mean count is 5; 10 or more is rare, 5 or more is not.
    CHECK(binomial_at_least(500, 0.01, 10) == Approx(0.0311).epsilon(0.02));
    CHECK(binomial_at_least(500, 0.01, 5) > 0.5);
    // Holm: 0.01 < 0.05/3, 0.02 < 0.05/2, 0.04 < 0.05/1: all three; 0.03 at the second step stops the rest.
    CHECK(holm_rejects({0.04, 0.01, 0.02}, 0.05) == std::vector<bool>{true, true, true});
    CHECK(holm_rejects({0.04, 0.01, 0.03}, 0.05) == std::vector<bool>{false, true, false});
    CHECK(holm_rejects({}, 0.05).empty());
}

TEST_CASE("verify: over the budget beyond the samples' noise only when every round says so", "[verify][stats]") {
    // Four rounds of 500 samples around 1000 cycles, p99 near 1100; the budget is judged at 1080 and 900.
    const auto [samples, rounds, pooled] = normal_rounds(1000, 40, 1.0, 7);
    const PointStats all = summarize(pooled);
    const double p99 = verify_bound(all, rounds, nullptr).raw_p99;
    REQUIRE(p99 > 1080);
    // Just under the calmest round's p99: over by the estimate, not beyond noise (with this thin a tail, 2 % under
    // the p99 is the p96 already, and beyond it).
    const double near = over_budget_p(pooled, samples, rounds, nullptr, 0.995 * p99, false);
    CHECK(near > 0.05);
    // Far under it (the p90 and more over in every round): beyond doubt.
    CHECK(over_budget_p(pooled, samples, rounds, nullptr, 900, false) < 1e-6);
    // Over the largest sample: nothing says it is over.
    CHECK(over_budget_p(pooled, samples, rounds, nullptr, 2000, false) == 1);
    // One calm round (every sample at 800) keeps the point within the budget: the calmest round is judged.
    std::vector<std::vector<double>> one_calm = samples;
    std::vector<RoundStats> calm_rounds = rounds;
    one_calm[2].assign(500, 800);
    calm_rounds[2] = {500, 800, 800, 800, 800, 0, 1.0};
    CHECK(over_budget_p(pooled, one_calm, calm_rounds, nullptr, 900, false) == 1);
    // The p90 test alone (--quantile p90).
    CHECK(over_budget_p(pooled, samples, rounds, nullptr, 900, true) < 1e-6);
    // A header's contention: rounds met c = 2 with s = 1, the header states quiet (c = 1); a budget of 900 is then
    // 1800 at the level the rounds met, over every sample: not over.
    std::vector<RoundStats> busy = rounds;
    for (auto& r : busy) r.contention = 2;
    const HeaderContention quiet{"k", "cold", true, 1, 1.0, 0.9, 1.1, {}};
    CHECK(over_budget_p(pooled, samples, busy, &quiet, 900, false) == 1);
}

TEST_CASE("contention: a point the neighbour held in every round leaves the bound fit where clean points lie near",
          "[contention]") {
    // Rounds of 125 samples: `held`, all contended at c 1.6 (no quiet part), else all quiet at c.
    auto round = [](double p50, double c, bool held) {
        RoundStats r{125, 0.97 * p50, p50, 1.05 * p50, 1.1 * p50, 0, c};
        if (held) {
            r.contended_samples = 125;
            r.contended_p50 = p50;
            r.contended_contention = c;
        } else {
            with_quiet_part(r, 125, 1.1 * p50);
            r.quiet_p50 = p50;
            r.quiet_p90 = 1.05 * p50;
            r.quiet_contention = c;
        }
        return r;
    };
    std::vector<RoundStats> held(4, round(1000, 1.6, true));
    CHECK(held_point(held, ContentionAdjust{true, 0.5, 1, {}}));
    CHECK_FALSE(held_point(held, {}));  // nothing known of s: as measured, nothing left out
    held[2] = round(1000, 1.0, false);
    CHECK_FALSE(held_point(held, ContentionAdjust{true, 0.5, 1, {}}));  // one round the neighbour left alone

    // Kernel k in cold cache, quiet cost 300 + 2 cycles per byte and s 0.5: clean points from 64 B to 4 KiB at
    // levels 1.0-2.0, and three sizes the neighbour held in every round (c 1.6), 1.2x slower than s says.
    SweepFile f;
    f.cpu = {{"brand", "Test CPU"}};
    f.tsc_hz = 2.6e9;
    f.core_per_tsc = f.core_per_tsc_end = 1;
    f.kernels.push_back({"k", "sha256", "avx2", "fputune", 64, true});
    f.contention.probes = 1000;
    f.contention.best_cycles = 2000;
    f.contention.p10 = 1, f.contention.p50 = 1.2, f.contention.p90 = 1.6, f.contention.max = 2;
    auto add = [&](std::uint64_t bytes, bool is_held) {
        const double quiet = 300 + 2.0 * static_cast<double>(bytes);
        SectionPoint p;
        p.kernel = "k";
        p.cache = "cold";
        p.bytes = bytes;
        const std::vector<double> levels =
            is_held ? std::vector<double>{1.6, 1.6, 1.6, 1.6} : std::vector<double>{1.0, 1.5, 2.0, 1.2};
        for (double c : levels)
            p.rounds.push_back(round(quiet * (1 + 0.5 * (c - 1)) * (is_held ? 1.2 : 1.0), c, is_held));
        PointStats s;
        s.samples = 500;
        s.p50 = p.rounds[0].p50;
        s.min = s.p10 = 0.97 * s.p50;
        s.p90 = 1.05 * s.p50;
        s.p99 = s.p99_clean = s.p999 = s.max = 1.1 * s.p50;
        p.ticks = p.cycles = s;
        f.sections.push_back(p);
    };
    for (std::uint64_t n : {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64}) add(64 * n, false);
    for (std::uint64_t bytes : {1344, 1600, 1856}) add(bytes, true);
    const ModelFile m = fit_sweep(f, "held.json");
    const CacheModel* cm = m.model("k", Cache::cold);
    REQUIRE(cm);
    REQUIRE(cm->contention_known);
    CHECK(cm->contention_s == Approx(0.5).margin(0.05));
    CHECK(std::count(cm->bytes.begin(), cm->bytes.end(), 1600u) == 1);  // the p50 line keeps it
    CHECK(std::count(cm->bound_bytes.begin(), cm->bound_bytes.end(), 1600u) == 0);
    CHECK(cm->bound_bytes.size() == 12);
    CHECK(cm->p99.at(1600) == Approx(1.1 * 3500).epsilon(0.02));
    // With no clean point near them (only the held sizes and the smallest), they stay: nothing else says more.
    f.sections.erase(std::remove_if(f.sections.begin(), f.sections.end(),
                                    [](const SectionPoint& p) {
                                        return p.bytes > 256 && p.bytes < 4096 && !p.rounds[0].contended_samples;
                                    }),
                     f.sections.end());
    const ModelFile sparse = fit_sweep(f, "held.json");
    const CacheModel* few = sparse.model("k", Cache::cold);
    REQUIRE(few);
    CHECK(std::count(few->bound_bytes.begin(), few->bound_bytes.end(), 1600u) == 1);
}

namespace {

// The synthetic sweep (report_test_util.hpp's) with four rounds per point at levels 1.17, 1.18, 1.19 and 1.6, the
// kernel exposed (s = 0.5), and a trace whose calmest tenth read `p10`.
SweepFile floored_sweep(double p10) {
    SweepFile f = report_test::synthetic_sweep("Test CPU", 2000, 0.8, 0.003, 1);
    f.contention.probes = 1000;
    f.contention.best_cycles = 2000;
    f.contention.p10 = p10;
    f.contention.p50 = 1.18;
    f.contention.p90 = f.contention.max = 1.6;
    f.contention.contended_share = p10 >= kContendedLevel ? 0.98 : 0.5;
    f.contention.contended_above = kContendedLevel;
    for (SectionPoint& p : f.sections) {
        p.cycles = p.ticks;  // per-sample cycles (the rounds are only read beside them)
        for (double* v : {&p.cycles.p10, &p.cycles.p50, &p.cycles.p90, &p.cycles.p99, &p.cycles.p99_clean,
                          &p.cycles.p999, &p.cycles.min, &p.cycles.max})
            *v *= 1.25;
        for (double c : {1.17, 1.18, 1.19, 1.6}) {
            const double k = 1.25 * (1 + 0.5 * (c - 1));  // cycles per tick x the kernel's stretch at c
            p.rounds.push_back({50, p.ticks.p10 * k, p.ticks.p50 * k, p.ticks.p90 * k, p.ticks.p99_clean * k, 0, c});
        }
    }
    return f;
}

}  // namespace

TEST_CASE("contention: a sweep quiet in under a tenth of its probes states its quiet bounds at its p10 level",
          "[contention]") {
    // 98 % of the probes contended, the calmest tenth at c = 1.17: no bound is moved below that (s rests on quiet
    // samples too few to carry it to c = 1).
    const SweepFile busy = floored_sweep(1.17);
    CHECK(quiet_level(busy) == Approx(1.17));
    ModelFile m = fit_sweep(busy, "busy.json");
    CHECK(m.contention == "quiet");
    CHECK(m.contention_floor == Approx(1.17));
    const CacheModel* cm = m.model("fake-avx2", Cache::cold);
    REQUIRE(cm);
    REQUIRE(cm->contention_known);
    CHECK(cm->contention_s == Approx(0.5).margin(0.02));
    CHECK(cm->contention_level == Approx(1.17));
    CHECK_THAT(fmt::format("{}", fmt::join(m.notes, "\n")),
               Catch::Contains("contended (c >= 1.15) in 98 % of the sweep's probes") &&
                   Catch::Contains("stated at c = 1.17"));
    const double p50_b = cm->p50.b, p99_b = cm->p99.b;
    // recommend's quiet is the floor; a factor below it is raised to it, one above it is kept; observed is the p90.
    const double p99 = cm->p99.a;
    restate_contention(m, ContentionTarget{});
    CHECK(m.model("fake-avx2", Cache::cold)->contention_level == Approx(1.17));
    CHECK(m.model("fake-avx2", Cache::cold)->p99.a == Approx(p99));
    restate_contention(m, *parse_contention_target("1.05"));
    CHECK(m.model("fake-avx2", Cache::cold)->contention_level == Approx(1.17));
    restate_contention(m, *parse_contention_target("observed"));
    CHECK(m.model("fake-avx2", Cache::cold)->contention_level == Approx(1.6));
    CHECK(m.model("fake-avx2", Cache::cold)->p99.a == Approx(p99 * (1 + 0.5 * 0.6) / (1 + 0.5 * 0.17)));
    CHECK(target_level(ContentionTarget{}, 1.6, 1.17) == 1.17);
    CHECK(target_level(*parse_contention_target("2"), 1.6, 1.17) == 2);
    // The floor travels in a model file.
    const ModelFile back = model_from_json(to_json(m), "m.json");
    CHECK(back.contention_floor == Approx(1.17));
    // The header states each variant's level, and says why it is not 1 (quiet asked, or a factor below it).
    for (const char* asked : {"quiet", "1.05"}) {
        RecommendOptions o;
        o.question.budget_s = 30e-6;
        o.question.min_freq_hz = 1e9;
        o.question.contention = asked;
        const std::string h = render_header(recommend({fit_sweep(busy, "busy.json")}, o), "limits.h");
        INFO(asked << "\n" << h);
        CHECK_THAT(h, Catch::Contains(" *   contention fake-avx2 cold c=1.17 s=0.50") &&
                          Catch::Contains("no bound is stated below its p10 level"));
        const auto stated = parse_header_contention(h);
        CHECK(stated.at({"fake-avx2", "cold"}).level == Approx(1.17));
    }

    // Quiet in half the probes (the calmest tenth at c = 1.05): quiet is c = 1, as before.
    const SweepFile half = floored_sweep(1.05);
    CHECK(quiet_level(half) == 1);
    const ModelFile h = fit_sweep(half, "half.json");
    CHECK(h.contention_floor == 1);
    CHECK(h.model("fake-avx2", Cache::cold)->contention_level == 1);
    // The quiet lines at the floor are the ones at c = 1 moved up by s: 1 + 0.5 x 0.17.
    CHECK(p50_b / h.model("fake-avx2", Cache::cold)->p50.b == Approx(1 + 0.5 * 0.17).epsilon(0.005));
    CHECK(p99_b / h.model("fake-avx2", Cache::cold)->p99.b == Approx(1 + 0.5 * 0.17).epsilon(0.005));
    // No contention recorded (an older file): nothing floored.
    CHECK(quiet_level(report_test::synthetic_sweep("Test CPU", 2000, 0.8)) == 1);
}

TEST_CASE("compare: a floored sweep and one quiet enough to reach c = 1 are compared at the higher floor",
          "[contention][compare]") {
    // The same code met at the same levels; one file quiet in half its probes (floor 1), the other in 2 % (floor
    // 1.17). At their own floors the lines differ by 1 + 0.5 x 0.17; raised to 1.17 both, they are the same.
    const ModelFile floored = fit_sweep(floored_sweep(1.17), "busy.json");
    const ModelFile calm = fit_sweep(floored_sweep(1.05), "calm.json");
    ModelFile raised = calm;
    raise_floor(raised, 1.17);
    CHECK(raised.contention_floor == Approx(1.17));
    const CacheModel* a = floored.model("fake-avx2", Cache::cold);
    const CacheModel* b = raised.model("fake-avx2", Cache::cold);
    CHECK(b->contention_level == Approx(1.17));
    CHECK(b->p50.b == Approx(a->p50.b).epsilon(0.01));
    CHECK(b->p99.b == Approx(a->p99.b).epsilon(0.01));
    CHECK(calm.model("fake-avx2", Cache::cold)->p50.b * (1 + 0.5 * 0.17) == Approx(a->p50.b).epsilon(0.01));
    CompareOptions o;
    o.recommend.question.budget_s = 30e-6;
    o.recommend.question.min_freq_hz = 1e9;
    for (const CompareResult& r : {compare_models(calm, floored, o), compare_models(floored, calm, o)}) {
        REQUIRE_FALSE(r.rows.empty());
        for (const CompareRow& row : r.rows) {
            INFO(row.kernel << ": " << row.verdict);
            CHECK_FALSE(row.changed());
        }
    }
}
