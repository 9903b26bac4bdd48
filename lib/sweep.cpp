// SPDX-License-Identifier: MIT
// Sweep engine: the glue loop of DESIGN.md, timed per section with the TSC, every point in one pool.
#include "sweep.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "clock.hpp"
#include "cpu.hpp"
#include "probe.hpp"
#include "registry.hpp"
#include "stats.hpp"

namespace fputune {

void SweepOptions::apply_quick(bool max_bytes_given) {
    quick = true;
    if (!max_bytes_given) max_section_bytes = 256u << 10;
    points_per_doubling = 2;
    budget_s = 25;
    sampling.rounds = 2;
    sampling.point_cap_s = 0.04;
    sampling.min_samples = 9;
    sampling.target_rel_ci = 0.02;
    sampling.min_samples90 = 40;
    sampling.target_rel_ci90 = 0.03;
    sampling.min_samples99 = 100;
    sampling.target_rel_ci99 = 0.10;
}

nlohmann::json SweepOptions::to_json() const {
    std::vector<std::string> tdirty;
    for (DirtyState d : threshold_dirty) tdirty.push_back(dirty_name(d));
    const SamplingRules& r = sampling;
    nlohmann::json j = {{"kernels", kernel_patterns}, {"dirty", dirty_name(dirty)}, {"section_overhead_cycles", section_overhead_cycles},
                        {"cache", hot && cold ? "both" : hot ? "hot" : "cold"}, {"quick", quick}, {"max_section_bytes", max_section_bytes},
                        {"points_per_doubling", points_per_doubling}, {"thresholds", thresholds}, {"cpu", cpu},
                        {"threshold_dirty", tdirty}, {"time_budget_s", budget_s}, {"rounds", r.rounds}, {"point_cap_s", r.point_cap_s},
                        {"target_rel_ci", r.target_rel_ci}, {"target_rel_ci90", r.target_rel_ci90}, {"min_samples", r.min_samples},
                        {"min_samples90", r.min_samples90}, {"tail_max_s", r.tail_max_s}, {"min_samples99", r.min_samples99},
                        {"target_rel_ci99", r.target_rel_ci99}, {"max_wait_s", r.max_wait_s}, {"wait_share", r.wait_share},
                        {"masked_features", feature_list_string(disabled_features() & detected_features())}};
    if (!sizes.empty()) j["sizes"] = sizes;
    return j;
}

std::vector<std::uint64_t> default_section_sizes(std::uint32_t block_bytes, std::uint64_t max_bytes, int points_per_doubling) {
    std::set<std::uint64_t> sizes;
    const double step = std::pow(2.0, 1.0 / points_per_doubling);
    for (double x = block_bytes;; x *= step) {
        std::uint64_t n = static_cast<std::uint64_t>(std::llround(x / block_bytes)) * block_bytes;
        sizes.insert(std::max<std::uint64_t>(n, block_bytes));
        if (n >= max_bytes) break;
    }
    for (std::uint64_t upstream : {1024u, 4096u})
        if (upstream >= block_bytes && upstream <= max_bytes) sizes.insert(upstream / block_bytes * block_bytes);
    return {sizes.begin(), sizes.end()};
}

std::vector<std::uint64_t> default_threshold_lengths() {
    std::vector<std::uint64_t> v = {1, 8};
    for (std::uint64_t n = 16; n <= 512; n += 16) v.push_back(n);
    for (std::uint64_t n = 544; n <= 1024; n += 32) v.push_back(n);
    for (std::uint64_t n = 1152; n <= 4096; n += 128) v.push_back(n);
    return v;
}

std::vector<std::string> threshold_algorithms(const std::vector<const Kernel*>& kernels) {
    std::vector<std::string> out;
    for (const Kernel* k : kernels) {
        if (is_peer(*k) || std::find(out.begin(), out.end(), k->algorithm) != out.end()) continue;
        bool scalar = false, simd = false;
        for (const Kernel* o : kernels)
            if (!is_peer(*o) && !o->reference_only && std::strcmp(o->algorithm, k->algorithm) == 0) (o->needs_fpu ? simd : scalar) = true;
        if (scalar && simd) out.emplace_back(k->algorithm);
    }
    return out;
}

namespace {

struct AlignedBuffer {
    std::uint8_t* p = nullptr;
    std::size_t n = 0;
    explicit AlignedBuffer(std::size_t bytes) : n(bytes) {
        p = static_cast<std::uint8_t*>(std::aligned_alloc(4096, (bytes + 4095) & ~std::size_t{4095}));
        if (!p) throw std::bad_alloc();
        std::uint64_t x = 0x9e3779b97f4a7c15ull;  // xorshift64: fast enough for a GiB of filler
        for (std::size_t i = 0; i < bytes; i += 8) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            std::memcpy(p + i, &x, std::min<std::size_t>(8, bytes - i));
        }
    }
    ~AlignedBuffer() { std::free(p); }
    AlignedBuffer(const AlignedBuffer&) = delete;
    AlignedBuffer& operator=(const AlignedBuffer&) = delete;
};

std::size_t cold_buffer_bytes() {
    // 256 MiB: 8x the L3 of one Zen 4/5 CCD, 4x that of large Intel parts. sysconf's L3 is no help on
    // VMs, which report the sum of every L3 on the host (508 MiB here).
    return std::size_t{256} << 20;
}

bool has_threshold_group(const SweepFile& f, const std::string& kernel, const std::string& dirty) {
    return std::any_of(f.thresholds.begin(), f.thresholds.end(), [&](const ThresholdPoint& p) { return p.kernel == kernel && p.dirty == dirty; });
}

bool has_point(const SweepFile& f, const std::string& kernel, const std::string& cache, std::uint64_t bytes) {
    return std::any_of(f.sections.begin(), f.sections.end(), [&](const SectionPoint& p) {
        return p.settled && p.kernel == kernel && p.cache == cache && p.bytes == bytes;
    });
}

// The emulated glue loop: buffers, keys and the user state, and one timed sample of a point.
class GlueLoop {
public:
    GlueLoop(const SweepPlan& plan, const SweepOptions& opt) : opt_(opt) {
        std::uint64_t max_bytes = 4096;
        bool any_cold = false;
        for (const SectionTarget& t : plan.sections) {
            max_bytes = std::max(max_bytes, t.bytes);
            any_cold |= t.cold;
        }
        for (const ThresholdTarget& t : plan.thresholds) max_bytes = std::max(max_bytes, t.bytes);
        out_.resize(max_bytes + 256);  // a digest, or a cipher's one-shot output: the message and its tag
        hot_ = std::make_unique<AlignedBuffer>(max_bytes + 4096);
        dst_ = std::make_unique<AlignedBuffer>(max_bytes + 4096);  // where a cipher's section writes (kept resident)
        if (any_cold) cold_ = std::make_unique<AlignedBuffer>(std::max<std::size_t>(cold_buffer_bytes(), 4 * max_bytes));
        std::mt19937_64 rng(5);
        for (const Kernel* k : plan.kernels) {
            std::vector<std::uint8_t>& key = keys_[k];
            key.resize(k->key_bytes);
            for (auto& b : key) b = static_cast<std::uint8_t>(rng());
        }
    }

