// SPDX-License-Identifier: MIT
// The recommendation: every kernel's limit on every machine, merged to the most conservative one per
// kernel and per algorithm, with upstream's limits and the SIMD thresholds beside them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "budget.hpp"
#include "model_file.hpp"
#include "recommend_options.hpp"
#include "stripes.hpp"
#include "thresholds.hpp"
#include "upstream.hpp"

namespace fputune {

struct VariantRow {
    VariantResult bound;  // the most conservative machine's result
    std::vector<VariantResult> per_machine;
};

struct AlgorithmRow {
    std::string algorithm;
    bool fits = false;
    std::uint64_t bytes = 0;
    double time_s = 0;
    std::string kernel, machine;  // the variant and machine that bound it
    double one_block_s = 0;
    bool upstream_known = false;
    std::optional<std::uint64_t> upstream_bytes;
    double upstream_time_s = 0;  // the worst over its variants and machines
    bool upstream_pass = false;
    std::optional<SimdThreshold> threshold;  // fastest SIMD variant's, the largest across machines
    std::string threshold_machine;
    std::string stem;  // of its macro (header.hpp series_algorithm_stem)
    std::optional<std::uint64_t> upstream_judged_at;  // no cap upstream, judged at this section
    std::string upstream_because, upstream_source;  // linux-x86-sections.csv: why there, and where upstream does it
    std::string upstream_cited;  // the row judged: "Linux 7.1: <file>; <evidence>" (UpstreamLimit::cited)
    // The same variant and machine's threshold with the save paid by every one-shot and by none, and
    // what it is made of (see thresholds.hpp), to set against upstream's.
    std::optional<SimdThreshold> threshold_every, threshold_none;
    std::optional<ThresholdParts> threshold_parts;
    std::string upstream_simd_min;  // as upstream's table writes it ("288", "none"); "" when unknown
    // --per-algorithm: the policy that bound `bytes` (selected falls back to slowest where the kernel's
    // choice is unknown) and, for selected, per machine the variant the kernel runs there.
    PerAlgorithm policy = PerAlgorithm::slowest;
    std::vector<std::string> selected;  // "sha256-shani on <machine>"
    std::string selection_note;  // why selected fell back, or what the table does not mirror
};

// A multi-source kernel: the most sources (disks) at a stripe size, on the most conservative machine.
struct StripeRow {
    StripeResult bound;
    std::vector<StripeResult> per_machine;
};

struct MachineInfo {
    std::string machine, source, kind, date, dirty, tool_version, tool_commit;  // dirty: "" when not stated
    double core_per_tsc = 1, tsc_hz = 0;
    std::string kernel_release, doctor;  // the source's Linux and doctor verdict ("" = not recorded)
    std::string closed_loop;  // its sweep's closed loop in one line ("" = none)
    double memory_p50_ticks = 0;  // its sweep's memory probe (ModelFile; 0: unknown)
    std::uint32_t memory_bytes = 0;
};

// Several sweeps of one kind of CPU among the sources (same_cpu): how far each limit moved between them, which
// is how sure one sweep's limit is, from repetition. The limits emitted are the smallest of each (the most
// conservative machine). A limit near a few blocks steps a whole block between sweeps where its unrounded value
// moved a few %: xor-avx.x32 (512 B blocks) was 1536 B in one sweep and 2048 B in the next two on the 2-vCPU
// Intel Xeon VM (2026-12-02), unrounded 1840 / 2081 / 2080 B; so "one block apart" is counted beside 10 %.
inline constexpr double kRepeatWithin = 0.10;
inline constexpr std::size_t kRepeatWidest = 3;
struct RepeatSpread {
    std::string machine;
    std::vector<std::string> sources;  // the sweeps, in the order given
    std::size_t variants = 0;  // the limits (bytes per section) that fit in every one of the sweeps
    double median_spread = 0;  // largest / smallest - 1 of each such limit over the sweeps: the median
    std::size_t within = 0;  // limits whose largest is within kRepeatWithin of the smallest
    std::size_t within_block = 0;  // ... or at most one block above it
    struct Widest {
        std::string kernel;
        Cache cache = Cache::cold;
        std::uint64_t smallest = 0, largest = 0;
        std::uint32_t block_bytes = 0;
        double spread() const { return static_cast<double>(largest) / static_cast<double>(smallest) - 1; }
        bool one_block() const { return largest - smallest <= block_bytes; }  // at most one block apart
    };
    std::vector<Widest> widest;  // up to kRepeatWidest, the widest first
};

struct Recommendation {
    RecommendOptions options;
    std::string tool_version, tool_commit, date;
    std::vector<MachineInfo> machines;
    std::vector<VariantRow> variants;
    std::vector<AlgorithmRow> algorithms;
    std::vector<StripeRow> stripes;  // multi-source kernels: the most sources at 4 KiB stripes
    std::vector<StripeResult> stripe_algorithms;  // per algorithm, the fewest over its variants
    std::vector<RepeatSpread> repeats;  // per kind of CPU swept more than once
    std::vector<std::string> notes;
    std::string dirty_label() const;  // what the thresholds use
    std::string save_label() const;  // how the thresholds pay the state save ("by one one-shot in 193")
};

Recommendation recommend(const std::vector<ModelFile>& sources, const RecommendOptions& options);
// -k chooses what is shown, never what the answer is computed from: `r` recommended from every kernel of the
// sources (an algorithm's constant over all its variants), then only the rows of the kernels the globs name are
// kept (nothing changes without globs).
void keep_shown(Recommendation& r, const std::vector<ModelFile>& sources, const std::vector<std::string>& globs);

}  // namespace fputune
