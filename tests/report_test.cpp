// SPDX-License-Identifier: MIT
// `fputune report`: the numbers behind the charts (synthetic sweeps with known lines), bad inputs, and the
// page itself, structurally (charts per algorithm, series, no URL). The page in a real browser is
// `make check-report` (tests/report_browser_check.py).
#include <algorithm>
#include <cmath>
#include <regex>

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "model_file.hpp"
#include "recommend.hpp"
#include "report_data.hpp"
#include "report_test_util.hpp"

using namespace fputune;
using namespace fputune::report_test;

namespace {

RecommendOptions options(double budget_s = 30e-6, double f_hz = 1e9) {
    RecommendOptions o;
    o.question.budget_s = budget_s;
    o.question.min_freq_hz = f_hz;
    return o;
}

const char* kZen5 = FPUTUNE_SOURCE_DIR "/data/machines/zen5-turin-vm-2026-11-30.json";
const char* kEmeraldRapids = FPUTUNE_SOURCE_DIR "/data/machines/emerald-rapids-vm-2026-11-30.json";

}  // namespace

TEST_CASE("report data: curves, points, limit and threshold of a synthetic sweep", "[report]") {
    const SweepFile sweep = synthetic_sweep("Test CPU", 2000, 0.8);
    const std::string path = write_temp_sweep("one.json", sweep);
    const ReportData d = build_report({load_report_input(path)}, options());
    REQUIRE(d.recommendation);
    REQUIRE(d.algorithms.size() == 1);
    const AlgorithmReport& a = d.algorithms[0];
    CHECK(a.algorithm == "fake");
    REQUIRE(a.tradeoffs.size() == 1);
    const TradeoffChart& t = a.tradeoffs[0];
    CHECK(t.kernel == "fake-avx2");
    REQUIRE(t.curves.size() == 1);
    const TradeoffCurve& c = t.curves[0];
    CHECK(c.binds);
    CHECK(c.cache == Cache::cold);
    CHECK(d.labels == std::vector<std::string>{"[1] Test CPU"});
    // The limit is recommend's, and the bound line's upper edge reaches the budget there.
    const VariantResult& v = d.recommendation->variants[0].bound;
    CHECK(c.result.bytes == v.bytes);
    CHECK(v.fits);
    const ModelFile& m = *d.inputs[0].model;
    CHECK(predict_upper_s(*m.model("fake-avx2", Cache::cold), static_cast<double>(v.bytes), 1e9) <= 30e-6);
    // Its interval (the chart's band): the limit is the low end rounded down to whole blocks.
    CHECK(c.result.interval_lo_bytes == v.interval_lo_bytes);
    CHECK(c.result.interval_hi_bytes == v.interval_hi_bytes);
    CHECK(v.interval_lo_bytes < v.interval_hi_bytes);
    CHECK(static_cast<double>(v.bytes) <= v.interval_lo_bytes);
    CHECK(v.interval_lo_bytes - static_cast<double>(v.bytes) < 64);
    // Lines: band around the bound line, bound above p50, throughput share rising towards 1.
    REQUIRE(c.bytes.size() > 50);
    CHECK(c.bytes.front() == Approx(t.x_min));
    CHECK(c.bytes.back() == Approx(t.x_max));
    CHECK(t.x_min == 64);
    CHECK(t.x_max >= 1 << 20);
    for (std::size_t i = 0; i < c.bytes.size(); ++i) {
        INFO(c.bytes[i]);
        CHECK(c.bound_lo_s[i] <= c.bound_s[i] + 1e-15);
        CHECK(c.bound_s[i] <= c.bound_hi_s[i] + 1e-15);
        CHECK(c.p50_s[i] < c.bound_s[i]);
        CHECK(c.share[i] >= 0);
        CHECK(c.share[i] < 1);
        if (i) CHECK(c.share[i] > c.share[i - 1]);
    }
    // p50 at 1 MiB: (2000 + 0.8·1.1·2^20) ticks × 1.25 core cycles per tick / 1 GHz.
    const double p50_1mib = (2000 + 0.88 * 1048576.0) * 1.25 / 1e9;
    CHECK(c.p50_s.back() == Approx(p50_1mib * t.x_max / 1048576.0).epsilon(0.02));
    // Every cold point of the sweep is drawn, at its p50 (core cycles = ticks × core/TSC, / f) and its bound quantile.
    std::size_t cold = std::count_if(sweep.sections.begin(), sweep.sections.end(),
                                     [](const SectionPoint& p) { return p.cache == "cold"; });
    CHECK(c.points_p50.size() == cold);
    CHECK(c.points_bound.size() + c.points_bound_unfitted.size() == cold);
    CHECK(c.points_bound.size() == m.model("fake-avx2", Cache::cold)->bound_bytes.size());
    std::vector<double> want_p50, want_bound, got_p50, got_bound;
    for (const auto& p : sweep.sections)
        if (p.cache == "cold")
            want_p50.push_back(p.ticks.p50 * 1.25 / 1e9), want_bound.push_back(p.ticks.p99_clean * 1.25 / 1e9);
    for (const auto& p : c.points_p50) got_p50.push_back(p.y);
    for (const auto* pts : {&c.points_bound, &c.points_bound_unfitted})
        for (const auto& p : *pts) got_bound.push_back(p.y);
    for (auto* v : {&want_p50, &want_bound, &got_p50, &got_bound}) std::sort(v->begin(), v->end());
    REQUIRE(got_p50.size() == want_p50.size());
    REQUIRE(got_bound.size() == want_bound.size());
    for (std::size_t i = 0; i < got_p50.size(); ++i) {
        CHECK(got_p50[i] == Approx(want_p50[i]).epsilon(1e-12));
        CHECK(got_bound[i] == Approx(want_bound[i]).epsilon(1e-12));
    }
    CHECK(c.points_p50[0].x == 64);
    // The threshold chart: the no-FPU path first, the SIMD path by dirty state; crossover at 256 B (ymm, as swept).
    REQUIRE(a.thresholds.size() == 1);
    const ThresholdChart& th = a.thresholds[0];
    REQUIRE(th.curves.size() == 3);
    CHECK(th.curves[0].kernel == "fake-generic");
    CHECK_FALSE(th.curves[0].needs_fpu);
    CHECK(th.curves[1].dirty == "xmm");
    CHECK(th.curves[2].dirty == "ymm");
    CHECK(th.curves[2].cycles.size() == 13);
    CHECK(th.curves[2].cycles[0].y == Approx(900.5 * 1.25));  // core cycles: ticks × core/TSC
    REQUIRE(th.crossover);
    CHECK(th.crossover->bytes == 256);
    CHECK(th.crossover->dirty == Dirty::ymm);
    // --dirty xmm picks the other crossover.
    RecommendOptions xmm = options();
    xmm.dirty = Dirty::xmm;
    const ReportData dx = build_report({load_report_input(path)}, xmm);
    CHECK(dx.algorithms[0].thresholds[0].crossover->bytes == 128);
    // The machine's XSAVE costs, in ns at its TSC.
    REQUIRE(d.fpu_costs[0].size() == 2);
    CHECK(d.fpu_costs[0][1].dirty == "ymm");
    CHECK(d.fpu_costs[0][1].save_ns == Approx(200 / 2.5));
    CHECK(d.fpu_costs[0][1].restore_ns == Approx(250 / 2.5));
    CHECK(d.notes.empty());
}

