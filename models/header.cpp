// SPDX-License-Identifier: MIT
// Emits the recommendation as a header kernel code can include: GPL-2.0 SPDX (what kernel headers
// carry), /* */ comments only, U-suffixed constants, an include guard, and where the numbers came from.
#include "header.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include <fmt/format.h>

#include "contention.hpp"
#include "errors.hpp"
#include "stripes.hpp"
#include "units.hpp"

namespace fputune {

std::string macro_stem(const std::string& name) {
    std::string s;
    for (char c : name)
        s += std::isalnum(static_cast<unsigned char>(c))
                 ? static_cast<char>(std::toupper(static_cast<unsigned char>(c)))
                 : '_';
    return s;
}
std::string variant_macro(const std::string& kernel) { return "FPUTUNE_" + macro_stem(kernel) + "_FPU_BYTES"; }
std::string algorithm_macro(const std::string& algorithm) { return "FPUTUNE_" + macro_stem(algorithm) + "_FPU_BYTES"; }
std::string threshold_macro(const std::string& algorithm) {
    return "FPUTUNE_" + macro_stem(algorithm) + "_SIMD_MIN_BYTES";
}

namespace {

std::string without_idle(const std::string& name) {
    const std::string suffix = ".idle";
    return name.size() > suffix.size() && name.ends_with(suffix) ? name.substr(0, name.size() - suffix.size()) : name;
}

std::string stripe_suffix(const KernelInfo& k) {
    const StripeUnit unit = stripe_unit(k);
    return fmt::format("_{}_{}", k.sources + unit.extra, macro_stem(unit.word));
}

}  // namespace

std::string series_stem(const KernelInfo& k) {
    if (k.sources) return macro_stem(k.kernel()) + stripe_suffix(k);
    return macro_stem(without_idle(k.name));
}

std::string series_algorithm_stem(const KernelInfo& k) {
    if (k.sources) return macro_stem(k.algorithm.substr(0, k.algorithm.find(".x"))) + stripe_suffix(k);
    return macro_stem(k.algorithm);
}

namespace {

// Text inside a /* */ comment must not close it.
std::string comment_safe(std::string s) {
    for (std::size_t i = 0; (i = s.find("*/", i)) != std::string::npos;) s.replace(i, 2, "* /");
    return s;
}

// A series' macros (an AAD part, N disks of a multi-source kernel) are named by its stems (series_stem).
std::string variant_macro_of(const VariantResult& v) {
    return v.stem.empty() ? variant_macro(v.kernel) : "FPUTUNE_" + v.stem + "_FPU_BYTES";
}
std::string algorithm_macro_of(const AlgorithmRow& a) {
    return a.stem.empty() ? algorithm_macro(a.algorithm) : "FPUTUNE_" + a.stem + "_FPU_BYTES";
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

}  // namespace

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
                         v.contention_s_hi});
    }
    return contention_comment(any_known ? r.options.question.contention : "", lines);
}

}  // namespace

std::string render_header(const Recommendation& r, const std::string& path) {
    refuse_macro_collisions(r);
    const RecommendOptions& o = r.options;
    std::string base = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
    const std::string guard = "_FPUTUNE_" + macro_stem(base.empty() ? "limits.h" : base);
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
        " * meets the budget, widened by the fit's 95 % band and the spread between the sweep's rounds.\n */\n",
        o.emit == Emit::central ? "central estimate" : "low (conservative) end");
    h += "#ifndef " + guard + "\n#define " + guard + "\n\n";
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
    if (o.per_algorithm == PerAlgorithm::selected)
        h += "\n/* Per algorithm (--per-algorithm selected): the variant the kernel selects on " +
             std::string(r.machines.size() > 1 ? "each CPU, the smallest across CPUs" : "this CPU") +
             "; where that is unknown, the smallest across its variants. */\n";
    else
        h += "\n/* Per algorithm (--per-algorithm slowest): the smallest across its variants" +
             std::string(r.machines.size() > 1 ? " and CPUs" : "") + ", the slowest standing in for older CPUs. */\n";
    for (const auto& a : r.algorithms) {
        const std::string by = a.kernel + (r.machines.size() > 1 ? " on " + a.machine : "");
        const std::string macro = algorithm_macro_of(a);
        // A kernel named like its algorithm (crc32c) already has this macro from the variant list.
        bool same_as_variant = false;
        for (const auto& row : r.variants) same_as_variant |= macro_of(row.bound) == macro;
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
    if (!r.stripes.empty()) {
        h += "\n/* Multi-source kernels: the most disks (or sources) one section may cover at 4096-byte stripes, per "
             "variant and per\n"
             " * algorithm (the fewest across its variants); disks count the data disks and P and Q, as gen_syndrome() "
             "and md do. */\n";
        auto line = [&](const StripeResult& s, const std::string& stem, const std::string& by) {
            if (!s.max_sources)
                return "/* " +
                       comment_safe(fmt::format("FPUTUNE_{}: not even one source of {} B fits: {} at {}{}", stem,
                                                s.stripe_bytes, format_duration(s.one_source_s), freq, by)) +
                       " */\n";
            std::string what = fmt::format("{} at {}{}", format_duration(s.time_s), freq, by);
            if (s.cap && s.max_sources >= s.cap)
                what += fmt::format(", every count the kernel takes ({} sources)", s.cap);
            else if (s.extrapolated)
                what += fmt::format(", extrapolated beyond {} sources measured", s.measured_max);
            return fmt::format("#define FPUTUNE_{} {}U /* {} */\n", stem, s.count(), comment_safe(what));
        };
        for (const StripeRow& row : r.stripes)
            h += line(row.bound, stripe_count_stem(row.bound.kernel, row.bound.unit, row.bound.stripe_bytes),
                      r.machines.size() > 1 ? ", " + row.bound.machine : "");
        for (const StripeResult& a : r.stripe_algorithms)
            h += line(a, stripe_count_stem(a.algorithm, a.unit, a.stripe_bytes),
                      ", bound by " + a.kernel + (r.machines.size() > 1 ? " on " + a.machine : ""));
    }
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
    h += "\n#endif /* " + guard + " */\n";
    return h;
}

}  // namespace fputune