    // One section: the XSAVEC of the dirty user state, the per-section overhead, blocks() on the bytes;
    // then the XRSTOR of the return to user space (the request).
    RawSample section(const SectionTarget& pt) {
        const Kernel* k = pt.kernel;
        const std::uint8_t* data = hot_->p;
        if (pt.cold) {
            if (cold_offset_ + pt.bytes > cold_->n) cold_offset_ = 0;
            data = cold_->p + cold_offset_;
            cold_offset_ += (pt.bytes + 4095) & ~std::uint64_t{4095};
        }
        const std::uint8_t* key = key_of(k);
        // Warm the kernel's code and constant tables (one block, resident data, untimed): the section is
        // one of a request's loop of sections, as when hashing a module, not the first call after
        // other code ran. Without it each sample pays for whatever the previous point evicted, which
        // is a property of the pool's order, not of the kernel (p99 20-40 % over p50 instead of ~1 %).
        k->init(ctx_, key);
        run_section(*k, ctx_, hot_->p + hot_->n - 4096, dst_->p, 1);
        k->final(ctx_, nullptr, 0, out_.data());
        k->init(ctx_, key);
        fpu_.dirty(opt_.dirty);
        const std::uint64_t t0 = tsc_begin();
        fpu_.save();                                      // kernel_fpu_begin: the user state
        spin_core_cycles(opt_.section_overhead_cycles);   // the rest of begin/end
        run_section(*k, ctx_, data, dst_->p, pt.bytes / k->block_bytes);
        const std::uint64_t t1 = tsc_end();
        fpu_.restore();                                   // return to user space
        const std::uint64_t t2 = tsc_end();
        k->final(ctx_, nullptr, 0, out_.data());          // end the request (frees a peer's context)
        return {static_cast<double>(t1 - t0), 1, 1, static_cast<double>(t2 - t0)};
    }

