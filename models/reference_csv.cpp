// SPDX-License-Identifier: MIT
// Published measurements as a model: one point per kernel, in core cycles, from a CSV with comment lines.
#include "reference_csv.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "errors.hpp"
#include "text_lines.hpp"

namespace fputune {

namespace {

// Block sizes of the kernels a reference CSV names (it does not say): SHA-1/224/256 and SM3 hash 64-byte
// blocks, SHA-384/512 128-byte ones; the CRC drivers fold 8 bytes (crc32c, the crc32q instruction) or
// 16 bytes (one xmm of PCLMULQDQ folding for crct10dif, crc32, crc64) at a time.
std::uint32_t reference_block_bytes(const std::string& algorithm) {
    static const std::map<std::string, std::uint32_t> table = {
        {"sha1", 64},    {"sha224", 64}, {"sha256", 64},    {"sm3", 64},   {"sha384", 128},  {"sha512", 128},
        {"crc32c", 8},   {"crc32", 16},  {"crct10dif", 16}, {"crc64", 16}, {"poly1305", 16}, {"ghash", 16},
        {"polyval", 16}, {"nh", 16},     {"blake2s", 64},   {"chacha", 64}};
    auto it = table.find(algorithm);
    return it == table.end() ? 0 : it->second;
}

// Numbers as the CSV writes them: a whole number of bytes (1 .. 1 GiB) and a finite, positive count of
// cycles; std::from_chars, so that no locale, "inf", "nan" or hex float slips through.
std::optional<std::uint64_t> whole_bytes(std::string_view f) {
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
    if (ec != std::errc() || end != f.data() + f.size() || v == 0 || v > (1ull << 30)) return std::nullopt;
    return v;
}
std::optional<double> cycles_count(std::string_view f) {
    if (f.empty() || !(std::isdigit(static_cast<unsigned char>(f[0])) || f[0] == '.')) return std::nullopt;
    double v = 0;
    const auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
    if (ec != std::errc() || end != f.data() + f.size() || !std::isfinite(v) || !(v > 0) || v > 1e15)
        return std::nullopt;
    return v;
}

bool starts_with_icase(std::string_view s, std::string_view prefix) {
    if (s.size() < prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[i])) != std::tolower(static_cast<unsigned char>(prefix[i])))
            return false;
    return true;
}

// The machine named in the comment lines: an explicit "machine: X", else the first "Intel ..." or
// "AMD ..." phrase: the vendor and the words after it (letters, digits, '+', '-'), up to " at ", a
// ',', ';', '.', '(' or the end of the line ("Intel Cascade Lake at 2.2 GHz" -> "Intel Cascade Lake").
std::string machine_from_comments(const std::vector<std::string_view>& comments) {
    for (std::string_view c : comments)
        for (std::size_t i = 0; i < c.size(); ++i)
            if (starts_with_icase(c.substr(i), "machine:")) return std::string(trim(c.substr(i + 8)));
    auto word_char = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '+' || ch == '-'; };
    for (std::string_view c : comments) {
        for (std::size_t start = 0; start < c.size(); ++start) {
            const std::string_view rest = c.substr(start);
            const std::size_t vendor = rest.substr(0, 6) == "Intel " ? 5 : rest.substr(0, 4) == "AMD " ? 3 : 0;
            if (!vendor) continue;
            std::size_t end = vendor;
            for (;;) {  // " word" at a time, until what follows ends the phrase
                if (end >= rest.size() || rest[end] != ' ' || end + 1 >= rest.size() || !word_char(rest[end + 1]))
                    break;
                std::size_t w = end + 1;
                while (w < rest.size() && word_char(rest[w])) ++w;
                end = w;
                const std::string_view after = rest.substr(end);
                if (after.empty() || after.substr(0, 4) == " at " ||
                    std::string_view(",;.(").find(after[0]) != std::string_view::npos)
                    return std::string(rest.substr(0, end));
            }
        }
    }
    return "";
}

}  // namespace

