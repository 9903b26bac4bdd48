// SPDX-License-Identifier: MIT
// The sweep's closed loop (models/closed_loop.hpp) on synthetic sweeps of known cost: which constants it
// finds, which points it asks for, and how it judges what was measured there.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "closed_loop.hpp"
#include "compare.hpp"
#include "fit_sweep.hpp"
#include "recommend.hpp"
#include "sweep_file.hpp"

using namespace fputune;

namespace {

constexpr double kBudget = 30e-6, kFreq = 1e9;  // 30 000 cycles

// A point whose every round saw the same section time `cycles` (p99 10 % above the median).
SectionPoint point(const std::string& series, std::uint64_t bytes, double cycles, std::uint32_t sources = 0) {
    PointStats s;
    s.samples = 500;
    s.min = s.p10 = 0.97 * cycles;
    s.p50 = cycles;
    s.p90 = 1.05 * cycles;
    s.p99 = s.p99_clean = s.p999 = s.max = 1.1 * cycles;
    s.rel_ci50 = 0.005;
    SectionPoint p;
    p.kernel = series;
    p.cache = "cold";
    p.bytes = bytes;
    p.ticks = s;
    p.cycles = s;
    p.sources = sources;
    for (int r = 0; r < 4; ++r) p.rounds.push_back({125, s.p10, s.p50, s.p90, s.p99_clean, 0, 0});
    return p;
}

SweepFile empty_file() {
    SweepFile f;
    f.cpu = {{"brand", "Test CPU"}};
    f.tsc_hz = 2.6e9;
    f.core_per_tsc = f.core_per_tsc_end = 1;
    return f;
}

// "toy": 300 + 2 cycles per byte, blocks of 64 B, 64 B .. 64 KiB.
double toy_cycles(double bytes) { return 300 + 2 * bytes; }
SweepFile toy_sweep() {
    SweepFile f = empty_file();
    f.kernels.push_back({"toy", "toy", "avx2", "fputune", 64, true});
    for (double b = 64; b <= 65536; b *= std::sqrt(2.0)) {
        const std::uint64_t bytes = static_cast<std::uint64_t>(b / 64) * 64;
        f.sections.push_back(point("toy", bytes, toy_cycles(static_cast<double>(bytes))));
    }
    return f;
}

// "stripy": N sources of `bytes` each cost 500 + 0.5 x N x bytes cycles; series of 4, 8 and 16 sources.
double stripy_cycles(double sources, double bytes) { return 500 + 0.5 * sources * bytes; }
KernelInfo stripy_series(std::uint32_t n) {
    KernelInfo k{"stripy.x" + std::to_string(n), "stripy.x" + std::to_string(n), "avx2", "fputune", 256, true};
    k.of = "stripy";
    k.shape = "stripe";
    k.sources = n;
    k.max_sources = 64;
    return k;
}
void add_stripy(SweepFile& f, std::uint32_t n) {
    f.kernels.push_back(stripy_series(n));
    for (std::uint64_t bytes = 256; bytes <= 65536; bytes *= 2)
        f.sections.push_back(point("stripy.x" + std::to_string(n), bytes,
                                   stripy_cycles(n, static_cast<double>(bytes)), n));
}

RecommendOptions question() {
    RecommendOptions o;
    o.question.budget_s = kBudget;
    o.question.min_freq_hz = kFreq;
    return o;
}

const LoopConstant* find(const std::vector<LoopConstant>& cs, const std::string& series, bool count) {
    for (const LoopConstant& c : cs)
        if (c.series.rfind(series, 0) == 0 && (c.sources != 0) == count) return &c;
    return nullptr;
}

}  // namespace

