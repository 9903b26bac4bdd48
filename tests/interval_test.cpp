// SPDX-License-Identifier: MIT
// recommend's interval: the fit's band alone for a sweep without rounds (the limit as it always was),
// widened by the spread between rounds when the sweep has them; the conservative end is emitted.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>
#include <string>

#include <catch2/catch.hpp>

#include "budget.hpp"
#include "fit_sweep.hpp"
#include "model_json.hpp"
#include "recommend.hpp"
#include "recommendation_json.hpp"

using namespace fputune;

namespace {

LineFit line(double a, double b, double rel_ci = 0) {
    LineFit f;
    f.a = a;
    f.b = b;
    f.a_lo = a * (1 - rel_ci);
    f.a_hi = a * (1 + rel_ci);
    f.b_lo = b * (1 - rel_ci);
    f.b_hi = b * (1 + rel_ci);
    return f;
}

// A sweep of one kernel (cold and hot), cost a + b·n cycles; with `rounds`, each round's statistics
// scaled by its own factor (a host phase slowing that round).
SweepFile sweep_with_rounds(const std::vector<double>& round_factors, std::uint64_t seed = 1) {
    SweepFile f;
    f.tool_version = f.tool_commit = "test";
    f.cpu = {{"brand", "Interval CPU"}};
    f.tsc_hz = 2e9;
    f.core_per_tsc = f.core_per_tsc_end = 1.0;
    f.ratio_trace = {1000, 0.99, 1.0, 1.0, 1.0, 1.01, 0};
    f.kernels = {{"fake-avx2", "fake", "avx2", "fputune", 64, true}};
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-0.002, 0.002);
    for (const char* cache : {"hot", "cold"})
        for (std::uint64_t bytes = 64; bytes <= (1u << 16); bytes *= 2) {
            const double cost = 2000 + 3.0 * static_cast<double>(bytes);
            PointStats s;
            s.samples = 400;
            s.p50 = cost * (1 + u(rng));
            s.p10 = s.min = s.p50 * 0.99;
            s.p90 = s.p50 * 1.03;
            s.p99 = s.p999 = s.max = s.p50 * 1.3;
            s.p99_clean = s.p50 * 1.05;
            SectionPoint p{"fake-avx2", cache, bytes, s, s.p50, true, s, {}, 0, 0};
            for (double k : round_factors)
                p.rounds.push_back({100, s.p10 * k, s.p50 * k, s.p90 * k, s.p99_clean * k, 0});
            f.sections.push_back(p);
        }
    return f;
}

// Kernels alike (fake0-avx2, fake1-avx2, ...), one per entry of `round_factors`: each its own rounds' factors.
SweepFile sweep_of_kernels(const std::vector<std::vector<double>>& round_factors) {
    SweepFile all;
    for (std::size_t k = 0; k < round_factors.size(); ++k) {
        SweepFile one = sweep_with_rounds(round_factors[k], k + 1);
        const std::string algorithm = "fake" + std::to_string(k), name = algorithm + "-avx2";
        for (SectionPoint& p : one.sections) p.kernel = name;
        one.kernels[0].name = name;
        one.kernels[0].algorithm = algorithm;
        if (k == 0) {
            all = one;
            continue;
        }
        all.kernels.push_back(one.kernels[0]);
        all.sections.insert(all.sections.end(), one.sections.begin(), one.sections.end());
    }
    return all;
}

RecommendOptions options(Emit emit = Emit::conservative) {
    RecommendOptions o;
    o.question.budget_s = 30e-6;
    o.question.min_freq_hz = 1e9;
    o.emit = emit;
    return o;
}

const VariantResult& only_kernel(const Recommendation& r, const std::string& kernel) {
    for (const auto& row : r.variants)
        if (row.bound.kernel == kernel && row.bound.cache == Cache::cold) return row.bound;
    FAIL("no " << kernel);
    return r.variants[0].bound;
}

