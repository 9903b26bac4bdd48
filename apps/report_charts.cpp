// SPDX-License-Identifier: MIT
// The report's charts: one gnuplot script with the data inline (datablocks), run once with the svg
// terminal; each SVG comes back with its ids prefixed so that many can live in one page.
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include <fmt/format.h>

#include "atomic_file.hpp"
#include "report.hpp"
#include "units.hpp"

extern char** environ;

namespace fputune::cli {

namespace {

namespace fs = std::filesystem;

// Okabe-Ito colours (distinct for colour-blind readers and in greyscale print); vermillion is the budget's.
constexpr const char* kMachineColours[] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#000000", "#F0E442"};
constexpr const char* kBudgetColour = "#D55E00";
constexpr const char* kUpstreamColour = "#555555";
constexpr const char* kPathColours[] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7",
                                        "#56B4E9", "#F0E442", "#882255", "#44AA99"};

const char* machine_colour(std::size_t input) { return kMachineColours[input % std::size(kMachineColours)]; }

// A gnuplot string literal (double quotes: backslash escapes are interpreted).
std::string quoted(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out + "\"";
}

std::string number(double v) { return std::isfinite(v) ? fmt::format("{:.6g}", v) : "NaN"; }

// A datablock; rows of numbers.
std::string datablock(const std::string& name, const std::vector<std::vector<double>>& rows) {
    std::string s = "$" + name + " << EOD\n";
    for (const auto& r : rows) {
        for (std::size_t i = 0; i < r.size(); ++i) {
            if (i) s += ' ';
            s += number(r[i]);
        }
        s += "\n";
    }
    return s + "EOD\n";
}

// x tics at powers of 4 labelled as sizes ("64 B", "1 KiB"), minor tics between.
std::string size_tics(double lo, double hi) {
    std::string tics;
    for (double x = std::exp2(std::ceil(std::log2(lo))); x <= hi * 1.0001; x *= 4)
        tics += fmt::format("{}{} {}", tics.empty() ? "" : ", ", quoted(format_size(static_cast<std::uint64_t>(x))),
                            number(x));
    return "set xtics (" + tics + ")\nset mxtics 2\n";
}

// A limit's interval in a legend's few characters: "700-900 B", "3.92-4.29 KiB" (three digits).
std::string interval_text(double lo, double hi) {
    if (hi < 1024) return fmt::format("{:.0f}-{:.0f} B", lo, hi);
    const double unit = hi < 1024.0 * 1024 ? 1024.0 : 1024.0 * 1024;
    auto three = [](double v) { return fmt::format("{:.{}f}", v, v >= 100 ? 0 : v >= 10 ? 1 : 2); };
    return three(lo / unit) + "-" + three(hi / unit) + (unit == 1024.0 ? " KiB" : " MiB");
}

struct Plot {
    std::string script;  // datablocks and settings
    std::vector<std::string> clauses, series;
    void add(const std::string& clause, const std::string& title) {
        clauses.push_back(clause + " title " + quoted(title) + " noenhanced");
        series.push_back(title);
    }
    // An empty legend slot (a blank key entry, drawn as nothing): keeps a machine's entries in one column.
    void pad() { clauses.push_back("keyentry with lines lt nodraw title ' '"); }
    std::string finish() const {
        std::string s = script + "plot ";
        for (std::size_t i = 0; i < clauses.size(); ++i) s += (i ? ", \\\n     " : "") + clauses[i];
        return s + "\n";
    }
};

const char* kCommon =
    "set encoding utf8\n"
    "set grid xtics ytics mxtics lc rgb '#e4e4e4' lw 1 dt 1\n"
    "set border 3 lc rgb '#444444'\n"
    "set tics nomirror out scale 0.6\n"
    "set key outside below left horizontal Left reverse samplen 2.5 spacing 1.05 width -2 font ',9'\n";

namespace {

// The y range (us) of a trade-off chart: every line and point, and the budget, out to whole decades.
std::pair<double, double> tradeoff_y_range(const TradeoffChart& t, const RecommendOptions& o) {
    // y range (us): every line and point, and the budget.
    double y_lo = effective_budget_s(o.question) * 1e6, y_hi = o.question.budget_s * 1e6;
    auto widen = [&](double s) {
        if (s > 0 && std::isfinite(s)) y_lo = std::min(y_lo, s * 1e6), y_hi = std::max(y_hi, s * 1e6);
    };
    for (const auto& cv : t.curves) {
        for (std::size_t i = 0; i < cv.bytes.size(); ++i)
            widen(cv.p50_s[i]), widen(cv.bound_hi_s[i]), widen(cv.bound_s[i]);
        for (const auto* pts : {&cv.points_p50, &cv.points_bound, &cv.points_bound_unfitted})
            for (const auto& p : *pts) widen(p.y);
    }
    y_lo = std::pow(10, std::floor(std::log10(y_lo / 1.2)));
    y_hi = std::pow(10, std::ceil(std::log10(y_hi * 1.2)));
    y_lo = std::pow(10, std::floor(std::log10(y_lo / 1.2)));
    y_hi = std::pow(10, std::ceil(std::log10(y_hi * 1.2)));
    return {y_lo, y_hi};
}

// One machine's series of a trade-off chart, by kind (an empty clause: none of that kind).
enum { kBand, kBound, kP50, kShare, kPointsP50, kPointsBound, kPointsUnfitted, kInterval, kLimit, kKinds };
using Entries = std::array<std::pair<std::string, std::string>, kKinds>;

Entries curve_entries(Plot& p, const ReportData& d, const TradeoffChart& t, const std::string& id, std::size_t k,
                      double y_lo, double y_hi) {
    const RecommendOptions& o = d.options;
    const std::string q(name(o.question.quantile));
    const bool many = d.inputs.size() > 1;
    auto clamp_us = [&](double s) { return std::clamp(s * 1e6, y_lo, y_hi); };
    Entries e;
    const TradeoffCurve& cv = t.curves[k];
    const std::string m = many ? machine_tag(d.labels[cv.input]) + " " : "";
    const std::string col = fmt::format("lc rgb '{}'", machine_colour(cv.input));
    const std::string base = fmt::format("{}_{}", id, k);
    std::vector<std::vector<double>> lines;
    for (std::size_t i = 0; i < cv.bytes.size(); ++i)
        lines.push_back({cv.bytes[i], clamp_us(cv.p50_s[i]), clamp_us(cv.bound_s[i]), clamp_us(cv.bound_lo_s[i]),
                         clamp_us(cv.bound_hi_s[i]), 100 * cv.share[i]});
    p.script += datablock(base + "_lines", lines);
    e[kBand] = {
        fmt::format("${}_lines using 1:4:5 with filledcurves {} fs transparent solid 0.18 noborder", base, col),
        m + q + " band (95 %)"};
    e[kBound] = {fmt::format("${}_lines using 1:3 with lines lw 2 {}", base, col), m + q + " line (bound)"};
    e[kP50] = {fmt::format("${}_lines using 1:2 with lines lw 1.5 dt 2 {}", base, col), m + "p50 line"};
    e[kShare] = {fmt::format("${}_lines using 1:6 axes x1y2 with lines lw 1.2 dt 3 {}", base, col),
                 m + "throughput (right axis)"};
    auto points = [&](int kind, const std::vector<XY>& pts, const std::string& name, const std::string& style,
                      const std::string& title) {
        if (pts.empty()) return;
        std::vector<std::vector<double>> rows;
        for (const auto& x : pts) rows.push_back({x.x, clamp_us(x.y)});
        p.script += datablock(base + "_" + name, rows);
        e[kind] = {fmt::format("${}_{} using 1:2 with points {} {}", base, name, style, col), title};
    };
    points(kPointsP50, cv.points_p50, "p50", "pt 6 ps 0.55", m + "measured p50");
    points(kPointsBound, cv.points_bound, "bound", "pt 7 ps 0.45", m + "measured " + q);
    points(kPointsUnfitted, cv.points_bound_unfitted, "unfitted", "pt 1 ps 0.55", m + q + " > 50 us (not fitted)");
    if (cv.result.fits) {
        // The limit's interval (recommend's, docs/results.md, How sure) as a shaded band from edge to edge of
        // the plot; the limit is its emitted end, rounded down to whole granules.
        const double lo = std::max(cv.result.interval_lo_bytes, t.x_min),
                     hi = std::min(cv.result.interval_hi_bytes, t.x_max);
        if (hi > lo) {
            p.script += datablock(base + "_interval", {{lo, y_lo, y_hi}, {hi, y_lo, y_hi}});
            e[kInterval] = {
                fmt::format("${}_interval using 1:2:3 with filledcurves {} fs transparent solid 0.2 noborder",
                            base, col),
                m + "interval " + interval_text(cv.result.interval_lo_bytes, cv.result.interval_hi_bytes)};
        }
        const double x = static_cast<double>(cv.result.bytes);
        p.script += datablock(base + "_limit", {{x, y_lo}, {x, y_hi}});
        e[kLimit] = {fmt::format("${}_limit using 1:2 with lines lw 2 dt 4 {}", base, col),
                     fmt::format("{}limit {} B{}", m, cv.result.bytes, many && cv.binds ? " (binds)" : "")};
    }
    return e;
}

// The lines every machine shares: the budget, budget / margin, upstream's limit.
void common_lines(Plot& p, const TradeoffChart& t, const RecommendOptions& o, const std::string& id, double y_lo,
                  double y_hi) {
    p.script += datablock(id + "_budget", {{t.x_min, o.question.budget_s * 1e6}, {t.x_max, o.question.budget_s * 1e6}});
    p.add(fmt::format("${}_budget using 1:2 with lines lw 2 lc rgb '{}'", id, kBudgetColour),
          "budget " + format_duration(o.question.budget_s));
    if (o.question.margin > 1) {
        const double e = effective_budget_s(o.question) * 1e6;
        p.script += datablock(id + "_margin", {{t.x_min, e}, {t.x_max, e}});
        p.add(fmt::format("${}_margin using 1:2 with lines lw 1.5 dt 2 lc rgb '{}'", id, kBudgetColour),
              "budget / margin " + format_duration(effective_budget_s(o.question)));
    }
    if (t.bound.upstream_bytes) {
        const double x = static_cast<double>(*t.bound.upstream_bytes);
        p.script += datablock(id + "_upstream", {{x, y_lo}, {x, y_hi}});
        p.add(fmt::format("${}_upstream using 1:2 with lines lw 1.5 dt 5 lc rgb '{}'", id, kUpstreamColour),
              fmt::format("upstream {} B", *t.bound.upstream_bytes));
    }
}

}  // namespace

Chart tradeoff_chart(const ReportData& d, const TradeoffChart& t, const std::string& id) {
    const RecommendOptions& o = d.options;
    Chart c;
    c.id = id;
    c.kind = "tradeoff";
    c.title = fmt::format("{}: section time at {} and throughput against bytes per FPU section", t.kernel,
                          format_frequency(o.question.min_freq_hz));
    const auto [y_lo, y_hi] = tradeoff_y_range(t, o);
    Plot p;
    p.script += kCommon;
    p.script += fmt::format(
        "set logscale x 2\nset logscale y 10\nset xrange [{}:{}]\nset yrange [{}:{}]\nset y2range [0:100]\n"
        "{}set format y '%g'\nset ytics nomirror\nset y2tics 0,20,100 nomirror format '%g %%'\n"
        "set border 11 lc rgb '#444444'\n"
        "set xlabel 'bytes per FPU section (log)' noenhanced\nset ylabel {} noenhanced\n"
        "set y2label 'throughput, % of unlimited (p50)' noenhanced\n",
        number(t.x_min), number(t.x_max), number(y_lo), number(y_hi), size_tics(t.x_min, t.x_max),
        quoted(fmt::format("section time at {} (us, log)", format_frequency(o.question.min_freq_hz))));
    const bool many = d.inputs.size() > 1;
    const bool aligned = many && t.curves.size() <= 2;
    // Each machine's series, padded to as many legend rows as the machine with the most, so that the
    // legend (filled column by column) has one column per machine and one for the budget and upstream.
    std::vector<Entries> entries;
    for (std::size_t k = 0; k < t.curves.size(); ++k) entries.push_back(curve_entries(p, d, t, id, k, y_lo, y_hi));
    std::size_t rows = 0;
    for (const auto& e : entries)
        rows = std::max<std::size_t>(rows,
                                     std::count_if(e.begin(), e.end(), [](const auto& x) { return !x.first.empty(); }));
    for (const auto& e : entries) {
        std::size_t n = 0;
        for (const auto& [clause, title] : e)
            if (!clause.empty()) p.add(clause, title), ++n;
        for (; aligned && n < rows; ++n) p.pad();
    }
    const std::size_t before_common = p.clauses.size();
    common_lines(p, t, o, id, y_lo, y_hi);
    const std::size_t common = p.clauses.size() - before_common;
    // gnuplot fills as many columns as fit (at most maxcols), each of ceil(entries / columns) rows: with
    // every block padded to `rows`, that is one column per machine and one for the common lines (three
    // columns fit the width; a legend with more machines runs in two columns, in order).
    for (std::size_t n = common; aligned && n < rows; ++n) p.pad();
    const std::size_t key_rows = aligned ? rows : (p.clauses.size() + 1) / 2;
    p.script += fmt::format("set key vertical maxrows {} maxcols {}\n", key_rows, aligned ? 3 : 2);
    c.height = 340 + 14 * static_cast<int>(key_rows);
    c.script = p.finish();
    c.series = p.series;
    return c;
}

Chart threshold_chart(const ReportData& d, const ThresholdChart& t, const std::string& id) {
    Chart c;
    c.id = id;
    c.kind = "threshold";
    c.title = fmt::format("{} on {}: one-shot cost against input length, per path and dirty state", t.algorithm,
                          d.labels[t.input]);
    const std::optional<Dirty> chosen_state = d.options.dirty ? d.options.dirty : d.inputs[t.input].model->dirty;
    const std::string chosen = chosen_state ? std::string(name(*chosen_state)) : "";
    double x_lo = std::numeric_limits<double>::infinity(), x_hi = 0, y_lo = x_lo, y_hi = 0;
    for (const auto& cv : t.curves)
        for (const auto& p : cv.cycles)
            x_lo = std::min(x_lo, p.x), x_hi = std::max(x_hi, p.x), y_lo = std::min(y_lo, p.y),
            y_hi = std::max(y_hi, p.y);
    x_lo = std::max(1.0, x_lo);
    x_hi = std::max(x_hi, 2 * x_lo);  // one length measured: still a range to draw in
    y_lo = std::pow(10, std::floor(std::log10(y_lo / 1.1)));
    y_hi = std::pow(10, std::ceil(std::log10(y_hi * 1.1)));
    Plot p;
    p.script += kCommon;
    p.script += fmt::format(
        "set key outside below left vertical maxcols 2 Left reverse samplen 2.5 spacing 1.05 width -2 font ',9'\n"
        "set logscale x 2\nset logscale y 10\nset xrange [{}:{}]\nset yrange [{}:{}]\n{}set format y '%g'\n"
        "set xlabel 'input bytes, one call: init + update + final (log)' noenhanced\n"
        "set ylabel 'core cycles, p50 (log)' noenhanced\n",
        number(x_lo), number(x_hi), number(y_lo), number(y_hi), size_tics(x_lo, x_hi));
    std::size_t colour = 0;
    std::string last_kernel;
    for (std::size_t k = 0; k < t.curves.size(); ++k) {
        const CostCurve& cv = t.curves[k];
        if (cv.needs_fpu && cv.kernel != last_kernel && !last_kernel.empty()) ++colour;
        if (cv.needs_fpu) last_kernel = cv.kernel;
        const std::string col = cv.needs_fpu ? kPathColours[colour % std::size(kPathColours)] : "#000000";
        // The dirty state recommend uses is drawn solid; the others dashed; "none" (state already saved) dash-dot.
        const int dt = !cv.needs_fpu || cv.dirty == chosen ? 1
                       : cv.dirty == "none"                ? 5
                       : cv.dirty == "xmm"                 ? 3
                       : cv.dirty == "ymm"                 ? 2
                                                           : 4;
        std::vector<std::vector<double>> rows;
        for (const auto& x : cv.cycles) rows.push_back({x.x, x.y});
        const std::string name = fmt::format("{}_{}", id, k);
        p.script += datablock(name, rows);
        const std::string title =
            cv.needs_fpu ? fmt::format("{}, {} dirty", cv.kernel, cv.dirty) : cv.kernel + " (no FPU)";
        p.add(fmt::format("${} using 1:2 with lines lw {} dt {} lc rgb '{}'", name, cv.needs_fpu ? "1.4" : "2.4", dt,
                          col),
              title);
    }
    if (t.crossover && t.crossover->kind != ThresholdKind::never) {
        const double x = static_cast<double>(t.crossover->bytes);
        p.script += datablock(id + "_crossover", {{x, y_lo}, {x, y_hi}});
        p.add(fmt::format("${}_crossover using 1:2 with lines lw 2.2 dt 4 lc rgb '{}'", id, kBudgetColour),
              fmt::format("crossover {} B{}", t.crossover->bytes,
                          d.inputs.size() > 1 && t.binds ? " (binds)" : ""));  // which variant: the caption
    }
    const std::string version = resolve_linux_version(d.options.linux_version);
    const std::string simd_min = upstream_simd_min(t.algorithm, version);
    if (simd_min != "none" && !simd_min.empty()) {
        const double x = std::strtod(simd_min.c_str(), nullptr);
        if (x > 0) {
            p.script += datablock(id + "_upstream", {{x, y_lo}, {x, y_hi}});
            p.add(fmt::format("${}_upstream using 1:2 with lines lw 1.5 dt 5 lc rgb '{}'", id, kUpstreamColour),
                  fmt::format("upstream (Linux {}): SIMD from {} B", version, simd_min));
        }
    }
    // Two columns under the chart (what fits the width; an entry that does not fit would be dropped).
    const std::size_t key_rows = std::max<std::size_t>(1, (p.clauses.size() + 1) / 2);
    p.script += fmt::format("set key maxrows {}\n", key_rows);
    c.height = 360 + 14 * static_cast<int>(key_rows);
    c.script = p.finish();
    c.series = p.series;
    return c;
}

Chart fpu_chart(const ReportData& d, const std::string& id) {
    Chart c;
    c.id = id;
    c.kind = "fpu";
    c.width = 640;
    c.height = 360;
    c.title = "FPU state save (kernel_fpu_begin) and restore (return to user space) by dirty state";
    std::vector<std::string> states;
    double y_hi = 0;
    for (const auto& costs : d.fpu_costs)
        for (const auto& x : costs) {
            if (std::find(states.begin(), states.end(), x.dirty) == states.end()) states.push_back(x.dirty);
            y_hi = std::max({y_hi, x.save_ns, x.restore_ns});
        }
    std::vector<std::size_t> with;
    for (std::size_t i = 0; i < d.fpu_costs.size(); ++i)
        if (!d.fpu_costs[i].empty()) with.push_back(i);
    const double slots = 2.0 * static_cast<double>(with.size()), width = 0.8 / slots;
    Plot p;
    p.script += kCommon;
    std::string tics;
    for (std::size_t i = 0; i < states.size(); ++i)
        tics += fmt::format("{}{} {}", i ? ", " : "", quoted(states[i] + " dirty"), i);
    p.script += fmt::format(
        "set xrange [-0.55:{}]\nset yrange [0:{}]\nset xtics ({}) scale 0\nset grid noxtics ytics\n"
        "set ylabel 'ns at the measured clock (median)' noenhanced\nset boxwidth {} absolute\n",
        number(static_cast<double>(states.size()) - 0.45), number(y_hi * 1.15), tics, number(width * 0.92));
    std::size_t slot = 0;
    for (std::size_t i : with) {
        std::vector<std::vector<double>> rows;
        for (const auto& x : d.fpu_costs[i]) {
            const auto at = std::find(states.begin(), states.end(), x.dirty) - states.begin();
            rows.push_back({static_cast<double>(at), x.save_ns, x.restore_ns});
        }
        const std::string name = fmt::format("{}_{}", id, i);
        p.script += datablock(name, rows);
        const std::string m = d.inputs.size() > 1 ? d.labels[i] + " " : "";
        const double off_save = -0.4 + (static_cast<double>(slot) + 0.5) * width, off_restore = off_save + width;
        slot += 2;
        p.add(fmt::format("${} using ($1+{}):2 with boxes fs solid 0.85 border lc rgb '#333333' lc rgb '{}'", name,
                          number(off_save), machine_colour(i)),
              m + "save");
        p.add(fmt::format("${} using ($1+{}):3 with boxes fs pattern 4 border lc rgb '{}' lc rgb '{}'", name,
                          number(off_restore), machine_colour(i), machine_colour(i)),
              m + "restore");
    }
    c.script = p.finish();
    c.series = p.series;
    return c;
}

// Prefixes every id (and every reference to one) so that many gnuplot SVGs share a page; drops the XML
// prolog and the namespace declarations (inline SVG in HTML needs none, and the page names no URL).
std::string inline_svg(std::string svg, const Chart& c) {
    if (auto at = svg.find("<svg"); at != std::string::npos) svg.erase(0, at);
    auto replace_all = [&](const std::string& from, const std::string& to) {
        for (std::size_t at = svg.find(from); at != std::string::npos; at = svg.find(from, at + to.size()))
            svg.replace(at, from.size(), to);
    };
    replace_all(" xmlns=\"http://www.w3.org/2000/svg\"", "");
    replace_all(" xmlns:xlink=\"http://www.w3.org/1999/xlink\"", "");
    replace_all("\n xmlns=\"http://www.w3.org/2000/svg\"", "");
    replace_all("\n xmlns:xlink=\"http://www.w3.org/1999/xlink\"", "");
    const std::string p = c.id + "-";
    replace_all("id='", "id='" + p);
    replace_all("id=\"", "id=\"" + p);
    replace_all("href='#", "href='#" + p);
    replace_all("href=\"#", "href=\"#" + p);
    replace_all("url(#", "url(#" + p);
    replace_all("<title>Gnuplot</title>", "<title>" + html_escape(c.title) + "</title>");
    replace_all("<svg ", fmt::format("<svg class=\"chart\" role=\"img\" aria-label=\"{}\" data-chart=\"{}\" ",
                                     html_escape(c.title), c.kind));
    return svg;
}

struct TempDir {
    fs::path path;
    TempDir() {
        const char* tmp = std::getenv("TMPDIR");
        std::string tmpl = std::string(tmp && *tmp ? tmp : "/tmp") + "/fputune-report-XXXXXX";
        if (!mkdtemp(tmpl.data()))
            throw ChartToolError(
                fmt::format("cannot make a temporary folder in {}: {}", tmp ? tmp : "/tmp", std::strerror(errno)));
        path = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

}  // namespace

std::string machine_tag(const std::string& label) { return label.substr(0, label.find(']') + 1); }

std::map<std::string, Chart> report_charts(const ReportData& d) {
    std::map<std::string, Chart> charts;
    std::size_t n = 0;
    auto next_id = [&] { return fmt::format("c{}", ++n); };
    bool any_costs = false;
    for (const auto& c : d.fpu_costs) any_costs |= !c.empty();
    if (any_costs) charts["fpu"] = fpu_chart(d, next_id());
    for (const auto& a : d.algorithms) {
        for (const auto& t : a.tradeoffs)
            if (!t.curves.empty()) charts["tradeoff:" + t.kernel] = tradeoff_chart(d, t, next_id());
        for (const auto& t : a.thresholds)
            charts[fmt::format("threshold:{}:{}", t.algorithm, t.input)] = threshold_chart(d, t, next_id());
    }
    return charts;
}

std::string find_gnuplot() {
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        if (dir.empty()) continue;
        const std::string candidate = dir + "/gnuplot";
        struct stat st {};
        if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0)
            return candidate;
    }
    throw ChartToolError(
        "gnuplot not found on PATH: the charts are drawn with it; install it (Debian: apt-get install gnuplot-nox)");
}