TEST_CASE("closed loop: a limit is asked for at its size and around it, and judged by what was measured there",
          "[closed-loop]") {
    SweepFile f = toy_sweep();
    const std::vector<LoopConstant> cs = provisional_constants(f, "toy.json", question());
    const LoopConstant* c = find(cs, "toy", false);
    REQUIRE(c);
    // 300 + 2 n x 1.1 <= 30 000: about 13 500 B; the emitted end is below the line's crossing.
    CHECK(c->bytes % 64 == 0);
    CHECK(c->bytes > 11000);
    CHECK(c->bytes <= 13504);
    CHECK(c->lo_bytes <= c->hi_bytes);

    const std::vector<LoopPoint> around = loop_points(cs, f, true);
    auto asks = [&](std::uint64_t bytes) {
        return std::any_of(around.begin(), around.end(), [&](const LoopPoint& p) { return p.series == "toy" && p.bytes == bytes; });
    };
    CHECK(asks(c->bytes));
    CHECK(asks(c->bytes * 7 / 8 / 64 * 64));
    CHECK(asks(c->bytes * 9 / 8 / 64 * 64));
    CHECK(loop_points(cs, f, false).size() == 1);  // later passes: the size alone
    CHECK(std::none_of(around.begin(), around.end(), [](const LoopPoint& p) { return p.again; }));

    // A point the limit depends on (half to twice it) that did not settle is measured again, at either end of
    // that window too; one far from it is not.
    SweepFile unsettled = f;
    std::uint64_t near = 0, low = 0, high = 0, far = 0;
    for (SectionPoint& p : unsettled.sections) {
        const double at = static_cast<double>(p.bytes) / static_cast<double>(c->bytes);
        if (at > 0.75 && at < 1.3 && !near) near = p.bytes;
        if (at >= 0.5 && at < 0.7 && !low) low = p.bytes;
        if (at > 1.5 && at <= 2 && !high) high = p.bytes;
        if (at < 0.3 && !far) far = p.bytes;
        p.unsettled_rounds = 1;
    }
    REQUIRE(near);
    REQUIRE(low);
    REQUIRE(high);
    const std::vector<LoopPoint> again = loop_points(cs, unsettled, true);
    for (std::uint64_t b : {near, low, high})
        CHECK(std::any_of(again.begin(), again.end(), [&](const LoopPoint& p) { return p.again && p.bytes == b; }));
    CHECK(std::none_of(again.begin(), again.end(), [&](const LoopPoint& p) { return p.bytes == far; }));
    // A settled point a neighbour held in every round (all its rounds shared, none with a quiet part) is measured
    // again too; one with rounds the neighbour left alone is not.
    SweepFile held = f;
    for (SectionPoint& p : held.sections)
        if (p.bytes == near)
            for (RoundStats& r : p.rounds) r.contended_samples = r.samples;
    const std::vector<LoopPoint> held_again = loop_points(cs, held, true);
    CHECK(std::any_of(held_again.begin(), held_again.end(),
                      [&](const LoopPoint& p) { return p.again && p.bytes == near; }));
    CHECK(std::count_if(held_again.begin(), held_again.end(), [](const LoopPoint& p) { return p.again; }) == 1);
    for (SectionPoint& p : held.sections)
        if (p.bytes == near) p.rounds[0].contended_samples = p.rounds[1].contended_samples = 0;
    const std::vector<LoopPoint> shared = loop_points(cs, held, true);
    CHECK(std::none_of(shared.begin(), shared.end(), [](const LoopPoint& p) { return p.again; }));
    const std::vector<LoopPoint> later = loop_points(cs, unsettled, false);
    CHECK(std::none_of(later.begin(), later.end(), [](const LoopPoint& p) { return p.again; }));
    CHECK_FALSE(check_constant(f, *c, question().question).measured);

    // Measured where the line says: it agrees, and the file then lacks nothing at the size.
    SweepFile as_predicted = f;
    as_predicted.sections.push_back(point("toy", c->bytes, toy_cycles(static_cast<double>(c->bytes))));
    const LoopCheck ok = check_constant(as_predicted, *c, question().question);
    CHECK(ok.measured);
    CHECK(ok.measured_s == Approx(1.1 * toy_cycles(static_cast<double>(c->bytes)) / kFreq));
    CHECK(ok.agrees);
    CHECK(loop_points(cs, as_predicted, false).empty());

    // Later passes take a point within 3 % as the limit's; the first pass measures the size itself.
    SweepFile close_by = f;
    const std::uint64_t off = (c->bytes + c->bytes / 50) / 64 * 64;
    close_by.sections.push_back(point("toy", off, toy_cycles(static_cast<double>(off))));
    CHECK(loop_points(cs, close_by, false).empty());
    CHECK(asks(c->bytes));
    const LoopCheck near_check = check_constant(close_by, *c, question().question);
    CHECK(near_check.measured);
    CHECK_FALSE(near_check.exact);
    CHECK(near_check.at_bytes == off);
    CHECK(near_check.agrees);
    CHECK(check_constant(as_predicted, *c, question().question).exact);

    // Measured twice as slow there: the size the measurement implies is half the limit, outside its interval.
    SweepFile slow = f;
    slow.sections.push_back(point("toy", c->bytes, 2 * toy_cycles(static_cast<double>(c->bytes))));
    const LoopCheck bad = check_constant(slow, *c, question().question);
    CHECK(bad.measured);
    CHECK_FALSE(bad.agrees);
    CHECK(bad.implied < 0.6 * static_cast<double>(c->bytes));
}