const VariantResult& only(const Recommendation& r) {
    REQUIRE(r.variants.size() == 1);
    return r.variants[0].bound;
}

}  // namespace

TEST_CASE("interval: without rounds it is the fit's band, and its low end the upper line's limit", "[interval]") {
    const LineFit f = line(2000, 3.0, 0.02);
    const double budget = 30000;
    const std::vector<std::uint64_t> bytes = {1024, 4096, 8192, 16384};
    const std::vector<double> pooled = {f.at(1024), f.at(4096) * 1.05, f.at(8192) * 1.05, f.at(16384)};
    for (const LimitInterval& iv :
         {limit_interval(f, {bytes, pooled, {}}, budget), limit_interval(f, {{}, {}, {}}, budget)}) {
        CHECK(iv.rounds == 0);
        CHECK(iv.local_bias == 0);  // the points near the limit move it only with rounds (a sweep made so)
        CHECK(iv.lo == Approx((budget - f.a_hi) / f.b_hi));
        CHECK(iv.central == Approx((budget - 2000) / 3.0));
        CHECK(iv.hi == Approx((budget - f.a_lo) / f.b_lo));
    }
}

TEST_CASE("interval: near the limit, the band is that of the points' scale, not the whole line's", "[interval]") {
    // A line with a wide band (a curved series fitted over every size), and points near where it meets the
    // budget lying 10 % above it, scattered +-2 %.
    const LineFit f = line(2000, 3.0, 0.15);
    const double budget = 30000;
    const std::vector<std::uint64_t> bytes = {64, 5120, 6144, 8192, 10240, 12288, 65536};
    const std::vector<double> ratio = {1, 1.08, 1.12, 1.10, 1.08, 1.12, 1};
    std::vector<double> pooled;
    for (std::size_t i = 0; i < bytes.size(); ++i) pooled.push_back(f.at(static_cast<double>(bytes[i])) * ratio[i]);
    const LimitInterval iv = limit_interval(f, {bytes, pooled, {pooled, pooled}}, budget);
    // The five within a factor of 2 of the limit (5-12 KiB): scale 1.10, sd 0.02, t(4) x 0.02 / sqrt(5) = 0.0248.
    CHECK(iv.local_bias == Approx(0.10));
    const double half = student_t95(4) * 0.02 / std::sqrt(5.0);
    CHECK(iv.lo == Approx((budget / (1.10 + half) - 2000) / 3.0));
    CHECK(iv.hi == Approx((budget / (1.10 - half) - 2000) / 3.0));
    // Far narrower than the line's band there, which the whole line's fit would have given.
    const LimitInterval no_rounds = limit_interval(f, {bytes, pooled, {}}, budget);
    CHECK(iv.central - iv.lo < 0.5 * (no_rounds.central - no_rounds.lo));
    // And the time predicted at a size is the same scaled line's upper end: what recommend keeps in budget and
    // check judges.
    CHECK(local_upper(f, {bytes, pooled, {pooled, pooled}}, iv.lo) == Approx(budget).epsilon(1e-6));
}

