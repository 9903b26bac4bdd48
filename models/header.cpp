// SPDX-License-Identifier: MIT
// Emits the recommendation as a header kernel code can include: GPL-2.0 SPDX (what kernel headers
// carry), /* */ comments only, U-suffixed constants, an include guard, and where the numbers came from.
#include "header.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string_view>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "contention.hpp"
#include "errors.hpp"
#include "units.hpp"

namespace fputune {

namespace {

// Text inside a /* */ comment must not close it.
std::string comment_safe(std::string s) {
    for (std::size_t i = 0; (i = s.find("*/", i)) != std::string::npos;) s.replace(i, 2, "* /");
    return s;
}

// A series' macros (an AAD part, N disks of a multi-source kernel) are named by its stems (series_stem).
std::string variant_macro_of(const VariantResult& v) {
    return v.stem.empty() ? variant_macro(v.kernel) : fpu_bytes_macro(v.stem);
}
std::string algorithm_macro_of(const AlgorithmRow& a) {
    return a.stem.empty() ? algorithm_macro(a.algorithm) : fpu_bytes_macro(a.stem);
}

// Two names that differ only in what a macro cannot spell ("sha256-avx2", "sha256.avx2") would define
// one macro twice, and C would keep the later, perhaps looser, value: refused, naming both.
void refuse_macro_collisions(const Recommendation& r) {
    std::map<std::string, std::string> owner;  // macro -> what it is for
    auto claim = [&](const std::string& macro, const std::string& what) {
        auto [it, fresh] = owner.emplace(macro, what);
        if (!fresh && it->second != what)
            throw InputError(
                fmt::format("the header would define {} twice: for {} and for {}; their names differ only in "
                            "punctuation. Rename one in its input file, or leave one out with -k",
                            macro, it->second, what));
    };
    auto from = [&](const std::string& kernel) {
        for (const auto& row : r.variants)
            if (row.bound.kernel == kernel) return " (from " + row.bound.source + ")";
        return std::string();
    };
    for (const auto& row : r.variants)
        claim(variant_macro_of(row.bound), "kernel '" + row.bound.kernel + "'" + from(row.bound.kernel));
    for (const auto& a : r.algorithms) {
        const std::string macro = algorithm_macro_of(a);
        // A kernel named like its algorithm (crc32c) shares the macro with it on purpose.
        const auto it = owner.find(macro);
        if (it == owner.end() || it->second != "kernel '" + a.algorithm + "'" + from(a.algorithm))
            claim(macro, "algorithm '" + a.algorithm + "'" + from(a.kernel));
    }
    for (const auto& a : r.algorithms)
        claim(threshold_macro(a.algorithm), "the threshold of algorithm '" + a.algorithm + "'" + from(a.kernel));
}

// An input's own provenance under its CPU line: its Linux, the doctor's verdict, the fputune that swept.
std::string input_provenance(const MachineInfo& m) {
    std::string what;
    auto add = [&](const std::string& part) { what += (what.empty() ? "" : ", ") + part; };
    if (!m.kernel_release.empty()) add("Linux " + m.kernel_release);
    if (!m.doctor.empty()) add("doctor " + m.doctor);
    if (!m.tool_version.empty())
        add("fputune " + m.tool_version + (m.tool_commit.empty() ? "" : " (" + m.tool_commit + ")"));
    std::string out = what.empty() ? "" : fmt::format(" * {:<15}{}\n", "", what);
    if (!m.closed_loop.empty()) out += fmt::format(" * {:<15}{}\n", "", m.closed_loop);
    if (m.memory_p50_ticks > 0 && m.tsc_hz > 0) out += header_memory_line(m.memory_p50_ticks, m.memory_bytes, m.tsc_hz);
    return out;
}

constexpr std::string_view kMemoryLineLead = "memory probe: a ";
constexpr std::string_view kMemoryLineMid = " KiB read in no cache took ";

}  // namespace

std::string header_memory_line(double p50_ticks, std::uint32_t bytes, double tsc_hz) {
    return fmt::format(" * {:<15}{}{}{}{:.1f} ns ({:.0f} TSC ticks) at the sweep's median\n", "", kMemoryLineLead,
                       bytes / 1024, kMemoryLineMid, 1e9 * p50_ticks / tsc_hz, p50_ticks);
}

std::optional<double> parse_header_memory_ns(const std::string& text) {
    std::optional<double> found;
    for (std::size_t at = text.find(kMemoryLineLead); at != std::string::npos;
         at = text.find(kMemoryLineLead, at + 1)) {
        const std::size_t mid = text.find(kMemoryLineMid, at);
        const std::size_t eol = text.find('\n', at);
        if (mid == std::string::npos || mid > eol) continue;
        const std::string rest = text.substr(mid + kMemoryLineMid.size(), eol - mid - kMemoryLineMid.size());
        char* end = nullptr;
        const double ns = std::strtod(rest.c_str(), &end);
        if (end == rest.c_str() || std::string_view(end).substr(0, 3) != " ns" || !(ns > 0) || !std::isfinite(ns))
            continue;
        if (found) return std::nullopt;  // several machines: no one figure to set a probe against
        found = ns;
    }
    return found;
}

namespace {

// Which contention each variant's bound assumes (models/contention.hpp), one line each: verify reads them.
std::string header_contention_lines(const Recommendation& r) {
    std::vector<HeaderContention> lines;
    bool any_known = false;
    for (const auto& row : r.variants) {
        const VariantResult& v = row.bound;
        const std::string cache(name(v.cache));
        if (std::any_of(lines.begin(), lines.end(),
                        [&](const HeaderContention& h) { return h.kernel == v.kernel && h.cache == cache; }))
            continue;
        const bool known = v.contention_known && v.contention_level >= 1;
        any_known = any_known || known;
        lines.push_back({v.kernel, cache, known, v.contention_level, v.contention_s, v.contention_s_lo,
                         v.contention_s_hi, v.contention_tail});
    }
    const std::string assumed = any_known ? r.options.question.contention : "";
    // A sweep that met c = 1 too seldom states its quiet bounds at its floor (quiet_level): say so.
    // A sweep that met c = 1 too seldom states its bounds no lower than its floor (quiet_level): say so where a
    // variant's level is above the one asked for (quiet, or a factor).
    const std::optional<ContentionTarget> target = parse_contention_target(assumed);
    const double asked = target && target->kind == ContentionTarget::Kind::quiet    ? 1
                         : target && target->kind == ContentionTarget::Kind::factor ? target->factor
                                                                                    : 0;
    const bool floored = asked >= 1 && std::any_of(lines.begin(), lines.end(), [asked](const HeaderContention& h) {
                             return h.known && h.level > asked + 0.005;
                         });
    return contention_comment(assumed, lines,
                              floored ? fmt::format("where a sweep's probes read c < {:.2f} in under a tenth, no bound "
                                                    "is stated below its p10 level,\n *                the level its "
                                                    "calmest tenth met (it was hardly ever quiet)",
                                                    kContendedLevel)
                                      : "");
}

// The limits that rounding down put below the low end of their own interval (as their comments print it), named
// once in plain words; "" when there is none.
std::string below_interval_comment(const Recommendation& r) {
    std::vector<std::string> names;
    for (const auto& row : r.variants) {
        const VariantResult& v = row.bound;
        const std::string macro = variant_macro_of(v);
        if (v.fits && static_cast<double>(v.bytes) < std::stod(fmt::format("{:.0f}", v.interval_lo_bytes)) &&
            std::find(names.begin(), names.end(), macro) == names.end())
            names.push_back(macro);
    }
    if (names.empty()) return "";
    const Round round = r.options.round;
    const char* whole = round == Round::block ? "whole blocks" : round == Round::kib ? "whole KiB" : "a power of two blocks";
    const bool one = names.size() == 1;
    std::string h = fmt::format(
        " *\n * A limit is rounded down to {}, its interval is not: rounding put {} below the low\n"
        " * end of {} interval. {} still the largest size that fits the budget:\n",
        whole, one ? "this limit" : fmt::format("these {} limits", names.size()), one ? "its" : "their",
        one ? "It is" : "Each is");
    std::string line = " *  ";
    for (std::size_t i = 0; i < names.size(); ++i) {
        const std::string item = " " + names[i] + (i + 1 < names.size() ? "," : "");
        if (line.size() + item.size() > 100) {
            h += line + "\n";
            line = " *  ";
        }
        line += item;
    }
    return h + line + "\n";
}

// The opening comment: where the numbers came from and how to make them again.
std::string provenance_comment(const Recommendation& r) {
    const RecommendOptions& o = r.options;
    const std::string freq = format_frequency(o.question.min_freq_hz);
    std::string h;
    h += "/* SPDX-License-Identifier: GPL-2.0 */\n";
    h += "/*\n * kernel_fpu_begin()/kernel_fpu_end() section limits, measured and generated by fputune.\n";
    h += " * Do not edit: regenerate with the command below.\n *\n";
    h += comment_safe(fmt::format(" * Tool:          fputune {} ({})\n", r.tool_version, r.tool_commit));
    for (std::size_t i = 0; i < r.machines.size(); ++i) {
        const auto& m = r.machines[i];
        const std::string label = r.machines.size() > 1 ? fmt::format("CPU [{}]:", i + 1) : "CPU:";
        h += comment_safe(fmt::format(" * {:<15}{} ({} {}{})\n", label, m.machine, m.kind, m.source,
                                      m.date.empty() ? "" : ", " + m.date));
        h += comment_safe(input_provenance(m));
    }
    h += comment_safe(fmt::format(" * Budget:        {} per section\n", format_duration(o.question.budget_s)));
    h += comment_safe(fmt::format(" * Min frequency: {}\n", freq));
    h += comment_safe(fmt::format(" * Margin:        {} (limits fit {})\n", format_margin(o.question.margin),
                                  format_duration(effective_budget_s(o.question))));
    std::string fallback;
    for (const auto& row : r.variants)
        if (row.bound.cache != o.question.cache) fallback += (fallback.empty() ? "" : " ") + row.bound.kernel;
    h += comment_safe(fmt::format(" * Cache:         {}{}\n", name(o.question.cache),
                                  fallback.empty() ? ""
                                                   : fmt::format(" ({} had no {} points: {} cache)", fallback,
                                                                 name(o.question.cache), name(other(o.question.cache)))));
    h += comment_safe(fmt::format(" * Dirty state:   {}\n", r.dirty_label()));
    h += comment_safe(fmt::format(" * Rounding:      {}\n", name(o.round)));
    h += comment_safe(header_contention_lines(r));
    h += comment_safe(fmt::format(" * Date:          {}\n", r.date));
    h +=
        comment_safe(fmt::format(" * Command:       {}\n", o.command_line.empty() ? "(library call)" : o.command_line));
    h += fmt::format(" *\n * Time per section: upper 95 % bound of the {} cost line, FPU state save included.\n",
                     o.question.quantile == Quantile::p99 ? "p99 (uninterrupted samples)" : "p90");
    h += fmt::format(
        " * Each limit is the {} of its interval (in the comment, bytes): where the bound line\n"
        " * (scaled to the points measured near the limit) meets the budget, widened by its 95 % band\n"
        " * there (those points' scatter about it) and the spread between the sweep's rounds.\n",
        o.emit == Emit::central ? "central estimate" : "low (conservative) end");
    return h + below_interval_comment(r) + " */\n";
}

// Per variant: the most bytes one section may process.
std::string variant_lines(const Recommendation& r) {
    const RecommendOptions& o = r.options;
    const std::string freq = format_frequency(o.question.min_freq_hz);
    std::string h;
    h += "/* Per variant: the most bytes one section may process. */\n";
    auto macro_of = [](const VariantResult& v) { return variant_macro_of(v); };
    for (const auto& row : r.variants) {
        const VariantResult& v = row.bound;
        std::string by = r.machines.size() > 1 ? ", " + v.machine : "";
        if (v.idle_s > 0) by += fmt::format(", first section after {} idle (ZMM warm-up)", format_duration(v.idle_s));
        if (!v.fits) {
            h += "/* " + comment_safe(fmt::format("{}: {}{}", macro_of(v), no_fit_message(v, o.question.min_freq_hz), by)) +
                 " */\n";
            continue;
        }
        h += fmt::format("#define {} {}U /* {} at {}, interval {:.0f}..{:.0f}, {:.1f}% throughput cost{} */\n",
                         macro_of(v), v.bytes, format_duration(v.time_s), freq, v.interval_lo_bytes,
                         v.interval_hi_bytes, 100 * v.throughput_cost, comment_safe(by));
    }
    return h;
}

// Per algorithm: its constant, bound by the variant and machine named.
std::string algorithm_lines(const Recommendation& r) {
    const RecommendOptions& o = r.options;
    const std::string freq = format_frequency(o.question.min_freq_hz);
    std::string h;
    if (o.per_algorithm == PerAlgorithm::selected)
        h += "\n/* Per algorithm (--per-algorithm selected): the variant the kernel selects on " +
             std::string(r.machines.size() > 1 ? "each CPU, the smallest across CPUs" : "this CPU") +
             "; where that is unknown, the smallest across its variants swept. */\n";
    else
        h += "\n/* Per algorithm (--per-algorithm slowest): the smallest across its variants swept" +
             std::string(r.machines.size() > 1 ? " and CPUs" : "") + ", the slowest standing in for older CPUs. */\n";
    for (const auto& a : r.algorithms) {
        const std::string by = a.kernel + (r.machines.size() > 1 ? " on " + a.machine : "");
        const std::string macro = algorithm_macro_of(a);
        // A kernel named like its algorithm (crc32c) already has this macro from the variant list.
        bool same_as_variant = false;
        for (const auto& row : r.variants) same_as_variant |= variant_macro_of(row.bound) == macro;
        if (same_as_variant) {
            h += fmt::format("/* {}: see above (the only variant) */\n", macro);
            continue;
        }
        if (!a.fits) {
            h += "/* " +
                 comment_safe(fmt::format("{}: no size fits: one block of {} takes {} at {}", macro, by,
                                          format_duration(a.one_block_s), freq)) +
                 " */\n";
            continue;
        }
        h += fmt::format("#define {} {}U /* {} at {}, bound by {}{} */\n", macro, a.bytes, format_duration(a.time_s),
                         freq, comment_safe(by),
                         o.per_algorithm != PerAlgorithm::selected ? ""
                         : a.policy == PerAlgorithm::selected      ? " (selected)"
                                                                   : " (slowest: the kernel's choice is unknown)");
    }
    return h;
}

// Multi-source kernels: the most disks (or sources) per section at 4 KiB stripes.
std::string stripe_lines(const Recommendation& r) {
    const std::string freq = format_frequency(r.options.question.min_freq_hz);
    std::string h;
    if (!r.stripes.empty()) {
        const bool raid = std::any_of(r.stripes.begin(), r.stripes.end(),
                                      [](const StripeRow& row) { return row.bound.unit.raid(); });
        const bool messages = std::any_of(r.stripes.begin(), r.stripes.end(),
                                          [](const StripeRow& row) { return !row.bound.unit.raid(); });
        h += fmt::format(
            "\n/* Multi-source kernels: the most {} one section may cover at {}, per variant and per\n"
            " * algorithm (the fewest across its variants){}. */\n",
            raid && messages ? "disks, sources or messages" : raid ? "disks (or sources)" : "messages (hashed side by side)",
            messages ? "4096 bytes each" : "4096-byte stripes",
            raid ? "; disks count the data disks and P and Q, as gen_syndrome() and md do" : "");
        auto line = [&](const StripeResult& s, const std::string& stem, const std::string& by) {
            const std::string counted = s.unit.raid() ? "sources" : s.unit.word;  // what the measured N's count
            if (s.below_measured)
                return "/* " +
                       comment_safe(fmt::format("{}: none, fewer than the smallest measured, {}, fit ({} "
                                                "{} by the line){}; sweep fewer {}",
                                                count_macro(stem), stripe_count_text(s, s.measured_min), s.below_measured,
                                                counted, by, counted)) +
                       " */\n";
            if (!s.max_sources)
                return "/* " +
                       comment_safe(fmt::format("{}: not even one {} of {} B fits: {} at {}{}", count_macro(stem),
                                                counted.substr(0, counted.size() - 1), s.stripe_bytes, format_duration(s.one_source_s), freq, by)) +
                       " */\n";
            std::string what = fmt::format("{} at {}{}", format_duration(s.time_s), freq, by);
            if (s.cap && s.max_sources >= s.cap)
                what += fmt::format(", every count the kernel takes ({} {})", s.cap, counted);
            else if (s.capped)
                what += ", capped at the largest measured, " + stripe_count_text(s, s.measured_max);
            else
                what += ", " + stripe_bracket_text(s);
            return fmt::format("#define {} {}U /* {} */\n", count_macro(stem), s.count(), comment_safe(what));
        };
        for (const StripeRow& row : r.stripes)
            h += line(row.bound, stripe_count_stem(row.bound.kernel, row.bound.unit, row.bound.stripe_bytes),
                      r.machines.size() > 1 ? ", " + row.bound.machine : "");
        for (const StripeResult& a : r.stripe_algorithms)
            h += line(a, stripe_count_stem(a.algorithm, a.unit, a.stripe_bytes),
                      ", bound by " + a.kernel + (r.machines.size() > 1 ? " on " + a.machine : ""));
    }
    return h;
}

// The SIMD thresholds.
std::string threshold_lines(const Recommendation& r) {
    std::string h;
    bool any_threshold = false;
    for (const auto& a : r.algorithms) any_threshold |= a.threshold.has_value();
    if (any_threshold) {
        h += "\n/* SIMD thresholds: shortest input from which the SIMD path (state save included) beats the no-FPU "
             "path. */\n";
        h += "/* " + comment_safe("The state save is " + r.save_label() + ".") + " */\n";
        for (const auto& a : r.algorithms) {
            if (!a.threshold) continue;
            const SimdThreshold& t = *a.threshold;
            const std::string what =
                fmt::format("{} vs {}, {} dirty{}{}", t.kernel, t.scalar_kernels, name(t.dirty),
                            t.save_every == 1 || t.dirty == Dirty::none ? ""
                            : t.save_every == kSaveNever                ? ", no save"
                                                                        : fmt::format(", save 1 in {}", t.save_every),
                            r.machines.size() > 1 ? ", " + a.threshold_machine : "");
            if (t.kind == ThresholdKind::never)
                h += "/* " +
                     comment_safe(fmt::format("{}: the SIMD path never won up to {} B ({})",
                                              threshold_macro(a.algorithm), t.measured_to, what)) +
                     " */\n";
            else
                h += fmt::format("#define {} {}U /* {}{} */\n", threshold_macro(a.algorithm), t.bytes,
                                 comment_safe(what), t.kind == ThresholdKind::always ? ": always" : "");
        }
    }
    return h;
}

}  // namespace

std::string render_header(const Recommendation& r, const std::string& path) {
    refuse_macro_collisions(r);
    std::string base = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
    const std::string guard = "_FPUTUNE_" + macro_stem(base.empty() ? "limits.h" : base);
    std::string h = provenance_comment(r);
    h += "#ifndef " + guard + "\n#define " + guard + "\n\n";
    h += variant_lines(r) + algorithm_lines(r) + stripe_lines(r) + threshold_lines(r);
    h += "\n#endif /* " + guard + " */\n";
    return h;
}

}  // namespace fputune
