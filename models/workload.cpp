// SPDX-License-Identifier: MIT
// The built-in workloads (each with where its shape comes from), the request CSV, and module sizes.
#include "workload.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "units.hpp"

namespace fputune {

namespace {

std::string trim(std::string_view s) {
    std::size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return std::string(s.substr(b, e - b));
}

bool ends_with(const std::string& s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::vector<std::string> split_fields(const std::string& line) {
    std::vector<std::string> f;
    std::stringstream ls(line);
    std::string cell;
    while (std::getline(ls, cell, ',')) f.push_back(trim(cell));
    if (!line.empty() && line.back() == ',') f.push_back("");
    return f;
}

std::uint64_t le(std::string_view bytes, std::size_t at, std::size_t n) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i)
        v |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
    return v;
}

// xz: the stream footer (last 12 bytes, after any stream padding of zeros) gives the index's size;
// the index lists every block's uncompressed size (multibyte integers, 7 bits per byte).
std::uint64_t xz_uncompressed_bytes(std::string_view tail) {
    std::size_t end = tail.size();
    while (end >= 4 && le(tail, end - 4, 4) == 0) end -= 4;  // stream padding
    if (end < 12 || tail[end - 2] != 'Y' || tail[end - 1] != 'Z') return 0;
    const std::size_t footer = end - 12;
    const std::uint64_t index_bytes = (le(tail, footer + 4, 4) + 1) * 4;
    if (index_bytes > footer) return 0;
    std::size_t p = footer - static_cast<std::size_t>(index_bytes);
    auto mbi = [&](std::uint64_t& v) {
        v = 0;
        for (int i = 0; i < 9 && p < footer; ++i) {
            const auto b = static_cast<unsigned char>(tail[p++]);
            v |= static_cast<std::uint64_t>(b & 0x7f) << (7 * i);
            if (!(b & 0x80)) return true;
        }
        return false;
    };
    if (tail[p++] != 0) return 0;  // the index indicator
    std::uint64_t records = 0, total = 0;
    if (!mbi(records)) return 0;
    for (std::uint64_t r = 0; r < records; ++r) {
        std::uint64_t unpadded = 0, uncompressed = 0;
        if (!mbi(unpadded) || !mbi(uncompressed)) return 0;
        total += uncompressed;
    }
    return total;
}

// zstd: the frame header's content size, when the compressor wrote it (zstd's command line does).
std::uint64_t zstd_content_bytes(std::string_view head) {
    if (head.size() < 6 || le(head, 0, 4) != 0xFD2FB528u) return 0;
    const auto fhd = static_cast<unsigned char>(head[4]);
    const unsigned fcs_flag = fhd >> 6, single_segment = (fhd >> 5) & 1, dict_flag = fhd & 3;
    std::size_t at = 5 + (single_segment ? 0 : 1) + std::size_t{0x04020100u >> (8 * dict_flag) & 0xff};
    const std::size_t fcs_bytes = fcs_flag == 0 ? (single_segment ? 1 : 0) : std::size_t{1} << fcs_flag;
    if (fcs_bytes == 0 || at + fcs_bytes > head.size()) return 0;
    return le(head, at, fcs_bytes) + (fcs_bytes == 2 ? 256 : 0);
}

}  // namespace

const std::vector<std::string>& builtin_workload_names() {
    static const std::vector<std::string> names = {"bigbuf", "module-signing", "dm-crypt", "wireguard"};
    return names;
}

bool is_builtin_workload(const std::string& name) {
    const auto& n = builtin_workload_names();
    return std::find(n.begin(), n.end(), name) != n.end();
}

Workload bigbuf_workload() {
    Workload w;
    w.name = "bigbuf";
    w.description = "10 x 1 MiB per kernel";
    w.source =
        "Elliott's tcrypt test (linux-kernel, 2022-11-01, \"crypto: x86 - fix RCU stalls\"): \"each driver ten times "
        "with "
        "1 MiB data\"";
    w.requests.push_back({"*", 1u << 20, 10, 0});
    return w;
}

Workload dm_crypt_workload() {
    Workload w;
    w.name = "dm-crypt";
    w.description = "262144 x 4 KiB sectors (1 GiB of I/O) per aes-256-xts kernel";
    w.source =
        "dm-crypt's aes-xts-plain64 with a 512-bit key (AES-256-XTS, cryptsetup's LUKS2 default), one request per "
        "4 KiB sector (cryptsetup's --sector-size 4096, its LUKS2 default on 4K-native disks); each sector is one "
        "XTS message, tweak included";
    w.requests.push_back({"aes-256-xts", 4096, 262144, 0});
    w.kernel_thread = true;
    w.notes.push_back("dm-crypt encrypts in its kcryptd workqueue (kernel threads): no user state to save");
    return w;
}

Workload wireguard_workload() {
    Workload w;
    w.name = "wireguard";
    w.description = "120000 packets per chacha20 and per poly1305 kernel: 7:4:1 of 48, 576 and 1420 bytes";
    w.source =
        "Simple IMIX (7:4:1 of 40, 576 and 1500-byte IP packets, the traffic mix of RFC 6985's IMIX genome) sent "
        "through a WireGuard tunnel (ChaCha20-Poly1305): the inner packet is padded to 16 bytes (40 -> 48) and at "
        "most the tunnel's default MTU, 1420 (1500 less 80 bytes of outer headers); chacha20 encrypts that many "
        "bytes and poly1305 authenticates the ciphertext (the Poly1305 key's one ChaCha20 block and the 16-byte "
        "length block are under the SIMD thresholds: no section)";
    for (const char* algorithm : {"chacha20", "poly1305"})
        for (auto [bytes, count] : {std::pair{48u, 70000u}, {576u, 40000u}, {1420u, 10000u}})
            w.requests.push_back({algorithm, bytes, count, 0});
    w.kernel_thread = true;
    w.notes.push_back("WireGuard encrypts in its per-CPU workqueue workers (kernel threads): no user state to save");
    return w;
}