TEST_CASE("interval: near the limit, the points scale the line and the rounds' spread widens the band", "[interval]") {
    const LineFit f = line(2000, 3.0, 0.01);
    const double budget = 30000;  // the line meets it at 9333 B
    const std::vector<std::uint64_t> bytes = {64, 1024, 4096, 8192, 16384, 65536};
    std::vector<double> on_line;
    for (auto b : bytes) on_line.push_back(f.at(static_cast<double>(b)));
    const LimitInterval band = limit_interval(f, {bytes, on_line, {}}, budget);
    // Rounds that agree, points on the line: with points near the limit the line's level there is theirs, and
    // its band their scale's interval, nothing where they lie on it; the whole line's band no longer counts.
    const LimitInterval same = limit_interval(f, {bytes, on_line, {on_line, on_line, on_line}}, budget);
    CHECK(same.rounds == 3);
    CHECK(same.round_sd == Approx(0).margin(1e-9));
    CHECK(same.lo == Approx(same.central));
    CHECK(same.lo > band.lo);
    // One round 6 % slower near the limit (4-16 KiB) but not at 64 B: the interval opens there.
    std::vector<double> slow = on_line;
    for (std::size_t i = 2; i < 5; ++i) slow[i] *= 1.06;
    const LimitInterval iv = limit_interval(f, {bytes, on_line, {on_line, slow, on_line, on_line}}, budget);
    CHECK(iv.rounds == 4);
    CHECK(iv.round_sd > 0);
    CHECK(iv.lo < same.lo);
    CHECK(iv.hi > same.hi);
    const double half = student_t95(3) * iv.round_sd * std::sqrt(2.0 / 4);
    // One size measured again scatters as a point's rounds do: 1, 1.06, 1, 1 has an sd of 3 % at each of the
    // two points within a factor of 2 of the limit (8 and 16 KiB; 4 KiB is a factor 2.3 away), 6 degrees of
    // freedom.
    CHECK(iv.point_sd == Approx(0.03));
    const double single = iv.central - (budget / (1 + student_t95(6) * 0.03) - 2000) / 3.0;
    CHECK(single > 0);
    CHECK(iv.central - iv.lo == Approx(std::hypot(0.0, half, single)).epsilon(0.01));
    // Rounds that agree at each point add nothing (the first case above).
    CHECK(same.point_sd == Approx(0).margin(1e-12));
    // Rounds that scatter only far from the limit (64 B, 1 KiB) say nothing of a point there.
    std::vector<double> noisy_small = on_line;
    noisy_small[0] *= 2;
    noisy_small[1] *= 1.5;
    const LimitInterval far = limit_interval(f, {bytes, on_line, {on_line, noisy_small, on_line, on_line}}, budget);
    CHECK(far.point_sd == Approx(0).margin(1e-12));
    // The other kernels' spread (a prior, as six more rounds) pulls this one's toward it.
    const LimitInterval calm = limit_interval(f, {bytes, on_line, {on_line, slow, on_line, on_line}}, budget, 0.0);
    const LimitInterval wild = limit_interval(f, {bytes, on_line, {on_line, slow, on_line, on_line}}, budget, 0.2);
    CHECK(calm.round_sd < iv.round_sd);
    CHECK(wild.round_sd > iv.round_sd);
    CHECK(calm.lo > iv.lo);
    CHECK(calm.round_sd == Approx(iv.round_sd * std::sqrt(3.0 / (3.0 + kPriorDegrees))).epsilon(1e-6));
    // Pooled points 3 % above the line near the limit: the centre moves down to meet them.
    std::vector<double> above = on_line;
    for (std::size_t i = 2; i < 5; ++i) above[i] *= 1.03;
    const LimitInterval shifted = limit_interval(f, {bytes, above, {above, above}}, budget);
    CHECK(shifted.local_bias == Approx(0.03));
    CHECK(shifted.central == Approx((budget / 1.03 - 2000) / 3.0));
    // A round left out at one point (0: no sample there, or no quiet statistic) is judged on the points it has:
    // not as a round 1/3 faster.
    std::vector<double> gap = slow;
    gap[3] = 0;
    const LimitInterval holed = limit_interval(f, {bytes, on_line, {on_line, gap, on_line, on_line}}, budget);
    REQUIRE(holed.round_ratio.size() == 4);
    CHECK(holed.round_ratio[1] == Approx(1.06));
    CHECK(holed.round_ratio[0] == Approx(1));
}

