// SPDX-License-Identifier: MIT
// Upstream's limits: what Linux's x86 glue code does today, to judge by the same model as ours.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fputune {

// Upstream's limits per algorithm (data/reference/linux-x86-limits.csv for hashes, MACs and CRCs, and
// data/reference/linux-x86-sections.csv for the ciphers and RAID, both compiled in).
struct UpstreamLimit {
    std::string algorithm;
    std::optional<std::uint64_t> fpu_chunk_bytes;  // empty: "none", the whole request in one section
    std::string simd_min_len;  // as written ("none", "288")
    std::string source;  // the kernel source file it was read from
    // From linux-x86-sections.csv only (empty for the hash family):
    std::vector<std::string> fputune;  // our algorithms (and series) it judges
    std::string shape;  // what one section covers (kernel.hpp SectionShape)
    std::optional<std::uint64_t> judged_at_bytes;  // where an uncapped section is judged (a message, a stripe)
    std::string count;  // multi-source: "disks" (sources + destinations) or "sources"
    std::string judged_because;  // why there, in words

    // The bytes a section of upstream's holds, for judging it: its cap, else judged_at_bytes; empty: unbounded.
    std::optional<std::uint64_t> judged_bytes() const { return fpu_chunk_bytes ? fpu_chunk_bytes : judged_at_bytes; }
};
const std::vector<UpstreamLimit>& upstream_limits();
// For one of our algorithms (or a series' algorithm, "aes-256-gcm.aad", "raid6.x8"): sha224 and sha384 share
// sha256's and sha512's glue code upstream, so they take those limits; the ciphers and RAID are found by the
// fputune column of linux-x86-sections.csv, a multi-source series by its kernel's algorithm.
const UpstreamLimit* find_upstream_limit(const std::string& algorithm);

// "raid6.x8" -> 8; 0 for anything that is not a multi-source series' algorithm or name.
std::uint32_t series_sources(const std::string& name);

}  // namespace fputune
