// SPDX-License-Identifier: MIT
// The fputune.model/1 file: per kernel and cache state the fitted lines, plus the SIMD thresholds,
// and the provenance of the sweep they came from. Also the readers of every input `recommend` takes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fit.hpp"
#include "probe.hpp"  // tool_version(), tool_commit(), utc_now_iso8601()
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

// The p90 and p99 lines (the bounds) are fitted on sections of at most this long (p50), and at least
// on the kBoundFitMinPoints shortest. Longer sections are where a host's interruptions stop being rare
// events and become part of the distribution: on the VM this was built on, the host takes the CPU for
// ~38 us about once per ms, so the p90 of 40-600 us sections jumps by 10-50 % from run to run, and a
// line through them moves the limits with it. Limits for budgets of 10-100 us at >= 1 GHz land on
// sections of 3-30 us on a 3.5 GHz core, well inside this range; the p50 line still spans every size.
inline constexpr double kBoundFitMaxSeconds = 50e-6;
inline constexpr std::size_t kBoundFitMinPoints = 6;

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

// A peer is someone else's implementation (OpenSSL, ISA-L, libsodium): compared with, not recommended.
bool is_peer(const KernelInfo& k);

// The name of the machine in a cpu probe: its brand string, else vendor, else "unknown CPU".
std::string machine_name(const nlohmann::json& cpu);

// Fits every kernel x cache state of the sweep and computes the thresholds. `kernel_globs` (fnmatch
// patterns) limit the kernels; a pattern that matches no kernel with section points is an error, as is
// a complete (not partial) sweep in which one of our FPU kernels has no section points (a peer without
// points, or any kernel of a partial sweep, gets a note).
ModelFile fit_sweep(const SweepFile& sweep, const std::string& source, const std::vector<std::string>& kernel_globs = {});

// Thresholds from the threshold points (see SimdThreshold).
std::vector<SimdThreshold> compute_thresholds(const SweepFile& sweep);

nlohmann::json to_json(const ModelFile& m);
ModelFile model_from_json(const nlohmann::json& j, const std::string& source);

// A reference table "algorithm,bytes,cycles_per_op" (one point per kernel, cycles per op, TSC = core):
// A = 0, B = cycles / bytes; the machine is named from the comment lines ("Intel Cascade Lake ...").
ModelFile read_reference_csv(const std::string& text, const std::string& source);
inline constexpr const char* kReferenceCsvHeader = "algorithm,bytes,cycles_per_op";

// Any input by content: a sweep (fitted here), a model file, or a reference CSV. Throws
// std::runtime_error naming the path and what is wrong.
ModelFile load_models(const std::string& path, const std::vector<std::string>& kernel_globs = {});

}  // namespace fputune
