// SPDX-License-Identifier: MIT
// Published measurements as a model: one point per kernel, in core cycles, from a CSV with comment lines.
#include "reference_csv.hpp"

#include <cctype>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

namespace fputune {

namespace {

// Block sizes of the kernels a reference CSV names (it does not say): SHA-1/224/256 and SM3 hash 64-byte
// blocks, SHA-384/512 128-byte ones; the CRC drivers fold 8 bytes (crc32c, the crc32q instruction) or
// 16 bytes (one xmm of PCLMULQDQ folding for crct10dif, crc32, crc64) at a time.
std::uint32_t reference_block_bytes(const std::string& algorithm) {
    static const std::map<std::string, std::uint32_t> table = {
        {"sha1", 64},   {"sha224", 64}, {"sha256", 64},    {"sm3", 64},     {"sha384", 128}, {"sha512", 128},
        {"crc32c", 8},  {"crc32", 16},  {"crct10dif", 16}, {"crc64", 16},   {"poly1305", 16}, {"ghash", 16},
        {"polyval", 16}, {"nh", 16},    {"blake2s", 64},   {"chacha", 64}};
    auto it = table.find(algorithm);
    return it == table.end() ? 0 : it->second;
}

std::string trim(std::string s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
    std::size_t b = 0;
    while (b < s.size() && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    return s.substr(b);
}

}  // namespace

ModelFile read_reference_csv(const std::string& text, const std::string& source) {
    ModelFile m = new_model(source, "reference-csv");
    m.core_per_tsc = m.core_per_tsc_end = 1;  // cycles per op: the counter is the core clock there
    m.notes.push_back("reference CSV: one point per kernel in core cycles (TSC = core, core/TSC 1); A = 0, B = cycles / bytes, "
                      "no confidence interval; cache state not stated (taken as hot)");
    std::istringstream in(text);
    std::string line, comments;
    bool header = false;
    int lineno = 0;
    while (std::getline(in, line)) {
        ++lineno;
        line = trim(line);
        if (line.empty()) continue;
        if (line[0] == '#') {
            comments += line.substr(1) + "\n";
            continue;
        }
        if (!header) {
            if (line != kReferenceCsvHeader)
                throw std::runtime_error(fmt::format("{}:{}: expected the header '{}', found '{}'", source, lineno, kReferenceCsvHeader, line));
            header = true;
            continue;
        }
        std::vector<std::string> f;
        std::stringstream ls(line);
        std::string cell;
        while (std::getline(ls, cell, ',')) f.push_back(trim(cell));
        auto bad = [&](const std::string& why) {
            return std::runtime_error(fmt::format("{}:{}: {} in '{}' (expected algorithm,bytes,cycles_per_op, e.g. "
                                                  "sha256-avx2,4096,21179)", source, lineno, why, line));
        };
        if (f.size() != 3) throw bad(fmt::format("{} fields", f.size()));
        KernelInfo k;
        k.name = f[0];
        if (k.name.empty()) throw bad("an empty name");
        k.algorithm = k.name.substr(0, k.name.find('-'));
        k.isa = k.name.find('-') == std::string::npos ? "" : k.name.substr(k.name.find('-') + 1);
        k.provider = kReferenceProvider;
        k.needs_fpu = true;  // tcrypt measured the SIMD drivers
        k.block_bytes = reference_block_bytes(k.algorithm);
        if (k.block_bytes == 0) {
            k.block_bytes = 1;
            m.notes.push_back(fmt::format("{}: block size unknown for '{}'; limits are in bytes", k.name, k.algorithm));
        }
        double bytes = 0, cycles = 0;
        try {
            std::size_t used = 0;
            bytes = std::stod(f[1], &used);
            if (used != f[1].size()) throw std::invalid_argument("");
            cycles = std::stod(f[2], &used);
            if (used != f[2].size()) throw std::invalid_argument("");
        } catch (const std::exception&) {
            throw bad("a number that does not parse");
        }
        if (!(bytes > 0) || !(cycles > 0)) throw bad("bytes and cycles must be > 0");
        if (m.kernel(k.name)) throw bad("a repeated kernel '" + k.name + "'");
        m.kernels.push_back(k);
        CacheModel cm;
        cm.kernel = k.name;
        cm.cache = Cache::hot;
        cm.bytes = {static_cast<std::uint64_t>(bytes)};
        LineFit line_fit;
        line_fit.a = line_fit.a_lo = line_fit.a_hi = 0;
        line_fit.b = line_fit.b_lo = line_fit.b_hi = cycles / bytes;
        line_fit.points = 1;
        line_fit.note = "one point: A = 0, B = cycles/bytes";
        cm.p50 = cm.p90 = cm.p99 = line_fit;
        m.models.push_back(cm);
    }
    if (!header) throw std::runtime_error(fmt::format("{}: no header line '{}'", source, kReferenceCsvHeader));
    {
        std::string blocks;
        for (const auto& k : m.kernels) blocks += fmt::format("{}{} {} B", blocks.empty() ? "" : ", ", k.name, k.block_bytes);
        m.notes.push_back("block sizes assumed (the CSV does not say; SHA-1/224/256 64 B, SHA-384/512 128 B, crc32c 8 B for the "
                          "crc32q instruction, crct10dif 16 B for one PCLMULQDQ fold): " + blocks);
    }
    if (m.models.empty()) throw std::runtime_error(fmt::format("{}: no data rows after the header", source));
    // The machine: an explicit "machine: X" comment, else the first "Intel ..." / "AMD ..." phrase.
    std::smatch match;
    static const std::regex explicit_re(R"(machine:\s*([^\n]+))", std::regex::icase);
    static const std::regex vendor_re(R"(((Intel|AMD)( [A-Za-z0-9+-]+)+?)(?= at |,|;|\.|\(|\n|$))");
    if (std::regex_search(comments, match, explicit_re)) m.machine = trim(match[1].str());
    else if (std::regex_search(comments, match, vendor_re)) m.machine = trim(match[1].str());
    else m.machine = "machine of " + source;
    m.cpu = {{"brand", m.machine}, {"source", "comment lines of " + source}};
    return m;
}

}  // namespace fputune
