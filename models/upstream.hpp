// SPDX-License-Identifier: MIT
// Upstream's limits: what Linux's x86 glue code does today, to judge by the same model as ours.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fputune {

// Upstream's limits per algorithm (data/reference/linux-x86-limits.csv, compiled in).
struct UpstreamLimit {
    std::string algorithm;
    std::optional<std::uint64_t> fpu_chunk_bytes;  // empty: "none", the whole request in one section
    std::string simd_min_len;                      // as written ("none", "288")
    std::string source;                            // the kernel source file it was read from
};
const std::vector<UpstreamLimit>& upstream_limits();
// sha224 and sha384 share sha256's and sha512's glue code upstream, so they take those limits; chacha20 is
// upstream's "chacha".
const UpstreamLimit* find_upstream_limit(const std::string& algorithm);

}  // namespace fputune