TEST_CASE("interval: a sweep's rounds reach the model and its file, recommend emits the low end unless asked",
          "[interval]") {
    // One round 6 % slower than the others (a host phase): the interval opens, the limit drops.
    const SweepFile flat = sweep_with_rounds({1, 1, 1, 1});
    const SweepFile phased = sweep_with_rounds({1, 1.06, 1, 1});
    const ModelFile m = fit_sweep(phased, "phased.json");
    const CacheModel* cm = m.model("fake-avx2", Cache::cold);
    REQUIRE(cm != nullptr);
    CHECK(cm->round_p99.size() == 4);
    CHECK(cm->round_p90.size() == 4);
    REQUIRE(cm->round_p99[1].size() == cm->bound_bytes.size());
    CHECK(cm->round_p99[1][0] > cm->round_p99[0][0]);
    CHECK(cm->bound_p99.size() == cm->bound_bytes.size());
    // The model file keeps them.
    const ModelFile back = model_from_json(to_json(m), "m.json");
    REQUIRE(back.model("fake-avx2", Cache::cold) != nullptr);
    CHECK(back.model("fake-avx2", Cache::cold)->round_p99.size() == 4);
    CHECK(back.model("fake-avx2", Cache::cold)->round_p99[1] == cm->round_p99[1]);
    CHECK(back.model("fake-avx2", Cache::cold)->bound_p99 == cm->bound_p99);

    const VariantResult a = only(recommend({fit_sweep(flat, "flat.json")}, options()));
    const VariantResult b = only(recommend({m}, options()));
    const VariantResult c = only(recommend({m}, options(Emit::central)));
    CHECK(a.rounds == 4);
    CHECK(b.rounds == 4);
    CHECK(b.round_spread > a.round_spread);
    CHECK(b.interval_lo_bytes < a.interval_lo_bytes);
    CHECK(b.bytes <= b.interval_lo_bytes);
    CHECK(b.bytes + 64 > b.interval_lo_bytes);  // whole blocks, rounded down
    CHECK(c.bytes > b.bytes);
    CHECK(c.unrounded_bytes == Approx(c.central_bytes));
    CHECK(b.interval_lo_bytes <= b.central_bytes);
    CHECK(b.central_bytes <= b.interval_hi_bytes);
}

TEST_CASE("interval: the bound is the calmest round's statistic, not the pooled tail, and verify's is their mean",
          "[interval]") {
    PointStats pooled;
    pooled.samples = 2000;
    pooled.p90 = 110;
    pooled.p99_clean = 150;  // set by the one round that fell in a slow phase
    const std::vector<RoundStats> rounds = {
        {500, 90, 100, 110, 120, 0}, {500, 90, 100, 110, 124, 0}, {500, 90, 100, 112, 122, 0}, {500, 90, 100, 108, 160, 0}};
    const BoundStats b = bound_stats(pooled, rounds);
    CHECK(b.p99 == 120);  // the calmest round's tail
    CHECK(b.p90 == 108);
    const BoundStats m = bound_stats(pooled, rounds, OverRounds::mean);
    CHECK(m.p99 == Approx(131.5));  // (120 + 124 + 122 + 160) / 4: each round one stretch of time
    CHECK(m.p90 == Approx(110));
    // A round of too few samples for a p99 is left out; fewer than two rounds: the pooled statistics.
    std::vector<RoundStats> short_round = rounds;
    short_round[0].samples = kBoundRoundMinSamples - 1;
    CHECK(bound_stats(pooled, short_round).p99 == 122);
    CHECK(bound_stats(pooled, {rounds[3]}).p99 == 150);
    CHECK(bound_stats(pooled, {}).p99 == 150);
    // Never below the p90, round by round.
    const std::vector<RoundStats> low = {{500, 90, 100, 110, 105, 0}, {500, 90, 100, 111, 115, 0}};
    CHECK(bound_stats(pooled, low).p99 == 110);
    CHECK(bound_stats(pooled, low, OverRounds::mean).p99 == Approx(112.5));

    // Through the fit: one round 20 % slower; the bound points are the other rounds', its spread stays in the
    // rounds (which widen the interval).
    const ModelFile fm = fit_sweep(sweep_with_rounds({1.02, 1, 1.01, 1.2}), "phased.json");
    const CacheModel* cm = fm.model("fake-avx2", Cache::hot);
    REQUIRE(cm != nullptr);
    REQUIRE(!cm->bound_p99.empty());
    for (std::size_t i = 0; i < cm->bound_p99.size(); ++i) {
        CHECK(cm->bound_p99[i] == Approx(cm->round_p99[1][i]));
        CHECK(cm->round_p99[3][i] == Approx(cm->round_p99[1][i] * 1.2));
    }
}