TEST_CASE("report data: a workload simulated with the recommended limits and without", "[report]") {
    const std::string path = write_temp_sweep("sim.json", synthetic_sweep("Test CPU", 2000, 0.8));
    const ReportData d = build_report({load_report_input(path)}, options(), {bigbuf_workload()});
    REQUIRE(d.simulations.size() == 1);
    const Simulation& s = d.simulations[0];
    CHECK(s.workload.name == "bigbuf");
    REQUIRE(s.machines.size() == 1);
    REQUIRE(s.machines[0].rows.size() == 1);
    const SimRow& row = s.machines[0].rows[0];
    CHECK(row.kernel == "fake-avx2");
    REQUIRE(row.limited);
    const std::uint64_t limit = d.recommendation->variants[0].bound.bytes;
    CHECK(row.limited->limit_bytes == limit);
    CHECK(row.limited->longest_bytes == limit);
    CHECK(row.limited->within_budget == true);
    CHECK(row.upstream.longest_bytes > limit);  // no upstream limit for "fake": a whole 1 MiB request in one section
    CHECK(row.upstream.within_budget == false);
    CHECK(row.limited->sections > row.upstream.sections);
    CHECK(row.throughput_cost > 0);
    // A workload that reaches no kernel is a note, not a failure.
    Workload wg = wireguard_workload();
    const ReportData none = build_report({load_report_input(path)}, options(), {wg});
    CHECK(none.simulations.empty());
    CHECK_THAT(none.notes.at(0), Catch::Contains("workload wireguard"));
}