TEST_CASE("closed loop: a count between measured series is asked for at that count and one more, as full series",
          "[closed-loop]") {
    SweepFile f = empty_file();
    for (std::uint32_t n : {4u, 8u, 16u}) add_stripy(f, n);
    const std::vector<LoopConstant> cs = provisional_constants(f, "stripy.json", question());
    const LoopConstant* count = find(cs, "stripy", true);
    REQUIRE(count);
    // 500 + 0.5 x N x 4096 x 1.1 <= 30 000: 13 sources, between the measured 8 and 16.
    CHECK(count->sources == 13);
    CHECK(count->series == "stripy.x13");
    CHECK(count->bytes == 4096);
    CHECK_FALSE(check_constant(f, *count, question().question).measured);

    const std::vector<LoopPoint> pts = loop_points(cs, f, true);
    for (std::uint32_t n : {13u, 14u}) {
        const std::string series = "stripy.x" + std::to_string(n);
        const auto m = std::count_if(pts.begin(), pts.end(), [&](const LoopPoint& p) {
            return p.series == series && p.sources == n && p.kernel == "stripy";
        });
        CHECK(m == 9);  // the 16-source series' sizes, 256 B .. 64 KiB (4 KiB among them)
    }
    // A pass short of time takes both counts at the stripe size before anything farther; the rest stays needed.
    const LoopSchedule first = schedule_loop_points(pts, cs, f, 2000, 0);
    REQUIRE(first.now.size() == 1);
    std::vector<LoopPoint> order = first.now;
    order.insert(order.end(), first.later.begin(), first.later.end());
    auto at = [&](std::uint32_t n, std::uint64_t bytes) {
        return std::find_if(order.begin(), order.end(),
                            [&](const LoopPoint& p) { return p.sources == n && p.bytes == bytes; }) -
               order.begin();
    };
    for (std::uint32_t n : {13u, 14u})
        for (std::uint64_t farther : {2048u, 8192u, 256u, 65536u}) CHECK(at(n, 4096) < at(13, farther));
    CHECK(at(14, 2048) < at(14, 256));
    CHECK(still_needed(first.later, cs, f).size() == first.later.size());

    // Measured: the count stands, now on a series of its own, and fits where it was measured; the count's series
    // have no limit in bytes of their own.
    for (std::uint32_t n : {13u, 14u}) {
        add_stripy(f, n);
        f.kernels.back().count_only = true;
    }
    const std::vector<LoopConstant> again = provisional_constants(f, "stripy.json", question());
    CHECK(std::none_of(again.begin(), again.end(), [](const LoopConstant& c) {
        return !c.sources && (c.series == "stripy.x13" || c.series == "stripy.x14");
    }));
    CHECK(std::any_of(again.begin(), again.end(), [](const LoopConstant& c) { return !c.sources && c.series == "stripy.x16"; }));
    const LoopConstant* measured = find(again, "stripy", true);
    REQUIRE(measured);
    CHECK(measured->sources == 13);
    const LoopCheck k = check_constant(f, *measured, question().question);
    CHECK(k.measured);
    CHECK(k.agrees);
    CHECK(k.measured_s <= kBudget);
}

