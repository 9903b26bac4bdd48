// SPDX-License-Identifier: MIT
// Reads a header's constants and judges each against the budget with the same model `recommend` uses.
#include "check.hpp"

#include <algorithm>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "header.hpp"
#include "stripes.hpp"

namespace fputune {

bool CheckReport::all_pass() const {
    return std::all_of(results.begin(), results.end(), [](const CheckResult& r) { return r.pass; });
}

std::vector<HeaderConstant> parse_header_constants(const std::string& text, std::vector<std::string>& skipped) {
    static const std::regex define_re(R"(^\s*#\s*define\s+([A-Za-z_][A-Za-z0-9_]*)(.*)$)");
    static const std::regex value_re(
        R"(^\s*\(?\s*(0[xX][0-9a-fA-F]+|[0-9]+)\s*[uUlL]*\s*\)?\s*(/\*.*|//.*)?$)");
    std::vector<HeaderConstant> out;
    std::istringstream in(text);
    std::string line;
    int lineno = 0;
    while (std::getline(in, line)) {
        ++lineno;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::smatch m;
        if (!std::regex_match(line, m, define_re)) continue;
        const std::string name = m[1].str(), rest = m[2].str();
        if (rest.find_first_not_of(" \t") == std::string::npos) continue;  // include guard or flag: no value
        std::smatch v;
        if (!std::regex_match(rest, v, value_re)) {
            skipped.push_back(fmt::format("{} (line {}): value is not an integer constant", name, lineno));
            continue;
        }
        out.push_back({name, std::stoull(v[1].str(), nullptr, 0), lineno});
    }
    return out;
}

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// "10_DISKS" after `prefix` in `stem`: the count, or 0.
std::uint32_t count_after(const std::string& stem, const std::string& prefix, const std::string& word) {
    if (stem.size() <= prefix.size() + word.size() + 1 || stem.rfind(prefix, 0) != 0 || !ends_with(stem, "_" + word)) return 0;
    const std::string digits = stem.substr(prefix.size(), stem.size() - prefix.size() - word.size() - 1);
    if (digits.empty() || digits.size() > 6 || digits.find_first_not_of("0123456789") != std::string::npos) return 0;
    return static_cast<std::uint32_t>(std::stoul(digits));
}

// A constant of a multi-source kernel or algorithm: the most disks/sources at 4 KiB stripes (…_MAX_DISKS_4K: the
// value is the count), or the bytes per disk for a count (…_10_DISKS_FPU_BYTES), judged with the cost linear in
// the sources (stripes.hpp) on the slowest variant and machine. Empty: not such a constant.
std::optional<CheckResult> check_stripe_constant(const HeaderConstant& c, const std::vector<ModelFile>& sources, const RecommendOptions& o) {
    std::string stem = c.name.rfind("FPUTUNE_", 0) == 0 ? c.name.substr(8) : c.name;
    const bool bytes_constant = ends_with(stem, "_FPU_BYTES");
    if (bytes_constant) stem.resize(stem.size() - std::string("_FPU_BYTES").size());
    std::optional<CheckResult> out;
    for (const ModelFile& m : sources) {
        for (const StripeSeries& s : stripe_series(m, o.cache)) {
            const std::string word = macro_stem(s.unit.word);
            for (const std::string& name : {s.kernel, s.algorithm}) {
                std::uint32_t count = 0;
                std::uint64_t bytes = 0;
                if (bytes_constant) {
                    count = count_after(stem, macro_stem(name) + "_", word);
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
                    r.note = fmt::format("{} {} hold no data ({} of them are the destinations)", count, s.unit.word, s.unit.extra);
                    r.time_s = 0;
                } else {
                    bool extrapolated = false;
                    r.time_s = stripe_time_s(s, count - s.unit.extra, static_cast<double>(bytes), o, &extrapolated);
                    if (extrapolated)
                        r.note = fmt::format("{} sources: linear in the sources beyond the {}..{} measured", count - s.unit.extra,
                                             s.by_sources.begin()->first, s.by_sources.rbegin()->first);
                    if (bytes % m.kernel(s.by_sources.begin()->second.front()->kernel)->block_bytes)
                        r.note += std::string(r.note.empty() ? "" : "; ") + "not whole blocks";
                }
                r.kernel = s.kernel;
                r.machine = m.machine;
                r.cache = s.cache;
                if (!out || r.time_s > out->time_s) out = r;
            }
        }
    }
    return out;
}

}  // namespace

