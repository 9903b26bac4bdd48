// SPDX-License-Identifier: MIT
// Upstream's limits: what Linux's x86 glue code does in each kernel version the data knows, to judge by the same
// model as ours.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fputune {

// Upstream's limits per algorithm and kernel version (data/reference/linux-x86-limits.csv for hashes, MACs and
// CRCs, and data/reference/linux-x86-sections.csv for the ciphers, RAID and sha256_finup_2x, both compiled in).
struct UpstreamLimit {
    std::string algorithm;
    std::vector<std::string> linux_versions;  // the versions the row holds for ("6.12", "6.15", "7.1")
    std::optional<std::uint64_t> fpu_chunk_bytes;  // empty: "none", the whole request in one section
    std::string simd_min_len;  // as written ("none", "288")
    std::string source;  // the kernel source file it was read from, in those versions
    std::string evidence;  // what says so: author, year, Message-ID or tip commit; or "unchanged"
    // From linux-x86-sections.csv only (empty for the hash family):
    std::vector<std::string> fputune;  // our algorithms (and series), or kernels, it judges
    std::string shape;  // what one section covers (kernel.hpp SectionShape); "absent": no such code there
    std::optional<std::uint64_t> judged_at_bytes;  // where an uncapped section is judged (a message, a stripe)
    std::string count;  // multi-source: "disks" (sources + destinations) or "sources"
    std::optional<std::uint32_t> sources_per_section;  // multi-source: most sources per section; empty: all
    std::string judged_because;  // why there, in words

    // The bytes a section of upstream's holds, for judging it: its cap, else judged_at_bytes; empty: unbounded.
    std::optional<std::uint64_t> judged_bytes() const { return fpu_chunk_bytes ? fpu_chunk_bytes : judged_at_bytes; }
    // That version has no such code: the kernel runs another variant there (judged as unknown, with this row's why).
    bool absent() const { return shape == "absent"; }
    // "Linux 7.1: lib/crypto/x86/gf128hash.h; Biggers 2026, <...>": what a table row names as its source.
    std::string cited(const std::string& version) const;
};
const std::vector<UpstreamLimit>& upstream_limits();

// The kernel versions the data knows, oldest first ("6.12", "6.15", "7.1"), and the newest (the default).
const std::vector<std::string>& upstream_versions();
const std::string& newest_upstream_version();
std::string upstream_versions_text(const std::string& separator = "|");  // "6.12|6.15|7.1"
// "" -> the newest; a version the data knows -> itself; anything else throws std::invalid_argument naming the
// known ones (`option` names the flag in the message).
std::string resolve_linux_version(const std::string& text, const std::string& option = "--linux");
// Whether `version` is at least `since` ("7.1" >= "6.15"); both as "major.minor".
bool linux_at_least(const std::string& version, const std::string& since);

// For one of our algorithms (or a series' algorithm, "aes-256-gcm.aad", "raid6.x8") in one kernel version (""
// = the newest): sha224 and sha384 share sha256's and sha512's glue code upstream, so they take those limits; the
// ciphers and RAID are found by the fputune column of linux-x86-sections.csv, a multi-source series by its
// kernel's algorithm. With `kernel`, a row naming that kernel (a variant upstream adds or lacks in that version)
// wins over its algorithm's. nullptr when that version has no row.
const UpstreamLimit* find_upstream_limit(const std::string& algorithm, const std::string& version = "",
                                         const std::string& kernel = "");

// Upstream's SIMD threshold for one of our algorithms as its table writes it ("288", "none"; "" when unknown): a
// cipher judged by its section row takes it from the limits table, where upstream names it ("chacha" for chacha20).
std::string upstream_simd_min(const std::string& algorithm, const std::string& version = "");

// "raid6.x8" -> 8; 0 for anything that is not a multi-source series' algorithm or name.
std::uint32_t series_sources(const std::string& name);

// What a section's bound leaves out from 6.15 on (softirqs deferred to kernel_fpu_end()); "" before 6.15.
std::string softirq_tail_note(const std::string& version);

}  // namespace fputune
