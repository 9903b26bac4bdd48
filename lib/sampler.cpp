// SPDX-License-Identifier: MIT
// The sampling pool: rounds, local calibration every ~0.25 ms, disturbances waited out and re-taken.
#include "sampler.hpp"

#include <immintrin.h>

#include <time.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <random>

#include <fmt/format.h>

#include "clock.hpp"
#include "contention_levels.hpp"
#include "stats.hpp"

namespace fputune {

namespace {

void sleep_ms(double ms) {
    timespec ts{0, static_cast<long>(ms * 1e6)};
    nanosleep(&ts, nullptr);
}

// Host stalls per ms while spinning for `spin_s`: gaps of more than 2 us between two reads of the TSC.
double stall_rate_per_ms(double spin_s, double hz) {
    const auto gap = static_cast<std::uint64_t>(2e-6 * hz), span = static_cast<std::uint64_t>(spin_s * hz);
    std::uint64_t start = __rdtsc(), prev = start, gaps = 0;
    while (prev - start < span) {
        const std::uint64_t t = __rdtsc();
        if (t - prev > gap) ++gaps;
        prev = t;
    }
    return static_cast<double>(gaps) / (spin_s * 1e3);
}

std::size_t ceil_div(double a, double b) { return static_cast<std::size_t>(std::ceil(a / b)); }

// The contention of an interval's samples: the mean of the probes at its two ends (one if the other is
// unknown, 0 if both are). Contention comes and goes over tens of milliseconds to seconds, an interval
// lasts ~0.25 ms: the two ends almost always agree.
double interval_contention(const Calibration& before, const Calibration& after) {
    const double a = before.contention_cycles, b = after.contention_cycles;
    if (a > 0 && b > 0) return (a + b) / 2;
    return std::max(a, b);
}

}  // namespace

namespace {

std::vector<double> round_slice(const std::vector<double>& v, const std::vector<std::size_t>& round_begin,
                                std::size_t r) {
    if (r >= round_begin.size() || round_begin[r] > v.size()) return {};
    const std::size_t end = std::min(r + 1 < round_begin.size() ? round_begin[r + 1] : v.size(), v.size());
    return {v.begin() + static_cast<std::ptrdiff_t>(round_begin[r]), v.begin() + static_cast<std::ptrdiff_t>(end)};
}

}  // namespace

std::vector<double> PointSamples::round_cycles(std::size_t r) const { return round_slice(cycles, round_begin, r); }

std::vector<double> PointSamples::round_contention(std::size_t r) const {
    return round_slice(contention_cycles, round_begin, r);
}

Calibration calibrate_now(double probe_floor) {
    Calibration c;
    const TimerProbe t = probe_timer();
    c.overhead_ticks = t.overhead_ticks;
    c.step_ticks = t.step_ticks;
    for (int i = 0; i < 3; ++i) {
        const double r = probe_core_per_tsc();
        if (r > probe_floor && std::isfinite(r)) {
            c.core_per_tsc = r;
            break;
        }
        ++c.probes_rejected;
    }
    if (c.core_per_tsc > 0) c.contention_cycles = probe_contention_ticks() * c.core_per_tsc;
    c.tsc = tsc_end();
    return c;
}

Calibration calm_level(int n) {
    const double hz = tsc_info().hz;
    std::vector<double> ov, st, ra, co;
    for (int i = 0; i < n; ++i) {
        const Calibration c = calibrate_now(0);
        ov.push_back(c.overhead_ticks);
        st.push_back(c.step_ticks);
        ra.push_back(c.core_per_tsc);
        co.push_back(c.contention_cycles);
        const auto gap = static_cast<std::uint64_t>(0.25e-3 * hz);
        for (std::uint64_t now = tsc_begin(); now >= c.tsc && now - c.tsc < gap; now = tsc_begin()) {}  // (or a step)
    }
    auto med = [](std::vector<double>& v) {
        std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
        return v[v.size() / 2];
    };
    Calibration c;
    c.overhead_ticks = med(ov);
    c.step_ticks = med(st);
    c.core_per_tsc = med(ra);
    c.contention_cycles = med(co);
    c.tsc = tsc_end();
    return c;
}

namespace {

// The pool's state while it runs (sample_pool is its only user).
class Pool {
public:
    Pool(const std::vector<PointSpec>& specs, const std::function<RawSample(std::size_t)>& sample,
         const SamplingRules& rules, double budget_s, const Calibration& calm, const PoolHooks& hooks)
        : specs_(specs),
          sample_(sample),
          rules_(rules),
          budget_s_(budget_s),
          hooks_(hooks),
          hz_(tsc_info().hz),
          monitor_(hz_),
          state_(specs.size()) {
        res_.points.resize(specs.size());
        monitor_.seed(calm);
        const double r = std::max(1, rules.rounds);
        sqrt_rounds_ = std::sqrt(r);
        min_r_ = std::max<std::size_t>(5, ceil_div(static_cast<double>(rules.min_samples), r));
        min90_r_ = ceil_div(static_cast<double>(rules.min_samples90), r);
        min99_r_ = ceil_div(static_cast<double>(rules.min_samples99), r);
        max_r_ = std::max<std::size_t>(min_r_, ceil_div(static_cast<double>(rules.max_samples), r));
        probe_every_ = static_cast<std::uint64_t>(0.25e-3 * hz_);
        hard_end_ = static_cast<std::uint64_t>(2 * budget_s_ * hz_);
        // Nothing between two samples takes this long but a pause of the whole machine (a wait is max_wait_s at most).
        max_gap_ = static_cast<std::uint64_t>(std::max(10.0, 4 * rules.max_wait_s) * hz_);
    }

