// SPDX-License-Identifier: MIT
// The budget solver: per kernel the largest section that fits a time budget at a minimum frequency,
// upstream's limit judged by the same model, SIMD thresholds, and a conservative merge across machines.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model_file.hpp"

namespace fputune {

inline constexpr const char* kRecommendationSchema = "fputune.recommendation/1";

// Upstream's limits per algorithm (data/reference/linux-x86-limits.csv, compiled in).
struct UpstreamLimit {
    std::string algorithm;
    std::optional<std::uint64_t> fpu_chunk_bytes;  // empty: "none", the whole request in one section
    std::string simd_min_len;                      // as written ("none", "288")
    std::string source;                            // the kernel source file it was read from
};
const std::vector<UpstreamLimit>& upstream_limits();
// sha224 and sha384 share sha256's and sha512's glue code upstream, so they take those limits.
const UpstreamLimit* find_upstream_limit(const std::string& algorithm);

struct RecommendOptions {
    double budget_s = 0;
    double min_freq_hz = 1e9;
    double margin = 1.0;          // >= 1: the predicted time must fit budget / margin
    std::string round = "block";  // block | kib | pow2
    std::string cache = "cold";   // cold | hot (falls back to the other, with a note, when missing)
    std::string dirty;            // xmm | ymm | zmm for the thresholds; "" = each sweep's own
    std::string quantile = "p99"; // p99 | p90: which cost line bounds a section (p99 = of uninterrupted samples)
    std::string command_line;     // for the provenance
};
// Throws std::invalid_argument naming the option and how to mend it.
void validate(const RecommendOptions& o);
double effective_budget_s(const RecommendOptions& o);
std::string format_margin(double margin);  // "1.0", "1.25"

// The cost line that bounds a section: p90, or p99 of uninterrupted samples.
const LineFit& bound_fit(const CacheModel& m, const std::string& quantile);
// Predicted section time at f_min, upper bound of that line.
double predict_upper_s(const CacheModel& m, double core_per_tsc, double bytes, double min_freq_hz,
                       const std::string& quantile = "p99");

struct VariantResult {
    std::string kernel, algorithm, machine, source, cache;
    std::uint32_t block_bytes = 0;
    bool fits = false;
    double unrounded_bytes = 0;     // the n at which the predicted upper time equals budget / margin
    std::uint64_t bytes = 0;        // the limit, rounded down (whole blocks, KiB or power of two)
    double time_s = 0;              // predicted (upper bound) at `bytes`
    double next_time_s = 0;         // predicted at `bytes` + one granule (over budget by construction)
    double one_block_s = 0;         // predicted for one block
    double throughput_cost = 0;     // A / (A + B·n) of the p50 fit: what the limit costs against none
    bool upstream_known = false;
    std::optional<std::uint64_t> upstream_bytes;  // empty: no limit upstream
    double upstream_time_s = 0;     // infinity when upstream has no limit
    bool upstream_pass = false;
    std::optional<SimdThreshold> threshold;
    std::vector<std::string> notes;
};

struct VariantRow {
    VariantResult bound;                    // the most conservative machine's result
    std::vector<VariantResult> per_machine;
};

struct AlgorithmRow {
    std::string algorithm;
    bool fits = false;
    std::uint64_t bytes = 0;
    double time_s = 0;
    std::string kernel, machine;            // the variant and machine that bound it
    double one_block_s = 0;
    bool upstream_known = false;
    std::optional<std::uint64_t> upstream_bytes;
    double upstream_time_s = 0;             // the worst over its variants and machines
    bool upstream_pass = false;
    std::optional<SimdThreshold> threshold; // fastest SIMD variant's, the largest across machines
    std::string threshold_machine;
};

struct MachineInfo {
    std::string machine, source, kind, date, dirty, tool_version, tool_commit;
    double core_per_tsc = 1, tsc_hz = 0;
};

struct Recommendation {
    RecommendOptions options;
    std::string tool_version, tool_commit, date;
    std::vector<MachineInfo> machines;
    std::vector<VariantRow> variants;
    std::vector<AlgorithmRow> algorithms;
    std::vector<std::string> notes;
    std::string dirty_label() const;        // what the thresholds use
};

Recommendation recommend(const std::vector<ModelFile>& sources, const RecommendOptions& options);

std::string render_table(const Recommendation& r);
nlohmann::json to_json(const Recommendation& r);

// "no size fits: one block (64 B) takes 1.2 us at 1 GHz"
std::string no_fit_message(const VariantResult& v, double min_freq_hz);

}  // namespace fputune