TEST_CASE("interval: the prior spread is that of the kernels whose limits are like this one's", "[interval]") {
    // Five fast cold kernels near 32 KiB that spread 5 % between rounds, ten slower ones near 3 KiB at 0.5 %.
    std::vector<std::pair<double, double>> others;
    for (double c : {30000.0, 32000.0, 35000.0, 38000.0, 40000.0}) others.emplace_back(c, 0.05);
    for (int i = 0; i < 10; ++i) others.emplace_back(3000 + 100 * i, 0.005);
    CHECK(round_spread_prior(others, 33000) == 0.05);
    CHECK(round_spread_prior(others, 3500) == 0.005);
    // Fewer than kPriorNearMin alike (a limit of 12 KiB has none within a factor of 2): all of them.
    CHECK(round_spread_prior(others, 12000) == 0.005);
    others.resize(4);  // four near 32 KiB: too few alike, the median of all four
    CHECK(round_spread_prior(others, 33000) == 0.05);
    others.resize(2);
    CHECK(round_spread_prior(others, 33000) == -1);  // fewer than 3: no prior
}

TEST_CASE("interval: kernels alike are alike in what a section moves, all of a multi-source series' sources",
          "[interval]") {
    // Five single-stream kernels whose rounds agree within ~1 %, and six 8-source series at the same bytes per
    // source (8x what their sections move) whose rounds met a phase of the host's memory (up to 1.5x).
    const std::vector<double> calm = {1, 1.01, 0.99, 1.005}, phased = {1, 1.3, 1.5, 1.1};
    SweepFile f = sweep_of_kernels({calm, calm, calm, calm, calm, phased, phased, phased, phased, phased, phased});
    for (KernelInfo& k : f.kernels)
        if (k.name >= "fake5") k.sources = 8;
    for (SectionPoint& p : f.sections)
        if (p.kernel >= "fake5") p.sources = 8;
    const Recommendation r = recommend({fit_sweep(f, "alike.json")}, options());
    const VariantResult& single = only_kernel(r, "fake0-avx2");
    // Its prior is the single-stream kernels' spread (~1 %), not the series' (~20 %).
    CHECK(single.round_spread < 0.02);
    CHECK(single.bytes >= 0.95 * single.central_bytes - single.block_bytes);
    // Counted by their bytes per source, the series were its "alike" and set its prior.
    for (KernelInfo& k : f.kernels) k.sources = 0;
    for (SectionPoint& p : f.sections) p.sources = 0;
    const Recommendation r_as_one = recommend({fit_sweep(f, "alike.json")}, options());
    const VariantResult& as_one = only_kernel(r_as_one, "fake0-avx2");
    CHECK(as_one.round_spread > 0.05);
    CHECK(as_one.bytes < single.bytes);
}