    PoolResult run() {
        prepare_memory_probe();  // each round begins with the probe: its first call must not eat the first round
        start_ = last_tsc_ = read_tsc();
        before_ = calibrate(monitor_.probe_floor());
        const int rounds = std::max(1, rules_.rounds);
        bool complete = true;
        for (int r = 0; r < rounds && complete; ++r) {
            if (rules_.spread_rounds && r > 0) complete = wait_for_round(r, rounds);
            complete = complete && run_round(r, rounds);
        }
        res_.complete = complete;
        follow_tsc(read_tsc());
        res_.elapsed_s = tsc_seconds(start_, last_tsc_, hz_);
        for (std::size_t i = 0; i < state_.size(); ++i) {
            res_.points[i].settled = complete && state_[i].rounds_settled == rounds;
            res_.unsettled += res_.points[i].unsettled_rounds > 0;
            res_.rejected += res_.points[i].rejected;
            res_.retaken += res_.points[i].retaken;
        }
        return std::move(res_);
    }

private:
    struct PointState {
        double spent_s = 0;  // in this round
        bool settled = false;  // in this round
        std::size_t next_check = 0;  // round samples at which to judge it again
        int rounds_settled = 0;
        bool out_of_time = false;  // this round ended on time, not on its rule or max_samples
        double p50_cycles = 0, hit_above_cycles = 0;  // from its latest judgement (0: not yet)
    };
    struct Pending {
        std::size_t point;
        RawSample raw;
        std::uint64_t t0, wall;
    };
    struct Converted {
        std::size_t point;
        double ticks, cycles, request;
        double contention;  // the contention probe around it, core cycles (0: unknown)
        double wall_s;  // what taking it spent of the point's cap
    };

    // Spins (the core kept busy, so its clock does not drop while idle) until round r's start, then takes the
    // levels afresh. False when stopped.
    bool wait_for_round(int r, int rounds) {
        const double at_s = budget_s_ * r / rounds;
        std::uint64_t last_report = read_tsc();
        while (follow_tsc(read_tsc()), tsc_seconds(start_, last_tsc_, hz_) < at_s) {
            if (hooks_.stop && hooks_.stop->load(std::memory_order_relaxed)) return false;
            if (hooks_.progress && tsc_seconds(last_report, last_tsc_, hz_) > 0.5) {
                hooks_.progress({r, rounds, specs_.size(), specs_.size()});
                last_report = last_tsc_;
            }
            for (int i = 0; i < 1000; ++i) _mm_pause();
        }
        before_ = calibrate(monitor_.probe_floor());
        return true;
    }