TEST_CASE("report data: several machines overlaid, the binding one named", "[report]") {
    const std::string fast = write_temp_sweep("fast.json", synthetic_sweep("Fast CPU", 2000, 0.8));
    const std::string slow = write_temp_sweep("slow.json", synthetic_sweep("Slow CPU", 2000, 1.2, 0.003, 2));
    const ReportData d = build_report({load_report_input(fast), load_report_input(slow)}, options());
    CHECK(d.labels == std::vector<std::string>{"[1] Fast CPU", "[2] Slow CPU"});
    const TradeoffChart& t = d.algorithms.at(0).tradeoffs.at(0);
    REQUIRE(t.curves.size() == 2);
    CHECK_FALSE(t.curves[0].binds);
    CHECK(t.curves[1].binds);
    CHECK(t.curves[1].result.bytes < t.curves[0].result.bytes);
    CHECK(t.bound.bytes == t.curves[1].result.bytes);
    CHECK(d.algorithms[0].row.machine == "Slow CPU");
    CHECK(d.algorithms[0].thresholds.size() == 2);
    // The same CPU twice: told apart by file name.
    const std::string again = write_temp_sweep("again.json", synthetic_sweep("Fast CPU", 2000, 0.8, 0.003, 3));
    const ReportData same = build_report({load_report_input(fast), load_report_input(again)}, options());
    CHECK(same.labels == std::vector<std::string>{"[1] Fast CPU (fast.json)", "[2] Fast CPU (again.json)"});
}

