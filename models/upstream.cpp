// SPDX-License-Identifier: MIT
// Reads the upstream tables compiled in from data/reference/linux-x86-limits.csv and linux-x86-sections.csv
// (upstream_data.cpp.in).
#include "upstream.hpp"

#include <algorithm>
#include <sstream>

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

// The data rows of a table: comment lines and the header skipped.
std::vector<std::vector<std::string>> csv_rows(const char* text) {
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(text);
    std::string line;
    bool header = false;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        if (!header) {
            header = true;
            continue;
        }
        rows.push_back(csv_fields(line));
    }
    return rows;
}

std::optional<std::uint64_t> bytes_or_none(const std::string& s) {
    if (s.empty() || s == "none") return std::nullopt;
    return std::stoull(s);
}

}  // namespace

const std::vector<UpstreamLimit>& upstream_limits() {
    static const std::vector<UpstreamLimit> table = [] {
        std::vector<UpstreamLimit> out;
        for (const auto& f :
             csv_rows(kUpstreamLimitsCsv)) {  // algorithm,x86_variants,fpu_chunk_bytes,simd_min_len,notes,source
            if (f.size() < 4) continue;
            UpstreamLimit u;
            u.algorithm = f[0];
            u.fpu_chunk_bytes = bytes_or_none(f[2]);
            u.simd_min_len = f[3];
            u.source = f.back();
            out.push_back(u);
        }
        // algorithm,fputune,shape,fpu_chunk_bytes,judged_at_bytes,count,judged_because,source
        for (const auto& f : csv_rows(kUpstreamSectionsCsv)) {
            if (f.size() < 8) continue;
            UpstreamLimit u;
            u.algorithm = f[0];
            std::istringstream names(f[1]);
            for (std::string n; names >> n;) u.fputune.push_back(n);
            u.shape = f[2];
            u.fpu_chunk_bytes = bytes_or_none(f[3]);
            u.judged_at_bytes = bytes_or_none(f[4]);
            u.count = f[5];
            u.judged_because = f[6];
            u.source = f[7];
            out.push_back(u);
        }
        return out;
    }();
    return table;
}

std::uint32_t series_sources(const std::string& name) {
    const std::size_t dot = name.find(".x");
    if (dot == std::string::npos) return 0;
    const std::size_t end = name.find('.', dot + 2);
    const std::string digits = name.substr(dot + 2, end == std::string::npos ? std::string::npos : end - dot - 2);
    if (digits.empty() || digits.size() > 6 || digits.find_first_not_of("0123456789") != std::string::npos) return 0;
    return static_cast<std::uint32_t>(std::stoul(digits));
}

const UpstreamLimit* find_upstream_limit(const std::string& algorithm) {
    std::string alg = algorithm == "sha224" ? "sha256" : algorithm == "sha384" ? "sha512" : algorithm;
    for (const auto& u : upstream_limits())
        if (u.fputune.empty() && u.algorithm == alg) return &u;
    // A multi-source series ("raid6.x8") is judged by its kernel's row.
    if (series_sources(alg)) alg = alg.substr(0, alg.find(".x"));
    for (const auto& u : upstream_limits())
        if (std::find(u.fputune.begin(), u.fputune.end(), alg) != u.fputune.end()) return &u;
    return nullptr;
}

}  // namespace fputune