    // One-shot cost of a length: a batch of 8 requests (they resolve below the TSC step). FPU kernels
    // pay dirty + save + restore per request; the dirty() calls are timed alone and subtracted (they
    // stand for what user space did, not for the kernel's cost).
    RawSample threshold(const ThresholdTarget& pt) {
        constexpr int kBatch = 8;
        const Kernel* k = pt.kernel;
        const std::uint8_t* key = key_of(k);
        // dirty "none" on an FPU kernel: the user state was already saved earlier in the same syscall
        // (or there is none, a kernel thread), so kernel_fpu_begin() saves nothing.
        const bool pays_save = k->needs_fpu && pt.dirty != DirtyState::none;
        kernel_digest(*k, key, hot_->p, pt.bytes, out_.data());  // warm code, as for sections (untimed)
        const std::uint64_t t0 = tsc_begin();
        for (int b = 0; b < kBatch; ++b) {
            if (pays_save) {
                fpu_.dirty(pt.dirty);
                fpu_.save();
            }
            kernel_digest(*k, key, hot_->p, pt.bytes, out_.data());
            if (pays_save) fpu_.restore();
        }
        const std::uint64_t t1 = tsc_end();
        if (!pays_save) return {static_cast<double>(t1 - t0), 1, kBatch};
        for (int b = 0; b < kBatch; ++b) fpu_.dirty(pt.dirty);
        const std::uint64_t t2 = tsc_end();
        // Both intervals hold one timer overhead: they cancel.
        return {static_cast<double>(t1 - t0) - static_cast<double>(t2 - t1), 0, kBatch};
    }

private:
    const std::uint8_t* key_of(const Kernel* k) const {
        const auto& key = keys_.at(k);
        return key.empty() ? nullptr : key.data();
    }
    const SweepOptions& opt_;
    std::unique_ptr<AlignedBuffer> hot_, cold_, dst_;
    std::size_t cold_offset_ = 0;
    std::map<const Kernel*, std::vector<std::uint8_t>> keys_;
    FpuEmulator fpu_;
    alignas(kCtxAlign) std::uint8_t ctx_[kMaxCtxBytes];
    std::vector<std::uint8_t> out_;
};

}  // namespace

SweepPlan plan_sweep(const SweepOptions& opt, const SweepFile* resume) {
    SweepPlan plan;
    std::vector<DirtyState> tdirty = opt.threshold_dirty;
    if (tdirty.empty()) tdirty.push_back(opt.dirty);
    // Our kernels this CPU can run (peers are never swept), the ones with sections, and the ones
    // whose algorithm has both a no-FPU and an FPU path among them (thresholds).
    for (const Kernel* k : opt.kernels)
        if (!is_peer(*k) && !is_multisource(*k) && !missing_features(*k, usable_features())) plan.kernels.push_back(k);
    const std::vector<std::string> talgs = opt.thresholds ? threshold_algorithms(plan.kernels) : std::vector<std::string>{};
    const std::vector<std::uint64_t> lengths = default_threshold_lengths();
    for (const Kernel* k : plan.kernels) {
        if (k->needs_fpu) {
            std::vector<std::uint64_t> sizes;
            if (opt.sizes.empty()) sizes = default_section_sizes(k->block_bytes, opt.max_section_bytes, opt.points_per_doubling);
            else
                for (std::uint64_t sz : opt.sizes) sizes.push_back(std::max<std::uint64_t>(1, sz / k->block_bytes) * k->block_bytes);
            std::sort(sizes.begin(), sizes.end());
            sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
            for (bool cold : {false, true}) {
                if (cold ? !opt.cold : !opt.hot) continue;
                for (std::uint64_t bytes : sizes)
                    if (!resume || !has_point(*resume, k->name, cold ? "cold" : "hot", bytes)) plan.sections.push_back({k, cold, bytes});
            }
        }
        if (std::find(talgs.begin(), talgs.end(), k->algorithm) == talgs.end()) continue;
        for (DirtyState d : k->needs_fpu ? tdirty : std::vector<DirtyState>{DirtyState::none}) {
            if (resume && has_threshold_group(*resume, k->name, dirty_name(d))) continue;
            for (std::uint64_t len : lengths) plan.thresholds.push_back({k, d, len});
        }
    }
    return plan;
}

