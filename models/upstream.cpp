// SPDX-License-Identifier: MIT
// Reads the upstream table compiled in from data/reference/linux-x86-limits.csv (upstream_data.cpp.in).
#include "upstream.hpp"

#include <sstream>

namespace fputune {

extern const char* const kUpstreamLimitsCsv;

const std::vector<UpstreamLimit>& upstream_limits() {
    static const std::vector<UpstreamLimit> table = [] {
        std::vector<UpstreamLimit> out;
        std::istringstream in(kUpstreamLimitsCsv);
        std::string line;
        bool header = false;
        while (std::getline(in, line)) {
            if (line.empty() || line[0] == '#') continue;
            if (!header) {
                header = true;  // algorithm,x86_variants,fpu_chunk_bytes,simd_min_len,notes,source
                continue;
            }
            std::vector<std::string> f;
            std::stringstream ls(line);
            std::string cell;
            while (std::getline(ls, cell, ',')) f.push_back(cell);
            if (f.size() < 4) continue;
            UpstreamLimit u;
            u.algorithm = f[0];
            if (f[2] != "none") u.fpu_chunk_bytes = std::stoull(f[2]);
            u.simd_min_len = f[3];
            u.source = f.back();
            out.push_back(u);
        }
        return out;
    }();
    return table;
}

const UpstreamLimit* find_upstream_limit(const std::string& algorithm) {
    // Upstream's table names ChaCha20's glue "chacha" (lib/crypto/x86/chacha.h serves ChaCha20 and ChaCha12).
    std::string alg = algorithm == "sha224"     ? "sha256"
                      : algorithm == "sha384"   ? "sha512"
                      : algorithm == "chacha20" ? "chacha"
                                                : algorithm;
    for (const auto& u : upstream_limits())
        if (u.algorithm == alg) return &u;
    return nullptr;
}

}  // namespace fputune
