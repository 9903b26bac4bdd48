// SPDX-License-Identifier: MIT
// Reads the upstream tables compiled in from data/reference/linux-x86-limits.csv and linux-x86-sections.csv
// (upstream_data.cpp.in).
#include "upstream.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace fputune {

extern const char* const kUpstreamLimitsCsv;
extern const char* const kUpstreamSectionsCsv;

namespace {

// One CSV line: fields separated by commas, a field in double quotes may hold commas ("" is a quote).
std::vector<std::string> csv_fields(const std::string& line) {
    std::vector<std::string> f(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"')
            f.back() += c, ++i;
        else if (c == '"')
            quoted = !quoted;
        else if (c == ',' && !quoted)
            f.emplace_back();
        else
            f.back() += c;
    }
    return f;
}

// A table's data rows by column name: comment lines skipped, the first other line is the header.
struct CsvTable {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    std::string get(const std::vector<std::string>& row, const std::string& column) const {
        const auto it = std::find(header.begin(), header.end(), column);
        const auto i = static_cast<std::size_t>(it - header.begin());
        return it == header.end() || i >= row.size() ? std::string() : row[i];
    }
};

CsvTable csv_table(const char* text) {
    CsvTable t;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        if (t.header.empty())
            t.header = csv_fields(line);
        else
            t.rows.push_back(csv_fields(line));
    }
    return t;
}

std::optional<std::uint64_t> bytes_or_none(const std::string& s) {
    if (s.empty() || s == "none") return std::nullopt;
    return std::stoull(s);
}

std::vector<std::string> words(const std::string& s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

// The columns both tables share.
UpstreamLimit common_columns(const CsvTable& t, const std::vector<std::string>& f) {
    UpstreamLimit u;
    u.algorithm = t.get(f, "algorithm");
    u.linux_versions = words(t.get(f, "linux"));
    u.fpu_chunk_bytes = bytes_or_none(t.get(f, "fpu_chunk_bytes"));
    u.source = t.get(f, "source");
    u.evidence = t.get(f, "evidence");
    return u;
}

// "6.15" -> {6, 15}; {0, 0} for anything else.
std::pair<int, int> major_minor(const std::string& v) {
    const std::size_t dot = v.find('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == v.size() ||
        v.find_first_not_of("0123456789.") != std::string::npos || v.find('.', dot + 1) != std::string::npos)
        return {0, 0};
    return {std::stoi(v.substr(0, dot)), std::stoi(v.substr(dot + 1))};
}

bool holds_for(const UpstreamLimit& u, const std::string& version) {
    return std::find(u.linux_versions.begin(), u.linux_versions.end(), version) != u.linux_versions.end();
}

}  // namespace

std::string UpstreamLimit::cited(const std::string& version) const {
    return "Linux " + version + ": " + source + (evidence.empty() ? "" : "; " + evidence);
}

const std::vector<UpstreamLimit>& upstream_limits() {
    static const std::vector<UpstreamLimit> table = [] {
        std::vector<UpstreamLimit> out;
        const CsvTable limits = csv_table(kUpstreamLimitsCsv);
        for (const auto& f : limits.rows) {
            UpstreamLimit u = common_columns(limits, f);
            u.simd_min_len = limits.get(f, "simd_min_len");
            out.push_back(u);
        }
        const CsvTable sections = csv_table(kUpstreamSectionsCsv);
        for (const auto& f : sections.rows) {
            UpstreamLimit u = common_columns(sections, f);
            u.fputune = words(sections.get(f, "fputune"));
            u.shape = sections.get(f, "shape");
            u.judged_at_bytes = bytes_or_none(sections.get(f, "judged_at_bytes"));
            u.count = sections.get(f, "count");
            if (const auto n = bytes_or_none(sections.get(f, "sources_per_section")))
                u.sources_per_section = static_cast<std::uint32_t>(*n);
            u.judged_because = sections.get(f, "judged_because");
            out.push_back(u);
        }
        return out;
    }();
    return table;
}

