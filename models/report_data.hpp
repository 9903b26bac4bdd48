// SPDX-License-Identifier: MIT
// What `fputune report` draws, as numbers: per variant the trade-off between section length, section
// time at the minimum frequency and throughput; per algorithm the one-shot cost of every path; per
// machine the FPU save/restore costs; the provenance of every input. No drawing here (see apps/).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "contention.hpp"
#include "model_file.hpp"
#include "recommend.hpp"
#include "simulate.hpp"
#include "sweep_cycles.hpp"
#include "sweep_file.hpp"

namespace fputune {

// One input of a report. A sweep keeps its points (the charts show them) and is fitted here; a model
// file or a reference CSV has lines only. An input with nothing to fit (an empty sweep, a model file
// without models) still shows its machine: `model` is empty and `notes` say why.
struct ReportInput {
    std::string path;
    std::string kind;  // "sweep" | "model" | "reference-csv"
    std::string schema;  // as read ("fputune.sweep/1"), "" for a CSV
    std::string machine;  // the CPU's name
    nlohmann::json cpu;  // the `fputune cpu` probe (an object; may lack fields in old or CSV inputs)
    nlohmann::json doctor;  // the sweep's `doctor` verdict when it has one, else null
    nlohmann::json sampling;  // the sweep's sampling summary (rounds, samples measured again, disturbances), else null
    std::optional<ModelFile> model;  // the fitted lines and thresholds
    std::optional<SweepFile> sweep;  // the measured points
    std::vector<std::string> notes;  // what this input cannot show, and why
};

// Reads a sweep, a model file or a reference CSV (by content). Throws InputError naming the path
// for a file that is none of those (another fputune schema, foreign JSON, truncated) or is malformed.
// `kernel_globs` limit the kernels as in `recommend -k`; the bounds are stated at `contention` as recommend's
// (restate_contention, models/contention.hpp) where the input knows its kernels' sensitivities.
ReportInput load_report_input(const std::string& path, const std::vector<std::string>& kernel_globs = {},
                              const ContentionTarget& contention = {});

struct XY {
    double x = 0, y = 0;
};

// One machine's view of one variant; times in seconds at the minimum frequency.
struct TradeoffCurve {
    std::size_t input = 0;  // index into ReportData::inputs
    Cache cache = Cache::cold;  // the cache state recommend used for it
    std::vector<double> bytes;  // a log-spaced grid over the chart's x range
    std::vector<double> p50_s;  // the p50 line (typical section)
    std::vector<double> bound_s;  // the bound line (p99 of uninterrupted samples or p90, as --quantile)
    std::vector<double> bound_lo_s, bound_hi_s;  // its 95 % band; recommend uses the upper edge
    std::vector<double> share;  // throughput against no limit, B·n / (A + B·n) of the p50 line, 0..1
    std::vector<XY> points_p50;  // measured (bytes, seconds); empty for a model file or a CSV
    std::vector<XY> points_bound;  // measured bound quantile on the sizes the bound line was fitted on
    std::vector<XY>
        points_bound_unfitted;  // the same quantile on longer sections (not fitted, see kBoundFitMaxSeconds)
    VariantResult result;  // recommend's answer on this machine
    bool binds = false;  // this machine gives the variant's (most conservative) limit
};

struct TradeoffChart {
    std::string algorithm, kernel;
    double x_min = 0, x_max = 0;  // bytes
    std::vector<TradeoffCurve> curves;  // one per machine that has the variant
    VariantResult bound;  // the most conservative result (the limit recommend emits)
    std::vector<std::string> notes;
};

// One path's one-shot cost (init + update + final; for an FPU path the state save and restore too).
struct CostCurve {
    std::string kernel;
    std::string dirty;  // as the sweep names it: "none" for a no-FPU path (or a state already saved)
    bool needs_fpu = false;
    std::vector<XY> cycles;  // (input bytes, p50 core cycles)
};

struct ThresholdChart {
    std::string algorithm;
    std::size_t input = 0;
    std::vector<CostCurve> curves;  // no-FPU paths first, then the SIMD paths, each by dirty state
    std::optional<SimdThreshold> crossover;  // the one recommend uses on this machine (fastest SIMD variant)
    bool binds = false;  // the algorithm's threshold comes from this machine
};

struct AlgorithmReport {
    std::string algorithm;
    AlgorithmRow row;  // recommend's per-algorithm answer
    std::optional<UpstreamLimit> upstream;
    std::vector<TradeoffChart> tradeoffs;
    std::vector<ThresholdChart> thresholds;
    std::vector<std::string> notes;  // what cannot be shown, and why
};

// XSAVE cost of the emulated kernel_fpu_begin() (save) and the return to user space (restore).
struct FpuCost {
    std::string dirty;
    double save_ns = 0, restore_ns = 0, pair_ns = 0;
};

struct ReportData {
    RecommendOptions options;
    std::vector<ReportInput> inputs;
    std::vector<std::string> labels;  // per input: "[1] Intel(R) Xeon(R) Processor"
    std::vector<std::vector<FpuCost>> fpu_costs;  // per input (empty when its probe has none)
    std::optional<Recommendation> recommendation;  // empty when no input has a section model
    std::vector<Simulation> simulations;  // each workload with recommend's limits and without
    std::vector<AlgorithmReport> algorithms;
    std::vector<std::string> notes;
};

// Everything the report shows, and `workloads` simulated with the recommended limits (`simulate`).
// Never throws for what an input lacks (that becomes a note); throws std::invalid_argument for bad options.
ReportData build_report(std::vector<ReportInput> inputs, const RecommendOptions& options,
                        const std::vector<Workload>& workloads = {});

// XSAVE costs from a `fputune cpu` probe; empty when it has none.
std::vector<FpuCost> fpu_costs(const nlohmann::json& cpu);

}  // namespace fputune