namespace {

// One data row: the kernel, and its one-point line in the model (InputError naming the line when it is wrong).
void read_row(ModelFile& m, std::string_view line, std::size_t lineno, const std::string& source) {
    std::vector<std::string_view> f;
    for (std::string_view rest = line;;) {
        const auto comma = rest.find(',');
        f.push_back(trim(rest.substr(0, comma)));
        if (comma == std::string_view::npos) break;
        rest = rest.substr(comma + 1);
    }
    auto bad = [&](const std::string& why) {
        return InputError(
            fmt::format("{}:{}: {} in '{}' (expected algorithm,bytes,cycles_per_op, e.g. "
                        "sha256-avx2,4096,21179)",
                        source, lineno, why, printable(line)));
    };
    if (f.size() != 3) throw bad(fmt::format("{} fields", f.size()));
    KernelInfo k;
    if (!is_plain_name(f[0])) throw bad("a kernel name that is not 1 to 64 letters, digits, '.', '_', '+' or '-'");
    k.name = std::string(f[0]);
    k.algorithm = k.name.substr(0, k.name.find('-'));
    k.isa = k.name.find('-') == std::string::npos ? "" : k.name.substr(k.name.find('-') + 1);
    k.provider = kReferenceProvider;
    k.needs_fpu = true;  // tcrypt measured the SIMD drivers
    k.block_bytes = reference_block_bytes(k.algorithm);
    if (k.block_bytes == 0) {
        k.block_bytes = 1;
        m.notes.push_back(fmt::format("{}: block size unknown for '{}'; limits are in bytes", k.name, k.algorithm));
    }
    const auto bytes = whole_bytes(f[1]);
    if (!bytes) throw bad(fmt::format("bytes '{}' is not a whole number from 1 to 1073741824", printable(f[1])));
    const auto cycles = cycles_count(f[2]);
    if (!cycles)
        throw bad(fmt::format("cycles_per_op '{}' is not a finite number > 0 (at most 1e15)", printable(f[2])));
    if (const KernelInfo* first = m.kernel(k.name)) throw bad(fmt::format("a repeated kernel '{}'", first->name));
    m.kernels.push_back(k);
    CacheModel cm;
    cm.kernel = k.name;
    cm.cache = Cache::hot;
    cm.bytes = {*bytes};
    LineFit line_fit;
    line_fit.a = line_fit.a_lo = line_fit.a_hi = 0;
    line_fit.b = line_fit.b_lo = line_fit.b_hi = *cycles / static_cast<double>(*bytes);
    line_fit.points = 1;
    line_fit.note = "one point: A = 0, B = cycles/bytes";
    cm.p50 = cm.p90 = cm.p99 = line_fit;
    m.models.push_back(cm);
}

}  // namespace

ModelFile read_reference_csv(const std::string& text, const std::string& source) {
    ModelFile m = new_model(source, "reference-csv");
    m.core_per_tsc = m.core_per_tsc_end = 1;  // cycles per op: the counter is the core clock there
    m.notes.push_back(
        "reference CSV: one point per kernel in core cycles (TSC = core, core/TSC 1); A = 0, B = cycles / bytes, "
        "no confidence interval; cache state not stated (taken as hot)");
    std::vector<std::string_view> comments;
    bool header = false;
    const std::vector<std::string_view> lines = text_lines(text, source);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::size_t lineno = i + 1;
        const std::string_view line = trim(lines[i]);
        if (line.empty()) continue;
        if (line[0] == '#') {
            comments.push_back(line.substr(1));
            continue;
        }
        if (!header) {
            if (line != kReferenceCsvHeader)
                throw InputError(fmt::format("{}:{}: expected the header '{}', found '{}'", source, lineno,
                                             kReferenceCsvHeader, printable(line)));
            header = true;
            continue;
        }
        read_row(m, line, lineno, source);
    }
    if (!header) throw InputError(fmt::format("{}: no header line '{}'", source, kReferenceCsvHeader));
    {
        std::string blocks;
        for (const auto& k : m.kernels)
            blocks += fmt::format("{}{} {} B", blocks.empty() ? "" : ", ", k.name, k.block_bytes);
        m.notes.push_back(
            "block sizes assumed (the CSV does not say; SHA-1/224/256 64 B, SHA-384/512 128 B, crc32c 8 B for the "
            "crc32q instruction, crct10dif 16 B for one PCLMULQDQ fold): " +
            blocks);
    }
    if (m.models.empty()) throw InputError(fmt::format("{}: no data rows after the header", source));
    m.machine = printable(machine_from_comments(comments), 120);
    if (m.machine.empty()) m.machine = "machine of " + source;
    m.cpu = {{"brand", m.machine}, {"source", "comment lines of " + source}};
    return m;
}

}  // namespace fputune
