// SPDX-License-Identifier: MIT
// Reads a header's constants and judges each against the budget with the same model `recommend` uses.
#include "check.hpp"

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "header.hpp"

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
                const bool as_kernel = macro_stem(k.name) == stem;
                const bool as_algorithm = !as_kernel && macro_stem(k.algorithm) == stem && k.needs_fpu &&
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
                r.target = as_kernel ? k.name : k.algorithm;
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