TEST_CASE("report data: what an input lacks becomes a note, never a broken chart", "[report]") {
    SECTION("a model file: lines without points, no threshold chart") {
        const std::string sweep = write_temp_sweep("for_model.json", synthetic_sweep("Test CPU", 2000, 0.8));
        const std::string model = write_temp("model.json", to_json(fit_sweep(read_sweep_file(sweep), sweep)).dump());
        const ReportInput in = load_report_input(model);
        CHECK(in.kind == "model");
        CHECK_FALSE(in.sweep);
        CHECK(in.cpu.value("brand", "") == "Test CPU");
        const ReportData d = build_report({in}, options());
        const TradeoffChart& t = d.algorithms.at(0).tradeoffs.at(0);
        REQUIRE(t.curves.size() == 1);
        CHECK(t.curves[0].points_p50.empty());
        CHECK_FALSE(t.curves[0].bound_s.empty());
        CHECK_THAT(t.notes.at(0), Catch::Contains("no measured points"));
        CHECK(d.algorithms[0].thresholds.empty());
        CHECK_THAT(d.algorithms[0].notes.at(0), Catch::Contains("no threshold chart"));
        CHECK(d.fpu_costs[0].size() == 2);  // the model file carries the sweep's probe
    }
    SECTION("an empty sweep: its machine, and a note") {
        SweepFile empty = synthetic_sweep("Empty CPU", 2000, 0.8);
        empty.sections.clear();
        empty.thresholds.clear();
        const ReportInput in = load_report_input(write_temp_sweep("empty.json", empty));
        CHECK_FALSE(in.model);
        CHECK(in.machine == "Empty CPU");
        const ReportData d = build_report({in}, options());
        CHECK_FALSE(d.recommendation);
        CHECK(d.algorithms.empty());
        REQUIRE(d.notes.size() == 2);
        CHECK_THAT(d.notes[0], Catch::Contains("no section points"));
        CHECK_THAT(d.notes[1], Catch::Contains("the machines are shown"));
        CHECK(d.fpu_costs[0].size() == 2);
    }
    SECTION("a sweep of one kernel, without its no-FPU path: no threshold chart, said why") {
        SweepFile one = synthetic_sweep("Test CPU", 2000, 0.8);
        one.kernels.pop_back();
        std::erase_if(one.thresholds, [](const ThresholdPoint& p) { return p.kernel == "fake-generic"; });
        const ReportData d = build_report({load_report_input(write_temp_sweep("onekernel.json", one))}, options());
        REQUIRE(d.algorithms.size() == 1);
        CHECK(d.algorithms[0].tradeoffs.size() == 1);
        CHECK(d.algorithms[0].thresholds.empty());
        CHECK_THAT(d.algorithms[0].notes.at(0), Catch::Contains("no one-shot points for a no-FPU path"));
    }
    SECTION("a model file without models: its machine, and a note") {
        const std::string sweep = write_temp_sweep("for_empty_model.json", synthetic_sweep("Model CPU", 2000, 0.8));
        nlohmann::json j = to_json(fit_sweep(read_sweep_file(sweep), sweep));
        j["models"] = nlohmann::json::array();
        const ReportInput in = load_report_input(write_temp("nomodels.json", j.dump()));
        CHECK_FALSE(in.model);
        CHECK(in.machine == "Model CPU");
        CHECK_THAT(in.notes.at(0), Catch::Contains("no models"));
    }
    SECTION("files of other schemas are refused by name") {
        CHECK_THROWS_WITH(
            load_report_input(write_temp("bench.json", R"({"schema": "fputune.bench/1", "results": []})")),
            Catch::Contains("bench.json") && Catch::Contains("fputune compare"));
        CHECK_THROWS_WITH(load_report_input(write_temp("rec.json", R"({"schema": "fputune.recommendation/1"})")),
                          Catch::Contains("sweep or model files it was made from"));
        CHECK_THROWS_WITH(load_report_input(write_temp("other.json", R"({"schema": "other/3"})")),
                          Catch::Contains("other/3"));
        CHECK_THROWS_WITH(load_report_input(write_temp("noschema.json", R"({"a": 1})")), Catch::Contains("schema"));
        CHECK_THROWS_WITH(load_report_input(write_temp("trunc.json", R"({"schema": "fputune.sweep/1", "cpu)")),
                          Catch::Contains("not valid JSON"));
        CHECK_THROWS_WITH(load_report_input(write_temp("newer.json", R"({"schema": "fputune.sweep/7"})")),
                          Catch::Contains("newer"));
        CHECK_THROWS_WITH(load_report_input(write_temp("text.txt", "hello\n")), Catch::Contains("neither"));
    }
}

TEST_CASE("fpu_costs: read from a probe, empty when it has none", "[report]") {
    CHECK(fpu_costs(nlohmann::json::object()).empty());
    CHECK(fpu_costs(nlohmann::json{{"xsave", {{"costs", nlohmann::json::array()}}}, {"tsc", {{"hz", 1e9}}}}).empty());
    CHECK(fpu_costs(nlohmann::json{
                        {"xsave", {{"costs", {{{"dirty", "zmm"}, {"save_ticks", 10.0}, {"restore_ticks", 20.0}}}}}}})
              .empty());  // no TSC
    const auto c = fpu_costs(
        nlohmann::json{{"xsave", {{"costs", {{{"dirty", "zmm"}, {"save_ticks", 10.0}, {"restore_ticks", 20.0}}}}}},
                       {"tsc", {{"hz", 2e9}}}});
    REQUIRE(c.size() == 1);
    CHECK(c[0].save_ns == Approx(5));
    CHECK(c[0].pair_ns == Approx(15));
}

// ---- The page, through the CLI ----

namespace {

std::string section_of(const std::string& html, const std::string& algorithm) {
    const auto at = html.find("<section class=\"algorithm\" id=\"alg-" + algorithm + "\"");
    if (at == std::string::npos) return "";
    return html.substr(at, html.find("</section>", at) - at);
}

// The <title>s gnuplot gives each series, in a chart's SVG.
std::vector<std::string> series_titles(const std::string& figure) {
    std::vector<std::string> out;
    static const std::regex re(R"(<g id="c\d+-gnuplot_plot_\d+" ><title>([^<]*)</title>)");
    for (auto it = std::sregex_iterator(figure.begin(), figure.end(), re); it != std::sregex_iterator(); ++it)
        if ((*it)[1].str().find_first_not_of(' ') != std::string::npos)
            out.push_back((*it)[1]);  // blank: a legend padding slot
    return out;
}

std::vector<std::string> figures(const std::string& html, const std::string& kind) {
    std::vector<std::string> out;
    const std::string open = "<figure class=\"chart " + kind;
    for (auto at = html.find(open); at != std::string::npos; at = html.find(open, at + 1))
        out.push_back(html.substr(at, html.find("</figure>", at) - at));
    return out;
}

}  // namespace

TEST_CASE("CLI: report of the two committed machines: every chart of every algorithm, binding machine named, no URL",
          "[report][cli]") {
    const std::string out = (temp_dir() / "machines.html").string();
    const Run r = run_fputune(std::string("report --from ") + kZen5 + " " + kEmeraldRapids +
                              " --budget 30us --min-freq 1GHz -o " + out);
    INFO(r.err);
    REQUIRE(r.rc == 0);
    CHECK_THAT(r.out, Catch::Contains("wrote " + out));
    const std::string html = read_file(out);
    // The per-variant table of two machines is wider than the page: it sits in a box that scrolls sideways, so
    // no column is cut off (report_browser_check.py measures it in a browser).
    CHECK_THAT(html, Catch::Contains("<div class=\"scroll\"><table class=\"summary variants\">") &&
                         Catch::Contains(".scroll { overflow-x: auto; max-width: 100%; }"));
    // The contention the limits are stated at, said: these files are from before the probe.
    CHECK_THAT(html, Catch::Contains("the limits are stated at <b>quiet</b>") &&
                         Catch::Contains("[2] records no contention: as measured"));
    // Nor did they probe the memory: no line for it (a sweep that did gets "[1] 8 KiB in 816.9 ns").
    CHECK(html.find("<p class=\"memory\">") == std::string::npos);
    // Self-contained: no URL, no script, no external resource of any kind.
    CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
    CHECK(html.find("</html>") != std::string::npos);
    for (const char* forbidden :
         {"http:", "https:", "//www.", "<script", "<link", "<img", "<iframe", "src=", "@import", "url(http", "<?xml"}) {
        INFO(forbidden);
        CHECK(html.find(forbidden) == std::string::npos);
    }
    static const std::regex href(R"re(href="([^"]*)")re");
    for (auto it = std::sregex_iterator(html.begin(), html.end(), href); it != std::sregex_iterator(); ++it) {
        INFO((*it)[1]);
        CHECK((*it)[1].str().rfind("#", 0) == 0);  // in-page anchors only
    }
    // The answer of recommend, per algorithm and variant.
    std::vector<ModelFile> sources = {load_models(kZen5), load_models(kEmeraldRapids)};
    const Recommendation rec = recommend(sources, options());
    REQUIRE(rec.algorithms.size() >= 15);
    for (const AlgorithmRow& a : rec.algorithms) {
        INFO(a.algorithm);
        const std::string s = section_of(html, a.algorithm);
        REQUIRE_FALSE(s.empty());
        // One trade-off chart per variant, each with both machines' lines, points and limits, the budget.
        std::size_t variants = 0;
        for (const auto& row : rec.variants)
            if (row.bound.algorithm == a.algorithm) {
                ++variants;
                INFO(row.bound.kernel);
                CHECK(s.find("id=\"v-" + row.bound.kernel + "\"") != std::string::npos);
            }
        const auto trade = figures(s, "tradeoff");
        CHECK(trade.size() == variants);
        for (const auto& f : trade) {
            const auto titles = series_titles(f);
            for (const auto& t : titles) {
                INFO(t);
                CHECK(count(f, ">" + t + "</text>") + count(f, ">" + t + "</tspan>") >=
                      1);  // named in the legend: gnuplot drops entries that do not fit
            }
            for (const char* want :
                 {"[1] p99 line (bound)", "[2] p99 line (bound)", "[1] p99 band (95 %)", "[1] p50 line",
                  "[2] throughput (right axis)", "[1] measured p50", "[2] measured p99", "budget 30.0 us"})
                CHECK(std::find(titles.begin(), titles.end(), want) != titles.end());
            CHECK(std::count_if(titles.begin(), titles.end(),
                                [](const std::string& t) { return t.find("limit ") != std::string::npos; }) == 2);
            for (const char* want : {"[1] interval ", "[2] interval "})  // each limit's band
                CHECK(std::count_if(titles.begin(), titles.end(),
                                    [&](const std::string& t) { return t.rfind(want, 0) == 0; }) == 1);
            CHECK(count(f, "(binds)") >= 1);  // the machine that gives this variant's limit
            CHECK(count(f, "<svg") == 1);
        }
        // Every algorithm here has a no-FPU path: one threshold chart per machine, with the crossover.
        const auto thresholds = figures(s, "threshold");
        CHECK(thresholds.size() == 2);
        for (const auto& f : thresholds) {
            const auto titles = series_titles(f);
            for (const auto& t : titles) {
                INFO(t);
                CHECK(count(f, ">" + t + "</text>") + count(f, ">" + t + "</tspan>") >= 1);
            }
            CHECK(std::any_of(titles.begin(), titles.end(),
                              [](const std::string& t) { return t.find("(no FPU)") != std::string::npos; }));
            CHECK(std::any_of(titles.begin(), titles.end(),
                              [](const std::string& t) { return t.find(", ymm dirty") != std::string::npos; }));
        }
        // The summary names the variant and the machine that bind the algorithm's limit.
        const std::string label = a.machine == sources[0].machine ? "[1] " + a.machine : "[2] " + a.machine;
        CHECK(html.find("<td>" + a.kernel + " on <span class=\"binds\">" + label + "</span></td>") !=
              std::string::npos);
    }
    // The default workload, bigbuf, with the limits and without, in every algorithm's section.
    for (const AlgorithmRow& a : rec.algorithms) {
        INFO(a.algorithm);
        CHECK(count(section_of(html, a.algorithm), "<h3>Workload bigbuf: what the limits change</h3>") == 1);
    }
    // Upstream's constant where it has one, and the machines with their XSAVE bar chart.
    for (const auto& f : figures(section_of(html, "poly1305"), "tradeoff")) {
        const auto titles = series_titles(f);
        CHECK(std::find(titles.begin(), titles.end(), "upstream 4096 B") != titles.end());
    }
    const auto fpu = figures(html, "fpu");
    REQUIRE(fpu.size() == 1);
    const auto bars = series_titles(fpu[0]);
    CHECK(std::count_if(bars.begin(), bars.end(),
                        [](const std::string& t) { return t.find("save") != std::string::npos; }) == 2);
    CHECK(html.find("Oxide Virtual Turin-like Processor") != std::string::npos);
    CHECK(html.find("zen5-turin-vm-2026-11-30.json") != std::string::npos);
    CHECK(html.find("048f5dc") != std::string::npos);  // the Zen 5 sweep's tool commit: provenance
}

namespace {

// The SVG group of the series titled `title` (gnuplot: its legend sample, then the plot).
std::string series_group(const std::string& figure, const std::string& title) {
    const auto at = figure.find("<title>" + title + "</title>");
    if (at == std::string::npos) return "";
    return figure.substr(at, figure.find("<g id=\"c", at) - at);
}

// The x pixel coordinates of a series' shape in the plot, after its legend sample: the second polygon
// (filledcurves), or the second stroke of its path (a line: "M sample L sample M x,y L x,y").
std::vector<double> plot_xs(const std::string& group) {
    std::string coords;
    if (const auto p = group.find("points = '", group.find("points = '") + 1); p != std::string::npos)
        coords = group.substr(p + 10, group.find('\'', p + 10) - p - 10);
    else if (const auto d = group.find(" d='"); d != std::string::npos) {
        const std::string path = group.substr(d + 4, group.find('\'', d + 4) - d - 4);
        const auto second = path.find('M', path.find('M') + 1);
        if (second != std::string::npos) coords = path.substr(second, path.find('M', second + 1) - second);
    }
    std::vector<double> xs;
    static const std::regex pair(R"(([0-9.]+),([0-9.]+))");
    for (auto it = std::sregex_iterator(coords.begin(), coords.end(), pair); it != std::sregex_iterator(); ++it)
        xs.push_back(std::stod((*it)[1]));
    return xs;
}

}  // namespace

TEST_CASE("CLI: report says the memory probe of each sweep that made one", "[report][cli]") {
    SweepFile sweep = synthetic_sweep("Test CPU", 2000, 0.8);
    sweep.memory = {512, 8192, 1800, 2000, 2400};  // ticks at 2.5 GHz: 800 ns at the median
    const std::string path = write_temp_sweep("memory.json", sweep);
    const std::string out = (temp_dir() / "memory.html").string();
    const Run r = run_fputune("report --from " + path + " --budget 30us --min-freq 1GHz -o " + out);
    INFO(r.err);
    REQUIRE(r.rc == 0);
    CHECK_THAT(read_file(out), Catch::Contains("<p class=\"memory\">") && Catch::Contains("[1] 8 KiB in 800.0 ns"));
}

TEST_CASE("CLI: report says how far the limits moved between sweeps of one CPU, and not for one sweep",
          "[report][cli]") {
    SweepFile first = synthetic_sweep("Test CPU", 2000, 0.8), second = synthetic_sweep("Test CPU", 2000, 0.8, 0.003, 2);
    for (SweepFile* f : {&first, &second}) {  // one kind of CPU: the same vendor, family, model and stepping
        f->cpu["family"] = 6;
        f->cpu["model"] = 167;
        f->cpu["stepping"] = 1;
    }
    const std::string a = write_temp_sweep("repeat-a.json", first), b = write_temp_sweep("repeat-b.json", second);
    const std::string out = (temp_dir() / "repeats.html").string();
    const Run r = run_fputune("report --from " + a + " --from " + b + " --budget 30us --min-freq 1GHz -o " + out);
    INFO(r.err);
    REQUIRE(r.rc == 0);
    CHECK_THAT(read_file(out), Catch::Contains("<p class=\"repeats\">Sweeps of one CPU (Test CPU: [1] [2])"));
    const Run one = run_fputune("report --from " + a + " --budget 30us --min-freq 1GHz -o " + out);
    REQUIRE(one.rc == 0);
    CHECK(read_file(out).find("<p class=\"repeats\">") == std::string::npos);
}

TEST_CASE("CLI: report draws each limit's interval as a band from its limit, where recommend puts it",
          "[report][cli]") {
    const std::string sweep = write_temp_sweep("band.json", synthetic_sweep("Band CPU", 2000, 0.8, 0.15, 4));
    const ReportData d = build_report({load_report_input(sweep)}, options());
    const TradeoffChart& t = d.algorithms.at(0).tradeoffs.at(0);
    const VariantResult& v = t.curves.at(0).result;
    REQUIRE(v.fits);
    const std::string out = (temp_dir() / "band.html").string();
    const Run r = run_fputune("report --from " + sweep + " --budget 30us --min-freq 1GHz --workload none -o " + out);
    INFO(r.err);
    REQUIRE(r.rc == 0);
    const std::string html = read_file(out);
    const auto trade = figures(html, "tradeoff");
    REQUIRE(trade.size() == 1);
    const std::string& f = trade[0];
    auto three = [](double x) { return fmt::format("{:.{}f}", x, x >= 100 ? 0 : x >= 10 ? 1 : 2); };
    const std::string band_title =
        "interval " + three(v.interval_lo_bytes / 1024) + "-" + three(v.interval_hi_bytes / 1024) + " KiB";
    const auto titles = series_titles(f);
    REQUIRE(std::find(titles.begin(), titles.end(), band_title) != titles.end());
    CHECK(count(f, ">" + band_title + "</text>") == 1);  // in the legend
    // The chart's x axis from the budget line, which runs from x_min to x_max: the band's edges and the
    // limit line where a log axis puts interval_lo, interval_hi and the limit.
    const auto budget = plot_xs(series_group(f, "budget 30.0 us"));
    REQUIRE(budget.size() == 2);
    auto pixel = [&](double bytes) {
        return budget[0] + (budget[1] - budget[0]) * std::log(bytes / t.x_min) / std::log(t.x_max / t.x_min);
    };
    const auto band = plot_xs(series_group(f, band_title));
    REQUIRE(band.size() == 4);
    const auto [lo, hi] = std::minmax_element(band.begin(), band.end());
    CHECK(*lo == Approx(pixel(v.interval_lo_bytes)).margin(0.05));
    CHECK(*hi == Approx(pixel(v.interval_hi_bytes)).margin(0.05));
    CHECK(*hi - *lo > 2);  // wide enough to see
    const auto limit = plot_xs(series_group(f, fmt::format("limit {} B", v.bytes)));
    REQUIRE(limit.size() == 2);
    CHECK(limit[0] == Approx(pixel(static_cast<double>(v.bytes))).margin(0.05));
    CHECK(limit[0] <= *lo + 0.01);  // the limit: the band's low end, rounded down
    CHECK(html.find(fmt::format("interval {:.0f}..{:.0f} B*", v.interval_lo_bytes, v.interval_hi_bytes)) !=
          std::string::npos);  // the caption and the summary say it in bytes
}

TEST_CASE("CLI: report on bad input: a note and a page, or one line and exit 2 - no gnuplot is exit 3",
          "[report][cli]") {
    const std::string out = (temp_dir() / "bad.html").string();
    const std::string good = write_temp_sweep("cli_good.json", synthetic_sweep("Test CPU", 2000, 0.8));
    SECTION("refused in one line, exit 2, nothing written over") {
        const std::vector<std::pair<std::string, std::string>> cases = {
            {"--from " + write_temp("cli_bench.json", R"({"schema": "fputune.bench/1"})") + " --budget 30us",
             "fputune compare"},
            {"--from " + write_temp("cli_rec.json", R"({"schema": "fputune.recommendation/1"})") + " --budget 30us",
             "recommendation"},
            {"--from " + write_temp("cli_trunc.json", read_file(good).substr(0, 500)) + " --budget 30us",
             "not valid JSON"},
            {"--from " + good + " --budget 30xs", "30xs"},
            {"--from " + good, "--budget is required"},
            {"--from " + good + " --budget 30us -k 'nothing-*'", "nothing-*"},
            {"--from " + (temp_dir() / "absent.json").string() + " --budget 30us", "absent.json"},
            {"--from " + good + " --budget 30us --workload foo", "--workload foo"},
            {"--from " + good + " --budget 30us --workload module-signing",
             "fputune simulate --workload module-signing"},
            {"--from " + good + " --budget 30us --workload " +
                 write_temp("cli_bad.csv", "kernel,bytes,count\nfake-avx2,x,1\n"),
             "cli_bad.csv"},
        };
        for (const auto& [args, says] : cases) {
            write_temp("bad.html", "keep me\n");
            const Run r = run_fputune("report " + args + " -o " + out);
            INFO(args << "\n" << r.err);
            CHECK(r.rc == 2);
            CHECK_THAT(r.err, Catch::Contains(says));
            CHECK(count(r.err, "\n") == 1);
            CHECK(read_file(out) == "keep me\n");
        }
        const Run r = run_fputune("report --from " + good + " --budget 30us -o /nonexistent-dir/r.html");
        CHECK(r.rc == 2);
        CHECK_THAT(r.err, Catch::Contains("/nonexistent-dir/r.html"));
    }
    SECTION("gnuplot missing: one line, exit 3, no page") {
        write_temp("bad.html", "keep me\n");
        const Run r = run_fputune("report --from " + good + " --budget 30us -o " + out, "PATH=/nonexistent");
        CHECK(r.rc == 3);
        CHECK_THAT(r.err, Catch::Contains("gnuplot not found") && Catch::Contains("gnuplot-nox"));
        CHECK(count(r.err, "\n") == 1);
        CHECK(read_file(out) == "keep me\n");
    }
    SECTION("an empty sweep, a one-kernel sweep, a model file: a page with what they have, and notes") {
        SweepFile empty = synthetic_sweep("Empty CPU", 2000, 0.8);
        empty.sections.clear();
        Run r = run_fputune("report --from " + write_temp_sweep("cli_empty.json", empty) + " --budget 30us -o " + out);
        INFO(r.err);
        REQUIRE(r.rc == 0);
        std::string html = read_file(out);
        CHECK(html.find("What this report cannot show") != std::string::npos);
        CHECK(html.find("no section points") != std::string::npos);
        CHECK(figures(html, "tradeoff").empty());
        CHECK(figures(html, "fpu").size() == 1);  // the machine is still shown
        CHECK(html.find("Empty CPU") != std::string::npos);

        SweepFile one = synthetic_sweep("Test CPU", 2000, 0.8);
        one.kernels.pop_back();
        std::erase_if(one.thresholds, [](const ThresholdPoint& p) { return p.kernel == "fake-generic"; });
        r = run_fputune("report --from " + write_temp_sweep("cli_one.json", one) + " --budget 30us -o " + out);
        REQUIRE(r.rc == 0);
        html = read_file(out);
        CHECK(figures(html, "tradeoff").size() == 1);
        CHECK(figures(html, "threshold").empty());
        CHECK(html.find("no one-shot points for a no-FPU path") != std::string::npos);

        // A sweep with a doctor verdict and a sampling summary (written by fputune with `doctor`): both shown.
        nlohmann::json with_doctor = to_json(synthetic_sweep("Doctor CPU", 2000, 0.8));
        with_doctor["doctor"] = {
            {"verdict", "noisy"},
            {"quick", true},
            {"findings",
             {{{"severity", "noisy"}, {"check", "hypervisor"}, {"what", "a VM & its host"}, {"advice", "pin <cpu>"}}}},
            {"system", {{"governor", ""}, {"boost", -1}}}};
        with_doctor["sampling"] = {{"rounds", 4}, {"rejected_samples", 3}, {"disturbances", 2}};
        r = run_fputune("report --from " + write_temp("cli_doctor.json", with_doctor.dump()) + " --budget 30us -o " +
                        out);
        REQUIRE(r.rc == 0);
        html = read_file(out);
        CHECK(html.find("verdict: <span class=\"verdict over\">noisy</span> (the quick check a sweep runs first)") !=
              std::string::npos);
        CHECK(html.find("<td>hypervisor</td><td>a VM &amp; its host</td><td>pin &lt;cpu&gt;</td>") !=
              std::string::npos);
        CHECK(html.find("sampling: disturbances=2, rejected_samples=3, rounds=4") != std::string::npos);
        CHECK(html.find("No <code>doctor</code> verdict") == std::string::npos);

        const std::string model = (temp_dir() / "cli_model.json").string();
        REQUIRE(run_fputune("fit " + good + " -o " + model).rc == 0);
        r = run_fputune("report --from " + model + " --budget 30us -o " + out);
        REQUIRE(r.rc == 0);
        html = read_file(out);
        const auto trade = figures(html, "tradeoff");
        REQUIRE(trade.size() == 1);
        const auto titles = series_titles(trade[0]);
        CHECK(std::find(titles.begin(), titles.end(), "p99 line (bound)") != titles.end());
        CHECK(std::none_of(titles.begin(), titles.end(),
                           [](const std::string& t) { return t.find("measured") != std::string::npos; }));
        CHECK(html.find("no measured points") != std::string::npos);
    }
}