Workload module_signing_workload(const std::vector<std::uint64_t>& sizes, const std::string& from) {
    Workload w;
    w.name = "module-signing";
    std::uint64_t total = 0, largest = 0;
    std::map<std::uint64_t, std::uint64_t> counts;  // equal sizes are one request line
    for (std::uint64_t s : sizes) {
        total += s;
        largest = std::max(largest, s);
        ++counts[s];
    }
    w.description =
        fmt::format("{} modules ({} in all, the largest {} B), each hashed once per sha256 and sha512 kernel",
                    sizes.size(), format_size(total), largest);
    w.source = "module sizes from " + from +
               "; the kernel checks a module's signature over its whole (uncompressed) image in "
               "one digest call (CONFIG_MODULE_SIG_SHA256/SHA512)";
    for (const char* algorithm : {"sha256", "sha512"})
        for (const auto& [bytes, count] : counts) w.requests.push_back({algorithm, bytes, count, 0});
    return w;
}

Workload workload_from_csv(const std::string& text, const std::string& source) {
    Workload w;
    w.name = source;
    w.from_csv = true;
    w.source = "requests from " + source;
    std::istringstream in(text);
    std::string raw;
    int lineno = 0;
    bool first = true;
    std::uint64_t total = 0;
    while (std::getline(in, raw)) {
        ++lineno;
        const std::string line = trim(raw);
        if (line.empty() || line[0] == '#') continue;
        const bool header = first && line == kWorkloadCsvHeader;
        first = false;
        if (header) continue;
        auto bad = [&](const std::string& why) {
            return std::invalid_argument(fmt::format("{}:{}: {} in '{}' (expected {}, e.g. sha256-avx2,1MiB,10)",
                                                     source, lineno, why, line, kWorkloadCsvHeader));
        };
        const auto f = split_fields(line);
        if (f.size() != 3) throw bad(fmt::format("{} fields", f.size()));
        if (f[0].empty()) throw bad("an empty kernel");
        WorkloadRequest r;
        r.target = f[0];
        r.line = lineno;
        try {
            r.bytes = parse_size(f[1], "bytes");
        } catch (const std::invalid_argument& e) {
            throw bad(e.what());
        }
        std::size_t used = 0;
        try {
            const unsigned long long c = std::stoull(f[2], &used);
            r.count = c;
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == 0 || used != f[2].size() || f[2][0] == '-' || r.count == 0)
            throw bad("count '" + f[2] + "' is not a whole number greater than 0");
        total += r.count;
        w.requests.push_back(r);
    }
    if (w.requests.empty())
        throw std::invalid_argument(
            fmt::format("{}: no requests (an empty file, or only a header and comments); write one row per "
                        "request size: {}, e.g. sha256-avx2,1MiB,10",
                        source, kWorkloadCsvHeader));
    w.description = fmt::format("{} request lines, {} requests per kernel named", w.requests.size(), total);
    return w;
}

std::vector<std::uint64_t> parse_module_sizes(const std::string& text, const std::string& source) {
    std::vector<std::uint64_t> out;
    std::istringstream in(text);
    std::string raw;
    int lineno = 0;
    while (std::getline(in, raw)) {
        ++lineno;
        const std::string line = trim(raw);
        if (line.empty() || line[0] == '#') continue;
        try {
            const auto sizes = parse_size_list(line, std::uint64_t{1} << 40, "module size");
            out.insert(out.end(), sizes.begin(), sizes.end());
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument(
                fmt::format("{}:{}: {}; give one size per line (e.g. from `find /lib/modules/$(uname -r) "
                            "-name '*.ko*' -printf '%s\\n'`) or one comma-separated list",
                            source, lineno, e.what()));
        }
    }
    if (out.empty())
        throw std::invalid_argument(
            fmt::format("{}: no module sizes; give one size per line or one comma-separated list", source));
    return out;
}

bool is_module_file(const std::string& name) {
    return ends_with(name, ".ko") || ends_with(name, ".ko.gz") || ends_with(name, ".ko.xz") ||
           ends_with(name, ".ko.zst");
}

std::uint64_t module_hashed_bytes(const std::string& name, std::string_view head, std::string_view tail,
                                  std::uint64_t file_bytes) {
    if (ends_with(name, ".ko")) return file_bytes;
    if (ends_with(name, ".ko.gz"))  // ISIZE: the uncompressed size mod 2^32 (modules are far smaller)
        return head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
                       static_cast<unsigned char>(head[1]) == 0x8b && tail.size() >= 4
                   ? le(tail, tail.size() - 4, 4)
                   : 0;
    if (ends_with(name, ".ko.xz"))
        return head.size() >= 6 && head.substr(1, 5) == std::string_view("7zXZ\0", 5) ? xz_uncompressed_bytes(tail) : 0;
    if (ends_with(name, ".ko.zst")) return zstd_content_bytes(head);
    return 0;
}

}  // namespace fputune