TEST_CASE("closed loop: a count every measured series fits is asked for where the line puts it, not one more",
          "[closed-loop]") {
    SweepFile f = empty_file();
    for (std::uint32_t n : {4u, 8u}) add_stripy(f, n);
    // 500 + 0.5 x N x 4096 x 1.1 <= 30 000: 13 sources by the line; measured to 8, the count is capped there.
    const Recommendation r = recommend({fit_sweep(f, "stripy.json")}, question());
    const StripeResult& s = r.stripes.at(0).bound;
    CHECK(s.capped);
    CHECK(s.max_sources == 8);
    CHECK(s.line_sources == 13);
    const std::vector<LoopConstant> cs = provisional_constants(f, "stripy.json", question());
    const LoopConstant* count = find(cs, "stripy", true);
    REQUIRE(count);
    CHECK(count->sources == 13);
    CHECK(count->series == "stripy.x13");
    CHECK(count->predicted_s == Approx(s.line_time_s));
    const std::vector<LoopPoint> pts = loop_points(cs, f, false);
    for (std::uint32_t n : {13u, 14u})
        CHECK(
            std::any_of(pts.begin(), pts.end(), [&](const LoopPoint& p) { return p.sources == n && p.bytes == 4096; }));
    CHECK(std::none_of(pts.begin(), pts.end(), [](const LoopPoint& p) { return p.sources == 9; }));
    // Measured there: 13 fits and 14 does not, so the count is 13, no longer capped, in one pass.
    for (std::uint32_t n : {13u, 14u}) {
        add_stripy(f, n);
        f.kernels.back().count_only = true;
    }
    const StripeResult after = recommend({fit_sweep(f, "stripy.json")}, question()).stripes.at(0).bound;
    CHECK_FALSE(after.capped);
    CHECK(after.max_sources == 13);
    CHECK(after.fits_measured == 13);
    CHECK(after.over_measured == 14);
    CHECK(after.line_sources == 0);
}

TEST_CASE("closed loop: the record says what was measured and survives the sweep file", "[closed-loop]") {
    SweepFile f = toy_sweep();
    const std::vector<LoopConstant> first = provisional_constants(f, "toy.json", question());
    const LoopConstant* c = find(first, "toy", false);
    REQUIRE(c);
    f.sections.push_back(point("toy", c->bytes, toy_cycles(static_cast<double>(c->bytes))));
    const std::vector<LoopConstant> last = provisional_constants(f, "toy.json", question());
    f.closed_loop = closed_loop_json(question().question, first, last, f, 1, "");
    const SweepFile back = sweep_from_json(to_json(f), "toy.json");
    REQUIRE(back.closed_loop.is_object());
    CHECK(back.closed_loop["budget_s"] == kBudget);
    CHECK(back.closed_loop["passes"] == 1);
    const nlohmann::json& e = back.closed_loop["constants"].at(0);
    CHECK(e["series"] == "toy");
    CHECK(e["first"] == c->bytes);
    CHECK(e["points_near"].get<int>() >= 3);
    // A file from before the loop reads as none.
    nlohmann::json old = to_json(f);
    old.erase("closed_loop");
    CHECK(sweep_from_json(old, "old.json").closed_loop.is_null());
}

TEST_CASE("closed loop: no limit reaches a size the sweep measured over the budget, and the note says so",
          "[closed-loop]") {
    SweepFile f = toy_sweep();
    const LoopConstant before = *find(provisional_constants(f, "toy.json", question()), "toy", false);
    // Many points near the limit on the line, as the closed loop leaves them, so that one point alone moves the
    // line's level there (and its band) little...
    for (std::uint64_t bytes = before.bytes / 2 / 64 * 64; bytes <= 2 * before.bytes; bytes += 256)
        f.sections.push_back(point("toy", bytes, toy_cycles(static_cast<double>(bytes))));
    // ...and one point below the line's limit measured 20 % over the line there: over the budget.
    const std::uint64_t at = (before.bytes * 9 / 10) / 64 * 64;
    f.sections.push_back(point("toy", at, 30000 / 1.1 * 1.05));
    ModelFile m = fit_sweep(f, "toy.json");
    const Recommendation r = recommend({m}, question());
    const auto v = std::find_if(r.variants.begin(), r.variants.end(), [](const VariantRow& row) { return row.bound.kernel == "toy"; });
    REQUIRE(v != r.variants.end());
    CHECK(v->bound.bytes < at);
    CHECK(v->bound.fits);
    const bool said = std::any_of(v->bound.notes.begin(), v->bound.notes.end(), [&](const std::string& n) {
        return n.find("below " + std::to_string(at) + " B: the sweep measured that size over the budget") != std::string::npos;
    });
    CHECK(said);
    // Without that point the limit is above it, and nothing is said.
    CHECK(before.bytes > at);
    // A point over by less than its p99's precision (3 %) caps nothing.
    SweepFile hair = toy_sweep();
    hair.sections.push_back(point("toy", at, 30000 / 1.1 * 1.02));
    const Recommendation h = recommend({fit_sweep(hair, "toy.json")}, question());
    for (const VariantRow& row : h.variants)
        for (const std::string& n : row.bound.notes) CHECK(n.find("measured that size over the budget") == std::string::npos);
}

