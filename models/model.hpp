// SPDX-License-Identifier: MIT
// What a cost model is: per kernel and cache state the fitted lines, the SIMD thresholds, and the
// provenance of the data they came from (a sweep or a published table).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "enums.hpp"
#include "fit.hpp"
#include "provenance.hpp"  // tool_version(), tool_commit(), utc_now_iso8601()
#include "sweep_file.hpp"

namespace fputune {

// /2: lines and thresholds in core cycles (/1 had ticks at source.clock.core_per_tsc: read, converted).
inline constexpr const char* kModelSchema = "fputune.model/2";

// The tail sensitivity of a kernel's sections (models/contention.hpp fit_tail_sensitivity): the s that moves the p90
// and the p99 of all of a round's samples from the round's median contention level; not known: s does.
struct TailSensitivity {
    bool known = false;
    double p90 = 0, p99 = 0;
};

// Lines in core cycles: cost(n) = A + B·n, A in cycles, B in cycles per byte.
struct CacheModel {
    std::string kernel;
    Cache cache = Cache::hot;
    LineFit p50;  // typical section cost
    LineFit p90;  // the bound recommendations use (its upper confidence line)
    LineFit p99;  // p99 of uninterrupted samples: the stricter bound (--quantile p99)
    std::vector<std::uint64_t> bytes;  // the sizes the p50 fit used (all)
    std::vector<std::uint64_t> bound_bytes;  // the sizes the p90 and p99 fits used (see kBoundFitMaxSeconds)
    // The statistics the bound lines were fitted on, at each of bound_bytes (empty: a table), and the
    // same per round of the sweep (empty: a sweep without rounds; [round][point]). The sweep spreads every
    // point's samples over rounds across its whole run, so how the rounds differ near a limit is what the
    // host's phases did to it: recommend's interval.
    std::vector<double> bound_p90, bound_p99;
    std::vector<std::vector<double>> round_p90, round_p99;
    // Contention (models/contention.hpp): the sensitivity s of the sections, time(c) = quiet x (1 + s (c - 1)),
    // with its 95 % interval; known = fitted on rounds of differing contention. contention_level: the level c
    // the bound statistics above are stated at (each round moved to it); 0: as measured (nothing known).
    bool contention_known = false;
    double contention_s = 0, contention_s_lo = 0, contention_s_hi = 0;
    double contention_level = 0;
    TailSensitivity contention_tail;  // what moved a round held by the neighbour (models/contention.hpp)
};

// Where a SIMD kernel's one-shot cost (state save included) starts to beat the best no-FPU path.
struct SimdThreshold {
    std::string algorithm, kernel;
    Dirty dirty = Dirty::none;  // the user state the SIMD path saved and restored
    std::string scalar_kernels;  // the no-FPU kernels compared against (best of them per length)
    ThresholdKind kind = ThresholdKind::bytes;
    std::uint64_t bytes = 0;  // rounded up to whole blocks; for "always" the block size; 0 for "never"
    std::uint64_t measured_from = 0, measured_to = 0;  // the lengths compared
    double simd_cycles_at_max = 0;  // p50 at the longest length, to pick the fastest variant
    // How the state save is paid (see thresholds.hpp): by one one-shot in `save_every` (1: by every one).
    std::uint64_t save_every = 1;
    double save_cycles = 0;  // the save + restore of `dirty` one one-shot pays (0 for none)
    std::string save_from;  // "threshold points" (dirty minus none), "xsave probe", or "" (none)
    // The curve the threshold was read from (empty in a model file from before it): per length the
    // SIMD one-shot with its save paid every time, and the best no-FPU one (p50, core cycles).
    std::vector<std::uint64_t> lengths;
    std::vector<double> simd_cycles, scalar_cycles;
    std::uint32_t block_bytes = 0;  // the SIMD kernel's block, to which the threshold is rounded up
};

struct ModelFile {
    std::string schema = kModelSchema;
    std::string tool_version, tool_commit, date;  // who fitted, when
    // The source, carried over from the sweep (or the reference CSV).
    std::string source;  // the path it was read from
    std::string source_kind;  // "sweep" | "reference-csv"
    std::string machine;  // a name for the CPU (brand string; "host (brand)" for a sweep naming its host)
    std::string closed_loop;  // the sweep's closed loop in one line (models/closed_loop.hpp; "" = none)
    std::string doctor_verdict;  // the sweep's doctor verdict (calm, noisy, unfit; "" = none recorded)
    nlohmann::json cpu;  // the sweep's full cpu probe
    std::string sweep_date, sweep_tool_version, sweep_tool_commit;
    nlohmann::json options;
    // core_per_tsc: the ratio the source's cycles refer to (see fit_sweep); 1 for a reference CSV.
    double tsc_hz = 0, core_per_tsc = 1, core_per_tsc_end = 1;
    std::optional<Dirty> dirty;  // user state dirtied for the section sweep (none given: a reference CSV)
    bool partial = false;
    std::vector<std::string> warnings, notes;
    std::vector<KernelInfo> kernels;
    std::vector<CacheModel> models;
    std::vector<SimdThreshold> thresholds;
    // The contention the bounds assume (recommend --contention): "quiet", "observed", a factor ("1.5"); ""
    // when the source recorded none (a sweep from before the probe, a table). contention_observed: the
    // sweep's p90 level (0: unknown).
    std::string contention;
    double contention_observed = 0;
    // The level "quiet" means for this source (quiet_level, models/contention.hpp): 1, or where the sweep met
    // c < kContendedLevel in fewer than a tenth of its probes, its p10 level: no bound is stated below it.
    double contention_floor = 1;
    double contention_median = 0;  // the sweep's p50 level (0: unknown): what `compare` sets against the other file
    // The sweep's memory probe (SweepFile::memory): a read of memory_bytes in no cache took memory_p50_ticks TSC
    // ticks at the median (0: unknown). What `verify` (through the header) and `compare` set theirs against.
    double memory_p50_ticks = 0;
    std::uint32_t memory_bytes = 0;
    double memory_p50_ns() const { return memory_p50_ticks > 0 && tsc_hz > 0 ? 1e9 * memory_p50_ticks / tsc_hz : 0; }
    // Every model of the source before a -k filter took some away (empty: none did): the prior of the round
    // spread (budget.cpp) is drawn from these, so a kernel's limit does not depend on what else was asked for.
    std::vector<CacheModel> prior_models;