void render_charts(std::map<std::string, Chart>& charts, const std::string& gnuplot) {
    if (charts.empty()) return;
    const TempDir dir;
    std::string script;
    for (const auto& [key, c] : charts)
        script += fmt::format(
            "reset\nset terminal svg size {} dynamic enhanced font 'sans-serif,11' background rgb 'white'\n"
            "set output {}\n{}unset output\n",
            fmt::format("{},{}", c.width, c.height), quoted((dir.path / (c.id + ".svg")).string()), c.script);
    const std::string script_path = (dir.path / "report.gp").string(), err_path = (dir.path / "gnuplot.err").string();
    std::ofstream(script_path) << script;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    std::vector<char*> argv = {const_cast<char*>(gnuplot.c_str()), const_cast<char*>(script_path.c_str()), nullptr};
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, gnuplot.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) throw ChartToolError(fmt::format("cannot run {}: {}", gnuplot, std::strerror(spawned)));
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    std::string err;
    try {
        err = read_file(err_path);
    } catch (const std::exception&) {}
    const std::string first_line = err.substr(0, err.find_first_of("\n", err.find_first_not_of(" \n")));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw ChartToolError(
            fmt::format("{} failed ({}){}", gnuplot,
                        WIFEXITED(status) ? fmt::format("exit {}", WEXITSTATUS(status)) : "killed by a signal",
                        first_line.empty() ? "" : ": " + first_line));
    for (auto& [key, c] : charts) {
        const fs::path svg = dir.path / (c.id + ".svg");
        std::string text;
        try {
            text = read_file(svg.string());
        } catch (const std::exception&) {}
        if (text.find("</svg>") == std::string::npos)
            throw ChartToolError(fmt::format("{} left the chart '{}' undrawn{}", gnuplot, c.title,
                                             first_line.empty() ? "" : ": " + first_line));
        c.svg = inline_svg(std::move(text), c);
    }
}

}  // namespace fputune::cli
