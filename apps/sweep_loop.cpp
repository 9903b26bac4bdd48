// SPDX-License-Identifier: MIT
// `sweep`'s closed loop: provisional constants measured at their exact size, within the sweep's time.
#include "sweep_loop.hpp"

#include <algorithm>
#include <chrono>
#include <map>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "closed_loop.hpp"
#include "registry.hpp"
#include "units.hpp"

namespace fputune::cli {

namespace {

constexpr int kMaxPasses = 5;
constexpr double kMinPassSeconds = 1.0;  // less than this left: the loop stops and says so

// The sweep's series of a point: one of the kernel's own (lib/sweep.hpp section_series), or for a count one
// of its multi-source series with that many sources. False: no such kernel or series here.
bool series_of(const LoopPoint& p, const SweepOptions& opt, const Kernel*& kernel, SeriesSpec& series,
               bool& count_only) {
    for (const Kernel* k : opt.kernels) {
        if (k->name != p.kernel) continue;
        const std::vector<SeriesSpec> all = section_series(*k, opt);
        for (const SeriesSpec& s : all) {
            SeriesSpec cand = s;
            if (p.sources && s.sources) cand.sources = p.sources;
            if (series_name(*k, cand) != p.series) continue;
            kernel = k;
            series = cand;
            // Not one the first pass sweeps: a series for the count alone.
            count_only = std::none_of(all.begin(), all.end(), [&](const SeriesSpec& a) { return a.sources == cand.sources; });
            return true;
        }
    }
    return false;
}

// The points as the sweep engine takes them: per series and cache state, its sizes.
std::vector<ExtraPoints> extra_points(const std::vector<LoopPoint>& points, const SweepOptions& opt) {
    std::map<std::pair<std::string, bool>, ExtraPoints> by_series;
    for (const LoopPoint& p : points) {
        const Kernel* k = nullptr;
        SeriesSpec s;
        bool count_only = false;
        if (!series_of(p, opt, k, s, count_only)) continue;
        const bool cold = p.cache == Cache::cold;
        // One entry per series, state and whether its points are measured again.
        auto [it, fresh] = by_series.try_emplace({p.series + (p.again ? "+again" : ""), cold},
                                                 ExtraPoints{k, s, cold, {}, count_only, p.again});
        it->second.bytes.push_back(p.bytes);
    }
    std::vector<ExtraPoints> out;
    for (auto& [key, e] : by_series) out.push_back(std::move(e));
    return out;
}

// A pass's warning of a kind the file already has (the clock moved, the host disturbed it) is dropped: the
// file's counters and disturbance list hold every pass, and the first line of each kind points at them.
void drop_repeated_warnings(SweepFile& f, std::size_t had) {
    constexpr std::size_t kKind = 24;  // "core/TSC ratio changed f", "the host disturbed the swe", ...
    std::vector<std::string> kept(f.warnings.begin(), f.warnings.begin() + static_cast<std::ptrdiff_t>(had));
    for (std::size_t i = had; i < f.warnings.size(); ++i) {
        const std::string& w = f.warnings[i];
        if (std::none_of(kept.begin(), kept.end(), [&](const std::string& k) { return k.compare(0, kKind, w, 0, kKind) == 0; }))
            kept.push_back(w);
    }
    f.warnings = std::move(kept);
}

// The points this sweep can measure (a series of one of its kernels) that the file lacks, or holds and
// measures again.
std::vector<LoopPoint> plannable(const std::vector<LoopPoint>& points, const SweepOptions& opt, const SweepFile& f) {
    std::vector<LoopPoint> out;
    for (const LoopPoint& p : points)
        if (!plan_extra(extra_points({p}, opt), f).sections.empty()) out.push_back(p);
    return out;
}

RecommendOptions loop_question(const SweepOptions& opt) {
    RecommendOptions o;
    o.question.budget_s = opt.loop_budget_s;
    o.question.min_freq_hz = opt.loop_min_freq_hz;
    return o;
}

}  // namespace

SweepFile close_loop(SweepFile file, const SweepOptions& opt, SweepInputs in, const PoolHooks& hooks,
                     double seconds_left, const std::string& source) {
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::duration<double>(seconds_left);
    const RecommendOptions ro = loop_question(opt);
    const std::vector<LoopConstant> first = provisional_constants(file, source, ro);
    std::vector<LoopConstant> constants = first;
    std::string stopped;
    int passes = 0;
    std::vector<LoopPoint> carried;  // points a pass had no time for: the next pass's, where still needed
    for (int pass = 1; pass <= kMaxPasses; ++pass) {
        std::vector<LoopPoint> wanted = plannable(loop_points(constants, file, pass == 1), opt, file);
        for (const LoopPoint& p : still_needed(carried, constants, file))
            if (std::find(wanted.begin(), wanted.end(), p) == wanted.end()) wanted.push_back(p);
        carried.clear();
        if (wanted.empty()) break;
        const double left = std::chrono::duration<double>(deadline - Clock::now()).count();
        if (left < kMinPassSeconds) {
            stopped = fmt::format("time: {} points not measured", wanted.size());
            break;
        }
        SweepOptions o = opt;
        o.budget_s = pass < kMaxPasses ? 0.7 * left : left;
        // Only what the pass is expected to finish: one planned past its time cuts every point's last round.
        LoopSchedule schedule = schedule_loop_points(wanted, constants, file, opt.sampling.max_samples, o.budget_s);
        carried = std::move(schedule.later);
        const SweepPlan plan = plan_extra(extra_points(schedule.now, opt), file);
        spdlog::info(
            "closed loop, pass {}: {} constants for {} at {}; measuring {} points at and around them ({:.0f} s, "
            "{:.0f} s expected){}",
            pass, constants.size(), format_duration(opt.loop_budget_s), format_frequency(opt.loop_min_freq_hz),
            plan.sections.size(), o.budget_s, schedule.expected_s,
            carried.empty() ? "" : fmt::format("; {} farther from them for the next pass", carried.size()));
        in.resume = &file;
        const std::size_t had = file.warnings.size();
        SweepFile next = measure_into(plan, o, in, hooks);
        if (const std::size_t back = keep_better_points(next, file, schedule.now))
            spdlog::info(
                "closed loop: {} points measured again ran out of time in more rounds than before; their "
                "earlier measurement is kept",
                back);
        file = std::move(next);
        drop_repeated_warnings(file, had);
        ++passes;
        if (file.partial) {
            stopped = "interrupted";
            break;
        }
        constants = provisional_constants(file, source, ro);
    }
    if (const std::vector<LoopPoint> unmeasured = still_needed(carried, constants, file);
        !unmeasured.empty() && stopped.empty())
        stopped = fmt::format("time: {} points around the constants not measured", unmeasured.size());
    // Constants, not points: a count's one more source is measured at several sizes.
    const auto left =
        static_cast<std::size_t>(std::count_if(constants.begin(), constants.end(), [&](const LoopConstant& c) {
            return !loop_points({c}, file, false).empty();
        }));
    if (left && stopped.empty()) {
        const std::string what = left == 1 ? "1 constant" : fmt::format("{} constants", left);
        stopped = passes == kMaxPasses ? fmt::format("{} passes: {} moved to a size not measured", kMaxPasses, what)
                                       : fmt::format("{} at a size this sweep cannot measure", what);
    }
    file.closed_loop = closed_loop_json(ro.question, first, constants, file, passes, stopped);
    return file;
}

std::string closed_loop_summary(const SweepFile& f) {
    const std::string brief = closed_loop_brief(f.closed_loop, true);
    return brief.empty() ? "" : brief + "\n";
}

}  // namespace fputune::cli