    const KernelInfo* kernel(const std::string& name) const;
    const CacheModel* model(const std::string& kernel, Cache cache) const;
};

// The features the sweep masked (its options' "masked_features"; "" when none or not recorded).
std::string masked_features(const ModelFile& m);

// Both files from one kind of CPU (vendor, family, model, stepping and brand of their cpu probe) with the same
// features masked: two sweeps of one machine, whose differences are the host's and the measurement's.
bool same_cpu(const ModelFile& a, const ModelFile& b);

// A model file stamped with who fitted it (this tool), when, and from what.
ModelFile new_model(const std::string& source, const std::string& kind);

// Providers of the variants limits are for: ours, the kernel's own drivers as a published table
// measured them (read_reference_csv names them "reference"; the registry never does), and the kernel's
// own asm built from a tree (kernels/linux: "linux <version>").
inline constexpr const char* kOwnProvider = "fputune";
inline constexpr const char* kReferenceProvider = "reference";
inline constexpr const char* kLinuxProviderPrefix = "linux ";

// A peer is someone else's implementation (OpenSSL, ISA-L, libsodium): compared with, not recommended.
// Any provider but those above, an empty one included: on every kernel of the registry this is the
// registry's is_peer(), which a test checks.
bool is_peer(const KernelInfo& k);

// The name of the machine in a cpu probe: its brand string, else vendor, else "unknown CPU".
std::string machine_name(const nlohmann::json& cpu);

}  // namespace fputune
