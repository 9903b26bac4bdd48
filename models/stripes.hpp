// SPDX-License-Identifier: MIT
// Multi-source kernels (RAID6 gen_syndrome, xor_gen) in the unit a developer uses: a sweep measures each as
// series of N sources x bytes per source (N in kStripeSources, lib/sweep.hpp), each series a kernel of the
// model with its own cost line (bytes per source -> cycles). Between and beyond the measured N the cost is
// linear in N: a section is one pass over its columns, and each further source is one more stream read per
// column (lib/raid6 and xor_gen's loops), so the line through two measured N's holds in between and extends.
// Extends, but not far enough to emit: 23-24 disks at 4 KiB, extrapolated from 4, 8 and 16 sources to fit 30 us
// at 1 GHz, measured p99 34-48 us (AMD EPYC Milan (Zen 3) VM, 2026-12-01). So a count solved here lies within
// the measured N's; `check` still judges a count beyond them on the line, and says so.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "budget.hpp"
#include "macro_names.hpp"  // StripeUnit
#include "model.hpp"

namespace fputune {

// One multi-source kernel on one machine: its series' cost lines by N (warm and, with --zmm-idle, idle).
struct StripeSeries {
    const ModelFile* source = nullptr;
    std::string kernel, algorithm;  // the registry kernel ("raid6-avx512") and algorithm ("raid6")
    StripeUnit unit;
    std::uint32_t max_sources = 0;  // the most the kernel takes (0: not recorded)
    Cache cache = Cache::cold;
    std::map<std::uint32_t, std::vector<const CacheModel*>> by_sources;
};
// Every multi-source kernel of a model file, with the `preferred` cache's lines (else the other's), all of one
// kernel's series in one state: a series measured in the other state only is left out.
std::vector<StripeSeries> stripe_series(const ModelFile& m, Cache preferred);

// Predicted section time (upper bound of the chosen line, at f_min) of N sources x bytes: the slowest state of a
// measured N; linear in N between the measured N's and beyond them (*extrapolated set when beyond; check only).
double stripe_time_s(const StripeSeries& s, std::uint32_t sources, double bytes, const RecommendOptions& o,
                     bool* extrapolated = nullptr);

// The most sources (and disks) whose section of stripe_bytes per source fits the budget, within the measured N's:
// interpolated between two of them, capped at the largest (StripeResult::capped), none below the smallest.
struct StripeResult {
    std::string kernel, algorithm, machine, source;
    Cache cache = Cache::cold;
    StripeUnit unit;
    std::uint64_t stripe_bytes = 4096;
    std::uint32_t max_sources = 0;  // 0: not even one source fits
    std::uint32_t cap = 0;  // the kernel's most sources (the search stops there); 0: none recorded
    double time_s = 0;  // predicted at max_sources
    double one_source_s = 0;  // predicted for one source
    // Never a count outside the measured N's: capped when every measured N fits (max_sources = measured_max,
    // the kernel takes more); below_measured: the line's count below the smallest measured N (max_sources 0).
    bool capped = false;
    // Where capped: the count the line gives past the largest measured N, drawn through it and the smallest (two
    // adjacent N's differ by their noise alone), up to the kernel's most and 4x the largest measured, and its time.
    // Never emitted: the count the closed loop measures next, rather than one more than the last (0: none fits).
    std::uint32_t line_sources = 0;
    double line_time_s = 0;
    std::uint32_t below_measured = 0;
    std::uint32_t measured_min = 0, measured_max = 0;
    std::vector<std::uint32_t> measured;  // every measured N, ascending
    // The measured N's around the answer: the largest that fits (<= max_sources; 0 none) and the smallest that
    // does not (0: every measured N fits).
    std::uint32_t fits_measured = 0, over_measured = 0;
    std::uint32_t count() const { return max_sources ? max_sources + unit.extra : 0; }
};
StripeResult solve_stripe_count(const StripeSeries& s, const RecommendOptions& o, std::uint64_t stripe_bytes = 4096);

// A measured N in words: "32 sources (34 disks)" for raid6, "32 sources" for xor.
std::string stripe_count_text(const StripeResult& r, std::uint32_t sources);
// Where the answer lies among the measured N's: "measured at 16 and 24 sources", "measured at 16 sources".
std::string stripe_bracket_text(const StripeResult& r);

}  // namespace fputune