SweepMeasurement measure_plan(const SweepPlan& plan, const SweepOptions& opt, const Calibration& calm, const PoolHooks& hooks) {
    SweepMeasurement m;
    GlueLoop loop(plan, opt);
    // Every section point of every kernel and cache state and every threshold length, in one pool:
    // the host's phases (seconds to minutes on a shared VM) then fall on all of them alike, and the
    // rounds spread each point's samples over the whole sweep.
    std::vector<PointSpec> specs;
    for (std::size_t i = 0; i < plan.sections.size(); ++i) specs.push_back({true});
    for (std::size_t i = 0; i < plan.thresholds.size(); ++i) specs.push_back({false});
    const std::size_t nsections = plan.sections.size();
    auto sample = [&](std::size_t i) {
        return i < nsections ? loop.section(plan.sections[i]) : loop.threshold(plan.thresholds[i - nsections]);
    };
    m.core_per_tsc_start = measure_core_per_tsc().best;
    Calibration start = calm;
    if (!start.tsc) start = calm_level(64);
    if (!(start.core_per_tsc > 0)) start.core_per_tsc = m.core_per_tsc_start;
    m.pool = sample_pool(specs, sample, opt.sampling, opt.budget_s, start, hooks);
    m.core_per_tsc_end = measure_core_per_tsc().best;
    return m;
}

namespace {

RoundStats round_stats(std::vector<double> cycles) {
    const PointStats s = summarize(std::move(cycles));
    return {s.samples, s.p10, s.p50, s.p90, s.p99_clean, s.interrupted};
}

RatioTrace ratio_trace_of(const ClockTrace& c) {
    std::vector<double> r = c.core_per_tsc;
    if (r.empty()) return {};
    std::sort(r.begin(), r.end());
    auto q = [&](double f) { return r[static_cast<std::size_t>(f * static_cast<double>(r.size() - 1))]; };
    return {r.size(), r.front(), q(0.1), q(0.5), q(0.9), r.back(), c.probes_rejected};
}

TimerTrace timer_trace_of(const ClockTrace& c) {
    std::vector<double> o = c.overhead_ticks, s = c.step_ticks;
    if (o.empty()) return {};
    std::sort(o.begin(), o.end());
    std::sort(s.begin(), s.end());
    auto q = [](const std::vector<double>& v, double f) { return v[static_cast<std::size_t>(f * static_cast<double>(v.size() - 1))]; };
    return {o.size(), o.front(), q(o, 0.5), q(o, 0.99), o.back(), s.front(), q(s, 0.5), s.back()};
}

// A resumed file keeps its first reference ratio and adds this run's probes to its trace.
void merge_trace(RatioTrace& into, const RatioTrace& add) {
    if (!add.probes) return;
    if (!into.probes) {
        into = add;
        return;
    }
    into.probes += add.probes;
    into.rejected += add.rejected;
    into.min = std::min(into.min, add.min);
    into.max = std::max(into.max, add.max);
}

}  // namespace

