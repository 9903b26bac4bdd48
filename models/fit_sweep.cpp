// SPDX-License-Identifier: MIT
// Fitting a sweep into models: per kernel and cache state the p50 line on every size, the bounds on short ones.
#include "fit_sweep.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>

#include "errors.hpp"
#include "kernel_globs.hpp"
#include "stats.hpp"
#include "sweep_cycles.hpp"
#include "thresholds.hpp"

namespace fputune {

namespace {

// Whether round_bound takes a round's statistics from its quiet samples (with `adjust` known): it has enough.
bool bound_on_quiet(const RoundStats& r) {
    return r.quiet_samples >= kBoundRoundMinSamples && r.quiet_contention >= 1 && r.quiet_p90 > 0 &&
           std::isfinite(r.quiet_p99_clean);
}

}  // namespace

namespace {

// A round a neighbour shared: more than kCleanRoundMaxShare of its samples contended.
bool shared_round(const RoundStats& r) {
    return static_cast<double>(r.contended_samples) > kCleanRoundMaxShare * static_cast<double>(r.samples);
}

// A round bounded on its quiet part that no neighbour shared.
bool clean_round(const RoundStats& r) { return bound_on_quiet(r) && !shared_round(r); }

}  // namespace

RoundKeep rounds_kept(const std::vector<RoundStats>& rounds, const ContentionAdjust& adjust) {
    if (!adjust.known || !(adjust.level >= 1)) return RoundKeep::all;
    const auto count = [&](bool (*keep)(const RoundStats&)) {
        return std::count_if(rounds.begin(), rounds.end(),
                             [&](const RoundStats& r) { return r.samples >= kBoundRoundMinSamples && keep(r); });
    };
    if (count(clean_round) >= 2) return RoundKeep::clean;
    if (count(bound_on_quiet) >= 2) return RoundKeep::quiet;
    return RoundKeep::all;
}

bool neighbour_held(const std::vector<RoundStats>& rounds) {
    std::size_t held = 0, quiet = 0;
    for (const RoundStats& r : rounds) {
        if (r.samples < kBoundRoundMinSamples) continue;
        if (!shared_round(r)) return false;
        ++held;
        quiet += bound_on_quiet(r);
    }
    return held >= 2 && quiet < 2;
}

bool held_point(const std::vector<RoundStats>& rounds, const ContentionAdjust& adjust) {
    return adjust.known && adjust.level >= 1 && neighbour_held(rounds);
}

bool round_left_out(const RoundStats& r, RoundKeep keep) {
    switch (keep) {
        case RoundKeep::all: return false;
        case RoundKeep::quiet: return !bound_on_quiet(r);
        case RoundKeep::clean: return !clean_round(r);
    }
    return false;
}

std::pair<double, double> round_bound(const RoundStats& r, const ContentionAdjust& adjust) {
    if (adjust.known && adjust.level >= 1 && bound_on_quiet(r))
        return {adjust.apply(r.quiet_p90, r.quiet_contention),
                adjust.apply(std::max(r.quiet_p99_clean, r.quiet_p90), r.quiet_contention)};
    return {adjust.apply_tail(r.p90, r.contention, false),
            adjust.apply_tail(std::max(r.p99_clean, r.p90), r.contention, true)};
}

namespace {

// Each round's bound statistics at the bound sizes: only when every one of them has the round.
void keep_rounds(CacheModel& cm, const std::vector<const std::vector<RoundStats>*>& rounds,
                 const ContentionAdjust& adjust) {
    std::size_t n = rounds.empty() ? 0 : rounds.front()->size();
    for (const auto* r : rounds) n = std::min(n, r->size());
    if (n < 2) return;
    cm.round_p90.assign(n, {});
    cm.round_p99.assign(n, {});
    std::vector<RoundKeep> keep;
    for (const auto* r : rounds) keep.push_back(rounds_kept(*r, adjust));
    for (std::size_t k = 0; k < n; ++k)
        for (std::size_t i = 0; i < rounds.size(); ++i) {
            const RoundStats& x = (*rounds[i])[k];
            // 0: the round left out at this point (no statistic at the quiet level; see rounds_kept).
            const auto [p90, p99] = round_left_out(x, keep[i]) ? std::pair{0.0, 0.0} : round_bound(x, adjust);
            cm.round_p90[k].push_back(p90);
            cm.round_p99[k].push_back(p99);
        }
}

// A kernel's sensitivity into its model, and how its rounds are moved to `level` (nothing when unknown).
ContentionAdjust kernel_adjust(CacheModel& cm,
                               const std::map<std::pair<std::string, std::string>, Sensitivity>& sensitivities,
                               double level) {
    const auto it = sensitivities.find({cm.kernel, std::string(name(cm.cache))});
    if (it == sensitivities.end() || !it->second.known) return {};
    const Sensitivity& s = it->second;
    cm.contention_known = true;
    cm.contention_s = s.s;
    cm.contention_s_lo = s.lo;
    cm.contention_s_hi = s.hi;
    cm.contention_level = level;  // 0: as measured, nothing moved
    cm.contention_tail = s.tail;
    if (!(level >= 1)) return {};
    return {true, s.s, level, s.tail};
}

// A point's p50 moved to quiet with its kernel's sensitivity: the pooled p50 x the mean of its rounds' p50
// each divided by its contention factor / the mean of the rounds' p50 (unchanged when nothing is known), at the
// adjustment's level (1, or the sweep's floor: quiet_level).
// The p50 line is then what the code costs, whatever the neighbours did in this sweep (`compare`).
double quiet_p50(double pooled, const std::vector<RoundStats>& rounds, const ContentionAdjust& adjust) {
    if (!adjust.known) return pooled;
    double raw = 0, quiet = 0;
    for (const RoundStats& r : rounds) {
        if (!(r.contention >= 1) || !(r.p50 > 0)) return pooled;
        raw += r.p50;
        // Its quiet samples where it has enough (a contended minority moves a median too), moved from their level.
        if (r.quiet_samples >= kSplitRoundMinSamples && r.quiet_contention >= 1 && r.quiet_p50 > 0)
            quiet += r.quiet_p50 / contention_factor(adjust.s, r.quiet_contention);
        else
            quiet += r.p50 / contention_factor(adjust.s, r.contention);
    }
    return raw > 0 ? pooled * quiet * contention_factor(adjust.s, adjust.level) / raw : pooled;
}

// A round bound_stats takes: samples enough for a tail, and its statistics known.
bool bound_round(const RoundStats& r) {
    return r.samples >= kBoundRoundMinSamples && r.p90 > 0 && std::isfinite(r.p99_clean);
}

// How verify moves a point's rounds to the level its header states: only when the header states one and every
// round's level is known (else as measured: `known` false).
ContentionAdjust stated_adjust(const std::vector<RoundStats>& rounds, const HeaderContention* h) {
    const auto level_known = [](const RoundStats& r) { return r.contention >= 1; };
    if (!h || !h->known || !std::all_of(rounds.begin(), rounds.end(), level_known)) return {};
    return {true, h->s, h->level, h->tail};
}

}  // namespace

BoundStats bound_stats(const PointStats& pooled, const std::vector<RoundStats>& rounds, OverRounds over,
                       const ContentionAdjust& adjust) {
    std::vector<double> p90, p99;
    const RoundKeep keep = rounds_kept(rounds, adjust);
    for (const RoundStats& r : rounds) {
        if (!bound_round(r) || round_left_out(r, keep)) continue;
        const auto [q90, q99] = round_bound(r, adjust);
        p90.push_back(q90);
        p99.push_back(q99);
    }
    if (p99.size() < 2) return {pooled.p90, std::max(pooled.p99_clean, pooled.p90)};
    if (over == OverRounds::calmest)
        return {*std::min_element(p90.begin(), p90.end()), *std::min_element(p99.begin(), p99.end())};
    const double n = static_cast<double>(p99.size());
    return {std::accumulate(p90.begin(), p90.end(), 0.0) / n, std::accumulate(p99.begin(), p99.end(), 0.0) / n};
}

namespace {

// A kernel whose broken points were skipped is refused, by name, when too few are left for a line.
void refuse_too_few(const SweepFile& sweep, const std::string& source, const std::string& kernel,
                    const std::string& what) {
    const auto skipped = sweep.skipped_points.find(kernel);
    if (skipped == sweep.skipped_points.end()) return;
    std::string why;
    for (const auto& n : sweep.notes)
        if (n.rfind(kernel + ": ", 0) == 0) why = n.substr(kernel.size() + 2);
    throw InputError(fmt::format("{}: {}: {} after {}; too few for a line: sweep it again (fputune sweep -k '{}')",
                                 source, kernel, what, why, kernel));
}

// One section point with the statistics the fits use.
struct Point {
    std::uint64_t bytes;
    PointStats st;  // in cycles
    std::vector<RoundStats> rounds;  // in cycles
};
using PointGroups = std::map<std::pair<std::string, Cache>, std::vector<Point>>;

// The section points by (kernel, cache); InputError naming a malformed one.
PointGroups group_points(const SweepFile& sweep, const ModelFile& m, const std::string& source) {
    PointGroups groups;
    for (const auto& p : sweep.sections) {
        if (!m.kernel(p.kernel))
            throw InputError(
                fmt::format("{}: malformed sweep file: section points for kernel '{}', which is not in "
                            "its \"kernels\" list",
                            source, p.kernel));
        const std::optional<Cache> cache = parse_cache(p.cache);
        if (!cache)
            throw InputError(fmt::format("{}: malformed sweep file: cache '{}' for kernel '{}' (expected hot or cold)",
                                         source, p.cache, p.kernel));
        const PointStats st = point_cycles(sweep, p.ticks, p.cycles);
        if (p.bytes == 0 || !(st.p50 > 0) || !(st.p90 > 0))
            throw InputError(fmt::format("{}: malformed sweep file: point {} B of '{}' ({}) has no positive p50/p90",
                                         source, p.bytes, p.kernel, p.cache));
        groups[{p.kernel, *cache}].push_back({p.bytes, st, p.cycles.samples ? p.rounds : std::vector<RoundStats>{}});
    }
    if (groups.empty())
        throw InputError(fmt::format("{}: the sweep has no section points{}; run `fputune sweep` (or --resume it)",
                                     source, sweep.partial ? " (it was interrupted before the first)" : ""));
    return groups;
}

// One kernel's lines in one cache state. The bounds: sizes whose typical section is at most
// kBoundFitMaxSeconds, at least the kBoundFitMinPoints shortest.
CacheModel fit_cache_model(const SweepFile& sweep, const ModelFile& m, const std::string& source,
                           const KernelInfo& k, Cache cache, std::vector<Point>& points,
                           const std::map<std::pair<std::string, std::string>, Sensitivity>& sensitivities,
                           double level) {
    CacheModel cm;
    cm.kernel = k.name;
    cm.cache = cache;
    const ContentionAdjust adjust = kernel_adjust(cm, sensitivities, level);
    std::sort(points.begin(), points.end(), [](const Point& a, const Point& b) { return a.bytes < b.bytes; });
    std::vector<double> xs, y50, bx, b90, b99;
    std::vector<const std::vector<RoundStats>*> bound_rounds;
    // The points a neighbour held (held_point), each left out where enough that were not lie within a factor of 2.
    std::vector<bool> held;
    for (const Point& p : points) held.push_back(held_point(p.rounds, adjust));
    auto left_out = [&](std::size_t i) {
        if (!held[i]) return false;
        std::size_t clean = 0;
        for (std::size_t j = 0; j < points.size(); ++j)
            if (!held[j] && std::abs(std::log(static_cast<double>(points[j].bytes) /
                                              static_cast<double>(points[i].bytes))) <= std::log(2.0))
                ++clean;
        return clean >= kHeldPointMinClean;
    };
    for (std::size_t i = 0; i < points.size(); ++i) {
        const auto& [bytes, st, rounds] = points[i];
        xs.push_back(static_cast<double>(bytes));
        y50.push_back(quiet_p50(st.p50, rounds, adjust));
        cm.bytes.push_back(bytes);
        const double p50_s = st.p50 / (m.core_per_tsc * m.tsc_hz);
        if (bx.size() >= kBoundFitMinPoints && p50_s > kBoundFitMaxSeconds) continue;
        if (left_out(i)) continue;
        bx.push_back(static_cast<double>(bytes));
        const BoundStats b = bound_stats(st, rounds, OverRounds::calmest, adjust);
        b90.push_back(b.p90);
        b99.push_back(b.p99);
        cm.bound_bytes.push_back(bytes);
        bound_rounds.push_back(&rounds);
    }
    if (cm.bytes.size() < 2 || cm.bytes.front() == cm.bytes.back())
        refuse_too_few(sweep, source, k.name, fmt::format("only {} B is left in {} cache", cm.bytes.front(), name(cache)));
    cm.p50 = fit_line(xs, y50);
    cm.p90 = fit_line(bx, b90);
    cm.p99 = fit_line(bx, b99);
    cm.bound_p90 = b90;
    cm.bound_p99 = b99;
    keep_rounds(cm, bound_rounds, adjust);
    for (const auto& [q, f] : {std::pair{"p50", &cm.p50}, std::pair{"p90", &cm.p90}, std::pair{"p99", &cm.p99}})
        for (double v : {f->a, f->b, f->a_lo, f->a_hi, f->b_lo, f->b_hi, f->r2, f->max_rel_residual})
            if (!std::isfinite(v))
                throw InputError(
                    fmt::format("{}: the {} line of '{}' ({} cache) is not finite: its points span a range "
                                "no section has; sweep it again",
                                source, q, k.name, name(cache)));
    return cm;
}

// What the model says of the sweep's clock and completeness.
void sweep_notes(ModelFile& m, const SweepFile& sweep) {
    if (sweep.partial) m.notes.push_back("the sweep is partial (interrupted): some points are missing");
    if (sweep.ratio_trace.probes)
        m.notes.push_back(
            fmt::format("every sample converted to core cycles with the core/TSC ratio probed around it "
                        "({} probes, {:.3f}..{:.3f}, median {:.3f}, the reference here)",
                        sweep.ratio_trace.probes, sweep.ratio_trace.min, sweep.ratio_trace.max, sweep.ratio_trace.p50));
    else if (sweep.core_per_tsc_end > 0 && std::abs(sweep.core_per_tsc_end / sweep.core_per_tsc - 1) > 0.02)
        m.notes.push_back(
            fmt::format("core/TSC ratio moved during the sweep: {:.3f} -> {:.3f}; the start value is used",
                        sweep.core_per_tsc, sweep.core_per_tsc_end));
    if (m.contention_floor > 1)
        m.notes.push_back(fmt::format(
            "contention: the core was contended (c >= {:.2f}) in {:.0f} % of the sweep's probes, quiet in too few to "
            "state a bound at c = 1: a quiet bound is stated at c = {:.2f}, the level its calmest tenth met, not "
            "extrapolated below it",
            kContendedLevel, 100 * sweep.contention.contended_share, m.contention_floor));
}

}  // namespace

ModelFile fit_sweep(const SweepFile& sweep, const std::string& source, const std::vector<std::string>& kernel_globs,
                    bool as_measured) {
    ModelFile m = new_model(source, "sweep");
    // A fleet's sweeps name their host: which machine binds a limit is then said by name, even for two
    // machines with one CPU model.
    m.machine = sweep.host.empty() ? machine_name(sweep.cpu) : sweep.host + " (" + machine_name(sweep.cpu) + ")";
    if (sweep.doctor.is_object() && sweep.doctor.contains("verdict") && sweep.doctor["verdict"].is_string())
        m.doctor_verdict = sweep.doctor["verdict"].get<std::string>();
    m.closed_loop = closed_loop_brief(sweep.closed_loop);
    m.cpu = sweep.cpu;
    m.sweep_date = sweep.date;
    m.sweep_tool_version = sweep.tool_version;
    m.sweep_tool_commit = sweep.tool_commit;
    m.options = sweep.options;
    m.tsc_hz = sweep.tsc_hz;
    // The ratio the cycles refer to: the sweep's median probed ratio when every sample was converted to
    // core cycles around it (the start and end values then only describe the run), else the start, by
    // which a tick-only sweep's ticks are converted. It also turns cycles into time for the bound fit.
    m.core_per_tsc = model_core_per_tsc(sweep);
    m.core_per_tsc_end = sweep.ratio_trace.probes ? m.core_per_tsc : sweep.core_per_tsc_end;
    m.dirty = parse_dirty_state(sweep.dirty);
    if (!m.dirty)
        throw InputError(
            fmt::format("{}: malformed sweep file: dirty '{}' (expected xmm, ymm, zmm or none)", source, sweep.dirty));
    m.partial = sweep.partial;
    m.warnings = sweep.warnings;
    m.kernels = sweep.kernels;
    m.notes = sweep.notes;  // the points the reader skipped, named
    const auto sensitivities = sweep_sensitivities(sweep);
    // quiet (c = 1, or the sweep's floor: quiet_level); restate_contention moves it
    m.contention_floor = quiet_level(sweep);
    const double level = as_measured ? 0 : m.contention_floor;
    if (has_contention(sweep)) {
        m.contention = as_measured ? kContentionAsMeasuredText : "quiet";
        m.contention_observed = sweep.contention.p90;
        m.contention_median = sweep.contention.p50;
    }
    if (sweep.memory.probes) {
        m.memory_p50_ticks = sweep.memory.p50;
        m.memory_bytes = sweep.memory.bytes;
    }
    PointGroups groups = group_points(sweep, m, source);
    for (const auto& k : sweep.kernels) {
        for (const Cache cache : {Cache::hot, Cache::cold}) {
            auto it = groups.find({k.name, cache});
            if (it != groups.end()) m.models.push_back(fit_cache_model(sweep, m, source, k, cache, it->second, sensitivities, level));
        }
        const bool has_points = groups.count({k.name, Cache::hot}) || groups.count({k.name, Cache::cold});
        if (k.needs_fpu && !has_points) refuse_too_few(sweep, source, k.name, "no section point is left");
        if (k.needs_fpu && !has_points && kernel_globs.empty()) {
            // Ours must be there in a complete sweep; a peer may have been listed for thresholds only.
            if (!sweep.partial && !is_peer(k))
                throw InputError(
                    fmt::format("{}: no section points for kernel '{}', which the sweep lists; the file is "
                                "incomplete: sweep again, or choose kernels with -k",
                                source, k.name));
            m.notes.push_back(fmt::format("{}: no section points{}; skipped", k.name,
                                          sweep.partial ? " (the sweep was interrupted)" : ""));
        }
    }
    try {
        m.thresholds = compute_thresholds(sweep);
    } catch (const std::invalid_argument& e) {
        throw InputError(fmt::format("{}: malformed sweep file: {}", source, e.what()));
    }
    filter_kernels(m, kernel_globs);
    sweep_notes(m, sweep);
    return m;
}

VerifyBound verify_bound(const PointStats& pooled, const std::vector<RoundStats>& rounds, const HeaderContention* h) {
    VerifyBound v;
    const BoundStats raw = bound_stats(pooled, rounds);
    v.raw_p90 = v.adjusted_p90 = raw.p90;
    v.raw_p99 = v.adjusted_p99 = raw.p99;
    std::vector<double> levels;
    for (const RoundStats& r : rounds)
        if (r.contention >= 1) levels.push_back(r.contention);
    if (!levels.empty()) {
        std::sort(levels.begin(), levels.end());
        v.met = levels[levels.size() / 2];
    }
    const ContentionAdjust adjust = stated_adjust(rounds, h);
    if (!adjust.known) return v;
    const BoundStats adjusted = bound_stats(pooled, rounds, OverRounds::calmest, adjust);
    v.adjusted = true;
    v.adjusted_p90 = adjusted.p90;
    v.adjusted_p99 = adjusted.p99;
    return v;
}

double over_budget_p(const std::vector<double>& pooled, const std::vector<std::vector<double>>& round_samples,
                     const std::vector<RoundStats>& rounds, const HeaderContention* h, double budget_cycles, bool p90,
                     const std::vector<std::vector<double>>& round_quiet_samples) {
    const ContentionAdjust adjust = stated_adjust(rounds, h);  // as verify_bound moves them
    auto one = [&](std::vector<double> samples, double level, bool quiet) {
        if (samples.empty()) return 1.0;
        std::sort(samples.begin(), samples.end());
        // The budget at the level the round met, with the end of the stated interval of s that moves it furthest;
        // a round judged on all its samples is moved by the tail sensitivity, as round_bound moves it.
        ContentionAdjust favourable = adjust;
        if (adjust.known && h && level >= 1)
            favourable.s = level > adjust.level ? std::max(h->s, h->hi) : std::min(h->s, h->lo);
        auto above = [&](std::size_t n, bool q99) {  // of the n smallest samples
            const double over = budget_cycles / (quiet ? favourable.apply(1.0, level)
                                                       : favourable.apply_tail(1.0, level, q99));
            const auto end = samples.begin() + static_cast<std::ptrdiff_t>(n);
            return static_cast<std::size_t>(end - std::upper_bound(samples.begin(), end, over));
        };
        const double p_90 = binomial_at_least(samples.size(), 0.10, above(samples.size(), false));
        if (p90) return p_90;
        const std::size_t clean = clean_count(samples);
        const double p_99 = binomial_at_least(clean, 0.01, above(clean, true));
        return std::min(1.0, 2 * std::min(p_90, p_99));
    };
    double p = 0;
    std::size_t used = 0;
    const RoundKeep keep = rounds_kept(rounds, adjust);
    for (std::size_t r = 0; r < rounds.size() && r < round_samples.size(); ++r) {
        const RoundStats& x = rounds[r];
        if (!bound_round(x) || round_left_out(x, keep)) continue;
        // The samples round_bound takes the round's statistics from: its quiet ones where it takes those.
        const bool quiet = adjust.known && bound_on_quiet(x) && r < round_quiet_samples.size() &&
                           round_quiet_samples[r].size() == x.quiet_samples;
        p = std::max(p, quiet ? one(round_quiet_samples[r], x.quiet_contention, true)
                              : one(round_samples[r], x.contention, false));
        ++used;
    }
    if (used < 2) return one(pooled, 0, true);  // bound_stats: the pooled statistics, as measured
    return p;
}

bool judged_on_shared_rounds(const std::vector<RoundStats>& rounds, const HeaderContention* h) {
    const ContentionAdjust adjust = stated_adjust(rounds, h);
    if (!adjust.known) return false;
    const RoundKeep keep = rounds_kept(rounds, adjust);
    if (keep == RoundKeep::clean) return false;
    return std::any_of(rounds.begin(), rounds.end(), [&](const RoundStats& r) {
        return bound_round(r) && !round_left_out(r, keep) && shared_round(r);
    });
}

}  // namespace fputune
