// SPDX-License-Identifier: MIT
// What a cost model is: per kernel and cache state the fitted lines, the SIMD thresholds, and the
// provenance of the data they came from (a sweep or a published table).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fit.hpp"
#include "provenance.hpp"  // tool_version(), tool_commit(), utc_now_iso8601()
#include "sweep_file.hpp"

namespace fputune {

inline constexpr const char* kModelSchema = "fputune.model/1";

struct CacheModel {
    std::string kernel, cache;  // cache: "hot" | "cold"
    LineFit p50;                // typical section cost
    LineFit p90;                // the bound recommendations use (its upper confidence line)
    LineFit p99;                // p99 of uninterrupted samples: the stricter bound (--quantile p99)
    std::vector<std::uint64_t> bytes;  // the sizes the p50 fit used (all)
    std::vector<std::uint64_t> bound_bytes;  // the sizes the p90 and p99 fits used (see kBoundFitMaxSeconds)
};

// Where a SIMD kernel's one-shot cost (state save included) starts to beat the best no-FPU path.
struct SimdThreshold {
    std::string algorithm, kernel, dirty;
    std::string scalar_kernels;     // the no-FPU kernels compared against (best of them per length)
    std::string kind;               // "bytes" | "always" | "never"
    std::uint64_t bytes = 0;        // rounded up to whole blocks; for "always" the block size; 0 for "never"
    std::uint64_t measured_from = 0, measured_to = 0;  // the lengths compared
    double simd_ticks_at_max = 0;   // p50 at the longest length, to pick the fastest variant
};

struct ModelFile {
    std::string schema = kModelSchema;
    std::string tool_version, tool_commit, date;  // who fitted, when
    // The source, carried over from the sweep (or the reference CSV).
    std::string source;        // the path it was read from
    std::string source_kind;   // "sweep" | "reference-csv"
    std::string machine;       // a name for the CPU (brand string), for tables and merges
    nlohmann::json cpu;        // the sweep's full cpu probe
    std::string sweep_date, sweep_tool_version, sweep_tool_commit;
    nlohmann::json options;
    double tsc_hz = 0, core_per_tsc = 1, core_per_tsc_end = 1;
    std::string dirty;         // user state dirtied for the section sweep
    bool partial = false;
    std::vector<std::string> warnings, notes;
    std::vector<KernelInfo> kernels;
    std::vector<CacheModel> models;
    std::vector<SimdThreshold> thresholds;

    const KernelInfo* kernel(const std::string& name) const;
    const CacheModel* model(const std::string& kernel, const std::string& cache) const;
};

// A model file stamped with who fitted it (this tool), when, and from what.
ModelFile new_model(const std::string& source, const std::string& kind);

// A peer is someone else's implementation (OpenSSL, ISA-L, libsodium): compared with, not recommended.
bool is_peer(const KernelInfo& k);

// The name of the machine in a cpu probe: its brand string, else vendor, else "unknown CPU".
std::string machine_name(const nlohmann::json& cpu);

}  // namespace fputune
