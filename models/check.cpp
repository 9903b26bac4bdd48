// SPDX-License-Identifier: MIT
// Reads a header's constants and judges each against the budget with the same model `recommend` uses.
#include "check.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "contention.hpp"
#include "errors.hpp"
#include "kernel_globs.hpp"
#include "macro_names.hpp"
#include "select_models.hpp"
#include "stripes.hpp"

namespace fputune {

bool CheckReport::all_pass() const {
    return std::all_of(results.begin(), results.end(), [](const CheckResult& r) { return r.pass; });
}

namespace {

// A constant of a multi-source kernel or algorithm: the most disks/sources at 4 KiB stripes (…_MAX_DISKS_4K: the
// value is the count), or the bytes per disk for a count (…_10_DISKS_FPU_BYTES), judged with the cost linear in
// the sources (stripes.hpp) on the slowest variant and machine. Empty: not such a constant.
std::optional<CheckResult> check_stripe_constant(const HeaderConstant& c, const std::vector<ModelFile>& sources,
                                                 const RecommendOptions& o) {
    const MacroName macro = parse_macro_name(c.name);
    const std::string& stem = macro.stem;
    const bool bytes_constant = macro.kind == MacroKind::fpu_bytes;
    std::optional<CheckResult> out;
    for (const ModelFile& m : sources) {
        for (const StripeSeries& s : stripe_series(m, o.question.cache)) {
            const std::string word = macro_stem(s.unit.word);
            for (const std::string& name : {s.kernel, s.algorithm}) {
                std::uint32_t count = 0;
                std::uint64_t bytes = 0;
                if (bytes_constant) {
                    count = stem_count(stem, macro_stem(name) + "_", word);
                    bytes = c.value;
                } else if (stem == stripe_count_stem(name, s.unit, 4096)) {
                    count = static_cast<std::uint32_t>(std::min<std::uint64_t>(c.value, 1u << 20));
                    bytes = 4096;
                }
                if (!count) continue;
                CheckResult r;
                r.constant = c;
                r.is_algorithm = name == s.algorithm;
                r.target = fmt::format("{}, {} {} x {} B", name, count, s.unit.word, bytes);
                if (count <= s.unit.extra) {
                    r.note = fmt::format("{} {} hold no data ({} of them are the destinations)", count, s.unit.word,
                                         s.unit.extra);
                    r.time_s = 0;
                } else {
                    bool extrapolated = false;
                    r.time_s = stripe_time_s(s, count - s.unit.extra, static_cast<double>(bytes), o, &extrapolated);
                    if (extrapolated)
                        r.note = fmt::format("{} sources: linear in the sources beyond the {}..{} measured",
                                             count - s.unit.extra, s.by_sources.begin()->first,
                                             s.by_sources.rbegin()->first);
                    if (bytes % m.kernel(s.by_sources.begin()->second.front()->kernel)->block_bytes)
                        r.note += std::string(r.note.empty() ? "" : "; ") + "not whole blocks";
                }
                r.kernel = s.kernel;
                r.machine = m.machine;
                r.cache = s.cache;
                r.contention_level = s.by_sources.begin()->second.front()->contention_level;
                if (!out || r.time_s > out->time_s) out = r;
            }
        }
    }
    return out;
}

// --per-algorithm selected: whether `c` is the variant the kernel runs on its machine (true for all of
// them when that is unknown).
bool is_selected_variant(const ModelChoice& c, const ModelSelection& selection) {
    std::vector<std::string> have;
    for (const ModelChoice* other : selection.of_source(*c.source))
        if (other->kernel->algorithm == c.kernel->algorithm && other->kernel->needs_fpu && !is_peer(*other->kernel))
            have.push_back(other->kernel->name);
    const std::optional<std::string> chosen = selected_variant(c.kernel->algorithm, c.source->cpu, have);
    return !chosen || *chosen == c.kernel->name;
}

// A FPUTUNE_<KERNEL|ALGORITHM>_FPU_BYTES constant: the longest predicted section over the series it names
// (a kernel's own, or every variant that stands for the algorithm). Empty: it names none.
std::optional<CheckResult> check_bytes_constant(const HeaderConstant& c, const std::string& stem,
                                                const ModelSelection& selection, const RecommendOptions& o) {
    CheckResult r;
    r.constant = c;
    bool matched = false;
    for (const ModelChoice& choice : selection.choices) {
        const KernelInfo& k = *choice.kernel;
        // A series' stem (header.hpp): a kernel's, its AAD part's; the warm-up state shares its warm series' one.
        const bool as_kernel = series_stem(k) == stem;
        const bool as_algorithm = !as_kernel && series_algorithm_stem(k) == stem && choice.stands_for_algorithm;
        if (!as_kernel && !as_algorithm) continue;
        if (as_algorithm && o.per_algorithm == PerAlgorithm::selected && !is_selected_variant(choice, selection))
            continue;
        const double t = predict_upper_s(*choice.model, static_cast<double>(c.value), o.question.min_freq_hz,
                                         o.question.quantile);
        if (!matched || t > r.time_s) {
            r.time_s = t;
            r.kernel = k.name;
            r.machine = choice.source->machine;
            r.cache = choice.cache;
            r.contention_level = choice.model->contention_level;
        }
        r.target = as_kernel ? k.kernel() + (k.shape == "aad" ? " (aad)" : "") : k.algorithm;
        r.is_algorithm = as_algorithm;
        matched = true;
        if (k.block_bytes > 1 && c.value % k.block_bytes)
            r.note = fmt::format("not whole blocks of {} B ({}: {} B per section)", k.block_bytes, k.name,
                                 c.value / k.block_bytes * k.block_bytes);
    }
    if (!matched) return std::nullopt;
    return r;
}

// One constant judged, or why it was not: a note.
void check_constant(const HeaderConstant& c, const std::vector<ModelFile>& sources, const ModelSelection& selection,
                    const RecommendOptions& o, CheckReport& report) {
    const double budget = effective_budget_s(o.question);
    // Multi-source kernels: FPUTUNE_RAID6_AVX512_MAX_DISKS_4K, FPUTUNE_RAID6_AVX512_10_DISKS_FPU_BYTES.
    std::optional<CheckResult> r = check_stripe_constant(c, sources, o);
    if (!r) {
        const MacroName macro = parse_macro_name(c.name);
        if (macro.kind == MacroKind::simd_min_bytes) {
            report.notes.push_back(
                fmt::format("ignored {} (line {}): a SIMD threshold, not a section limit", c.name, c.line));
            return;
        }
        if (macro.kind != MacroKind::fpu_bytes) {
            report.notes.push_back(fmt::format(
                "ignored {} (line {}): not of the form FPUTUNE_<KERNEL|ALGORITHM>_FPU_BYTES", c.name, c.line));
            return;
        }
        const std::string& stem = macro.stem;
        r = check_bytes_constant(c, stem, selection, o);
        if (!r) {
            report.notes.push_back(fmt::format(
                "ignored {} (line {}): no kernel or algorithm '{}' with section points in the inputs", c.name, c.line,
                stem));
            return;
        }
    }
    r->pass = r->time_s <= budget;
    if (!c.branch.empty()) r->note += (r->note.empty() ? "" : "; ") + std::string("in ") + c.branch;
    report.results.push_back(*r);
}

}  // namespace

CheckReport check_header(const std::string& text, const std::string& source, const std::vector<ModelFile>& sources,
                         const RecommendOptions& o) {
    validate(o);
    CheckReport report;
    std::vector<std::string> skipped;
    const auto constants = parse_header_constants(text, skipped, source);
    for (const auto& s : skipped) report.notes.push_back("ignored " + s);
    // Each variant at the contention its header assumed: a limit for a busy core is judged busy.
    const auto stated = parse_header_contention(text);
    std::vector<ModelFile> at_header = sources;
    for (ModelFile& m : at_header) report.header_levels += restate_as_header(m, stated);
    const ModelSelection selection = select_models(at_header, o.question);
    for (const auto& c : constants) check_constant(c, at_header, selection, o, report);
    for (CheckResult& r : report.results) {
        const auto it = stated.find({r.kernel, std::string(name(r.cache))});
        r.contention_from_header = it != stated.end() && it->second.known && r.contention_level >= 1;
    }
    if (report.results.empty())
        throw InputError(
            fmt::format("{}: no constant of the form FPUTUNE_<KERNEL>_FPU_BYTES or FPUTUNE_<ALGORITHM>_FPU_BYTES "
                        "names a kernel in the inputs; write one, e.g. #define FPUTUNE_SHA256_FPU_BYTES 4096U",
                        source));
    return report;
}

void keep_shown(CheckReport& report, const std::vector<ModelFile>& sources, const std::vector<std::string>& globs) {
    if (globs.empty()) return;
    auto named = [&](const std::string& kernel) { return selected_in(sources, globs, kernel); };
    auto algorithm_named = [&](const std::string& kernel) {
        const KernelInfo* info = nullptr;
        for (const ModelFile& m : sources)
            if ((info = m.kernel(kernel))) break;
        if (!info) return false;
        for (const ModelFile& m : sources)
            for (const KernelInfo& k : m.kernels)
                if (k.algorithm == info->algorithm && named(k.name)) return true;
        return false;
    };
    std::erase_if(report.results,
                  [&](const CheckResult& r) { return !(r.is_algorithm ? algorithm_named(r.kernel) : named(r.kernel)); });
}

}  // namespace fputune
