// SPDX-License-Identifier: MIT
// The sweep's closed loop (docs/measuring.md, "Measure what you emit"): after a first pass, the limits and
// counts the sweep's own points give for a question, the points that measure each at its exact size and
// around it, and the judgement of what was measured there. Pure functions of the sweep file; the sweep
// (apps/sweep_loop.cpp) measures.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "contention.hpp"
#include "recommend_options.hpp"
#include "sweep_file.hpp"

namespace fputune {

// One constant the sweep's file gives for the question: a variant's limit in bytes per section, or a
// multi-source kernel's count of sources at its stripe size.
struct LoopConstant {
    std::string series;  // the series measured: a variant's own ("sha256-avx2", "raid6-avx2.x8"), or for a
                         // count the series of that many sources ("raid6-avx2.x21")
    std::string kernel;  // the registry kernel it is a series of
    Cache cache = Cache::cold;
    std::uint64_t bytes = 0;  // the section (per source for a multi-source series)
    std::uint32_t sources = 0;  // a count: its sources (0: a limit in bytes)
    std::uint32_t block_bytes = 0;
    double lo_bytes = 0, hi_bytes = 0;  // a limit's interval (a count: the count's sources both)
    double predicted_s = 0;  // recommend's bound at `bytes` (a count: at `sources`)
    HeaderContention contention;  // the level its bound is stated at and the sensitivity, as a header says it
    // A limit: sizes inside the gap its series crosses the budget in (bracket_gap); none where the sizes
    // measured there are within kBracketGap of each other.
    std::vector<std::uint64_t> bracket_bytes;
};

// The constants a header would carry for `o` from this file alone (fit_sweep, the question's contention,
// recommend). `source` names the file in messages.
std::vector<LoopConstant> provisional_constants(const SweepFile& f, const std::string& source,
                                                const RecommendOptions& o);

// A point the file lacks: a series (a count's too, which may be new to the file) at one size, in one state.
struct LoopPoint {
    std::string series, kernel;
    Cache cache = Cache::cold;
    std::uint64_t bytes = 0;
    std::uint32_t sources = 0;  // > 0: a series of that many sources
    bool again = false;  // the file holds it unsettled: measured again, the new statistics replace it
    bool operator==(const LoopPoint&) const = default;
};
// Where a limit's series crosses the budget, measured: the largest size whose bound statistic (check_constant's,
// at the constant's contention) is within the budget, and the next larger size measured. Where those are
// further apart than kBracketGap, the first pass after the coarse one also measures sizes between them, in
// equal ratios of at most kBracketStep (to the nearest block), kBracketMost at most, so the file holds the
// crossing itself. Cold raid6-sse2.x32 on the Intel Xeon VM (2026-12-02) cost 17 k cycles at 512 B per disk and
// 37 k at 1 KiB, with a 30 k budget and nothing measured between; with these points, 640 and 832 B took 19.8
// and 24.2 k. About 60-80 more points in a default sweep (of ~1050 in that pass), as many of them settled.
inline constexpr double kBracketGap = 1.25, kBracketStep = 1.19;
inline constexpr std::size_t kBracketMost = 2;
std::vector<std::uint64_t> bracket_gap(const SweepFile& f, const LoopConstant& c, const BudgetQuestion& q);

// The points a limit depends on: its series' points in its cache state from kDependsLo to kDependsHi times its
// size (the bound line near the limit, and the point scatter of its interval, rest on them; budget.cpp takes
// that scatter from points within a factor of 2). The closed loop measures again those that did not settle,
// and its record counts how many did.
inline constexpr double kDependsLo = 0.5, kDependsHi = 2.0;

// The points that measure the constants and that `f` lacks: each limit at its size, and with `around`
// at 7/8 and 9/8 of it (whole blocks, one block at least) and its bracket (bracket_bytes), and again every
// point it depends on (above) that did not settle (its time ran out in a round) or that a neighbour held in every
// round (fit_sweep.hpp neighbour_held: the fit leaves it out where clean points lie near); each count's series at its
// stripe size and at the sizes of the kernel's series nearest in sources, and the same for one source more, up to
// the kernel's most.
std::vector<LoopPoint> loop_points(const std::vector<LoopConstant>& constants, const SweepFile& f, bool around);

// What measuring a loop point is expected to take, wall seconds: the samples the file's nearest point of its
// series took, all rounds together (max_samples where a round ran out of time: its rule was not met), at that
// point's median section time scaled to the size, times the file's own wall time per second of section time
// (calibrations, flushes and the user-state save around each sample: 1.8-2.1 on the Zen 5 VM, 2026-12-03). A
// count's new series is costed from its kernel's series nearest in bytes over all sources.
double expected_loop_seconds(const LoopPoint& p, const SweepFile& f, std::uint64_t max_samples);

// The loop's points in the order the constants need them, nearest their constant first (|log(size / constant)|;
// a count's series: from its stripe size), and `now` the longest head of that order expected to take at most
// `seconds` (one point at least); `later` the rest, for the next pass. A pass planned past its time ends every
// point's last round short at the same count: in a sweep 26 % contended (Zen 5 VM, 2026-12-03) 987 points had
// 500, 500, 500 and 395 samples of 500, and 772 of them counted as unsettled.
struct LoopSchedule {
    std::vector<LoopPoint> now, later;
    double expected_s = 0;  // of `now`
};
LoopSchedule schedule_loop_points(const std::vector<LoopPoint>& points, const std::vector<LoopConstant>& constants,
                                  const SweepFile& f, std::uint64_t max_samples, double seconds);

// Of the points a pass had no time for, those the constants still need: near a constant of their series and state
// (kDependsLo..kDependsHi of it; a count's series: a count of its kernel), and still lacking in `f` (a point
// measured again: still unsettled there, or held by a neighbour).
std::vector<LoopPoint> still_needed(const std::vector<LoopPoint>& points, const std::vector<LoopConstant>& constants,
                                    const SweepFile& f);

// After a pass: a point measured again (`again`) whose new measurement ran out of time in more rounds than the
// one it replaced has the old one back, unless a neighbour held the old one in every round (that is why it was
// measured again): nothing measured is lost to a pass that ran short. Returns how many were put back.
std::size_t keep_better_points(SweepFile& after, const SweepFile& before, const std::vector<LoopPoint>& again);

// After the first pass a limit counts as measured where the file has a point of its series within this share of
// it: each refit moves the limits by a few blocks (the new points move the line), and chasing each move to its
// exact size spent the loop's last passes on moves smaller than the interval (on the Intel Xeon VM, 2026-12-01:
// 38 of 107 limits still moving after 5 passes).
inline constexpr double kLoopNearShare = 0.03;

// What the file's point at a constant (or, for a limit, its nearest within kLoopNearShare) says: the bound statistic recommend and verify judge (the calmest
// round's p99 of uninterrupted samples, or p90), moved to the constant's stated contention, at the question's
// minimum frequency; and whether that agrees with the prediction: the size the measurement alone implies
// (bytes x budget / measured, sources alike) is inside the constant's interval, widened by 5 % for rounding
// (a count: the measured time fits the budget).
struct LoopCheck {
    bool measured = false;  // the file has the point, or for a limit one within kLoopNearShare
    bool exact = false;  // at the constant's own size
    std::uint64_t at_bytes = 0;  // the point's size
    double measured_s = 0;
    double implied = 0;  // bytes (a count: sources)
    bool agrees = false;
};
LoopCheck check_constant(const SweepFile& f, const LoopConstant& c, const BudgetQuestion& q);

// The closed loop's record in the sweep file ("closed_loop"): the question, each constant's first and last
// size, its check, and how many of the points around the constants settled.
nlohmann::json closed_loop_json(const BudgetQuestion& q, const std::vector<LoopConstant>& first,
                                const std::vector<LoopConstant>& last, const SweepFile& f, int passes,
                                const std::string& stopped);

}  // namespace fputune