const std::vector<std::string>& upstream_versions() {
    static const std::vector<std::string> versions = [] {
        std::vector<std::string> v;
        for (const auto& u : upstream_limits())
            for (const auto& l : u.linux_versions)
                if (std::find(v.begin(), v.end(), l) == v.end()) v.push_back(l);
        std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return major_minor(a) < major_minor(b); });
        return v;
    }();
    return versions;
}

const std::string& newest_upstream_version() { return upstream_versions().back(); }

std::string upstream_versions_text(const std::string& separator) {
    std::string list;
    for (const auto& v : upstream_versions()) list += (list.empty() ? "" : separator) + v;
    return list;
}

std::string resolve_linux_version(const std::string& text, const std::string& option) {
    if (text.empty()) return newest_upstream_version();
    const auto& known = upstream_versions();
    if (std::find(known.begin(), known.end(), text) != known.end()) return text;
    throw std::invalid_argument(option + " " + text + ": the upstream data knows Linux " +
                                upstream_versions_text(", ") + "; give one of them (default " +
                                newest_upstream_version() + ")");
}

bool linux_at_least(const std::string& version, const std::string& since) {
    return major_minor(version) >= major_minor(since);
}

std::uint32_t series_sources(const std::string& name) {
    const std::size_t dot = name.find(".x");
    if (dot == std::string::npos) return 0;
    const std::size_t end = name.find('.', dot + 2);
    const std::string digits = name.substr(dot + 2, end == std::string::npos ? std::string::npos : end - dot - 2);
    if (digits.empty() || digits.size() > 6 || digits.find_first_not_of("0123456789") != std::string::npos) return 0;
    return static_cast<std::uint32_t>(std::stoul(digits));
}

const UpstreamLimit* find_upstream_limit(const std::string& algorithm, const std::string& version,
                                         const std::string& kernel) {
    const std::string v = version.empty() ? newest_upstream_version() : version;
    auto named = [&](const UpstreamLimit& u, const std::string& name) {
        return holds_for(u, v) && std::find(u.fputune.begin(), u.fputune.end(), name) != u.fputune.end();
    };
    // A kernel's own row; a series of it ("sha256-shani-2x.x2") takes its kernel's.
    const std::string kernel_name = series_sources(kernel) ? kernel.substr(0, kernel.find(".x")) : kernel;
    if (!kernel_name.empty())
        for (const auto& u : upstream_limits())
            if (named(u, kernel_name)) return &u;
    std::string alg = algorithm == "sha224" ? "sha256" : algorithm == "sha384" ? "sha512" : algorithm;
    for (const auto& u : upstream_limits())
        if (u.fputune.empty() && u.algorithm == alg && holds_for(u, v)) return &u;
    // A multi-source series ("raid6.x8") is judged by its kernel's row.
    if (series_sources(alg)) alg = alg.substr(0, alg.find(".x"));
    for (const auto& u : upstream_limits())
        if (named(u, alg)) return &u;
    return nullptr;
}

std::string upstream_simd_min(const std::string& algorithm, const std::string& version) {
    const UpstreamLimit* u = find_upstream_limit(algorithm, version);
    if ((!u || u->simd_min_len.empty()) && (algorithm == "chacha20" || algorithm == "xchacha20"))
        u = find_upstream_limit("chacha", version);
    return u ? u->simd_min_len : "";
}

std::string softirq_tail_note(const std::string& version) {
    if (!linux_at_least(version.empty() ? newest_upstream_version() : version, "6.15")) return "";
    return "from Linux 6.15 kernel_fpu_begin() also disables softirqs, and those raised during a section run in "
           "kernel_fpu_end(): preemption stays off for the section plus that softirq work, which no section bound "
           "here includes (tip d02198550423, Biggers 2025, <20250304204954.3901-1-ebiggers@kernel.org>)";
}

}  // namespace fputune