TEST_CASE("interval: a limit whose rounds disagreed far more than the machine's other kernels' says so, with them",
          "[interval]") {
    // Five kernels whose rounds scatter by ~1 %, and one whose last two rounds met a heavier phase (+15 %, +17 %).
    const std::vector<double> calm = {1, 1.01, 0.99, 1.005}, phased = {1, 1.02, 1.15, 1.17};
    const ModelFile m = fit_sweep(sweep_of_kernels({calm, calm, calm, calm, calm, phased}), "six.json");
    const Recommendation r = recommend({m}, options());
    auto find = [&](const std::string& kernel) -> const VariantResult& { return only_kernel(r, kernel); };
    auto unsure = [](const VariantResult& v) {
        return std::count_if(v.notes.begin(), v.notes.end(),
                             [](const std::string& n) { return n.rfind("unsure:", 0) == 0; });
    };
    const VariantResult& odd = find("fake5-avx2");
    REQUIRE(unsure(odd) == 1);
    const std::string note = *std::find_if(odd.notes.begin(), odd.notes.end(),
                                           [](const std::string& n) { return n.rfind("unsure:", 0) == 0; });
    INFO(note);
    CHECK(note.find("1.00 / 1.02 / 1.15 / 1.17 x the calmest") != std::string::npos);
    CHECK(odd.point_spread > kUnsureMinScatter);
    for (int k = 0; k < 5; ++k) CHECK(unsure(find("fake" + std::to_string(k) + "-avx2")) == 0);
    // The central estimate is emitted: nothing below it to explain.
    CHECK(unsure(only_kernel(recommend({m}, options(Emit::central)), "fake5-avx2")) == 0);
    // Too few kernels to know what this machine's rounds do: no note.
    const Recommendation two = recommend({fit_sweep(sweep_of_kernels({calm, phased}), "two.json")}, options());
    for (const auto& row : two.variants) CHECK(unsure(row.bound) == 0);
}

TEST_CASE("interval: sweeps of one CPU say how far each limit moved between them, and only those", "[interval]") {
    const std::vector<double> calm = {1, 1.01, 0.99, 1.005}, slow = {1.2, 1.21, 1.19, 1.205};
    SweepFile a = sweep_of_kernels({calm, calm, calm}), c = sweep_of_kernels({calm, calm, slow});
    for (SweepFile* f : {&a, &c})
        f->cpu = {
            {"brand", "Interval CPU"}, {"vendor", "GenuineIntel"}, {"family", 6}, {"model", 167}, {"stepping", 1}};
    const ModelFile s1 = fit_sweep(a, "s1.json"), s2 = fit_sweep(a, "s2.json"), s3 = fit_sweep(c, "s3.json");
    const Recommendation r = recommend({s1, s2, s3}, options());
    REQUIRE(r.repeats.size() == 1);
    const RepeatSpread& rep = r.repeats[0];
    CHECK(rep.sources == std::vector<std::string>{"s1.json", "s2.json", "s3.json"});
    CHECK(rep.variants == 3);
    CHECK(rep.within == 2);  // the third kernel ran 20 % slower in the third sweep
    REQUIRE(rep.widest.size() == 1);
    CHECK(rep.widest[0].kernel == "fake2-avx2");
    CHECK(static_cast<double>(rep.widest[0].largest) / static_cast<double>(rep.widest[0].smallest) > 1.1);
    // The emitted limit is the smallest of the three.
    CHECK(only_kernel(r, "fake2-avx2").bytes == rep.widest[0].smallest);
    CHECK(to_json(r)["repeats"][0]["within"] == 2);
    // One sweep, or sweeps of two CPUs: nothing to say.
    CHECK(recommend({s1}, options()).repeats.empty());
    SweepFile other = a;
    other.cpu["model"] = 143;
    CHECK(recommend({s1, fit_sweep(other, "o.json")}, options()).repeats.empty());
    // Sweeps of one CPU with no limit in common (a budget below one block): said, with nothing to set side by side.
    RecommendOptions tight = options();
    tight.question.budget_s = 1e-9;
    const Recommendation none = recommend({s1, s2}, tight);
    REQUIRE(none.repeats.size() == 1);
    CHECK(none.repeats[0].variants == 0);
    // -k keeps what it shows: the spread over the kernels shown.
    Recommendation shown = r;
    keep_shown(shown, {s1, s2, s3}, {"fake0-*"});
    REQUIRE(shown.repeats.size() == 1);
    CHECK(shown.repeats[0].variants == 1);
    CHECK(shown.repeats[0].widest.empty());
}
