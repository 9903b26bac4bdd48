// SPDX-License-Identifier: MIT
// `recommend`'s table.
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "render.hpp"
#include "units.hpp"

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

}  // namespace

std::string render_table(const Recommendation& r) {
    const RecommendOptions& o = r.options;
    const bool many = r.machines.size() > 1;
    std::string out;
    out += fmt::format(
        "fputune {} ({}) recommend: budget {} per FPU section at {} minimum, margin {} (limit fits {}), "
        "{} cache, dirty {}, rounding {}, bound {}, contention {}\n",
        r.tool_version, r.tool_commit, format_duration(o.question.budget_s), format_frequency(o.question.min_freq_hz),
        format_margin(o.question.margin), format_duration(effective_budget_s(o.question)), name(o.question.cache), r.dirty_label(), name(o.round),
        name(o.question.quantile), o.question.contention);
    for (std::size_t i = 0; i < r.machines.size(); ++i) {
        const auto& m = r.machines[i];
        out += fmt::format("machine{}: {} ({} {}{}, core/TSC {:.3f})\n", many ? fmt::format(" [{}]", i + 1) : "",
                           m.machine, m.kind, m.source, m.date.empty() ? "" : ", " + m.date, m.core_per_tsc);
    }
    auto machine_ref = [&](const std::string& name) -> std::string {
        for (std::size_t i = 0; i < r.machines.size(); ++i)
            if (r.machines[i].machine == name) return fmt::format("[{}]", i + 1);
        return name;
    };
    out += "\n";
    const std::string tcol = "time@" + format_frequency(o.question.min_freq_hz);
    // Series (an AAD part, N sources, the warm-up state) have longer names than kernels.
    std::size_t kw = 22, aw = 11;
    for (const auto& row : r.variants) kw = std::max(kw, row.bound.kernel.size());
    for (const auto& a : r.algorithms) aw = std::max(aw, a.algorithm.size());
    out +=
        fmt::format("{:<{}} {:<5} {:>20} {:>19} {:>11} {:>6} {:>9} {:>17} {:>14}{}\n", "kernel", kw, "cache", "limit",
                    "interval", tcol, "cost", "upstream", "upstream time", "simd min", many ? "  bound by" : "");
    for (const auto& row : r.variants) {
        const VariantResult& v = row.bound;
        const std::string by = many ? "  " + machine_ref(v.machine) : "";
        if (!v.fits) {
            out +=
                fmt::format("{:<{}} {:<5} {}{}\n", v.kernel, kw, name(v.cache), no_fit_message(v, o.question.min_freq_hz), by);
            for (const auto& n : v.notes) out += fmt::format("{:<{}}   note: {}\n", "", kw, n);
            continue;
        }
        out += fmt::format(
            "{:<{}} {:<5} {:>20} {:>19} {:>11} {:>5.1f}% {:>9} {:>17} {:>14}{}\n", v.kernel, kw, name(v.cache),
            fmt::format("{} B ({})", v.bytes, format_size(v.bytes)),
            fmt::format("{:.0f}..{:.0f} B{}", v.interval_lo_bytes, v.interval_hi_bytes, v.rounds ? "" : "*"),
            format_duration(v.time_s), 100 * v.throughput_cost,
            upstream_text(v.upstream_bytes, v.upstream_known, v.upstream_judged_at),
            upstream_time_text(v.upstream_time_s, v.upstream_known, v.upstream_pass), threshold_text(v.threshold), by);
        for (const auto& n : v.notes) out += fmt::format("{:<{}}   note: {}\n", "", kw, n);
    }
    if (o.per_algorithm == PerAlgorithm::selected)
        out += "\nper algorithm (--per-algorithm selected: the variant the kernel selects on " +
               std::string(many ? "each machine, the smallest across machines" : "this machine") + "):\n";
    else
        out += "\nper algorithm (the smallest limit across its variants" + std::string(many ? " and machines" : "") +
               "):\n";
    out += fmt::format("{:<{}} {:>20} {:>11} {:>9} {:>17} {:>14}  {}\n", "algorithm", aw, "limit", tcol, "upstream",
                       "upstream time", "simd min", "bound by");
    for (const auto& a : r.algorithms) {
        const std::string by = a.kernel + (many ? " on " + machine_ref(a.machine) : "");
        const std::string thr = threshold_text(a.threshold);
        if (!a.fits) {
            out += fmt::format("{:<{}} no size fits: one block of {} takes {} at {}  ({})\n", a.algorithm, aw, a.kernel,
                               format_duration(a.one_block_s), format_frequency(o.question.min_freq_hz), by);
            continue;
        }
        out += fmt::format("{:<{}} {:>20} {:>11} {:>9} {:>17} {:>14}  {}\n", a.algorithm, aw,
                           fmt::format("{} B ({})", a.bytes, format_size(a.bytes)), format_duration(a.time_s),
                           upstream_text(a.upstream_bytes, a.upstream_known, a.upstream_judged_at),
                           upstream_time_text(a.upstream_time_s, a.upstream_known, a.upstream_pass), thr, by);
        if (o.per_algorithm == PerAlgorithm::selected && !a.selection_note.empty())
            out += fmt::format("{:<{}}   note: {}\n", "", aw, a.selection_note);
    }
    if (!r.stripes.empty()) {
        out += fmt::format(
            "\nmulti-source kernels: the most disks (data + P + Q) or sources one section may cover at 4 KiB per disk "
            "or "
            "source (md's stripe){}; upstream has no cap on them:\n",
            many ? " and machines" : "");
        out += fmt::format("{:<{}} {:>12} {:>11} {:>11}  {}\n", "kernel", kw, "most", tcol, "measured",
                           "upstream (md, 4 KiB stripes)");
        auto stripe_line = [&](const std::string& label, const StripeResult& x, const std::string& by) {
            const std::string unit = x.unit.word;
            if (!x.max_sources)
                return fmt::format("{:<{}} none: one source of {} B takes {} at {}{}\n", label, kw, x.stripe_bytes,
                                   format_duration(x.one_source_s), format_frequency(o.question.min_freq_hz), by);
            std::string most = fmt::format("{} {}", x.count(), unit);
            if (x.cap && x.max_sources >= x.cap)
                most += "*";
            else if (x.extrapolated)
                most += "~";
            const std::string measured = fmt::format("{}..{} src", x.measured_min, x.measured_max);
            const std::string up = x.cap && x.max_sources >= x.cap ? "PASS at every count the kernel takes"
                                                                   : fmt::format("OVER above {} {}", x.count(), unit);
            return fmt::format("{:<{}} {:>12} {:>11} {:>11}  {}{}\n", label, kw, most, format_duration(x.time_s),
                               measured, up, by);
        };
        for (const StripeRow& row : r.stripes)
            out += stripe_line(row.bound.kernel, row.bound, many ? "  " + machine_ref(row.bound.machine) : "");
        for (const StripeResult& a : r.stripe_algorithms) out += stripe_line(a.algorithm, a, "  bound by " + a.kernel);
        out +=
            "(most: linear in the number of sources between and beyond the ones measured; ~ beyond them, * every count "
            "the kernel takes)\n";
    }
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
    const char* whole = o.round == Round::block ? "blocks"
                        : o.round == Round::kib ? "KiB (and blocks)"
                                                : "blocks, a power of two";
    out += fmt::format(
               "\nlimit: largest section in whole {} whose predicted time (upper 95 % bound of the {} fit, "
               "core cycles = ticks x core/TSC) at the minimum frequency ",
               whole, name(o.question.quantile)) +
           fmt::format(
               "fits budget / margin, at most the {} end of its interval; interval: the sizes at which the bound "
               "line meets the budget, its 95 % band widened by the spread between the sweep's rounds (* = the band "
               "alone: the input has no rounds); cost: throughput lost against no limit ",
               o.emit == Emit::central ? "central estimate, not the low" : "low (conservative)") +
           "(A / (A + B n), p50 fit); simd min: shortest input from which the SIMD path beats the no-FPU one\n";
    out += render_thresholds_upstream(r);
    for (const auto& n : r.notes) out += "note: " + n + "\n";
    return out;
}

}  // namespace fputune