    bool run_round(int r, int rounds) {
        // The host's memory as the round begins, with no section of ours in flight (clock.hpp probe_memory_block),
        // and with the hook's change (a co-runner's load) in place.
        close_interval();
        if (hooks_.on_round) hooks_.on_round(r);
        const std::vector<double> memory = probe_memory_block();
        res_.clock.memory_ticks.insert(res_.clock.memory_ticks.end(), memory.begin(), memory.end());
        before_ = calibrate(monitor_.probe_floor());  // the round's levels (with the hook's change in place)
        // The round's share of what is left once it is ready to sample: what the hook and the probes took is
        // not a share the points had.
        const double remaining = budget_s_ - since(start_);
        round_budget_s_ = std::max(remaining, 0.0) / (rounds - r);
        follow_tsc(read_tsc());
        round_start_ = last_tsc_;
        left_ = specs_.size();
        for (std::size_t i = 0; i < specs_.size(); ++i) {
            res_.points[i].round_begin.push_back(res_.points[i].cycles.size());
            PointState& s = state_[i];
            s.spent_s = 0;
            s.settled = false;
            s.out_of_time = false;
            s.next_check = min_r_;
        }
        std::vector<std::size_t> order(specs_.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::uint64_t last_report = read_tsc();
        while (left_) {
            std::shuffle(order.begin(), order.end(), rng_);
            for (std::size_t i : order) {
                if (state_[i].settled) continue;
                if (hooks_.stop && hooks_.stop->load(std::memory_order_relaxed)) {
                    close_interval();
                    return false;
                }
                if (hooks_.on_point) hooks_.on_point(i, specs_.size());
                const std::uint64_t t0 = read_tsc();
                const RawSample raw = sample_(i);
                const std::uint64_t t1 = read_tsc(true);
                if (follow_tsc(t1) || t1 < t0) {
                    // This sample and those since the last calibration were taken across the step, on the
                    // levels of before it: all taken again, on levels measured after it.
                    for (const Pending& p : pending_) state_[p.point].spent_s -= static_cast<double>(p.wall) / hz_;
                    pending_.clear();
                    before_ = calibrate(monitor_.probe_floor());
                    follow_tsc(before_.tsc);
                    continue;
                }
                pending_.push_back({i, raw, t0, t1 - t0});
                state_[i].spent_s += static_cast<double>(t1 - t0) / hz_;
                if (t1 - before_.tsc >= probe_every_) close_interval();
                if (t1 - start_ > hard_end_) give_up();
                if (hooks_.progress && static_cast<double>(t1 - last_report) > 0.5 * hz_) {
                    hooks_.progress({r + 1, rounds, specs_.size() - left_, specs_.size()});
                    last_report = t1;
                }
            }
            close_interval();  // may take samples back (a storm) and so reopen points
        }
        recent_.clear();  // this round's samples are final
        recent_ticks_ = 0;
        for (std::size_t i = 0; i < state_.size(); ++i) {
            state_[i].rounds_settled += state_[i].settled;
            res_.points[i].unsettled_rounds += state_[i].out_of_time;
        }
        if (hooks_.progress) hooks_.progress({r + 1, rounds, specs_.size(), specs_.size()});
        return true;
    }

    // Converts the samples since the last calibration with the levels around them, or drops them when
    // the host was disturbed (then waits it out).
    void close_interval() {
        if (pending_.empty()) return;
        const Calibration after = calibrate(monitor_.probe_floor());
        res_.clock.probes_rejected += static_cast<std::uint64_t>(after.probes_rejected);
        // Noise only adds time: the smaller overhead and the larger ratio of the two around the interval.
        const double overhead = std::min(before_.overhead_ticks, after.overhead_ticks);
        const double floor = std::max({before_.step_ticks, after.step_ticks, 1.0});
        const double ratio = std::max(before_.core_per_tsc, after.core_per_tsc);
        const double contention = interval_contention(before_, after);
        IntervalCounts counts;
        converted_.clear();
        const bool lenient = since(start_) > 1.5 * budget_s_;  // past the budget: no more re-takes
        for (const Pending& p : pending_) {
            PointSamples& pt = res_.points[p.point];
            const double corrected = p.raw.ticks - p.raw.timer_reads * overhead;
            if (!(corrected > floor) || !std::isfinite(corrected)) {
                ++pt.rejected;  // impossible: at or below what the timer resolves
                continue;
            }
            const double ticks = corrected / p.raw.per, cycles = ticks * ratio;
            double request = -1;
            if (p.raw.request_ticks >= 0) {
                request = p.raw.request_ticks - 2 * overhead;
                if (!(request > floor)) request = -1;
            }
            counts.sampled_ticks += static_cast<double>(p.wall);
            ++counts.samples;
            const PointState& s = state_[p.point];
            if (s.hit_above_cycles > 0 && cycles > s.hit_above_cycles && ratio > 0 &&
                (cycles - s.p50_cycles) / ratio > 2e-6 * hz_)
                ++counts.hits;
            if (!lenient && s.p50_cycles > 0 && ratio > 0 &&
                (cycles - s.p50_cycles) / ratio > monitor_.rules().preempted_s * hz_) {
                // The thread lost the CPU for a millisecond or more inside this sample: not the section's time,
                // nor the point's (its cap): a build beside the sweep preempts it thousands of times, and each
                // would take a few percent of the cap of whatever point it hit. The round's budget still pays.
                ++pt.retaken;
                state_[p.point].spent_s -= static_cast<double>(p.wall) / hz_;
                DisturbanceEvent e;
                e.kind = DisturbanceKind::preempted;
                e.start_s = static_cast<double>(p.t0 - start_) / hz_;
                e.length_s = (cycles - s.p50_cycles) / ratio / hz_;
                e.detail = "a sample took 1 ms or more longer than its point's median";
                note_event(e);
                continue;
            }
            converted_.push_back({p.point, ticks, cycles, request, contention, static_cast<double>(p.wall) / hz_});
        }
        pending_.clear();
        const DisturbanceMonitor::Verdict v = monitor_.observe(before_, after, counts);
        if (v.step_only && !lenient) {
            // Only the timer's step grew (a host trapping the TSC: 1 -> 26 ticks on an AMD EPYC Zen 5 VM, 2026-12-03,
            // thousands of times a sweep): the samples it still resolves to 1 % stand, the shorter ones are taken
            // again, and nothing is waited out: waiting took 17-25 s of a 150 s sweep there, most of it in the first
            // round of the closed loop, whose points then ran out of time (41-45 % of the points near the limits
            // settled, 97-98 % in sweeps without).
            std::vector<Converted> resolved, short_ones;
            // By the point's median, not the sample: a point's samples are kept or taken again together, so that a
            // point whose samples straddle the line is not left with its longer ones.
            for (const Converted& c : converted_) {
                const double p50_ticks = ratio > 0 ? state_[c.point].p50_cycles / ratio : 0;
                (p50_ticks >= kStepResolved * floor ? resolved : short_ones).push_back(c);
            }
            if (monitor_.ratio_moved(before_, after))
                short_ones.insert(short_ones.end(), resolved.begin(), resolved.end());
            else
                commit(resolved, counts.sampled_ticks);
            drop(short_ones);
            if (!coarse_since_) coarse_since_ = before_.tsc;
            DisturbanceEvent e;
            e.kind = v.kind;
            e.start_s = static_cast<double>(before_.tsc - start_) / hz_;
            e.length_s = static_cast<double>(after.tsc - before_.tsc) / hz_;
            e.detail = v.detail + "; samples of 100 steps or more kept";
            // As a wait would: at most max_wait_s at a stretch, and wait_share of the budget in all; past that, each
            // coarse step is adopted at once (else the shorter points, taken again turn after turn, use up the
            // round: a sweep whose host flipped the step 237 695 times gave its points 34 samples a round).
            coarse_s_ += e.length_s;
            if (static_cast<double>(after.tsc - coarse_since_) / hz_ >= rules_.max_wait_s ||
                coarse_s_ >= rules_.wait_share * budget_s_) {
                monitor_.adopt(after);
                e.adopted = true;
                coarse_since_ = 0;
            }
            note_event(e);
            trace(after);
            before_ = after;
            return;
        }
        coarse_since_ = 0;
        if (v.kind != DisturbanceKind::none && !lenient) {
            drop(converted_);
            // A storm was judged over the last storm_window_s: every sample in it goes. A slow timer or a
            // collapsed clock was calm at the calibration before: only this interval is in doubt.
            if (v.kind == DisturbanceKind::interrupt_storm) retract_recent();
            before_ = wait_out(v.kind, v.detail, before_.tsc, after);
            return;
        }
        if (v.ambiguous && !lenient)
            drop(converted_);  // the ratio moved within the interval: these samples have no known ratio
        else
            commit(converted_, counts.sampled_ticks);
        trace(after);
        before_ = after;
    }

    // The pool's timeline: the TSC (after earlier instructions, and for a sample's end after the section too), plus
    // what a test adds to play a machine paused or moved.
    std::uint64_t read_tsc(bool end = false) const {
        return (end ? tsc_end() : tsc_begin()) + (hooks_.tsc_shift ? hooks_.tsc_shift() : 0);
    }
    Calibration calibrate(double probe_floor) const {
        Calibration c = calibrate_now(probe_floor);
        c.tsc += hooks_.tsc_shift ? hooks_.tsc_shift() : 0;
        return c;
    }
    double since(std::uint64_t t0) const { return tsc_seconds(t0, read_tsc(), hz_); }

    // Follows the TSC to `now`: where it stepped (tsc_step), every anchor moves with it, so that the step counts as
    // no time (else a step back ends the pool at once, as twice its budget, and writes an elapsed time of 2^64
    // ticks; a step forward does the first), and the step is recorded. True where there was one.
    bool follow_tsc(std::uint64_t now) {
        const std::uint64_t shift = tsc_step(last_tsc_, now, max_gap_);
        last_tsc_ = now;
        if (!shift) return false;
        start_ += shift;
        round_start_ += shift;
        before_.tsc += shift;
        if (coarse_since_) coarse_since_ += shift;
        for (Pending& p : pending_) p.t0 += shift;
        DisturbanceEvent e;
        e.kind = DisturbanceKind::clock_step;
        e.start_s = tsc_seconds(start_, now, hz_);
        e.detail = fmt::format(
            "the TSC stepped {:+.3f} s between two reads (the machine paused, restored or moved): counted as no time; "
            "the samples since the last calibration taken again",
            static_cast<double>(static_cast<std::int64_t>(shift)) / hz_);
        note_event(e);
        return true;
    }

    // Twice the budget spent: the points still open end the round with what they have (a point without
    // a single possible sample is left out of the file, by name).
    void give_up() {
        for (PointState& s : state_)
            if (!s.settled) {
                s.settled = true;
                s.out_of_time = true;
                --left_;
            }
    }

    void trace(const Calibration& c) {
        if (c.core_per_tsc > 0) res_.clock.core_per_tsc.push_back(c.core_per_tsc);
        if (c.contention_cycles > 0) res_.clock.contention_cycles.push_back(c.contention_cycles);
        res_.clock.overhead_ticks.push_back(c.overhead_ticks);
        res_.clock.step_ticks.push_back(c.step_ticks);
    }

    // Samples the host disturbed are taken again, and like a preempted one they do not spend the point's cap
    // (the round's budget still pays): dropped before its median is known, a point's first samples would
    // otherwise spend it on the host's account, and the point end short of its minimum.
    void drop(const std::vector<Converted>& group) {
        for (const Converted& c : group) {
            ++res_.points[c.point].retaken;
            state_[c.point].spent_s -= c.wall_s;
        }
    }

    // Adds an interval's samples to their points, and remembers them as long as an interruption storm,
    // judged over the monitor's window, could still take them back.
    void commit(const std::vector<Converted>& group, double sampled_ticks) {
        Recent added{sampled_ticks, {}};
        for (const Converted& c : group) {
            PointSamples& pt = res_.points[c.point];
            pt.ticks.push_back(c.ticks);
            pt.cycles.push_back(c.cycles);
            pt.contention_cycles.push_back(c.contention);
            if (c.request >= 0) pt.request_ticks.push_back(c.request);
            added.samples.push_back({c.point, c.request >= 0, c.wall_s});
        }
        recent_ticks_ += sampled_ticks;
        recent_.push_back(std::move(added));
        const double window = monitor_.rules().storm_window_s * hz_;
        while (recent_.size() > 1 && recent_ticks_ - recent_.front().sampled_ticks >= window) {
            recent_ticks_ -= recent_.front().sampled_ticks;
            recent_.pop_front();
        }
        for (const Converted& c : group) judge(c.point);
    }

    // Takes back the samples of the storm window (each point's newest ones), reopening points they had
    // settled.
    void retract_recent() {
        for (auto g = recent_.rbegin(); g != recent_.rend(); ++g)
            for (const auto& [i, has_request, wall_s] : g->samples) {
                PointSamples& pt = res_.points[i];
                pt.ticks.pop_back();
                pt.cycles.pop_back();
                pt.contention_cycles.pop_back();
                if (has_request) pt.request_ticks.pop_back();
                ++pt.retaken;
                PointState& s = state_[i];
                s.spent_s -= wall_s;  // as drop(): the host's, not the point's
                if (s.settled) {
                    s.settled = false;
                    ++left_;
                }
            }
        recent_.clear();
        recent_ticks_ = 0;
    }

    // Is the point settled in this round?
    void judge(std::size_t i) {
        PointState& s = state_[i];
        if (s.settled) return;
        const PointSamples& pt = res_.points[i];
        const std::size_t n = pt.cycles.size() - pt.round_begin.back();
        // Out of time: the point's own cap spent, or the round's share of the budget gone (wall time: samples,
        // calibrations and waits). Round-robin gives each open point a sample a turn, so a point of long
        // sections spends more of the round, as it needs to; an equal share per point would cut those short
        // while the round had time to spare.
        // A point within kGraceShare of its sample ceiling, where it ends settled whatever its rule, may run over
        // the round's share by kRoundGrace of it: the points take turns, so a round whose share a disturbance took
        // cut every open point at about the same count (491-498 of 500 at every point near the limits, in a closed
        // loop planned to fill its time: 109 of 1052 settled; 2-vCPU Intel Xeon VM, 2026-12-02).
        const double share = round_budget_s_ + (static_cast<double>(n) >= kGraceShare * static_cast<double>(max_r_)
                                                    ? std::min(kRoundGrace * round_budget_s_, kRoundGraceMaxS)
                                                    : 0.0);
        const bool out_of_time =
            n < max_r_ && n >= 5 &&
            (s.spent_s > rules_.point_cap_s / std::max(1, rules_.rounds) || since(round_start_) > share);
        bool finished = n >= max_r_ || out_of_time;
        if (!finished && n >= s.next_check) {
            s.next_check = n + std::max<std::size_t>(4, n / 16);  // sorting is not free: look again after ~6 % more
            std::vector<double> sorted = pt.round_cycles(pt.round_begin.size() - 1);
            std::sort(sorted.begin(), sorted.end());
            PointStats q;
            q.p10 = sorted[sorted.size() / 10];
            q.p50 = sorted[sorted.size() / 2];
            s.p50_cycles = q.p50;
            s.hit_above_cycles = interrupted_above(q);
            // A short section (what the bounds are fitted on) needs its p90 and its p99 of uninterrupted
            // samples; a longer one only its median, to target_rel_ci_long. Other points (thresholds): their
            // median to target_rel_ci.
            const double ratio = monitor_.ratio_level() > 0 ? monitor_.ratio_level() : 1;
            const bool short_section = q.p50 / ratio / hz_ <= rules_.tail_max_s;
            const bool tail = specs_[i].need90 && short_section;
            const double median_ci =
                specs_[i].need90 && !short_section ? rules_.target_rel_ci_long : rules_.target_rel_ci;
            const std::size_t needed = tail ? std::max(min_r_, min90_r_) : min_r_;
            auto rule_met = [&](const std::vector<double>& v) {
                if (!(median_rel_ci(v) < median_ci * sqrt_rounds_)) return false;
                if (!tail) return true;
                if (!(quantile_rel_ci(v, 0.9) < rules_.target_rel_ci90 * sqrt_rounds_)) return false;
                const std::vector<double> clean(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(clean_count(v)));
                return v.size() >= min99_r_ && quantile_rel_ci(clean, 0.99) < rules_.target_rel_ci99 * sqrt_rounds_;
            };
            if (n < needed) {
                s.next_check = needed;
            } else {
                finished = rule_met(sorted);
                // Or, for a short section whose round met the neighbour, the rule met by its quiet samples
                // (settle_samples): its bound is taken from them.
                if (!finished && tail) {
                    const std::vector<double> quiet = settle_samples(sorted, quiet_samples(pt), needed);
                    finished = quiet.size() < sorted.size() && rule_met(quiet);
                }
            }
        }
        if (finished) {
            s.settled = true;
            s.out_of_time = out_of_time;
            --left_;
        }
    }

    // The cycles of the point's current round whose contention level is quiet (quiet_round_stats' split), against
    // the best probe so far, taken again each time the trace has grown by half (none while it is unknown).
    std::vector<double> quiet_samples(const PointSamples& pt) {
        const std::vector<double>& trace = res_.clock.contention_cycles;
        if (trace.size() >= 50 && 2 * trace.size() >= 3 * best_at_) {
            best_probe_ = best_probe_cycles(trace);
            best_at_ = trace.size();
        }
        const std::size_t r = pt.round_begin.size() - 1;
        RoundStats unused;
        std::vector<double> quiet;
        quiet_round_stats(unused, pt.round_cycles(r), pt.round_contention(r), best_probe_, &quiet);
        return quiet;
    }

    // Polls the host about every millisecond until two calibrations in a row are calm (and, for a storm,
    // the stall rate is back down), or the wait is used up: then its state is the new normal.
    Calibration wait_out(DisturbanceKind kind, const std::string& detail, std::uint64_t since, Calibration c) {
        DisturbanceEvent e;
        e.kind = kind;
        e.start_s = static_cast<double>(since - start_) / hz_;
        e.detail = detail;
        const std::uint64_t wait_start = read_tsc();
        follow_tsc(wait_start);
        const double allowed =
            std::min(rules_.max_wait_s, std::max(0.0, rules_.wait_share * budget_s_ - res_.waited_s));
        int calm = 0;
        while (calm < 2) {
            if (hooks_.stop && hooks_.stop->load(std::memory_order_relaxed)) break;
            follow_tsc(read_tsc());  // a step while waiting is no time waited
            if (tsc_seconds(wait_start, last_tsc_, hz_) >= allowed) {
                monitor_.adopt(c);
                e.adopted = true;
                break;
            }
            sleep_ms(1);
            bool storm_over = true;
            if (kind == DisturbanceKind::interrupt_storm)
                storm_over = stall_rate_per_ms(0.5e-3, hz_) < monitor_.rules().storm_min_rate_per_ms;
            c = calibrate(monitor_.probe_floor());
            res_.clock.probes_rejected += static_cast<std::uint64_t>(c.probes_rejected);
            calm = monitor_.judge_calibration(c) == DisturbanceKind::none && storm_over ? calm + 1 : 0;
        }
        if (c.core_per_tsc <= 0) c = calibrate(0);  // adopted (or stopped) inside a collapse: its level, whatever it is
        follow_tsc(read_tsc());
        res_.waited_s += tsc_seconds(wait_start, last_tsc_, hz_);
        e.length_s = tsc_seconds(since, last_tsc_, hz_);
        note_event(e);
        trace(c);
        return c;
    }

    void note_event(const DisturbanceEvent& e) {
        record_event(res_.events, e);
        if (hooks_.on_event) hooks_.on_event(e);
    }

    const std::vector<PointSpec>& specs_;
    const std::function<RawSample(std::size_t)>& sample_;
    const SamplingRules& rules_;
    const double budget_s_;
    const PoolHooks& hooks_;
    const double hz_;
    DisturbanceMonitor monitor_;
    std::vector<PointState> state_;
    PoolResult res_;
    std::mt19937 rng_{3};
    double sqrt_rounds_ = 1;
    std::size_t min_r_ = 5, min90_r_ = 0, min99_r_ = 0, max_r_ = 0;
    std::uint64_t coarse_since_ = 0;  // TSC when the timer's step became coarse (0: it is not)
    double coarse_s_ = 0;  // seconds of intervals under a coarse step, all together
    double best_probe_ = 0;  // the contention probe's best so far (quiet_samples), from best_at_ probes
    std::size_t best_at_ = 0;
    std::uint64_t probe_every_ = 0, start_ = 0, hard_end_ = 0;
    std::uint64_t last_tsc_ = 0, max_gap_ = 0;  // the TSC's last read, and the most two reads can be apart
    Calibration before_;
    std::vector<Pending> pending_;
    std::vector<Converted> converted_;
    struct Recent {
        double sampled_ticks;
        struct Sample {
            std::size_t point;
            bool has_request;
            double wall_s;
        };
        std::vector<Sample> samples;
    };
    std::deque<Recent> recent_;  // the intervals a storm could still take back
    double recent_ticks_ = 0;
    double round_budget_s_ = 0;  // this round's share of the budget (wall time)
    std::uint64_t round_start_ = 0;
    std::size_t left_ = 0;
};

}  // namespace

PoolResult sample_pool(const std::vector<PointSpec>& points, const std::function<RawSample(std::size_t)>& sample,
                       const SamplingRules& rules, double budget_s, const Calibration& calm, const PoolHooks& hooks) {
    return Pool(points, sample, rules, budget_s, calm, hooks).run();
}

}  // namespace fputune