SweepFile summarise_sweep(const SweepOptions& opt, const SweepInputs& in, const SweepPlan& plan, const SweepMeasurement& m) {
    SweepFile f;
    if (in.resume) {
        f = *in.resume;
        // Points a stopped sweep cut short are in the plan again.
        std::erase_if(f.sections, [](const SectionPoint& p) { return !p.settled; });
        f.partial = false;
        // The merged file says what it holds: no stale "interrupted" warning, and every kernel pattern swept into it.
        std::erase_if(f.warnings, [](const std::string& w) { return w.rfind("interrupted", 0) == 0; });
        nlohmann::json kernels = nlohmann::json::array();
        for (const nlohmann::json& list : {f.options.value("kernels", nlohmann::json::array()), nlohmann::json(opt.kernel_patterns)}) {
            if (list.empty()) kernels.push_back("*");
            for (const auto& k : list)
                if (std::find(kernels.begin(), kernels.end(), k) == kernels.end()) kernels.push_back(k);
        }
        if (kernels == nlohmann::json::array({"*"})) kernels = nlohmann::json::array();
        f.options["kernels"] = kernels;
    } else {
        f.cpu = in.cpu;
        f.options = opt.to_json();
        f.dirty = dirty_name(opt.dirty);
        f.tsc_hz = tsc_info().hz;
        f.core_per_tsc = m.core_per_tsc_start;
        f.doctor = in.doctor;
    }
    f.tool_version = tool_version();
    f.tool_commit = tool_commit();
    f.date = utc_now_iso8601();
    f.section_overhead_ticks = static_cast<double>(opt.section_overhead_cycles) / f.core_per_tsc;
    for (const Kernel* k : plan.kernels)
        if (std::none_of(f.kernels.begin(), f.kernels.end(), [&](const KernelInfo& i) { return i.name == k->name; }))
            f.kernels.push_back({k->name, k->algorithm, k->isa, k->provider, k->block_bytes, k->needs_fpu});
    // RAID6/xor: their sections (sources x bytes per stripe() call) are not measured yet (issue 14).
    std::string multisource;
    for (const Kernel* k : opt.kernels)
        if (is_multisource(*k) && !is_peer(*k)) multisource += (multisource.empty() ? "" : ", ") + std::string(k->name);
    const std::string not_swept = "not swept: " + multisource + " (multi-source kernels: sources x bytes sections are not measured yet)";
    if (!multisource.empty() && std::find(f.warnings.begin(), f.warnings.end(), not_swept) == f.warnings.end())
        f.warnings.push_back(not_swept);

    // Points in plan order. Nothing measured is dropped on a stop: a point cut short is kept with what
    // it has (>= 3 samples), marked unsettled, and --resume measures it again.
    std::vector<std::string> unmeasured;
    const PoolResult& pool = m.pool;
    for (std::size_t i = 0; i < plan.sections.size(); ++i) {
        const PointSamples& s = pool.points[i];
        const SectionTarget& t = plan.sections[i];
        if (s.cycles.size() < 3) {
            if (pool.complete) unmeasured.push_back(fmt::format("{} {} B {}", t.kernel->name, t.bytes, t.cold ? "cold" : "hot"));
            continue;
        }
        std::vector<double> request = s.request_ticks;
        std::sort(request.begin(), request.end());
        SectionPoint p{t.kernel->name, t.cold ? "cold" : "hot", t.bytes, summarize(s.ticks), request.empty() ? 0 : request[request.size() / 2],
                       s.settled, summarize(s.cycles), {}, s.rejected, s.retaken};
        for (std::size_t r = 0; r < s.round_begin.size(); ++r) {
            std::vector<double> c = s.round_cycles(r);
            if (!c.empty()) p.rounds.push_back(round_stats(std::move(c)));
        }
        f.sections.push_back(std::move(p));
    }
    for (std::size_t i = 0; i < plan.thresholds.size(); ++i) {
        const PointSamples& s = pool.points[plan.sections.size() + i];
        const ThresholdTarget& t = plan.thresholds[i];
        if (s.cycles.size() < 3) {
            if (pool.complete) unmeasured.push_back(fmt::format("{} {} B threshold", t.kernel->name, t.bytes));
            continue;
        }
        // A threshold group is complete or absent (--resume measures a whole group again).
        if (!pool.complete) continue;
        f.thresholds.push_back({t.kernel->name, dirty_name(t.dirty), t.bytes, summarize(s.ticks), summarize(s.cycles), s.rejected, s.retaken});
    }
    f.partial = !pool.complete;

    merge_trace(f.ratio_trace, ratio_trace_of(pool.clock));
    f.timer_trace = timer_trace_of(pool.clock);
    SamplingSummary& sm = f.sampling;
    sm.rounds = opt.sampling.rounds;
    sm.rejected += pool.rejected;
    sm.retaken += pool.retaken;
    sm.waited_s += pool.waited_s;
    sm.elapsed_s += pool.elapsed_s;
    for (const DisturbanceEvent& e : pool.events) {
        sm.disturbances += e.count;
        if (f.disturbances.size() < 500)
            f.disturbances.push_back({disturbance_name(e.kind), e.start_s, e.length_s, e.count, e.adopted, e.detail});
    }
    f.core_per_tsc_end = m.core_per_tsc_end;

    // Warnings: what a reader must know to trust the numbers.
    const double drift = std::abs(f.core_per_tsc_end - f.core_per_tsc) / f.core_per_tsc;
    if (drift > 0.03)
        f.warnings.push_back(fmt::format("core/TSC ratio changed from {:.3f} to {:.3f} ({:.1f}%) during the sweep (probed {:.3f}..{:.3f}): the core "
                                         "clock moved (frequency scaling, thermal limits or a busy host); each sample was converted to cycles "
                                         "with the ratio probed around it",
                                         f.core_per_tsc, f.core_per_tsc_end, 100 * drift, f.ratio_trace.min, f.ratio_trace.max));
    if (pool.rejected)
        f.warnings.push_back(fmt::format("{} samples were at or below the timer's floor (impossible: the timer's overhead moved under them); "
                                         "they were measured again",
                                         pool.rejected));
    if (!pool.events.empty()) {
        std::map<std::string, std::pair<std::uint64_t, double>> by_kind;
        for (const DisturbanceEvent& e : pool.events) {
            auto& [n, s] = by_kind[disturbance_name(e.kind)];
            n += e.count;
            s += e.length_s;
        }
        std::string what;
        for (const auto& [kind, v] : by_kind) what += fmt::format("{}{} x{} ({:.2f} s)", what.empty() ? "" : ", ", kind, v.first, v.second);
        f.warnings.push_back(fmt::format("the host disturbed the sweep: {}; {} samples were taken again (see \"disturbances\")", what, pool.retaken));
    }
    if (!unmeasured.empty())
        f.warnings.push_back(fmt::format("{} points got fewer than 3 possible samples and are left out: {}{}", unmeasured.size(),
                                         fmt::join(unmeasured.begin(), unmeasured.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(5, unmeasured.size())), ", "),
                                         unmeasured.size() > 5 ? ", ..." : ""));
    if (f.partial) {
        const std::string why = in.stop_reason ? in.stop_reason() : std::string();
        f.warnings.push_back(fmt::format("interrupted: partial sweep{}; continue it with --resume", why.empty() ? "" : " (" + why + ")"));
    }
    // Never a point no reader could use: a quantile <= 0 or not finite means a bug above, not a measurement.
    const std::vector<std::string> bad = impossible_points(f);
    if (!bad.empty()) {
        std::erase_if(f.sections, [](const SectionPoint& p) { return !possible_point(p.ticks, p.cycles); });
        std::erase_if(f.thresholds, [](const ThresholdPoint& p) { return !possible_point(p.ticks, p.cycles); });
        f.warnings.push_back(fmt::format("{} points had impossible statistics and are left out: {}", bad.size(), fmt::join(bad, ", ")));
    }
    return f;
}

SweepFile measure_sweep(const SweepOptions& opt, const SweepInputs& in, const PoolHooks& hooks) {
    const SweepPlan plan = plan_sweep(opt, in.resume);
    const SweepMeasurement m = measure_plan(plan, opt, in.calm, hooks);
    return summarise_sweep(opt, in, plan, m);
}

}  // namespace fputune
