// SPDX-License-Identifier: MIT
// Separating what the code costs from what the neighbour costs: per kernel and cache state, the quiet cost
// and the sensitivity s of its sections to contention c (lib/contention_levels.hpp), in the model
//     time(c) = quiet x (1 + s x (c - 1)),
// so s = 0: immune (SHA-NI leaves the ports a busy sibling wants alone), s = 1: slows as much as the
// throughput-bound probe itself. Pure functions of sweep data.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model.hpp"
#include "sweep_file.hpp"

namespace fputune {

// lib/contention_levels.hpp kContendedAbove (models link no lib; a test checks they are equal).
inline constexpr double kContendedLevel = 1.15;

// How much longer a section takes at contention c than quiet, for sensitivity s (at least 1/2: a fit
// below -1 would not be physical; c <= 0, unknown, gives 1).
double contention_factor(double s, double c);

// One round of one point: its contention level and its statistic (a p50) at that level, and which round of
// the sweep it was (-1: not known). A sweep's rounds are its time windows, one after the other over every
// point: what else the host did in a window (the neighbour's mix of work) falls on all its points alike.
struct ContentionObservation {
    double level = 0;
    double value = 0;
    int round = -1;
};

struct Sensitivity {
    bool known = false;  // enough rounds of known, differing contention to fit s
    double s = 0, lo = 0, hi = 0;  // the fit and its 95 % interval (0 when unknown)
    std::size_t points = 0, observations = 0;  // used
    double level_min = 0, level_max = 0;  // the contention levels seen
    double quiet_share = 0;  // share of the observations at c < kContendedLevel
    std::string why_unknown;  // when !known: what was missing, in words
    // The tail sensitivity (fit_tail_sensitivity): what moves a round's p90 / p99 of all samples from its median
    // level to its quiet part's. Not known: s moves them.
    TailSensitivity tail;
    std::size_t tail_rounds = 0;  // the rounds it came from
};

// Fits s over points (each a list of rounds), each point with its own quiet level, by least squares on
// value / (point's median), the levels profiled out. Unknown (s = 0) with fewer than 6 observations of known level on
// at least 2 points, or when the levels within points spread less than 0.05 (nothing to fit on). The interval is
// the wider of the least-squares one and one clustered by round (when every observation names its round and there
// are at least 3): the rounds' residuals are not independent, since a window's neighbour moves all its points.
Sensitivity fit_sensitivity(const std::vector<std::vector<ContentionObservation>>& points);

// The section points of one kernel and cache state as observations: each round's p50 at its level, or where
// the round has kSplitRoundMinSamples quiet samples and as many contended ones, each part's p50 at its own level
// (a round's median level stays quiet while a neighbour takes a fifth of its samples: on an AMD EPYC Zen 5 VM,
// 2026-12-03, every round's was 1.02-1.03 while 12-43 % of the probes were contended, and without the split the
// sensitivity of most kernels was unknown). Points whose rounds record no contention give none.
inline constexpr std::uint64_t kSplitRoundMinSamples = 5;
std::vector<std::vector<ContentionObservation>> section_observations(const SweepFile& f, const std::string& kernel,
                                                                     const std::string& cache);

// The tail sensitivity of one kernel and cache state: a round the neighbour held most of the time has a median
// level of ~1.5, and the p99 of its samples lies further from its quiet part's than s, fitted on p50s, says: the
// slowest samples met the neighbour's busiest moments (2-vCPU AMD Zen 5 VM, 2026-12-03, two sweeps with 59-65 % of
// the probes contended; s from p50 / from p99: sha256-avx2 0.30 / 0.74 and 0.27 / 0.64, sha256-avx 0.50 / 1.53 and
// 0.41 / 1.34, chacha20-avx2 0.11 / 0.51 and 0.09 / 0.47, sha1-shani 0.03 / 0.25 and 0.02 / 0.20). Fitted on the
// rounds that have both: kTailMinQuiet quiet samples, and a median level at least kTailMinGap above theirs; each
// gives t = (all / quiet - 1) / ((c - 1) - all / quiet x (c_quiet - 1)), the value of s for which
// all / f(s, c) = quiet / f(s, c_quiet); the tail sensitivity is their median, known from kTailMinRounds rounds.
inline constexpr std::uint64_t kTailMinQuiet = 20;
inline constexpr double kTailMinGap = 0.1;
inline constexpr std::size_t kTailMinRounds = 6;
void fit_tail_sensitivity(Sensitivity& into, const SweepFile& f, const std::string& kernel, const std::string& cache);

// Every kernel x cache state with section points in the file: its sensitivity (and its tail's).
std::map<std::pair<std::string, std::string>, Sensitivity> sweep_sensitivities(const SweepFile& f);

// A sweep made with --sibling or --neighbour busy[:LOAD] (its options' "sibling" or "neighbour": the load ran in
// the odd rounds): per kernel
// and cache state, the median over points of (mean p50 of the busy rounds) / (mean p50 of the quiet ones).
struct SiblingStretch {
    double stretch = 0;
    std::size_t points = 0;
};
std::map<std::pair<std::string, std::string>, SiblingStretch> sibling_stretches(const SweepFile& f);

// The contention a recommendation's bounds are stated at (recommend --contention): quiet (c = 1: what the
// code costs), observed (the sweep's p90 level: what this machine met), a factor (c = 1.5: a stated load),
// or as-measured (no level: each round as it was, the calmest taken, as before the probe).
struct ContentionTarget {
    enum class Kind { quiet, observed, factor, as_measured } kind = Kind::quiet;
    double factor = 1;  // Kind::factor
    std::string text() const;  // "quiet", "observed", "1.5", "as-measured"
};
// "quiet", "observed", "as-measured", or a number from 1 to 10 ("1.5", "1.5x"); nullopt for anything else.
std::optional<ContentionTarget> parse_contention_target(std::string_view text);
inline constexpr const char* kContentionAsMeasuredText = "as-measured";
inline constexpr const char* kContentionChoices = "quiet, observed, as-measured, or a factor from 1 to 10 (e.g. 1.5)";
// The level c it means: quiet the floor (1, or quiet_level's), the observed p90 (0 when unknown: nothing is
// adjusted), the factor (at least the floor); 0 for as-measured.
double target_level(const ContentionTarget& t, double observed_p90, double floor = 1);

// The lowest level a sweep states a bound at, which "quiet" then means: 1 where the contention probe read quiet
// (c < kContendedLevel) in at least kQuietShareMin of its probes; else its p10 level, the level its calmest tenth
// met. Moving a bound to c = 1 from quiet samples that few extrapolates s beyond what was measured: on a 16-vCPU
// Intel Emerald Rapids VM (2026-12-04), 98 % of three sweeps' probes read c = 1.17-1.18 (p10 1.171, 1.176, 1.181),
// the same kernels' s came out 0.11, 0.70 and 0.25 at the median, their intervals apart for half of them, and the
// quiet limits of sweeps two and three agreed within 10 % for 39 of 100 variants, at c = 1.18 for all 100.
inline constexpr double kQuietShareMin = 0.1;
double quiet_level(const SweepFile& f);

// A round's statistic moved from the contention it was measured at to `level`: value x f(s, level) /
// f(s, round's level). Unchanged when the sensitivity is unknown, or either level is.
struct ContentionAdjust {
    bool known = false;
    double s = 0;
    double level = 0;  // the target (0: none)
    TailSensitivity tail;  // what moves a round's p90 / p99 of all its samples (s when not known)
    double apply(double value, double round_level) const;
    // A round's p90 or p99 of all samples, moved from its median level: value x f(s, level) / f(tail, round level).
    double apply_tail(double value, double round_level, bool p99) const;
};

// Moves every model whose sensitivity is known from the level its bounds are stated at to the target's
// (lines, bound statistics and rounds alike: the calmest round at one level is the calmest at every level, so
// this is exact), and records the target in m.contention. "observed" needs m.contention_observed; a file
// without contention is left as it is (m.contention stays ""). Models without a known sensitivity keep
// their measured statistics (contention_level 0).
void restate_contention(ModelFile& m, const ContentionTarget& target);
// One model moved from the level its bounds are stated at to `level` (false, unchanged: its sensitivity or
// either level is unknown).
bool restate_model(CacheModel& cm, double level);
// A source's quiet level raised to `level` (compare, between a floored sweep and another): every model stated at
// the old floor moved there, its p50 line too, and m.contention_floor set. Nothing when `level` is not higher.
void raise_floor(ModelFile& m, double level);

// What a header states about one variant's contention, in its provenance comment, one line each:
//  *   contention sha256-avx2 cold c=1.00 s=0.62 (0.55..0.70)
//  *   contention crc32-pclmul cold as-measured
// (`verify` reads them back: it judges each constant at the level its header states).
struct HeaderContention {
    std::string kernel, cache;
    bool known = false;  // false: "as-measured", the sweep knew no sensitivity
    double level = 0, s = 0, lo = 0, hi = 0;
    TailSensitivity tail;  // " tail=0.55/0.70" (p90/p99) after the interval; absent in older headers
};
// The comment lines (each starting " * "), after one line saying what the assumption is: `assumed` as
// ModelFile::contention ("" = nothing known or --contention as-measured: one line saying so, no per-variant
// lines).
// `floor_note`, when not empty, one more line before the variants' (what "quiet" meant where a sweep was floored).
std::string contention_comment(const std::string& assumed, const std::vector<HeaderContention>& variants,
                               const std::string& floor_note = "");
// The lines back from a header's text, by (kernel, cache).
std::map<std::pair<std::string, std::string>, HeaderContention> parse_header_contention(const std::string& text);
// What a header states for a measured series (`verify`): its own line (this cache, then any), else the line of
// its kernel's series nearest in sources, this cache first (a RAID count's series, raid6-avx2.x18, takes
// raid6-avx2.x16's: a series' sensitivity grows with its sources, RAID6 on AVX2 from 0.5 at 4 to 1.1 at 16-24 on
// an AMD EPYC Zen 5 VM, 2026-12-03). nullptr when the header has none of its kernel.
const HeaderContention* header_contention_for(
    const std::map<std::pair<std::string, std::string>, HeaderContention>& lines, const std::string& series,
    const std::string& cache);
// Whether the header says its bounds are as measured (`contention_comment("")`: --contention as-measured, or a
// sweep that recorded no contention): `check` then judges it as measured too, unless told otherwise.
bool header_as_measured(const std::string& text);
// Every model the header states a level for (a known line for its kernel and cache) moved to that level
// (`check`: each constant judged at the contention its header assumed); how many moved.
std::size_t restate_as_header(ModelFile& m,
                              const std::map<std::pair<std::string, std::string>, HeaderContention>& stated);

// Whether the file recorded contention at all (a sweep from before the probe: "unknown").
bool has_contention(const SweepFile& f);

}  // namespace fputune
