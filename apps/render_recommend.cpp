// SPDX-License-Identifier: MIT
// `recommend`'s table.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "render.hpp"
#include "units.hpp"
#include "upstream.hpp"

namespace fputune {

namespace {

std::string threshold_text(const std::optional<SimdThreshold>& t) {
    if (!t) return "-";
    if (t->kind == ThresholdKind::never) return fmt::format("never (<= {} B)", t->measured_to);
    if (t->kind == ThresholdKind::always) return fmt::format("always ({} B)", t->bytes);
    return fmt::format("{} B", t->bytes);
}

std::string upstream_text(const std::optional<std::uint64_t>& bytes, bool known,
                          const std::optional<std::uint64_t>& judged_at = {}) {
    if (!known) return "-";
    if (!bytes && judged_at) return fmt::format("none@{}", *judged_at);  // uncapped, judged at a message or stripe size
    return bytes ? fmt::format("{} B", *bytes) : "none";
}

std::string upstream_time_text(double s, bool known, bool pass) {
    if (!known) return "-";
    if (std::isinf(s)) return "unbounded OVER";
    return fmt::format("{} {}", format_duration(s), pass ? "PASS" : "OVER");
}

// Our thresholds against upstream's, each with what it is made of (see thresholds.hpp).
std::string render_thresholds_upstream(const Recommendation& r) {
    bool any = false;
    for (const auto& a : r.algorithms) any |= a.threshold.has_value();
    if (!any) return "";
    const bool many = r.machines.size() > 1;
    std::string out = fmt::format(
        "\nSIMD thresholds against upstream's (p50 one-shot cost, core cycles; the state save {}):\n", r.save_label());
    out += fmt::format("{:<11} {:>9} {:>14} {:>14} {:>14} {:>7} {:>7} {:>7}  {:>10}  {}\n", "algorithm", "upstream",
                       "ours", "every pays", "none pays", "save", "setup", "gap c/B", "lines' b-e", "variant");
    for (const auto& a : r.algorithms) {
        if (!a.threshold) continue;
        std::string save = "-", setup = "-", gap = "-", be = "-";
        if (a.threshold_parts) {
            const ThresholdParts& p = *a.threshold_parts;
            save = fmt::format("{:.0f}", p.save_cycles);
            setup = fmt::format("{:.0f}", p.setup_cycles);
            gap = fmt::format("{:.2f}", p.gap_cycles_per_byte);
            be = std::isfinite(p.break_even_bytes) ? fmt::format("{:.0f} B", p.break_even_bytes) : "never";
        }
        const std::string up = a.upstream_simd_min.empty()     ? "-"
                               : a.upstream_simd_min == "none" ? "none"
                                                               : a.upstream_simd_min + " B";
        out += fmt::format("{:<11} {:>9} {:>14} {:>14} {:>14} {:>7} {:>7} {:>7}  {:>10}  {} ({} dirty{})\n",
                           a.algorithm, up, threshold_text(a.threshold), threshold_text(a.threshold_every),
                           threshold_text(a.threshold_none), save, setup, gap, be, a.threshold->kernel,
                           name(a.threshold->dirty), many ? ", " + a.threshold_machine : "");
    }
    out +=
        "save: the dirty state's save + restore one one-shot pays (threshold points minus the unsaved ones, else the "
        "XSAVE "
        "probe); setup: the SIMD one-shot's fixed cost over the no-FPU one's, save left out (key powers, tails, the "
        "reduction); gap: cycles per byte the SIMD path saves; lines' b-e: (setup + save / N) / gap from straight "
        "lines "
        "through the curves from 64 B, which explains the threshold read from the curve (ours)\n";
    return out;
}

// Which version's upstream the columns hold, and each algorithm's row: its file and what says so.
std::string render_upstream_sources(const Recommendation& r) {
    const std::string version = resolve_linux_version(r.options.linux_version);
    std::string out;
    for (const auto& a : r.algorithms)
        if (a.upstream_known && !a.upstream_cited.empty())
            out += fmt::format("  {}: {}\n", a.algorithm, a.upstream_cited);
    return fmt::format("\nupstream columns: Linux {} (--linux {}){}\n", version, upstream_versions_text(),
                       out.empty() ? ": no algorithm here has a row" : "") +
           out;
}


// The fit-shape notes ("p50 fit: not a straight line: 23% off at 64 B (...)"): kept on their variant's line with
// --verbose, else summarised in one line per algorithm.
struct ShapeNotes {
    std::size_t variants = 0;
    int pct_lo = 0, pct_hi = 0;
    std::uint64_t bytes_lo = 0, bytes_hi = 0;
};

bool shape_note(const std::string& note, int& pct, std::uint64_t& bytes) {
    unsigned long long b = 0;
    return std::sscanf(note.c_str(), "p50 fit: not a straight line: %d%% off at %llu B", &pct, &b) == 2 &&
           (bytes = b, true);
}

std::string render_shape_summary(const Recommendation& r) {
    std::vector<std::pair<std::string, ShapeNotes>> per_algorithm;
    for (const auto& row : r.variants)
        for (const auto& n : row.bound.notes) {
            int pct = 0;
            std::uint64_t bytes = 0;
            if (!shape_note(n, pct, bytes)) continue;
            auto it = std::find_if(per_algorithm.begin(), per_algorithm.end(),
                                   [&](const auto& x) { return x.first == row.bound.algorithm; });
            if (it == per_algorithm.end()) {
                per_algorithm.push_back({row.bound.algorithm, {0, pct, pct, bytes, bytes}});
                it = per_algorithm.end() - 1;
            }
            ShapeNotes& s = it->second;
            ++s.variants;
            s.pct_lo = std::min(s.pct_lo, pct), s.pct_hi = std::max(s.pct_hi, pct);
            s.bytes_lo = std::min(s.bytes_lo, bytes), s.bytes_hi = std::max(s.bytes_hi, bytes);
        }
    if (per_algorithm.empty()) return "";
    std::string out = "\np50 line not straight (the median line bends; the limits use the bound line near the limit, "
                      "--verbose names each variant):\n";
    for (const auto& [alg, s] : per_algorithm) {
        const std::string pct = s.pct_lo == s.pct_hi ? fmt::format("{}", s.pct_hi)
                                                     : fmt::format("{}-{}", s.pct_lo, s.pct_hi);
        const std::string at = s.bytes_lo == s.bytes_hi ? fmt::format("{} B", s.bytes_lo)
                                                        : fmt::format("{}..{} B", s.bytes_lo, s.bytes_hi);
        out += fmt::format("  {}: {} variant{}, {} % off at {}\n", alg, s.variants, s.variants == 1 ? "" : "s", pct,
                           at);
    }
    return out;
}

std::string render_title(const Recommendation& r) {
    const RecommendOptions& o = r.options;
    const bool many = r.machines.size() > 1;
    std::string out = fmt::format(
        "fputune {} ({}) recommend: budget {} per FPU section at {} minimum, margin {} (limit fits {}), "
        "{} cache, dirty {}, rounding {}, bound {}, contention {}\n",
        r.tool_version, r.tool_commit, format_duration(o.question.budget_s), format_frequency(o.question.min_freq_hz),
        format_margin(o.question.margin), format_duration(effective_budget_s(o.question)), name(o.question.cache), r.dirty_label(), name(o.round),
        name(o.question.quantile), o.question.contention);
    for (std::size_t i = 0; i < r.machines.size(); ++i) {
        const auto& m = r.machines[i];
        out += fmt::format("machine{}: {} ({} {}{}, core/TSC {:.3f})\n", many ? fmt::format(" [{}]", i + 1) : "",
                           m.machine, m.kind, m.source, m.date.empty() ? "" : ", " + m.date, m.core_per_tsc);
        if (!m.closed_loop.empty()) out += "  " + m.closed_loop + "\n";
    }
    return out;
}

std::string machine_ref(const Recommendation& r, const std::string& name) {
    for (std::size_t i = 0; i < r.machines.size(); ++i)
        if (r.machines[i].machine == name) return fmt::format("[{}]", i + 1);
    return name;
}

std::string limit_text(const AlgorithmRow& a) {
    return a.fits ? fmt::format("{} B ({})", a.bytes, format_size(a.bytes)) : std::string("no size fits");
}

// Per algorithm the constant to paste, first: bound by the slowest variant and by the variant the kernel selects
// on the machines swept, each labelled, the one --header writes marked, and how to choose.
std::string render_algorithms(const Recommendation& r, const Recommendation* other) {
    const RecommendOptions& o = r.options;
    const bool many = r.machines.size() > 1;
    const bool slowest = o.per_algorithm == PerAlgorithm::slowest;
    const Recommendation* s = slowest ? &r : other;
    const Recommendation* k = slowest ? other : &r;
    std::size_t aw = 11;
    for (const auto& a : r.algorithms) aw = std::max(aw, a.algorithm.size());
    const std::string tcol = "time@" + format_frequency(o.question.min_freq_hz);
    std::string out = fmt::format(
        "\nper algorithm: the constants to paste (FPUTUNE_<ALGORITHM>_FPU_BYTES; * = what --header writes, "
        "--per-algorithm {}):\n",
        slowest ? "slowest" : "selected");
    out += fmt::format("{:<{}} {:<40} {:<44} {:>11} {:>9} {:>17} {:>14}\n", "algorithm", aw,
                       std::string("slowest variant") + (slowest ? " *" : ""),
                       std::string(many ? "the kernel's choice on each CPU swept" : "the kernel's choice on the CPU swept") +
                           (slowest ? "" : " *"),
                       tcol, "upstream", "upstream time",
                       fmt::format("simd min{}", o.dirty == Dirty::none ? "" : fmt::format(" (1/{})", o.save_every)));
    auto find = [](const Recommendation* x, const std::string& alg) -> const AlgorithmRow* {
        if (!x) return nullptr;
        for (const auto& a : x->algorithms)
            if (a.algorithm == alg) return &a;
        return nullptr;
    };
    for (const auto& a : r.algorithms) {
        const AlgorithmRow* as = find(s, a.algorithm);
        const AlgorithmRow* ak = find(k, a.algorithm);
        auto cell = [&](const AlgorithmRow* x, bool kernels_choice) -> std::string {
            if (!x) return "-";
            if (kernels_choice && x->policy != PerAlgorithm::selected) return "unknown (see note)";
            return limit_text(*x) + " " + x->kernel + (many ? " on " + machine_ref(r, x->machine) : "");
        };
        out += fmt::format("{:<{}} {:<40} {:<44} {:>11} {:>9} {:>17} {:>14}\n", a.algorithm, aw, cell(as, false),
                           cell(ak, true), a.fits ? format_duration(a.time_s) : "-",
                           upstream_text(a.upstream_bytes, a.upstream_known, a.upstream_judged_at),
                           upstream_time_text(a.upstream_time_s, a.upstream_known, a.upstream_pass),
                           threshold_text(a.threshold));
        if (ak && ak->policy != PerAlgorithm::selected && !ak->selection_note.empty())
            out += fmt::format("{:<{}}   note: {}\n", "", aw, ak->selection_note);
    }
    out +=
        "how to choose: --per-algorithm slowest (the default) bounds each constant by its slowest variant, for\n"
        "  kernel source that reaches CPUs nobody swept; --per-algorithm selected bounds it by the variant the\n"
        "  kernel runs on the machines swept, when those are the machines you ship for\n";
    return out;
}

std::string render_variants(const Recommendation& r, bool verbose) {
    const RecommendOptions& o = r.options;
    const bool many = r.machines.size() > 1;
    const std::string tcol = "time@" + format_frequency(o.question.min_freq_hz);
    // Series (an AAD part, N sources, the warm-up state) have longer names than kernels.
    std::size_t kw = 22;
    for (const auto& row : r.variants) kw = std::max(kw, row.bound.kernel.size());
    std::string out = "\nper variant (FPUTUNE_<KERNEL>_FPU_BYTES):\n";
    out += fmt::format("{:<{}} {:<5} {:>20} {:>19} {:>11} {:>6} {:>9} {:>17} {:>14}{}\n", "kernel", kw, "cache",
                       "limit", "interval", tcol, "cost", "upstream", "upstream time",
                       fmt::format("simd min{}", o.dirty == Dirty::none ? "" : fmt::format(" (1/{})", o.save_every)),
                       many ? "  bound by" : "");
    auto notes = [&](const VariantResult& v) {
        std::string n;
        for (const auto& x : v.notes) {
            int pct = 0;
            std::uint64_t bytes = 0;
            if (verbose || !shape_note(x, pct, bytes)) n += fmt::format("{:<{}}   note: {}\n", "", kw, x);
        }
        return n;
    };
    for (const auto& row : r.variants) {
        const VariantResult& v = row.bound;
        const std::string by = many ? "  " + machine_ref(r, v.machine) : "";
        if (!v.fits) {
            out +=
                fmt::format("{:<{}} {:<5} {}{}\n", v.kernel, kw, name(v.cache), no_fit_message(v, o.question.min_freq_hz), by);
            out += notes(v);
            continue;
        }
        out += fmt::format(
            "{:<{}} {:<5} {:>20} {:>19} {:>11} {:>5.1f}% {:>9} {:>17} {:>14}{}\n", v.kernel, kw, name(v.cache),
            fmt::format("{} B ({})", v.bytes, format_size(v.bytes)),
            fmt::format("{:.0f}..{:.0f} B{}", v.interval_lo_bytes, v.interval_hi_bytes, v.rounds ? "" : "*"),
            format_duration(v.time_s), 100 * v.throughput_cost,
            upstream_text(v.upstream_bytes, v.upstream_known, v.upstream_judged_at),
            upstream_time_text(v.upstream_time_s, v.upstream_known, v.upstream_pass), threshold_text(v.threshold), by);
        out += notes(v);
    }
    if (!verbose) out += render_shape_summary(r);
    return out;
}

}  // namespace

namespace {

// The multi-source kernels' heading, in the units present: RAID's disks (data + P + Q) or sources at md's 4 KiB
// stripe per disk or source, a multi-message hash's messages of 4 KiB each.
std::string stripes_intro(const Recommendation& r, bool many) {
    bool raid = false, messages = false;
    for (const StripeRow& row : r.stripes) (row.bound.unit.raid() ? raid : messages) = true;
    std::vector<std::string> most, each;
    if (raid) most.push_back("disks (data + P + Q) or sources"), each.push_back("disk or source (md's stripe)");
    if (messages) most.push_back("messages (hashed side by side)"), each.push_back("message");
    return fmt::format("\nmulti-source kernels: the most {} one section may cover at 4 KiB per {}{}; upstream has no "
                       "cap on them:\n",
                       fmt::join(most, ", or "), fmt::join(each, ", or "), many ? " and machines" : "");
}

}  // namespace

// The multi-source kernels: the most disks or sources one section may cover, and what measured it.
std::string render_stripes(const Recommendation& r) {
    const RecommendOptions& o = r.options;
    const bool many = r.machines.size() > 1;
    std::size_t kw = 22;
    for (const auto& row : r.variants) kw = std::max(kw, row.bound.kernel.size());
    const std::string tcol = "time@" + format_frequency(o.question.min_freq_hz);
    auto machine_ref = [&](const std::string& name) { return fputune::machine_ref(r, name); };
    std::string out;
    if (!r.stripes.empty()) {
        out += stripes_intro(r, many);
        const bool raid = std::any_of(r.stripes.begin(), r.stripes.end(),
                                      [](const StripeRow& row) { return row.bound.unit.raid(); });
        out += fmt::format("{:<{}} {:>12} {:>11} {:>11}  {}\n", "kernel", kw, "most", tcol, "measured",
                           raid ? "upstream (md, 4 KiB stripes)" : "upstream");
        auto stripe_line = [&](const std::string& label, const StripeResult& x, const std::string& by) {
            const std::string unit = x.unit.word;
            // The measured counts are of sources (a RAID6 count adds P and Q), or of messages.
            const std::string measured_word = x.unit.raid() ? "sources" : unit;
            const std::string abbrev = x.unit.raid() ? "src" : "msg";
            if (x.below_measured)
                return fmt::format("{:<{}} none: fewer than the {} {} measured fit{}\n", label, kw, x.measured_min,
                                   measured_word, by);
            if (!x.max_sources)
                return fmt::format("{:<{}} none: one {} of {} B takes {} at {}{}\n", label, kw,
                                   measured_word.substr(0, measured_word.size() - 1), x.stripe_bytes,
                                   format_duration(x.one_source_s), format_frequency(o.question.min_freq_hz), by);
            std::string most = fmt::format("{} {}", x.count(), unit);
            if (x.cap && x.max_sources >= x.cap)
                most += "*";
            else if (x.capped)
                most += "^";
            // The measured N's around the answer.
            const std::string measured = x.fits_measured == x.max_sources || !x.over_measured
                                             ? fmt::format("at {} {}", x.fits_measured, abbrev)
                                             : fmt::format("{}..{} {}", x.fits_measured, x.over_measured, abbrev);
            const std::string up = x.cap && x.max_sources >= x.cap ? "PASS at every count the kernel takes"
                                   : x.capped ? fmt::format("OVER somewhere above {} {} (not measured)", x.count(), unit)
                                              : fmt::format("OVER above {} {}", x.count(), unit);
            return fmt::format("{:<{}} {:>12} {:>11} {:>11}  {}{}\n", label, kw, most, format_duration(x.time_s),
                               measured, up, by);
        };
        for (const StripeRow& row : r.stripes)
            out += stripe_line(row.bound.kernel, row.bound, many ? "  " + machine_ref(row.bound.machine) : "");
        for (const StripeResult& a : r.stripe_algorithms) out += stripe_line(a.algorithm, a, "  bound by " + a.kernel);
        out += fmt::format(
            "(most: linear in the number of {} between the ones measured, never beyond them; measured: the counts "
            "around it; ^ capped at the largest measured, * every count the kernel takes)\n",
            raid ? "sources" : "messages");
    }
    return out;
}

// Upstream as judged here: one line per upstream row, with its source.
std::string render_upstream_because(const Recommendation& r) {
    std::string out;
    bool any_because = false;
    for (const auto& a : r.algorithms) any_because |= !a.upstream_because.empty();
    if (any_because) {
        out += "\nupstream, as judged here (data/reference/linux-x86-sections.csv):\n";
        // One line per upstream row: a multi-source kernel's series (raid6.x4, raid6.x8, ...) share theirs.
        std::vector<std::pair<std::string, std::string>> rows;  // (algorithms, why)
        for (const auto& a : r.algorithms) {
            if (a.upstream_because.empty()) continue;
            const std::string why = a.upstream_because + " (" + a.upstream_source + ")";
            auto it = std::find_if(rows.begin(), rows.end(), [&](const auto& row) { return row.second == why; });
            if (it == rows.end())
                rows.emplace_back(a.algorithm, why);
            else
                it->first += ", " + a.algorithm;
        }
        for (const auto& [algs, why] : rows) out += fmt::format("  {}: {}\n", algs, why);
    }
    return out;
}

// Several sweeps of one CPU: how far its limits moved between them (Recommendation::repeats).
std::string render_repeats(const Recommendation& r) {
    std::string out;
    for (const RepeatSpread& rep : r.repeats) {
        std::string refs;
        for (const std::string& src : rep.sources)
            for (std::size_t i = 0; i < r.machines.size(); ++i)
                if (r.machines[i].source == src) refs += fmt::format("{}[{}]", refs.empty() ? "" : " ", i + 1);
        out += fmt::format("\nsweeps of one CPU ({}: {}); the limits above are the smallest of each:\n", rep.machine,
                           refs);
        if (rep.variants == 0) {
            out += "  no limit fits in every one of them\n";
            continue;
        }
        out += fmt::format(
            "  each limit moved by {:.1f} % at the median (largest / smallest - 1): {} of {} within {:.0f} %, {} "
            "within it or one block\n",
            100 * rep.median_spread, rep.within, rep.variants, 100 * kRepeatWithin, rep.within_block);
        for (const RepeatSpread::Widest& w : rep.widest) {
            const std::string block =
                w.one_block() ? fmt::format(", one block of {} B", w.block_bytes) : "";
            out += fmt::format("  moved most: {} {} {}..{} B ({:+.0f} %{})\n", w.kernel, name(w.cache), w.smallest,
                               w.largest, 100 * w.spread(), block);
        }
    }
    return out;
}

std::string render_table(const Recommendation& r, const RecommendView& view) {
    const RecommendOptions& o = r.options;
    std::string out = render_title(r);
    out += render_algorithms(r, view.other_policy);
    out += render_variants(r, view.verbose);
    out += render_repeats(r);
    out += render_stripes(r);
    out += render_upstream_sources(r);
    out += render_upstream_because(r);
    const char* whole = o.round == Round::block ? "blocks"
                        : o.round == Round::kib ? "KiB (and blocks)"
                                                : "blocks, a power of two";
    out += fmt::format(
               "\nlimit: largest section in whole {} whose predicted time (upper 95 % bound of the {} fit scaled to "
               "the points near that size, core cycles = ticks x core/TSC) at the minimum frequency ",
               whole, name(o.question.quantile)) +
           fmt::format(
               "fits budget / margin, at most the {} end of its interval (rounded down, so it may lie below that end); "
               "interval: the sizes at which the bound "
               "line meets the budget, its 95 % band (the near points' scatter about it) widened by the spread between "
               "the sweep's rounds (* = the band "
               "alone: the input has no rounds); cost: throughput lost against no limit ",
               o.emit == Emit::central ? "central estimate, not the low" : "low (conservative)") +
           "(A / (A + B n), p50 fit); simd min: shortest input from which the SIMD path beats the no-FPU one\n";
    out += render_thresholds_upstream(r);
    for (const auto& n : r.notes) out += "note: " + n + "\n";
    if (const std::string tail = softirq_tail_note(o.linux_version); !tail.empty()) out += "note: " + tail + "\n";
    return out;
}

}  // namespace fputune
