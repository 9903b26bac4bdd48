// SPDX-License-Identifier: MIT
// `fputune compare A B`: per variant the change in core cycles per byte (p50 and the bound) and in the
// recommended limit between two sweeps (or model files), or in cycles per byte between two bench files,
// each with a significance verdict from the two files' own confidence intervals (as Google Benchmark's
// compare.py gives one from its repetitions).
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model_file.hpp"
#include "recommend.hpp"

namespace fputune {

inline constexpr const char* kCompareSchema = "fputune.compare/1";

// A value and its two-sided 95 % interval [lo, hi]; `t` is the quantile the interval was made with
// (Student's t of the fit's degrees of freedom, 1.96 for a normal one), so a half-width / t is a
// standard error. lo == hi: no interval known.
struct Estimate {
    double value = 0, lo = 0, hi = 0, t = 1.959963984540054;
    bool has_interval() const { return hi > lo; }
};

// How one quantity moved from A to B.
struct Change {
    bool compared = false;  // false: one side lacks it (`why` says which and why)
    std::string why;
    Estimate a, b;
    double shown_a = 0, shown_b = 0;  // what is printed (for a limit: the emitted, rounded limit)
    double rel = 0;  // (shown_b - shown_a) / shown_a
    double p = 1;  // two-sided p-value of "no change" (normal approximation); NaN when neither has an interval
    bool significant = false;  // p under its Holm level (alpha / tests left) and |rel| >= min_change
    std::string verdict;  // "no significant change", "faster"/"slower" (c/B), "larger"/"smaller" (limit), "no interval"
    // The test's 95 % spread relative to A (1.96 x the combined standard error / A), and the part of it that
    // the contention term adds (in quadrature: 0 when it adds none).
    double spread = 0, contention_spread = 0;
    // With the host's move (HostMove): the change beyond it (B moved back by the move, against A), which is
    // what is tested; the part of spread the move's own spread adds. Else beyond_host = rel, host_spread = 0.
    double beyond_host = 0, host_spread = 0;
};

// How the host itself moved between the two files, for one quantity (p50 c/B, bound c/B, limit): the
// median log change over every compared variant (shift: all kernels at once, the machine or a change shared
// by all of them), and how far the variants' changes scatter about it (sd, robust: 1.4826 x their median
// absolute deviation). Two back-to-back sweeps of one binary on a shared host
// moved every cold kernel alike by up to 4-10 % (Intel Xeon VM, 2026-12-02: the cold limits' median moved
// 1.00 -> 0.96 -> 1.01 between sweeps five minutes apart, and `compare` called 1-3 variants of each such pair
// slower or faster). Known with at least kHostMoveMinRows variants (fewer cannot tell a host from a change), and
// only between two sweeps of one kind of CPU: between two CPUs the common move is what the comparison is for.
//
// The host's memory moves a cold section by as much as the section waits on it. Over twelve back-to-back pairs
// of default sweeps on a 2-vCPU AMD Zen 5 VM (2026-12-03), the cold bounds of the 63-68 variants that wait on
// memory for 5 % of their time or more moved by -8.8 % to +4.8 % at the median from one sweep to the next, the
// others' by -1.5 % to +0.6 %; about a line in that share their changes scattered 1.9-4.6 %, the others'
// 0.7-1.5 %. One median and one scatter for all judged the compute-bound variants by the memory-bound ones'
// scatter. So where kHostMoveMinRows rows or more wait on memory (m >= kMemoryBoundShare,
// CompareRow::memory_share) and as many do not, the move is a line in m: log(B / A) = shift + memory x m
// (Theil-Sen: the median slope over the pairs of rows whose m differ by 0.05 or more, then the median intercept;
// it came out -0.21 to +0.17 per unit of m), and a row's scatter is that of the rows nearest it in m about the
// line (sd_at). With eight kernels made slower by hand in each pair's second file, the tests found 51 of 96 where
// one median found 32 (a +5 % sha1-shani 9 of 12 against 1, a +6 % chacha20-avx2 10 against 1), and the twelve
// plain pairs flagged one row in all, as one median did (sha1-ssse3, whose two s disagreed: contention_widening
// now counts that, and none is flagged; docs/report.md).
inline constexpr double kMemoryBoundShare = 0.05;  // a row that waits on memory this share of its time or more
struct HostMove {
    bool known = false;
    std::size_t rows = 0;
    double shift = 0;  // log(B / A): the median over the variants (with the memory term: of a row with m = 0)
    double sd = 0;  // relative standard error added to each test, in quadrature (with the memory term: of m < 0.05)
    bool memory_known = false;
    std::size_t memory_rows = 0;  // rows with m >= kMemoryBoundShare
    double memory = 0;  // the further log change per unit of m
    double memory_sd = 0;  // the scatter of the rows with m >= kMemoryBoundShare about the line
    std::vector<std::pair<double, double>> residuals;  // each row's (m, log change less the line)
    double shift_at(double m) const { return shift + (memory_known ? memory * m : 0); }
    // Without the memory term, sd; with it, the scatter about the line (1.4826 x the median absolute residual) of
    // the max(kHostMoveMinRows, rows / 4) rows nearest m.
    double sd_at(double m) const;
};
inline constexpr std::size_t kHostMoveMinRows = 10;
// From the changes of one quantity over every row (tested without a host move) and each row's memory share
// (none: the median alone).
HostMove host_move(const std::vector<const Change*>& changes, const std::vector<double>& memory_shares = {});

struct CompareRow {
    std::string kernel, algorithm;
    Cache cache = Cache::cold;  // sweeps: the cache state compared
    std::uint64_t bytes = 0;  // bench: the size per call
    Change p50_cpb, bound_cpb, limit;
    // How far the contention either file met may have moved this variant, as a relative standard error added
    // to every test of the row (contention_widening), and on what it rests, in words.
    double contention_se = 0;
    std::string contention_basis;
    // The share of a cold section's time it waits on memory: 1 - its hot p50 slope / its cold one (the mean of
    // A's and B's where both have both states; 0 for a hot row, or where no hot line is known). HostMove.
    double memory_share = 0;
    std::string
        verdict;  // "no significant change", or the significant changes ("slower p50 +8.1 %, limit smaller -7.9 %")
    bool changed() const { return p50_cpb.significant || bound_cpb.significant || limit.significant; }
};

// Per algorithm: the constant a kernel would ship (the smallest limit over its variants) and the SIMD
// threshold, A against B, with the variant that sets each. No test of its own: the variant rows above
// carry the significance; a different binding variant is itself the news (a variant added or removed).
struct CompareAlgorithm {
    std::string algorithm;
    bool in_a = false, in_b = false;
    std::optional<std::uint64_t> limit_a, limit_b;  // empty: no size fits
    std::string bound_by_a, bound_by_b;
    double rel = 0;  // (limit_b - limit_a) / limit_a, when both fit
    std::optional<SimdThreshold> threshold_a, threshold_b;
};

struct CompareSide {
    std::string path, kind, machine, date, tool_version, tool_commit, masked_features;
    double contention = 0;  // the median contention level the sweep met (0: unknown)
    double memory_ns = 0;  // the sweep's memory probe, its median (0: unknown; lib/clock.hpp probe_memory_ticks)
};

struct CompareOptions {
    RecommendOptions recommend;  // budget, frequency, margin, cache, quantile, rounding: for the limits
    double alpha = 0.05;  // family-wise significance level: of all the comparison's tests together (Holm)
    // Smallest relative change called significant, like pyperf's --min-speed: the fits' intervals know
    // the noise within one sweep, not how far a shared host moves between two (see docs/results.md, How sure).
    double min_change = 0.03;
};

struct CompareResult {
    std::string kind;  // "sweep" (sweeps and model files) | "bench"
    CompareSide a, b;
    CompareOptions options;
    std::vector<CompareRow> rows;
    std::vector<CompareAlgorithm> algorithms;  // sweeps only
    std::vector<std::string> only_a, only_b;  // variants (and sizes) found in one file only
    std::vector<std::string> notes;
    std::size_t tests = 0;  // the tests the significance level is shared by (Holm's step-down)
    HostMove host_p50, host_bound, host_limit;  // sweeps with enough variants: each change is judged beyond these
    std::size_t changed() const;
};

// The p-value and verdict of one change; `lower_is_better` picks faster/slower, else larger/smaller.
// `extra_rel_se`: a further standard error, relative to A's value, added in quadrature to the two intervals'
// (the contention term below). `host`: B is moved back by the host's shift before the test, and the host's
// sd added in quadrature too, both at the row's `memory_share`; the verdict and min_change are then of the
// change beyond the host's.
Change compare_estimates(const Estimate& a, const Estimate& b, double shown_a, double shown_b, bool lower_is_better,
                         const CompareOptions& o, double extra_rel_se = 0, const HostMove* host = nullptr,
                         double memory_share = 0);

// What the contention either sweep met leaves uncertain in a change of one variant, as a relative standard
// error. Each side with a known sensitivity s was moved to quiet with it: the error of s (its 95 % interval /
// 3.92) times (c - 1) at the median level c that side met; and where both are known but differ by more than
// their intervals explain, the excess too, at the higher of the two levels (each side was moved with its own s,
// and which is right for both is not known: between two sweeps a minute apart on a 2-vCPU AMD Zen 5 VM,
// 2026-12-03, sha1-ssse3's read -0.16 and 2.3, and its p50, moved to quiet with each, differed by 3.5 %). A
// side without one (s unknown) is as measured at
// its c, anywhere from immune to as exposed as the probe (s in 0..1): both unknown, |c_B - c_A| / 1.96; one
// unknown, (c - 1) / 1.96 on that side. 0 when either file recorded no contention. `basis` says which.
// `quiet`: the level both sides' bounds are stated at (1, or the higher of the two files' floors, quiet_level):
// each side's move is from its c down to it.
double contention_widening(const CacheModel& a, double level_a, const CacheModel& b, double level_b, std::string& basis,
                           double quiet = 1);

// Holm's step-down over every compared test of `rows` (p50, bound, limit): the i-th smallest p of m must be
// below alpha / (m - i), up to the first that is not; a test that fails it is no longer significant, and
// every row's verdict is written again. The family-wise error of the whole comparison is then alpha. Returns m.
std::size_t holm_step_down(std::vector<CompareRow>& rows, const CompareOptions& o);

// Two fitted inputs (sweeps, model files, reference CSVs).
CompareResult compare_models(const ModelFile& a, const ModelFile& b, const CompareOptions& o);
// Two fputune.bench/1 files (parsed JSON); throws InputError naming the path for a malformed one.
CompareResult compare_bench(const nlohmann::json& a, const std::string& path_a, const nlohmann::json& b,
                            const std::string& path_b, const CompareOptions& o);
// Reads both by content and compares them; both must be of one kind (sweep/model or bench).
CompareResult compare_files(const std::string& path_a, const std::string& path_b, const CompareOptions& o);

// The rows that regressed by more than `pct` percent (significantly slower, or a significantly smaller
// limit; beyond the host's move where one is known), as "kernel: what".
std::vector<std::string> regressions(const CompareResult& r, double pct);

nlohmann::json to_json(const CompareResult& r);

}  // namespace fputune
