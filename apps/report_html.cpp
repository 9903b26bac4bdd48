// SPDX-License-Identifier: MIT
// The report page: one HTML file with inline CSS and inline SVG; no script, no fetch, no URL, so it opens
// offline, in a mail attachment or a CI artifact viewer, and prints.
#include <cmath>
#include <type_traits>

#include <fmt/format.h>

#include "contention.hpp"
#include "report.hpp"
#include "units.hpp"
#include "upstream.hpp"

namespace fputune::cli {

std::string html_escape(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default: out += c;
        }
    }
    return out;
}

namespace {

using nlohmann::json;

const char* kStyle = R"css(
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #1a1a1a;
       margin: 0 auto;
       max-width: 1320px; padding: 16px 24px 48px; background: #fff; }
h1 { font-size: 24px; margin: 8px 0 4px; }
h2 { font-size: 20px; margin: 32px 0 8px; padding-top: 8px; border-top: 2px solid #ddd; }
h3 { font-size: 16px; margin: 20px 0 6px; }
p, ul { margin: 6px 0; }
code, .mono { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, monospace; font-size: 12.5px; }
table { border-collapse: collapse; margin: 8px 0 12px; font-size: 13px; }
th, td { border: 1px solid #d4d4d4; padding: 3px 7px; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.pass { color: #17692b; font-weight: 600; }
.over { color: #a3270f; font-weight: 600; }
.binds { font-weight: 600; }
.muted { color: #666; }
.notes { background: #fff8e6; border: 1px solid #f0d9a0; padding: 8px 12px 8px 28px; }
.notes li { margin: 2px 0; }
.notes.muted { background: none; border: none; padding: 0 0 0 18px; font-size: 12px; }
td.note { min-width: 240px; font-size: 12px; color: #444; }
td.by { min-width: 170px; }
nav ul { columns: 4 180px; list-style: none; padding: 0; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(560px, 1fr)); gap: 12px 20px; }
figure { margin: 0; padding: 6px 8px 8px; border: 1px solid #e2e2e2; border-radius: 4px; break-inside: avoid;
  page-break-inside: avoid; }
figure.wide { max-width: 860px; }
figcaption { font-size: 13px; margin-bottom: 4px; }
figcaption .kernel { font-weight: 600; font-size: 14px; }
svg.chart { width: 100%; height: auto; display: block; }
.features { columns: 4 140px; font-size: 12.5px; margin: 4px 0; padding: 0; list-style: none; }
.verdict { font-weight: 600; }
.scroll { overflow-x: auto; max-width: 100%; }
.scroll table.variants td { overflow-wrap: anywhere; }
.scroll table.variants td.note { min-width: 160px; }
@media print {
  .scroll { overflow: visible; }
  body { max-width: none; padding: 0; font-size: 11px; }
  nav { display: none; }
  h2 { break-before: page; border-top: none; }
  h2, h3 { break-after: avoid; }
  .grid { display: block; }
  figure { margin: 0 0 8px; border: none; max-width: 100%; }
  table { font-size: 10px; }
}
@page { size: A4; margin: 12mm; }
)css";

std::string esc(const std::string& s) { return html_escape(s); }
// An option's value as the command line spells it (the names are plain words).
template <typename E>
requires std::is_enum_v<E> std::string esc(E v) { return std::string(name(v)); }

// recommend's interval of a limit (docs/results.md, How sure), as its table writes it: "*" when it is the fit's band
// alone (a sweep without rounds).
std::string interval_text(const VariantResult& v) {
    return fmt::format("{:.0f}..{:.0f} B{}", v.interval_lo_bytes, v.interval_hi_bytes, v.rounds ? "" : "*");
}

std::string size_text(std::uint64_t b) {
    return b < 1024 ? fmt::format("{} B", b) : fmt::format("{} B ({})", b, format_size(b));
}

std::string threshold_text(const std::optional<SimdThreshold>& t) {
    if (!t) return "-";
    if (t->kind == ThresholdKind::never) return fmt::format("never (SIMD loses up to {} B)", t->measured_to);
    if (t->kind == ThresholdKind::always) return fmt::format("always (from one block, {} B)", t->bytes);
    return fmt::format("{} B", t->bytes);
}

// Which Linux the upstream columns hold for and, from 6.15, what a section's bound leaves out.
std::string upstream_version_html(const std::string& version) {
    const std::string v = resolve_linux_version(version);
    std::string s =
        "<p>Upstream columns: Linux " + esc(v) + " (<code>--linux " + esc(upstream_versions_text()) + "</code>).";
    if (const std::string tail = softirq_tail_note(v); !tail.empty()) s += " Note: " + esc(tail) + ".";
    return s + "</p>\n";
}

std::string upstream_text(bool known, const std::optional<std::uint64_t>& bytes) {
    if (!known) return "-";
    return bytes ? size_text(*bytes) : "none (whole request)";
}

std::string verdict_html(bool known, double time_s, bool pass) {
    if (!known) return "-";
    if (std::isinf(time_s)) return "<span class=\"over\">unbounded, OVER</span>";
    return fmt::format("{} <span class=\"{}\">{}</span>", esc(format_duration(time_s)), pass ? "pass" : "over",
                       pass ? "PASS" : "OVER");
}

std::string notes_list(const std::vector<std::string>& notes, const char* cls = "notes") {
    if (notes.empty()) return "";
    std::string s = fmt::format("<ul class=\"{}\">", cls);
    for (const auto& n : notes) s += "<li>" + esc(n) + "</li>";
    return s + "</ul>\n";
}

std::string figure(const Chart& c, const std::string& caption, const std::string& extra_class = "") {
    std::string series;
    for (const auto& s : c.series) series += (series.empty() ? "" : "|") + s;
    return fmt::format(
        "<figure class=\"chart {}{}\" id=\"{}\" data-series=\"{}\">\n<figcaption>{}</figcaption>\n{}\n</figure>\n",
        c.kind, extra_class.empty() ? "" : " " + extra_class, c.id, esc(series), caption, c.svg);
}

std::string str(const json& j, const char* key) {
    if (!j.is_object() || !j.contains(key)) return "";
    const json& v = j[key];
    if (v.is_string()) return v.get<std::string>();
    if (v.is_null()) return "";
    return v.dump();
}

double num(const json& j, const char* key) {
    return j.is_object() && j.contains(key) && j[key].is_number() ? j[key].get<double>() : NAN;
}

std::string row(std::initializer_list<std::string> cells) {
    std::string s = "<tr>";
    for (const auto& c : cells) s += "<td>" + c + "</td>";
    return s + "</tr>\n";
}

// A value of a JSON report as a short text: "a=1, b=[2, 3], c={x: 0.0198}" (4 significant digits).
std::string compact(const json& v, bool top = true) {
    if (v.is_string()) return top ? v.get<std::string>() : "\"" + v.get<std::string>() + "\"";
    if (v.is_number_float()) return fmt::format("{:.4g}", v.get<double>());
    if (v.is_array()) {
        std::string s;
        for (const auto& x : v) s += (s.empty() ? "" : ", ") + compact(x, false);
        return "[" + s + "]";
    }
    if (!v.is_object()) return v.dump();
    std::string s;
    for (const auto& [key, value] : v.items())
        s += (s.empty() ? "" : ", ") + key + (top ? "=" : ": ") + compact(value, false);
    return top ? s : "{" + s + "}";
}

// The sweep's `doctor` verdict: the verdict, its findings with their advice, then the rest as it came.
std::string doctor(const json& d) {
    std::string s = "<h3>doctor</h3>\n";
    if (!d.is_object()) return s + "<p class=\"mono\">" + esc(d.dump()) + "</p>\n";
    if (d.contains("verdict"))
        s += "<p>verdict: <span class=\"verdict " + std::string(str(d, "verdict") == "calm" ? "pass" : "over") + "\">" +
             esc(str(d, "verdict")) + "</span>" +
             (d.value("quick", false) ? " (the quick check a sweep runs first)" : "") + "</p>\n";
    if (d.contains("findings") && d["findings"].is_array() && !d["findings"].empty()) {
        s += "<table class=\"doctor\"><tr><th>severity</th><th>check</th><th>found</th><th>advice</th></tr>\n";
        for (const auto& f : d["findings"])
            s += row({esc(str(f, "severity")), esc(str(f, "check")), esc(str(f, "what")), esc(str(f, "advice"))});
        s += "</table>\n";
    }
    std::string rest;
    for (const auto& [key, value] : d.items())
        if (key != "verdict" && key != "findings" && key != "quick")
            rest += row({esc(key), "<span class=\"mono\">" + esc(compact(value)) + "</span>"});
    if (!rest.empty()) s += "<table class=\"doctor facts\">" + rest + "</table>\n";
    return s;
}

// Each input's label ("[1] Intel ..."), by its source or its machine.
std::string label_of(const ReportData& d, const std::string& source, const std::string& machine) {
    for (std::size_t i = 0; i < d.inputs.size(); ++i)
        if (d.inputs[i].model && d.inputs[i].model->source == source) return d.labels[i];
    return machine;
}
std::string machine_label(const ReportData& d, const std::string& machine) {
    for (std::size_t i = 0; i < d.inputs.size(); ++i)
        if (d.inputs[i].machine == machine) return d.labels[i];
    return machine;
}

// The summary's per-algorithm rows.
std::string summary_algorithm_rows(const ReportData& d) {
    const bool many = d.inputs.size() > 1;
    std::string s;
    for (const auto& a : d.recommendation->algorithms) {
        const std::string by =
            esc(a.kernel) + (many ? " on <span class=\"binds\">" + esc(machine_label(d, a.machine)) + "</span>" : "");
        s += fmt::format(
            "<tr><td><a href=\"#alg-{}\">{}</a></td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td "
            "class=\"num\">{}"
            "</td><td>{}</td><td class=\"num\">{}</td>{}</tr>\n",
            esc(a.algorithm), esc(a.algorithm), a.fits ? esc(size_text(a.bytes)) : "no size fits",
            esc(format_duration(a.fits ? a.time_s : a.one_block_s)), by,
            esc(upstream_text(a.upstream_known, a.upstream_bytes)),
            verdict_html(a.upstream_known, a.upstream_time_s, a.upstream_pass), esc(threshold_text(a.threshold)),
            many ? "<td>" + esc(a.threshold ? machine_label(d, a.threshold_machine) : "-") + "</td>" : "");
    }
    return s;
}

// The summary's per-variant rows.
std::string summary_variant_rows(const ReportData& d) {
    const bool many = d.inputs.size() > 1;
    std::string s;
    for (const auto& vr : d.recommendation->variants) {
        const VariantResult& v = vr.bound;
        std::string per;
        if (many)
            for (const auto& pm : vr.per_machine)
                per += fmt::format("{}{}: {}", per.empty() ? "" : "; ", machine_tag(label_of(d, pm.source, pm.machine)),
                                   pm.fits ? size_text(pm.bytes) : "no size fits");
        s += fmt::format(
            "<tr><td><a href=\"#v-{}\">{}</a></td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
            "<td class=\"num\">{}</td><td class=\"num\">{}</td>"
            "<td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td class=\"num\">{}</td>{}<td "
            "class=\"note\">{}</td></tr>\n",
            esc(v.kernel), esc(v.kernel), esc(v.cache), v.fits ? esc(size_text(v.bytes)) : "no size fits",
            v.fits ? fmt::format("{:.0f} B", v.unrounded_bytes) : "-", v.fits ? esc(interval_text(v)) : "-",
            esc(format_duration(v.fits ? v.time_s : v.one_block_s)),
            v.fits ? fmt::format("{:.1f} %", 100 * v.throughput_cost) : "-",
            esc(upstream_text(v.upstream_known, v.upstream_bytes)),
            verdict_html(v.upstream_known, v.upstream_time_s, v.upstream_pass), esc(threshold_text(v.threshold)),
            many ? "<td class=\"by\"><span class=\"binds\">" + esc(label_of(d, v.source, v.machine)) +
                       "</span><br><span class=\"muted\">" + esc(per) + "</span></td>"
                 : "",
            esc([&] {
                std::string n;
                for (const auto& x : v.notes) n += (n.empty() ? "" : "; ") + x;
                return n;
            }()));
    }
    return s;
}

// The contention the limits are stated at (recommend's --contention), and the level that meant per input.
std::string contention_html(const ReportData& d) {
    std::string per;
    for (std::size_t i = 0; i < d.inputs.size(); ++i) {
        const std::optional<ModelFile>& m = d.inputs[i].model;
        if (!m) continue;
        const std::optional<ContentionTarget> t = parse_contention_target(m->contention);
        const double level = t ? target_level(*t, m->contention_observed, m->contention_floor) : 0;
        per += fmt::format("{}[{}] {}", per.empty() ? "" : "; ", i + 1,
                           m->contention.empty()            ? std::string("records no contention: as measured")
                           : level >= 1                     ? fmt::format("c = {:.2f}", level)
                                                            : std::string("as measured"));
    }
    // The host's memory as each sweep's probe found it: cold sections move with it.
    std::string memory;
    for (std::size_t i = 0; i < d.inputs.size(); ++i) {
        const std::optional<ModelFile>& m = d.inputs[i].model;
        if (m && m->memory_p50_ns() > 0)
            memory += fmt::format("{}[{}] {} KiB in {:.1f} ns", memory.empty() ? "" : "; ", i + 1,
                                  m->memory_bytes / 1024, m->memory_p50_ns());
    }
    return fmt::format(
               "<p class=\"contention\">Contention: the limits are stated at <b>{}</b> (<code>--contention</code>, "
               "as <code>recommend</code>; kernels without a known sensitivity as measured, docs/contention.md): "
               "{}.</p>\n",
               esc(d.options.question.contention), per.empty() ? std::string("no input has section models") : esc(per)) +
           (memory.empty() ? std::string()
                           : fmt::format("<p class=\"memory\">Memory: a read in no cache (the memory probe, "
                                         "docs/contention.md) at the sweep's median: {}. Cold sections move with it, "
                                         "and a limit holds at the memory speed its sweep met.</p>\n",
                                         esc(memory)));
}

// Several sweeps of one CPU: how far each limit moved between them (recommend's "sweeps of one CPU").
std::string repeats_html(const ReportData& d) {
    std::string s;
    for (const RepeatSpread& rep : d.recommendation->repeats) {
        std::string refs;
        for (const std::string& src : rep.sources) {
            if (!refs.empty()) refs += ' ';
            refs += machine_tag(label_of(d, src, src));
        }
        std::string widest;
        for (const RepeatSpread::Widest& w : rep.widest)
            widest += fmt::format("{}{} {} {}..{} B", widest.empty() ? "" : "; ", w.kernel, name(w.cache), w.smallest,
                                  w.largest);
        s += fmt::format(
            "<p class=\"repeats\">Sweeps of one CPU ({}: {}): each limit moved between them by {:.1f} % at the "
            "median (largest / smallest - 1); {} of {} within {:.0f} %, {} within it or one block{}. The limits above "
            "are the smallest of each.</p>\n",
            esc(rep.machine), esc(refs), 100 * rep.median_spread, rep.within, rep.variants, 100 * kRepeatWithin,
            rep.within_block, widest.empty() ? "" : "; moved most: " + esc(widest));
    }
    return s;
}

std::string summary(const ReportData& d) {
    const Recommendation& r = *d.recommendation;
    const RecommendOptions& o = d.options;
    const bool many = d.inputs.size() > 1;
    std::string s = "<section class=\"part\" id=\"summary\">\n<h2>Summary: the limits</h2>\n";
    s += fmt::format(
        "<p>Per algorithm the smallest limit over its variants{}: what a kernel constant shared by every variant "
        "should "
        "be. <b>Bound by</b> names the variant{} that sets it.</p>\n",
        many ? " and machines" : "", many ? " and the machine" : "");
    s += fmt::format(
        "<table class=\"summary algorithms\"><tr><th>algorithm</th><th>limit</th><th>time at {}</th><th>bound by</th>"
        "<th>upstream</th><th>upstream at {}</th><th>SIMD from</th>{}</tr>\n",
        esc(format_frequency(o.question.min_freq_hz)), esc(format_frequency(o.question.min_freq_hz)),
        many ? "<th>threshold from</th>" : "");
    s += summary_algorithm_rows(d);
    s += "</table>\n" + upstream_version_html(o.linux_version) + "<h3>Per variant</h3>\n";
    // In a box that scrolls sideways: with several machines the table is wider than the page, and no column is cut.
    s += fmt::format(
        "<div class=\"scroll\"><table class=\"summary variants\"><tr><th>kernel</th><th>cache</th><th>limit</th><th>unrounded</th>"
        "<th>interval</th><th>time at {}</th>"
        "<th>throughput cost</th><th>upstream</th><th>upstream at {}</th><th>SIMD from</th>{}<th>notes</th></tr>\n",
        esc(format_frequency(o.question.min_freq_hz)), esc(format_frequency(o.question.min_freq_hz)), many ? "<th>bound by</th>" : "");
    s += summary_variant_rows(d);
    s += "</table></div>\n";
    s += fmt::format(
        "<p class=\"muted\">interval: where the {1} line (core cycles = ticks × core/TSC) meets the budget / "
        "margin ({3}) at {2}, its 95 % band (the points near the limit: their scatter about the line) widened by the "
        "spread of the limits the sweep's rounds give near it "
        "(docs/results.md, \"How sure\"; * the band alone: a sweep without rounds); limit: its low end (what "
        "recommend emits), rounded down to whole {0}; unrounded: before rounding; "
        "throughput cost: A / (A + B·n) of the p50 line, what the limit costs against no limit; SIMD from: the "
        "shortest input from which the SIMD path beats the no-FPU one for every longer input measured, with the "
        "state save {4} (<code>recommend</code>'s default and its header: by one call in 193; "
        "<code>--save-every</code>).</p>\n",
        o.round == Round::block ? "blocks"
        : o.round == Round::kib ? "KiB (and blocks)"
                                : "blocks, a power of two",
        esc(o.question.quantile), esc(format_frequency(o.question.min_freq_hz)),
        esc(format_duration(effective_budget_s(o.question))),
        o.dirty == Dirty::none ? std::string("paid by none")
        : o.save_every == 1    ? std::string("paid by every call, as swept")
                               : fmt::format("paid by one call in {}", o.save_every));
    s += repeats_html(d);
    s += notes_list(r.notes);
    return s + "</section>\n";
}

// One machine's table: CPU, microcode, kernel, TSC, core/TSC, XSAVE and its costs.
std::string machine_table(const ReportData& d, std::size_t i) {
    const ReportInput& in = d.inputs[i];
    const json& c = in.cpu;
    std::string s;
    s += "<table class=\"machine\">\n";
    s += row({"CPU", esc(str(c, "brand") + " (" + str(c, "vendor") + ")")});
    if (c.contains("family"))
        s += row({"signature",
                  esc(fmt::format("family {:#x} model {:#x} stepping {}", static_cast<unsigned>(num(c, "family")),
                                  static_cast<unsigned>(num(c, "model")), str(c, "stepping")))});
    s += row({"microcode", esc(str(c, "microcode").empty() ? "not readable" : str(c, "microcode"))});
    s += row({"kernel", esc(str(c, "kernel_release"))});
    s += row({"logical CPUs",
              esc(str(c, "logical_cpus") + (c.value("hypervisor", false) ? " (under a hypervisor)" : ""))});
    if (c.contains("tsc") && c["tsc"].is_object()) {
        const json& t = c["tsc"];
        s += row({"TSC", esc(fmt::format(
                             "{:.4f} GHz ({}); invariant {}; empty timed section {:.0f} ticks, step {:.0f} ticks",
                             num(t, "hz") / 1e9, str(t, "source"), t.value("invariant", false) ? "yes" : "no",
                             num(t, "overhead_ticks"), num(t, "granularity_ticks")))});
    }
    if (c.contains("core_per_tsc") && c["core_per_tsc"].is_object()) {
        const json& r = c["core_per_tsc"];
        s += row({"core/TSC",
                  esc(fmt::format("{:.3f} core cycles per tick (median {:.3f}, min {:.3f}, spread {:.1f} %)",
                                  num(r, "value"), num(r, "median"), num(r, "min"), 100 * num(r, "spread")))});
    }
    if (in.model) s += row({"core/TSC of the models", esc(fmt::format("{:.3f}", in.model->core_per_tsc))});
    if (c.contains("xsave") && c["xsave"].is_object()) {
        const json& x = c["xsave"];
        std::string costs;
        for (const auto& f : d.fpu_costs[i])
            costs += fmt::format("{}{}: save {:.0f} ns, restore {:.0f} ns, pair {:.0f} ns",
                                 costs.empty() ? "" : "; ", f.dirty, f.save_ns, f.restore_ns, f.pair_ns);
        s += row({"XSAVE", esc(fmt::format("{}; {} bytes compacted; XCR0 {}",
                                           str(x, "instruction").empty() ? "save" : str(x, "instruction"),
                                           str(x, "compacted_bytes"),
                                           c.contains("xcr0") && c["xcr0"].is_number_unsigned()
                                               ? fmt::format("{:#x}", c["xcr0"].get<std::uint64_t>())
                                               : "?"))});
        if (!costs.empty()) s += row({"save/restore", esc(costs)});
    }
    s += "</table>\n";
    return s;
}

std::string machines(const ReportData& d, const std::map<std::string, Chart>& charts) {
    std::string s = "<section class=\"part\" id=\"machines\">\n<h2>The machines</h2>\n";
    if (auto it = charts.find("fpu"); it != charts.end())
        s += figure(it->second,
                    "<span class=\"kernel\">FPU state save and restore by dirty state</span><br>what the first "
                    "kernel_fpu_begin() of a "
                    "request pays (save), and the return to user space (restore); medians, from each machine's "
                    "<code>fputune cpu</code> probe",
                    "wide");
    for (std::size_t i = 0; i < d.inputs.size(); ++i) {
        const ReportInput& in = d.inputs[i];
        const json& c = in.cpu;
        s += fmt::format("<h3 id=\"machine-{}\">{}</h3>\n", i + 1, esc(d.labels[i]));
        if (!c.is_object() || c.empty() || !c.contains("vendor")) {
            s += fmt::format("<p class=\"muted\">{} carries no <code>fputune cpu</code> probe{}.</p>\n", esc(in.path),
                             c.is_object() && c.contains("source")
                                 ? " (the machine is named from " + esc(str(c, "source")) + ")"
                                 : "");
            continue;
        }
        s += machine_table(d, i);
        if (c.contains("features") && c["features"].is_array()) {
            s += "<ul class=\"features\">";
            for (const auto& f : c["features"]) {
                const bool masked = f.value("masked", false), detected = f.value("detected", false);
                s += fmt::format("<li>{} <span class=\"{}\">{}</span></li>", esc(str(f, "name")),
                                 masked     ? "over"
                                 : detected ? "pass"
                                            : "muted",
                                 masked     ? "masked"
                                 : detected ? "yes"
                                            : "no");
            }
            s += "</ul>\n";
        }
        if (!in.doctor.is_null()) {
            s += doctor(in.doctor);
        } else if (in.kind == "sweep") {
            s += "<p class=\"muted\">No <code>doctor</code> verdict in this sweep (made by an fputune without "
                 "it).</p>\n";
        }
    }
    return s + "</section>\n";
}

std::string inputs(const ReportData& d) {
    std::string s =
        "<h2 id=\"inputs\">Inputs and their provenance</h2>\n<table "
        "class=\"inputs\"><tr><th>#</th><th>file</th><th>kind</th>"
        "<th>machine</th><th>measured</th><th>by fputune</th><th>options</th><th>points</th><th>warnings</th></tr>\n";
    for (std::size_t i = 0; i < d.inputs.size(); ++i) {
        const ReportInput& in = d.inputs[i];
        std::string date, tool, options, points;
        if (in.sweep) {
            date = in.sweep->date;
            tool = in.sweep->tool_version + " (" + in.sweep->tool_commit + ")";
            points = fmt::format("{} section, {} threshold", in.sweep->sections.size(), in.sweep->thresholds.size());
        }
        if (in.model) {
            if (date.empty()) date = in.model->sweep_date;
            if (tool.empty() && !in.model->sweep_tool_version.empty())
                tool = in.model->sweep_tool_version + " (" + in.model->sweep_tool_commit + ")";
            if (in.kind == "model")
                tool += "; fitted by " + in.model->tool_version + " (" + in.model->tool_commit + ") " + in.model->date;
            if (!in.sweep) points = fmt::format("{} fitted lines, no points", in.model->models.size());
        }
        const json& opts = in.sweep ? in.sweep->options : in.model ? in.model->options : json();
        if (opts.is_object())
            for (const auto& [key, value] : opts.items()) {
                if ((value.is_array() && value.empty()) || (value.is_string() && value.get<std::string>().empty()))
                    continue;
                options += (options.empty() ? "" : ", ") + key + "=" +
                           (value.is_string() ? value.get<std::string>() : value.dump());
            }
        const std::string dirty = in.sweep                      ? in.sweep->dirty
                                  : in.model && in.model->dirty ? std::string(name(*in.model->dirty))
                                                                : "";
        if (!dirty.empty()) options += (options.empty() ? "" : ", ") + std::string("dirty=") + dirty;
        const bool partial = in.sweep ? in.sweep->partial : in.model && in.model->partial;
        std::string warnings;
        for (const auto& w : in.sweep ? in.sweep->warnings : in.model ? in.model->warnings : std::vector<std::string>{})
            warnings += (warnings.empty() ? "" : "; ") + w;
        if (partial) warnings = "partial (interrupted)" + std::string(warnings.empty() ? "" : "; ") + warnings;
        if (in.sampling.is_object()) points += "; sampling: " + compact(in.sampling);
        s += fmt::format(
            "<tr><td>{}</td><td class=\"mono\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td "
            "class=\"mono\">{}</td>"
            "<td>{}</td><td>{}</td></tr>\n",
            i + 1, esc(in.path), esc(in.kind + (in.schema.empty() ? "" : " (" + in.schema + ")")), esc(in.machine),
            esc(date.empty() ? "-" : date), esc(tool.empty() ? "-" : tool), esc(options.empty() ? "-" : options),
            esc(points.empty() ? "-" : points), esc(warnings.empty() ? "-" : warnings));
    }
    return s + "</table>\n";
}

std::string sim_longest(const SimColumn& c) {
    if (!c.longest_bytes) return "-";
    std::string s =
        fmt::format("{} B, {}{}", c.longest_bytes, esc(format_duration(c.longest_s)), c.extrapolated ? "*" : "");
    if (c.within_budget)
        s += fmt::format(" <span class=\"{}\">{}</span>", *c.within_budget ? "pass" : "over",
                         *c.within_budget ? "PASS" : "OVER");
    return s;
}

// What the limits do to each simulated workload (`fputune simulate`): sections and the longest one,
// today and with the limits, and the throughput they cost.
std::string workloads(const ReportData& d, const std::string& algorithm) {
    const bool many = d.inputs.size() > 1;
    std::string s;
    bool extrapolated = false;
    for (const Simulation& sim : d.simulations) {
        std::string rows;
        for (const SimMachine& m : sim.machines)
            for (const SimRow& r : m.rows) {
                if (r.algorithm != algorithm) continue;
                const SimColumn& u = r.upstream;
                extrapolated |= u.extrapolated || (r.limited && r.limited->extrapolated);
                std::string label = m.machine;
                for (std::size_t i = 0; i < d.inputs.size(); ++i)
                    if (d.inputs[i].model && d.inputs[i].model->source == m.source) label = d.labels[i];
                rows +=
                    fmt::format("<tr><td>{}</td>{}<td class=\"num\">{:.0f}</td><td class=\"num\">{}</td><td>{}</td>",
                                esc(r.kernel), many ? "<td>" + esc(machine_tag(label)) + "</td>" : "", u.sections,
                                sim_longest(u), esc(u.limit_from));
                if (r.limited)
                    rows += fmt::format(
                        "<td class=\"num\">{}</td><td class=\"num\">{:.0f}</td><td class=\"num\">{}</td><td "
                        "class=\"num\">{:.1f} %</td>",
                        r.limited->limit_bytes ? esc(size_text(*r.limited->limit_bytes)) : "-", r.limited->sections,
                        sim_longest(*r.limited), 100 * r.throughput_cost);
                else
                    rows += "<td colspan=\"4\">-</td>";
                rows += "</tr>\n";
            }
        if (rows.empty()) continue;
        const Workload& w = sim.workload;
        s +=
            fmt::format("<h3>Workload {}: what the limits change</h3>\n<p>{}{} <span class=\"muted\">({})</span></p>\n",
                        esc(w.name), esc(w.description),
                        w.kernel_thread ? " In kernel threads: no user state to save." : "", esc(w.source));
        s += fmt::format(
            "<table class=\"simulation\"><tr><th rowspan=\"2\">kernel</th>{}<th colspan=\"3\">today (upstream)</th>"
            "<th colspan=\"4\">with the limits</th></tr>\n<tr><th>sections</th><th>longest section at "
            "{}</th><th>chunking</th>"
            "<th>limit</th><th>sections</th><th>longest section at {}</th><th>throughput cost</th></tr>\n{}</table>\n",
            many ? "<th rowspan=\"2\">machine</th>" : "", esc(format_frequency(d.options.question.min_freq_hz)),
            esc(format_frequency(d.options.question.min_freq_hz)), rows);
    }
    if (!s.empty())
        s += "<p class=\"muted\">Throughput cost: total cycles (inside the sections, plus the state save and restore "
             "per request) "
             "with the limits against no limit at all (one section per request): never negative, as a limit only adds "
             "sections.</p>\n";
    if (extrapolated)
        s += "<p class=\"muted\">* beyond the sizes the bound line was fitted on (sections of at most 50 µs): an "
             "extrapolation.</p>\n";
    return s;
}

std::string algorithm(const ReportData& d, const AlgorithmReport& a, const std::map<std::string, Chart>& charts) {
    const RecommendOptions& o = d.options;
    const bool many = d.inputs.size() > 1;
    auto machine_label = [&](const std::string& machine) {
        for (std::size_t i = 0; i < d.inputs.size(); ++i)
            if (d.inputs[i].machine == machine) return d.labels[i];
        return machine;
    };
    const AlgorithmRow& r = a.row;
    std::string s = fmt::format("<section class=\"algorithm\" id=\"alg-{}\" data-algorithm=\"{}\">\n<h2>{}</h2>\n",
                                esc(a.algorithm), esc(a.algorithm), esc(a.algorithm));
    std::string line = r.fits ? fmt::format("Limit <b>{}</b>, {} at {}", esc(size_text(r.bytes)),
                                            esc(format_duration(r.time_s)), esc(format_frequency(o.question.min_freq_hz)))
                              : fmt::format("<b>No size fits</b>: one block takes {} at {}",
                                            esc(format_duration(r.one_block_s)), esc(format_frequency(o.question.min_freq_hz)));
    line += ", bound by <span class=\"binds\">" + esc(r.kernel) + (many ? " on " + esc(machine_label(r.machine)) : "") +
            "</span>. ";
    if (r.upstream_known)
        line += "Upstream: " + esc(upstream_text(true, r.upstream_bytes)) + ", " +
                verdict_html(true, r.upstream_time_s, r.upstream_pass) + " here" +
                (r.upstream_cited.empty() ? "" : " (<code>" + esc(r.upstream_cited) + "</code>)") + ". ";
    else
        line += "Upstream: no constant known. ";
    line += "SIMD from: " + esc(threshold_text(r.threshold));
    if (r.threshold)
        line += " (" + esc(r.threshold->kernel) + ", " + esc(r.threshold->dirty) + " dirty" +
                (many ? ", on " + esc(machine_label(r.threshold_machine)) : "") + ")";
    // Upstream's threshold, always said: a length, no gate, or not known (no row, or a row without one).
    const std::string up_min = !r.upstream_simd_min.empty() ? r.upstream_simd_min : a.upstream ? a.upstream->simd_min_len : "";
    line += "; upstream: " + esc(up_min == "none" ? "no length gate" : up_min.empty() ? "not known" : "from " + up_min + " B");
    s += "<p>" + line + ".</p>\n";
    s += "<h3>Trade-off: section time and throughput against bytes per section</h3>\n<div class=\"grid\">\n";
    for (const auto& t : a.tradeoffs) {
        auto it = charts.find("tradeoff:" + t.kernel);
        if (it == charts.end()) continue;
        std::string cap = fmt::format("<span class=\"kernel\" id=\"v-{}\">{}</span> ", esc(t.kernel), esc(t.kernel));
        for (const auto& cv : t.curves) {
            const VariantResult& v = cv.result;
            cap += "<br>" + (many ? esc(d.labels[cv.input]) + ": " : "") +
                   (v.fits ? fmt::format("limit {} = {}", esc(size_text(v.bytes)), esc(format_duration(v.time_s)))
                           : esc(no_fit_message(v, o.question.min_freq_hz))) +
                   (v.fits ? ", interval " + esc(interval_text(v)) : "") +
                   (v.fits ? fmt::format(", throughput cost {:.1f} %", 100 * v.throughput_cost) : "") +
                   (v.upstream_bytes ? ", upstream " + verdict_html(true, v.upstream_time_s, v.upstream_pass) : "") +
                   ", " + esc(v.cache) + " cache" + (many && cv.binds ? " <span class=\"binds\">(binds)</span>" : "");
        }
        std::vector<std::string> notes = t.notes;
        for (const auto& cv : t.curves)
            for (const auto& n : cv.result.notes) notes.push_back((many ? d.labels[cv.input] + ": " : "") + n);
        s += figure(it->second, cap + notes_list(notes, "notes muted"));
    }
    s += "</div>\n";
    if (!a.thresholds.empty()) {
        s += "<h3>Threshold: one-shot cost against input length</h3>\n<div class=\"grid\">\n";
        for (const auto& t : a.thresholds) {
            auto it = charts.find(fmt::format("threshold:{}:{}", t.algorithm, t.input));
            if (it == charts.end()) continue;
            std::string cap = "<span class=\"kernel\">" + esc(a.algorithm) +
                              (many ? " on " + esc(d.labels[t.input]) : "") + "</span><br>";
            cap += t.crossover ? fmt::format("crossover: {} ({}, {} dirty, against {}){}",
                                             esc(threshold_text(t.crossover)), esc(t.crossover->kernel),
                                             esc(t.crossover->dirty), esc(t.crossover->scalar_kernels),
                                             many && t.binds ? " <span class=\"binds\">(binds)</span>" : "")
                               : "no crossover computed";
            s += figure(it->second, cap, "wide");
        }
        s += "</div>\n";
    }
    s += workloads(d, a.algorithm);
    s += notes_list(a.notes);
    return s + "</section>\n";
}

}  // namespace

std::string report_html(const ReportData& d, const std::map<std::string, Chart>& charts, const ReportContext& ctx) {
    const RecommendOptions& o = d.options;
    std::string s = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    s += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    std::string machines_title;
    for (const auto& in : d.inputs) machines_title += (machines_title.empty() ? "" : ", ") + in.machine;
    s += "<title>fputune report: " + esc(format_duration(o.question.budget_s)) + " at " + esc(format_frequency(o.question.min_freq_hz)) +
         " — " + esc(machines_title) + "</title>\n";
    s += std::string("<style>") + kStyle + "</style>\n</head>\n<body>\n";
    s += "<header>\n<h1>fputune report</h1>\n";
    s += fmt::format(
        "<p>How many bytes a SIMD kernel may process per <code>kernel_fpu_begin()</code>/<code>kernel_fpu_end()</code> "
        "section "
        "for a budget of <b>{}</b> at a minimum core frequency of <b>{}</b> (margin {}: limits fit {}), {} cache, "
        "thresholds with {} dirty, bound: the {} line, rounding {}.</p>\n",
        esc(format_duration(o.question.budget_s)), esc(format_frequency(o.question.min_freq_hz)), esc(format_margin(o.question.margin)),
        esc(format_duration(effective_budget_s(o.question))), esc(o.question.cache),
        esc(d.recommendation ? d.recommendation->dirty_label() : (o.dirty ? std::string(name(*o.dirty)) : "as swept")),
        o.question.quantile == Quantile::p99 ? "p99 (of samples not hit by an interruption)" : "p90", esc(o.round));
    s += contention_html(d);
    s += "<ul class=\"machines\">";
    for (std::size_t i = 0; i < d.inputs.size(); ++i)
        s += fmt::format("<li><a href=\"#machine-{}\">{}</a>: <span class=\"mono\">{}</span> ({})</li>", i + 1,
                         esc(d.labels[i]), esc(d.inputs[i].path), esc(d.inputs[i].kind));
    s += "</ul>\n";
    s += fmt::format("<p class=\"muted\">Made {} by fputune {} ({}): <code>{}</code></p>\n</header>\n", esc(ctx.date),
                     esc(tool_version()), esc(tool_commit()), esc(ctx.command_line));
    s += "<nav><ul>";
    if (d.recommendation) s += "<li><a href=\"#summary\">Summary</a></li>";
    s += "<li><a href=\"#machines\">Machines</a></li><li><a href=\"#inputs\">Inputs</a></li><li><a "
         "href=\"#reading\">How to read</a></li>";
    for (const auto& a : d.algorithms)
        s += fmt::format("<li><a href=\"#alg-{}\">{}</a></li>", esc(a.algorithm), esc(a.algorithm));
    s += "</ul></nav>\n";
    if (!d.notes.empty()) s += "<h2 id=\"cannot\">What this report cannot show</h2>\n" + notes_list(d.notes);
    if (d.recommendation) s += summary(d);
    s += machines(d, charts);
    s += inputs(d);
    for (const auto& a : d.algorithms) s += algorithm(d, a, charts);
    s += fmt::format(
        "<h2 id=\"reading\">How to read the charts</h2>\n<ul>\n"
        "<li><b>Trade-off</b> (one chart per variant; machines overlaid in their colours): x = bytes per FPU section; "
        "left axis = the "
        "section's time at {} (core cycles / {}), right axis = throughput against no limit (p50 line: B·n / (A + "
        "B·n)). The solid line "
        "is the {} fit with its 95 % band, scaled at each size to the points measured near it (their scatter is the "
        "band there); <code>recommend</code> uses the band's upper edge. The dashed line is the "
        "p50 fit. Open "
        "circles: measured p50; dots: measured {} on the sections the bound was fitted on (at most 50 µs); crosses: "
        "longer sections, "
        "where a host's interruptions dominate. The orange-red (vermillion) horizontal line is the budget (dashed: "
        "the budget / margin); the vertical lines are the recommended limit per machine, in its colour, "
        "and upstream's constant (dark grey, dashed); the shaded vertical band around a limit is its interval (where "
        "the bound "
        "line meets the budget, and how far that moves between the sweep's rounds; the limit is its low end).</li>\n"
        "<li><b>Threshold</b>: the one-shot cost of one call (init + update + final, the FPU state save and restore "
        "included for "
        "SIMD paths) against input length, per path; the dirty state the limits use is solid, others dashed. The "
        "crossover is where "
        "the SIMD path starts to win for every longer input measured (orange-red, dash-dotted); upstream's threshold "
        "in "
        "dark grey, dashed.</li>\n"
        "<li><b>Machines</b>: the cost of the user-state save and restore that a section's first "
        "<code>kernel_fpu_begin()</code> "
        "pays, by how much state the user had dirtied.</li>\n</ul>\n",
        esc(format_frequency(o.question.min_freq_hz)), esc(format_frequency(o.question.min_freq_hz)),
        esc(o.question.quantile), esc(o.question.quantile));
    s += "</body>\n</html>\n";
    return s;
}

}  // namespace fputune::cli