TEST_CASE("closed loop: compare never sets a count's own series beside the other sweep's", "[closed-loop][compare]") {
    SweepFile a = empty_file(), b = empty_file();
    for (std::uint32_t n : {4u, 8u, 16u}) {
        add_stripy(a, n);
        add_stripy(b, n);
    }
    add_stripy(a, 13);
    a.kernels.back().count_only = true;
    add_stripy(b, 14);
    b.kernels.back().count_only = true;
    CompareOptions o;
    o.recommend = question();
    const CompareResult r = compare_models(fit_sweep(a, "a.json"), fit_sweep(b, "b.json"), o);
    CHECK(r.only_a.empty());
    CHECK(r.only_b.empty());
    CHECK(r.rows.size() == 3);
}

TEST_CASE("closed loop: a limit in a gap between measured sizes is measured inside the gap", "[closed-loop]") {
    // "steppy" costs 10 000 + 8 cycles per byte up to 640 B and 25 000 + 12 per byte from there (p99 x 1.1):
    // within the 30 000-cycle budget up to 640 B, over it at 1024 B, and nothing measured between.
    auto steppy = [](double b) { return b <= 640 ? 10000 + 8 * b : 25000 + 12 * b; };
    SweepFile f = empty_file();
    f.kernels.push_back({"steppy", "steppy", "avx2", "fputune", 64, true});
    for (std::uint64_t b : {64, 128, 256, 512, 640, 1024, 2048, 4096})
        f.sections.push_back(point("steppy", b, steppy(static_cast<double>(b))));
    const std::vector<LoopConstant> cs = provisional_constants(f, "steppy.json", question());
    const LoopConstant* c = find(cs, "steppy", false);
    REQUIRE(c);
    // 640 .. 1024 is a gap of 1.6: two sizes inside it, in equal ratios (1.17), to the nearest block.
    CHECK(c->bracket_bytes == std::vector<std::uint64_t>{768, 896});
    const std::vector<LoopPoint> around = loop_points(cs, f, true);
    for (std::uint64_t b : c->bracket_bytes)
        CHECK(std::any_of(around.begin(), around.end(), [&](const LoopPoint& p) { return p.bytes == b && !p.again; }));
    CHECK(loop_points(cs, f, false).size() <= 1);  // later passes: the size alone

    // Measured at 768 B too, the gap the budget falls in is 640 .. 768 (1.2): narrow enough.
    f.sections.push_back(point("steppy", 768, steppy(768)));
    const std::vector<LoopConstant> again = provisional_constants(f, "steppy.json", question());
    REQUIRE(find(again, "steppy", false));
    CHECK(find(again, "steppy", false)->bracket_bytes.empty());
    // The toy's sizes are sqrt(2) apart (over kBracketGap): where its budget falls, one size between.
    const std::vector<LoopConstant> toy = provisional_constants(toy_sweep(), "toy.json", question());
    REQUIRE(find(toy, "toy", false));
    CHECK(find(toy, "toy", false)->bracket_bytes.size() == 1);
}