CheckReport check_header(const std::string& text, const std::string& source, const std::vector<ModelFile>& sources,
                         const RecommendOptions& o) {
    validate(o);
    CheckReport report;
    std::vector<std::string> skipped;
    const auto constants = parse_header_constants(text, skipped);
    for (const auto& s : skipped) report.notes.push_back("ignored " + s);
    const double budget = effective_budget_s(o);
    // Which kernels an algorithm constant covers: ours that need the FPU, peers only when none of ours.
    std::set<std::string> own_algorithms;
    for (const auto& s : sources)
        for (const auto& k : s.kernels)
            if (k.needs_fpu && !is_peer(k)) own_algorithms.insert(k.algorithm);
    for (const auto& c : constants) {
        // Multi-source kernels: FPUTUNE_RAID6_AVX512_MAX_DISKS_4K, FPUTUNE_RAID6_AVX512_10_DISKS_FPU_BYTES.
        if (std::optional<CheckResult> r = check_stripe_constant(c, sources, o)) {
            r->pass = r->time_s <= budget;
            report.results.push_back(*r);
            continue;
        }
        if (ends_with(c.name, "_SIMD_MIN_BYTES")) {
            report.notes.push_back(fmt::format("ignored {} (line {}): a SIMD threshold, not a section limit", c.name, c.line));
            continue;
        }
        if (!ends_with(c.name, "_FPU_BYTES")) {
            report.notes.push_back(fmt::format("ignored {} (line {}): not of the form FPUTUNE_<KERNEL|ALGORITHM>_FPU_BYTES", c.name, c.line));
            continue;
        }
        std::string stem = c.name.substr(0, c.name.size() - std::string("_FPU_BYTES").size());
        if (stem.rfind("FPUTUNE_", 0) == 0) stem = stem.substr(8);
        CheckResult r;
        r.constant = c;
        bool matched = false;
        for (const auto& s : sources) {
            for (const auto& k : s.kernels) {
                // A series' stem (header.hpp): a kernel's, its AAD part's; the warm-up state shares its warm series' one.
                const bool as_kernel = series_stem(k) == stem;
                const bool as_algorithm = !as_kernel && series_algorithm_stem(k) == stem && k.needs_fpu &&
                                          (!is_peer(k) || !own_algorithms.count(k.algorithm));
                if (!as_kernel && !as_algorithm) continue;
                const CacheModel* cm = s.model(k.name, o.cache);
                Cache cache = o.cache;
                if (!cm) {
                    cache = other(o.cache);
                    cm = s.model(k.name, cache);
                }
                if (!cm) continue;
                const double t = predict_upper_s(*cm, static_cast<double>(c.value), o.min_freq_hz, o.quantile);
                if (!matched || t > r.time_s) {
                    r.time_s = t;
                    r.kernel = k.name;
                    r.machine = s.machine;
                    r.cache = cache;
                }
                r.target = as_kernel ? k.kernel() + (k.shape == "aad" ? " (aad)" : "") : k.algorithm;
                r.is_algorithm = as_algorithm;
                matched = true;
                if (k.block_bytes > 1 && c.value % k.block_bytes)
                    r.note = fmt::format("not whole blocks of {} B ({}: {} B per section)", k.block_bytes, k.name,
                                         c.value / k.block_bytes * k.block_bytes);
            }
        }
        if (!matched) {
            report.notes.push_back(fmt::format("ignored {} (line {}): no kernel or algorithm '{}' with section points in the inputs",
                                               c.name, c.line, stem));
            continue;
        }
        r.pass = r.time_s <= budget;
        report.results.push_back(r);
    }
    if (report.results.empty())
        throw std::runtime_error(fmt::format("{}: no constant of the form FPUTUNE_<KERNEL>_FPU_BYTES or FPUTUNE_<ALGORITHM>_FPU_BYTES "
                                             "names a kernel in the inputs; write one, e.g. #define FPUTUNE_SHA256_FPU_BYTES 4096U",
                                             source));
    return report;
}

}  // namespace fputune