TEST_CASE("closed loop: a pass takes the points nearest the constants that its time allows, and keeps what it had",
          "[closed-loop]") {
    SweepFile f = toy_sweep();  // 500 samples a point, ticks = cycles
    double section_ticks = 0;
    for (const SectionPoint& p : f.sections) section_ticks += 500 * p.ticks.p50;
    f.sampling.elapsed_s = 2 * section_ticks / f.tsc_hz;  // twice the sections' own time, as on the VM
    const std::vector<LoopConstant> cs = provisional_constants(f, "toy.json", question());
    const LoopConstant* c = find(cs, "toy", false);
    REQUIRE(c);

    // Costed from the nearest point of the series, scaled to the size, at the file's wall time per section time.
    const SectionPoint* ref = nullptr;
    for (const SectionPoint& p : f.sections)
        if (!ref || std::abs(std::log(static_cast<double>(p.bytes) / static_cast<double>(c->bytes))) <
                        std::abs(std::log(static_cast<double>(ref->bytes) / static_cast<double>(c->bytes))))
            ref = &p;
    const LoopPoint at{"toy", "toy", Cache::cold, c->bytes, 0};
    const double one = 500 * toy_cycles(static_cast<double>(ref->bytes)) * static_cast<double>(c->bytes) /
                       static_cast<double>(ref->bytes) / f.tsc_hz * 2;
    CHECK(expected_loop_seconds(at, f, 2000) == Approx(one));
    // A reference whose time ran out in a round had not met its rule: the point may need every sample.
    SweepFile short_of_time = f;
    for (SectionPoint& p : short_of_time.sections) p.unsettled_rounds = 1;
    CHECK(expected_loop_seconds(at, short_of_time, 2000) / expected_loop_seconds(at, f, 2000) ==
          Approx(4).epsilon(0.05));  // the file's wall ratio moves a little with the samples it assumes
    CHECK(expected_loop_seconds({"none", "none", Cache::cold, 4096, 0}, f, 2000) == 0);

    // Nearest first; the head that fits, one point at least; the rest for the next pass.
    const std::vector<LoopPoint> wanted = loop_points(cs, f, true);
    REQUIRE(wanted.size() >= 3);
    const LoopSchedule all = schedule_loop_points(wanted, cs, f, 2000, 1e9);
    CHECK(all.later.empty());
    CHECK(all.now.front().bytes == c->bytes);
    const LoopSchedule two =
        schedule_loop_points(wanted, cs, f, 2000, 1.01 * (one + expected_loop_seconds(all.now[1], f, 2000)));
    CHECK(two.now.size() == 2);
    CHECK(two.now.size() + two.later.size() == wanted.size());
    CHECK(schedule_loop_points(wanted, cs, f, 2000, 0).now.size() == 1);

    // What the next pass takes of them: still lacking and still near a constant.
    SweepFile measured = f;
    measured.sections.push_back(point("toy", two.later.front().bytes, 1000));
    const std::vector<LoopPoint> next = still_needed(two.later, cs, measured);
    CHECK(next.size() == two.later.size() - 1);
    std::vector<LoopConstant> moved = cs;
    for (LoopConstant& m : moved) m.bytes *= 8;
    CHECK(still_needed(two.later, moved, f).empty());

    // A point measured again that ran out of time in more rounds keeps its earlier measurement; one that did
    // better, or whose earlier one a neighbour held, takes the new.
    SweepFile before = f, after = f;
    SectionPoint& old = before.sections[5];
    old.unsettled_rounds = 1;
    after.sections[5].unsettled_rounds = 2;
    after.sections[5].cycles.p50 = 7;
    const LoopPoint again{"toy", "toy", Cache::cold, old.bytes, 0, true};
    SweepFile worse = after;
    CHECK(keep_better_points(worse, before, {again}) == 1);
    CHECK(worse.sections[5].unsettled_rounds == 1);
    CHECK(worse.sections[5].cycles.p50 == old.cycles.p50);
    SweepFile better = after;
    better.sections[5].unsettled_rounds = 0;
    CHECK(keep_better_points(better, before, {again}) == 0);
    CHECK(better.sections[5].cycles.p50 == 7);
    for (RoundStats& r : old.rounds) r.contended_samples = r.samples;
    SweepFile held = after;
    CHECK(keep_better_points(held, before, {again}) == 0);
    CHECK(held.sections[5].cycles.p50 == 7);
}
