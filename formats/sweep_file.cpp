// SPDX-License-Identifier: MIT
// Reading and writing fputune.sweep/1, with one clear message for each way a file can be wrong.
#include "sweep_file.hpp"

#include <cmath>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "atomic_file.hpp"
#include "json_checked.hpp"
#include "provenance_json.hpp"
#include "units.hpp"

namespace fputune {

using nlohmann::json;

namespace {

json stats_json(const PointStats& s) {
    return {{"samples", s.samples},
            {"min", s.min},
            {"p10", s.p10},
            {"p50", s.p50},
            {"p90", s.p90},
            {"p99", s.p99},
            {"p999", s.p999},
            {"max", s.max},
            {"interrupted", s.interrupted},
            {"rel_ci50", s.rel_ci50},
            {"p99_clean", s.p99_clean}};
}

// Sections of more than this are beyond anything fputune measures (--sizes stops at 1 GiB); a block of
// more than kMaxBlockBytes is no kernel's.
constexpr std::uint64_t kMaxPointBytes = 1ull << 30;
constexpr std::uint32_t kMaxBlockBytes = 1u << 20;

// A point's statistics; jsonc::FieldError (naming the statistic) when they cannot be used: a value
// missing or not finite, no samples, or a quantile the models use (p50; for sections also p90) not
// > 0. Other quantiles may be <= 0 (a one-shot cost of a few bytes, less the timer's own).
PointStats stats_from(const json& j, const jsonc::Path& at, bool section) {
    using namespace jsonc;
    object(j, at);
    PointStats s;
    s.samples = integer<std::uint64_t>(member(j, "samples", at), at / "samples", 1);
    auto value = [&](const char* key) { return real(member(j, key, at), at / key); };
    // What the fits use: at least one tick (below that no timer can tell a section from nothing, and a
    // fit weighting points by 1/y^2 overflows) and at most 1e13 (an hour of a 3 GHz core).
    auto used = [&](const char* key) {
        const double v = positive(member(j, key, at), at / key);
        if (v < 1) fail(at / key, fmt::format("{} is below 1, less than a timer can measure", v));
        if (v > 1e13) fail(at / key, fmt::format("{} is above 1e13, longer than any section", v));
        return v;
    };
    s.min = value("min");
    s.p10 = value("p10");
    s.p50 = used("p50");
    s.p90 = section ? used("p90") : value("p90");
    s.p99 = value("p99");
    s.p999 = value("p999");
    s.max = value("max");
    s.interrupted = integer<std::uint64_t>(member(j, "interrupted", at), at / "interrupted", 0, s.samples);
    s.rel_ci50 = member_or(j, "rel_ci50", at, 0.0, [](const json& v, const Path& p) { return real(v, p, 0); });
    // The p99 bound uses max(p99_clean, p90): a p99_clean <= 0 (none written) falls back to the p90.
    s.p99_clean = member_or(j, "p99_clean", at, s.p99, [](const json& v, const Path& p) { return real(v, p); });
    return s;
}

// Skipped points, per kernel, for the notes: "sections[12] 64 B hot: ticks.p50: -3 is not > 0".
struct Skipped {
    std::map<std::string, std::vector<std::string>> by_kernel;
    void note(std::vector<std::string>& notes) const {
        for (const auto& [kernel, why] : by_kernel) {
            std::string s = fmt::format("{}: {} point{} skipped (statistics missing, not finite or not > 0): ", kernel,
                                        why.size(), why.size() == 1 ? "" : "s");
            for (std::size_t i = 0; i < why.size() && i < 3; ++i) s += (i ? "; " : "") + why[i];
            if (why.size() > 3) s += fmt::format("; and {} more", why.size() - 3);
            notes.push_back(s);
        }
    }
};

json rounds_json(const std::vector<RoundStats>& rounds) {
    json a = json::array();
    for (const RoundStats& r : rounds)
        a.push_back({{"samples", r.samples},
                     {"p10", r.p10},
                     {"p50", r.p50},
                     {"p90", r.p90},
                     {"p99_clean", r.p99_clean},
                     {"interrupted", r.interrupted}});
    for (std::size_t i = 0; i < rounds.size(); ++i) {
        const RoundStats& r = rounds[i];
        if (r.contention > 0) a[i]["contention"] = r.contention;
        if (r.quiet_samples > 0)
            a[i]["quiet"] = {{"samples", r.quiet_samples},
                             {"p50", r.quiet_p50},
                             {"p90", r.quiet_p90},
                             {"p99_clean", r.quiet_p99_clean},
                             {"contention", r.quiet_contention}};
        if (r.contended_samples > 0)
            a[i]["contended"] = {
                {"samples", r.contended_samples}, {"p50", r.contended_p50}, {"contention", r.contended_contention}};
    }
    return a;
}

// A contention level where one is written: a number >= 1 (c = a probe's time / its best), at most 1000.
double contention_level(const json& v, const jsonc::Path& at) { return jsonc::real(v, at, 1, 1000); }

// A section point's contention levels, its own and its rounds' (absent: 0, unknown).
void read_point_contention(const json& p, const jsonc::Path& at, SectionPoint& point) {
    using namespace jsonc;
    if (const json* c = optional_member(p, "contention", at))
        point.contention = contention_level(*c, at / "contention");
    const json* r = optional_member(p, "rounds", at);
    if (!r) return;
    for (std::size_t i = 0; i < point.rounds.size() && i < r->size(); ++i) {
        const Path ri = (at / "rounds")[i];
        if (const json* c = optional_member((*r)[i], "contention", ri))
            point.rounds[i].contention = contention_level(*c, ri / "contention");
        RoundStats& x = point.rounds[i];
        // A part of the round (its quiet or its contended samples): count, p50 and level; its object, if any.
        const auto part = [&](const char* key, std::uint64_t& n, double& p50, double& level) -> const json* {
            const json* q = optional_member((*r)[i], key, ri);
            if (!q) return nullptr;
            const Path pa = ri / key;
            object(*q, pa);
            n = integer<std::uint64_t>(member(*q, "samples", pa), pa / "samples", 1,
                                       std::max<std::uint64_t>(1, x.samples));
            p50 = real(member(*q, "p50", pa), pa / "p50", 0);
            level = contention_level(member(*q, "contention", pa), pa / "contention");
            return q;
        };
        if (const json* q = part("quiet", x.quiet_samples, x.quiet_p50, x.quiet_contention)) {
            const Path qa = ri / "quiet";
            x.quiet_p90 = real(member(*q, "p90", qa), qa / "p90", 0);
            x.quiet_p99_clean = real(member(*q, "p99_clean", qa), qa / "p99_clean", 0);
        }
        part("contended", x.contended_samples, x.contended_p50, x.contended_contention);
    }
}

ContentionTrace contention_from(const json& j, const jsonc::Path& at) {
    using namespace jsonc;
    object(j, at);
    ContentionTrace c;
    c.probes = integer<std::uint64_t>(member(j, "probes", at), at / "probes", 1);
    c.best_cycles = positive(member(j, "best_cycles", at), at / "best_cycles", 1e9);
    const Path l_at = at / "level";
    const json& l = object(member(j, "level", at), l_at);
    c.p10 = contention_level(member(l, "p10", l_at), l_at / "p10");
    c.p50 = contention_level(member(l, "p50", l_at), l_at / "p50");
    c.p90 = contention_level(member(l, "p90", l_at), l_at / "p90");
    c.max = contention_level(member(l, "max", l_at), l_at / "max");
    c.contended_share = real(member(j, "contended_share", at), at / "contended_share", 0, 1);
    c.contended_above = contention_level(member(j, "contended_above", at), at / "contended_above");
    return c;
}

json memory_json(const MemoryTrace& m) {
    return {{"probes", m.probes},
            {"bytes", m.bytes},
            {"ticks", {{"p10", m.p10}, {"p50", m.p50}, {"p90", m.p90}}},
            {"use",
             "TSC ticks of one read of `bytes` in no cache (each stretch flushed first; SSE2 loads), probed in a "
             "block of 128 as each round began, with no section in flight: how long the host's memory took"}};
}

MemoryTrace memory_from(const json& j, const jsonc::Path& at) {
    using namespace jsonc;
    object(j, at);
    MemoryTrace m;
    m.probes = integer<std::uint64_t>(member(j, "probes", at), at / "probes", 1);
    m.bytes = integer<std::uint32_t>(member(j, "bytes", at), at / "bytes", 64);
    const Path t_at = at / "ticks";
    const json& t = object(member(j, "ticks", at), t_at);
    m.p10 = positive(member(t, "p10", t_at), t_at / "p10", 1e9);
    m.p50 = positive(member(t, "p50", t_at), t_at / "p50", 1e9);
    m.p90 = positive(member(t, "p90", t_at), t_at / "p90", 1e9);
    if (!(m.p10 <= m.p50 && m.p50 <= m.p90))
        fail(t_at, "p10 <= p50 <= p90 does not hold");
    return m;
}

// What a sweep writes about how it measured: the timer trace, the sampling summary, the disturbances,
// the doctor's verdict (absent in older files; everything here is optional on reading).
void write_measurement_record(json& j, const SweepFile& f) {
    if (f.ratio_trace.probes) j["clock"]["core_per_tsc_trace"]["rejected"] = f.ratio_trace.rejected;
    if (f.timer_trace.calibrations) {
        const TimerTrace& t = f.timer_trace;
        j["clock"]["timer_trace"] = {
            {"calibrations", t.calibrations},
            {"overhead_ticks",
             {{"min", t.overhead_min}, {"p50", t.overhead_p50}, {"p99", t.overhead_p99}, {"max", t.overhead_max}}},
            {"step_ticks", {{"min", t.step_min}, {"p50", t.step_p50}, {"max", t.step_max}}},
            {"use", "every sample is corrected with the empty-section overhead probed around it"}};
    }
    if (f.sampling.rounds) {
        const SamplingSummary& s = f.sampling;
        j["sampling"] = {{"rounds", s.rounds},
                         {"rejected_samples", s.rejected},
                         {"retaken_samples", s.retaken},
                         {"disturbances", s.disturbances},
                         {"waited_s", s.waited_s},
                         {"elapsed_s", s.elapsed_s},
                         {"unsettled_points", s.unsettled}};
        if (s.stack_spread_bytes >= 0) j["sampling"]["stack_spread_bytes"] = s.stack_spread_bytes;
    }
    json events = json::array();
    for (const DisturbanceRecord& d : f.disturbances)
        events.push_back({{"kind", d.kind},
                          {"start_s", d.start_s},
                          {"length_s", d.length_s},
                          {"count", d.count},
                          {"adopted", d.adopted},
                          {"detail", d.detail}});
    if (f.sampling.rounds || !f.disturbances.empty()) j["disturbances"] = events;
    if (!f.doctor.is_null()) j["doctor"] = f.doctor;
    if (f.contention.probes)
        j["contention"] = contention_json(
            f.contention,
            "c = the contention probe's time (8 SSE2 and 4 scalar independent integer chains) / its best in the sweep, "
            "probed at every calibration; each point and round records the median c of its samples");
    if (f.memory.probes) j["memory"] = memory_json(f.memory);
    if (f.closed_loop.is_object()) j["closed_loop"] = f.closed_loop;
    if (f.cold_buffer.bytes) {
        j["cold_buffer"] = {{"bytes", f.cold_buffer.bytes}};
        if (f.cold_buffer.huge_page_bytes >= 0) j["cold_buffer"]["huge_page_bytes"] = f.cold_buffer.huge_page_bytes;
        if (f.cold_buffer.writes_flushed >= 0) j["cold_buffer"]["writes_flushed"] = f.cold_buffer.writes_flushed == 1;
    }
}

// The same, read back (each part optional: older files have none of it).
void read_measurement_record(const json& j, SweepFile& f) {
    using namespace jsonc;
    const Path top, clock_at = top / "clock";
    const json& clock = member(j, "clock", top);
    if (const json* t = optional_member(clock, "core_per_tsc_trace", clock_at))
        f.ratio_trace.rejected = member_or(*t, "rejected", clock_at / "core_per_tsc_trace", std::uint64_t{0},
                                           [](const json& v, const Path& p) { return integer<std::uint64_t>(v, p); });
    if (const json* t = optional_member(clock, "timer_trace", clock_at)) {
        const Path at = clock_at / "timer_trace", o_at = at / "overhead_ticks", s_at = at / "step_ticks";
        const json& o = object(member(*t, "overhead_ticks", at), o_at);
        const json& st = object(member(*t, "step_ticks", at), s_at);
        auto ticks = [](const json& obj, const char* key, const Path& p) {
            return real(member(obj, key, p), p / key, 0, 1e12);
        };
        f.timer_trace = {integer<std::uint64_t>(member(*t, "calibrations", at), at / "calibrations"),
                         ticks(o, "min", o_at),
                         ticks(o, "p50", o_at),
                         ticks(o, "p99", o_at),
                         ticks(o, "max", o_at),
                         ticks(st, "min", s_at),
                         ticks(st, "p50", s_at),
                         ticks(st, "max", s_at)};
    }
    if (const json* s = optional_member(j, "sampling", top)) {
        const Path at = top / "sampling";
        auto count = [&](const char* key) {
            return member_or(*s, key, at, std::uint64_t{0},
                             [](const json& v, const Path& p) { return integer<std::uint64_t>(v, p); });
        };
        auto seconds = [&](const char* key) {
            return member_or(*s, key, at, 0.0, [](const json& v, const Path& p) { return real(v, p, 0, 1e9); });
        };
        f.sampling = {integer<int>(member(*s, "rounds", at), at / "rounds", 0, 1000),
                      count("rejected_samples"),
                      count("retaken_samples"),
                      count("disturbances"),
                      seconds("waited_s"),
                      seconds("elapsed_s"),
                      count("unsettled_points")};
        f.sampling.stack_spread_bytes =
            member_or(*s, "stack_spread_bytes", at, std::int64_t{-1},
                      [](const json& v, const Path& p) { return integer<std::int64_t>(v, p, 0, 1 << 20); });
    }
    if (const json* d = optional_member(j, "disturbances", top)) {
        const Path at = top / "disturbances";
        for (std::size_t i = 0; i < array(*d, at).size(); ++i) {
            const Path e_at = at[i];
            const json& e = object((*d)[i], e_at);
            f.disturbances.push_back(
                {name(member(e, "kind", e_at), e_at / "kind"),
                 real(member(e, "start_s", e_at), e_at / "start_s", 0, 1e9),
                 real(member(e, "length_s", e_at), e_at / "length_s", 0, 1e9),
                 member_or(e, "count", e_at, std::uint64_t{1},
                           [](const json& v, const Path& p) { return integer<std::uint64_t>(v, p, 1); }),
                 member_or(e, "adopted", e_at, false, [](const json& v, const Path& p) { return boolean(v, p); }),
                 member_or(e, "detail", e_at, std::string(),
                           [](const json& v, const Path& p) { return string(v, p, 1024); })});
        }
    }
    if (const json* d = optional_member(j, "doctor", top)) f.doctor = object(*d, top / "doctor");
    if (const json* c = optional_member(j, "contention", top)) f.contention = contention_from(*c, top / "contention");
    if (const json* m = optional_member(j, "memory", top)) f.memory = memory_from(*m, top / "memory");
    if (const json* c = optional_member(j, "closed_loop", top)) f.closed_loop = object(*c, top / "closed_loop");
    if (const json* c = optional_member(j, "cold_buffer", top)) {
        const Path at = top / "cold_buffer";
        object(*c, at);
        f.cold_buffer.bytes = integer<std::uint64_t>(member(*c, "bytes", at), at / "bytes", 1);
        f.cold_buffer.huge_page_bytes =
            member_or(*c, "huge_page_bytes", at, std::int64_t{-1},
                      [](const json& v, const Path& p) { return integer<std::int64_t>(v, p, 0); });
        f.cold_buffer.writes_flushed =
            member_or(*c, "writes_flushed", at, -1, [](const json& v, const Path& p) { return boolean(v, p) ? 1 : 0; });
    }
}

// A point's count of impossible samples and of samples taken again (0 when absent).
std::uint64_t count_of(const json& p, const char* key, const jsonc::Path& at) {
    return jsonc::member_or(p, key, at, std::uint64_t{0},
                            [](const json& v, const jsonc::Path& q) { return jsonc::integer<std::uint64_t>(v, q); });
}

// A section point's rounds (in core cycles, like "cycles"): a round that cannot be used is FieldError.
std::vector<RoundStats> rounds_from(const json& p, const jsonc::Path& at) {
    using namespace jsonc;
    std::vector<RoundStats> out;
    const json* r = optional_member(p, "rounds", at);
    if (!r) return out;
    for (std::size_t i = 0; i < array(*r, at / "rounds").size(); ++i) {
        const Path r_at = (at / "rounds")[i];
        const json& x = object((*r)[i], r_at);
        RoundStats s;
        s.samples = integer<std::uint64_t>(member(x, "samples", r_at), r_at / "samples", 1);
        s.p10 = real(member(x, "p10", r_at), r_at / "p10");
        s.p50 = positive(member(x, "p50", r_at), r_at / "p50");
        s.p90 = positive(member(x, "p90", r_at), r_at / "p90");
        s.p99_clean = real(member(x, "p99_clean", r_at), r_at / "p99_clean");
        s.interrupted = member_or(x, "interrupted", r_at, std::uint64_t{0}, [&](const json& v, const Path& q) {
            return integer<std::uint64_t>(v, q, 0, s.samples);
        });
        out.push_back(s);
    }
    return out;
}

bool possible(const PointStats& s) {
    for (double v : {s.min, s.p10, s.p50, s.p90, s.p99, s.p999, s.max, s.p99_clean})
        if (!(v > 0) || !std::isfinite(v)) return false;
    return s.samples > 0;
}

}  // namespace

nlohmann::json contention_json(const ContentionTrace& c, std::string_view use) {
    return {{"probes", c.probes},
            {"best_cycles", c.best_cycles},
            {"level", {{"p10", c.p10}, {"p50", c.p50}, {"p90", c.p90}, {"max", c.max}}},
            {"contended_share", c.contended_share},
            {"contended_above", c.contended_above},
            {"use", use}};
}

namespace {
constexpr std::uint32_t kMaxSources = 1u << 16;  // sources of a multi-source series, as read
}  // namespace

// A series' fields of a kernel entry (optional: files from before series have none).
void read_series_fields(const json& k, const jsonc::Path& at, KernelInfo& info) {
    using namespace jsonc;
    info.of = member_or(k, "of", at, std::string(), [](const json& v, const Path& p) { return name(v, p); });
    info.shape = member_or(k, "shape", at, std::string(), [](const json& v, const Path& p) {
        return one_of(v, p, {"bulk", "message", "aad", "stripe"});
    });
    if (info.shape == "bulk") info.shape.clear();
    info.sources = member_or(k, "sources", at, std::uint32_t{0},
                             [](const json& v, const Path& p) { return integer<std::uint32_t>(v, p, 0, kMaxSources); });
    info.dest_count = member_or(k, "dest_count", at, std::uint32_t{0},
                                [](const json& v, const Path& p) { return integer<std::uint32_t>(v, p, 0, 64); });
    info.max_sources = member_or(k, "max_sources", at, std::uint32_t{0},
                                 [](const json& v, const Path& p) { return integer<std::uint32_t>(v, p); });
    info.idle_s = member_or(k, "idle_s", at, 0.0, [](const json& v, const Path& p) { return real(v, p, 0, 10); });
    info.count_only = member_or(k, "count_only", at, false, [](const json& v, const Path& p) { return boolean(v, p); });
}

void write_series_fields(json& j, const KernelInfo& k) {
    if (!k.of.empty()) j["of"] = k.of;
    if (!k.shape.empty()) j["shape"] = k.shape;
    if (k.sources) j["sources"] = k.sources;
    if (k.dest_count) j["dest_count"] = k.dest_count;
    if (k.max_sources) j["max_sources"] = k.max_sources;
    if (k.idle_s > 0) j["idle_s"] = k.idle_s;
    if (k.count_only) j["count_only"] = true;
}

json kernel_entry_json(const KernelInfo& k) {
    json e = {{"name", k.name},         {"algorithm", k.algorithm},     {"isa", k.isa},
              {"provider", k.provider}, {"block_bytes", k.block_bytes}, {"needs_fpu", k.needs_fpu}};
    write_series_fields(e, k);
    return e;
}

bool possible_point(const PointStats& ticks, const PointStats& cycles) {
    return possible(ticks) && (!cycles.samples || possible(cycles));
}

std::vector<std::string> impossible_points(const SweepFile& f) {
    std::vector<std::string> bad;
    for (const auto& p : f.sections)
        if (!possible_point(p.ticks, p.cycles)) bad.push_back(fmt::format("{} {} B {}", p.kernel, p.bytes, p.cache));
    for (const auto& p : f.thresholds)
        if (!possible_point(p.ticks, p.cycles))
            bad.push_back(fmt::format("{} {} B threshold {}", p.kernel, p.bytes, p.dirty));
    return bad;
}

PointStats scaled(const PointStats& s, double by) {
    PointStats r = s;
    for (double* v : {&r.min, &r.p10, &r.p50, &r.p90, &r.p99, &r.p999, &r.max, &r.p99_clean}) *v /= by;
    return r;
}

double model_core_per_tsc(const SweepFile& f) {
    return f.ratio_trace.probes && f.ratio_trace.p50 > 0 ? f.ratio_trace.p50 : f.core_per_tsc;
}

PointStats model_ticks(const SweepFile& f, const PointStats& ticks, const PointStats& cycles) {
    return cycles.samples && f.ratio_trace.probes && f.ratio_trace.p50 > 0 ? scaled(cycles, f.ratio_trace.p50) : ticks;
}

std::string closed_loop_brief(const nlohmann::json& j, bool full) {
    if (!j.is_object()) return "";
    const std::size_t n = j.value("constants", nlohmann::json::array()).size();
    std::string s = fmt::format(
        "closed loop for {} at {}: {} of {} constants measured at their exact size, {} within 3 %, {} as predicted",
        format_duration(j.value("budget_s", 0.0)), format_frequency(j.value("min_freq_hz", 0.0)),
        j.value("measured_exact", 0), n, j.value("measured", 0), j.value("agreed", 0));
    if (!full) return s;
    const double near = j.value("points_near", 0.0), settled = j.value("points_near_settled", 0.0);
    s += fmt::format(" ({} passes); {:.0f} of the {:.0f} points near them settled ({:.0f} %)", j.value("passes", 0),
                     settled, near, near > 0 ? 100 * settled / near : 0.0);
    const std::string stopped = j.value("stopped", std::string());
    return stopped.empty() ? s : s + "; stopped early: " + stopped;
}

json to_json(const SweepFile& f) {
    json j = provenance_json(f.schema, f.tool_version, f.tool_commit, f.date);
    if (!f.host.empty()) j["host"] = f.host;
    j["cpu"] = f.cpu;
    j["options"] = f.options;
    j["clock"] = {{"tsc_hz", f.tsc_hz}, {"core_per_tsc", f.core_per_tsc}, {"core_per_tsc_end", f.core_per_tsc_end}};
    if (f.ratio_trace.probes)
        j["clock"]["core_per_tsc_trace"] = {{"probes", f.ratio_trace.probes},
                                            {"min", f.ratio_trace.min},
                                            {"p10", f.ratio_trace.p10},
                                            {"p50", f.ratio_trace.p50},
                                            {"p90", f.ratio_trace.p90},
                                            {"max", f.ratio_trace.max},
                                            {"use", "every sample x the ratio probed around it = its \"cycles\""}};
    j["section_overhead_ticks"] = f.section_overhead_ticks;
    j["dirty"] = f.dirty;
    j["partial"] = f.partial;
    j["warnings"] = f.warnings;
    j["kernels"] = json::array();
    for (const auto& k : f.kernels) {
        j["kernels"].push_back(kernel_entry_json(k));
    }
    j["sections"] = json::array();
    for (const auto& p : f.sections) {
        j["sections"].push_back({{"kernel", p.kernel},
                                 {"cache", p.cache},
                                 {"bytes", p.bytes},
                                 {"ticks", stats_json(p.ticks)},
                                 {"request_ticks_p50", p.request_ticks_p50}});
        json& o = j["sections"].back();
        if (!p.settled) o["settled"] = false;
        if (p.cycles.samples) o["cycles"] = stats_json(p.cycles);
        if (!p.rounds.empty()) o["rounds"] = rounds_json(p.rounds);
        if (p.rejected) o["rejected"] = p.rejected;
        if (p.retaken) o["retaken"] = p.retaken;
        if (p.sources) o["sources"] = p.sources;
        if (p.unsettled_rounds) o["unsettled_rounds"] = p.unsettled_rounds;
        if (p.contention > 0) o["contention"] = p.contention;
    }
    j["thresholds"] = json::array();
    for (const auto& p : f.thresholds) {
        j["thresholds"].push_back(
            {{"kernel", p.kernel}, {"dirty", p.dirty}, {"bytes", p.bytes}, {"ticks", stats_json(p.ticks)}});
        if (p.cycles.samples) j["thresholds"].back()["cycles"] = stats_json(p.cycles);
        if (p.rejected) j["thresholds"].back()["rejected"] = p.rejected;
        if (p.retaken) j["thresholds"].back()["retaken"] = p.retaken;
        if (p.unsettled_rounds) j["thresholds"].back()["unsettled_rounds"] = p.unsettled_rounds;
    }
    write_measurement_record(j, f);
    return j;
}

namespace {

using KernelIndex = std::map<std::string, std::size_t>;

// The file's head: the tool, date, host, CPU, options, clock, dirty state and warnings.
void read_head(const json& j, const jsonc::Path& top, SweepFile& f) {
    using namespace jsonc;
    const json& tool = object(member(j, "tool", top), top / "tool");
    f.tool_version = member_or(tool, "version", top / "tool", std::string(),
                               [](const json& v, const Path& p) { return string(v, p, 256); });
    f.tool_commit = member_or(tool, "commit", top / "tool", std::string(),
                              [](const json& v, const Path& p) { return string(v, p, 256); });
    f.date =
        member_or(j, "date", top, std::string(), [](const json& v, const Path& p) { return string(v, p, 64); });
    f.host =
        member_or(j, "host", top, std::string(), [](const json& v, const Path& p) { return string(v, p, 255); });
    f.cpu = object(member(j, "cpu", top), top / "cpu");
    f.options =
        member_or(j, "options", top, json::object(), [](const json& v, const Path& p) { return object(v, p); });
    const Path clock_at = top / "clock";
    const json& clock = object(member(j, "clock", top), clock_at);
    // A TSC of 1 MHz .. 100 GHz and a core/TSC ratio of 0.01 .. 100: beyond those no machine runs.
    f.tsc_hz = real(member(clock, "tsc_hz", clock_at), clock_at / "tsc_hz", 1e6, 1e11);
    f.core_per_tsc = real(member(clock, "core_per_tsc", clock_at), clock_at / "core_per_tsc", 0.01, 100);
    f.core_per_tsc_end = member_or(clock, "core_per_tsc_end", clock_at, f.core_per_tsc,
                                   [](const json& v, const Path& p) { return real(v, p, 0, 100); });
    if (const json* t = optional_member(clock, "core_per_tsc_trace", clock_at)) {
        const Path at = clock_at / "core_per_tsc_trace";
        auto ratio = [&](const char* key) { return real(member(*t, key, at), at / key, 0, 100); };
        f.ratio_trace = {integer<std::uint64_t>(member(*t, "probes", at), at / "probes"),
                         ratio("min"),
                         ratio("p10"),
                         ratio("p50"),
                         ratio("p90"),
                         ratio("max")};
        if (f.ratio_trace.probes && f.ratio_trace.p50 < 0.01)
            jsonc::fail(at / "p50", fmt::format("{} is below 0.01", f.ratio_trace.p50));
    }
    f.section_overhead_ticks = member_or(j, "section_overhead_ticks", top, 0.0,
                                         [](const json& v, const Path& p) { return real(v, p, 0, 1e12); });
    f.dirty = member_or(j, "dirty", top, std::string("ymm"), [](const json& v, const Path& p) {
        return one_of(v, p, {"xmm", "ymm", "zmm", "none"});
    });
    f.partial = member_or(j, "partial", top, false, [](const json& v, const Path& p) { return boolean(v, p); });
    if (const json* w = optional_member(j, "warnings", top))
        for (std::size_t i = 0; i < array(*w, top / "warnings").size(); ++i)
            f.warnings.push_back(string((*w)[i], (top / "warnings")[i]));

}

// The kernel list, and where each name stands in it.
KernelIndex read_kernel_list(const json& j, const jsonc::Path& top, SweepFile& f) {
    using namespace jsonc;
    const json& kernels = array(member(j, "kernels", top), top / "kernels");
    KernelIndex kernel_index;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        const Path at = (top / "kernels")[i];
        const json& k = object(kernels[i], at);
        KernelInfo info{
            name(member(k, "name", at), at / "name"),
            name(member(k, "algorithm", at), at / "algorithm"),
            member_or(k, "isa", at, std::string(), [](const json& v, const Path& p) { return string(v, p, 64); }),
            member_or(k, "provider", at, std::string("fputune"),
                      [](const json& v, const Path& p) { return provider(v, p); }),
            integer<std::uint32_t>(member(k, "block_bytes", at), at / "block_bytes", 1, kMaxBlockBytes),
            member_or(k, "needs_fpu", at, true, [](const json& v, const Path& p) { return boolean(v, p); })};
        read_series_fields(k, at, info);
        if (auto [it, fresh] = kernel_index.emplace(info.name, i); !fresh)
            jsonc::fail(at / "name", fmt::format("'{}' is listed twice (also kernels[{}])", info.name, it->second));
        f.kernels.push_back(std::move(info));
    }
    return kernel_index;
}

std::string kernel_of(const json& p, const jsonc::Path& at, const KernelIndex& kernel_index) {
    std::string k = jsonc::name(jsonc::member(p, "kernel", at), at / "kernel");
    if (!kernel_index.count(k))
        jsonc::fail(at / "kernel", fmt::format("'{}' is not in the file's \"kernels\" list", k));
    return k;
}

std::uint64_t bytes_of(const json& p, const jsonc::Path& at) {
    return jsonc::integer<std::uint64_t>(jsonc::member(p, "bytes", at), at / "bytes", 1, kMaxPointBytes);
}

// The section points; one with broken statistics is skipped, named in `skipped`.
void read_sections(const json& j, const jsonc::Path& top, const KernelIndex& kernel_index, Skipped& skipped,
                   SweepFile& f) {
    using namespace jsonc;
    const json& sections = array(member(j, "sections", top), top / "sections");
    for (std::size_t i = 0; i < sections.size(); ++i) {
        const Path at = (top / "sections")[i];
        const json& p = object(sections[i], at);
        SectionPoint point;
        point.kernel = kernel_of(p, at, kernel_index);
        point.cache = one_of(member(p, "cache", at), at / "cache", {"hot", "cold"});
        point.bytes = bytes_of(p, at);
        point.settled =
            member_or(p, "settled", at, true, [](const json& v, const Path& q) { return boolean(v, q); });
        try {
            point.ticks = stats_from(member(p, "ticks", at), at / "ticks", true);
            if (const json* c = optional_member(p, "cycles", at))
                point.cycles = stats_from(*c, at / "cycles", true);
            point.request_ticks_p50 = member_or(p, "request_ticks_p50", at, 0.0,
                                                [](const json& v, const Path& q) { return real(v, q, 0); });
            point.rounds = rounds_from(p, at);
        } catch (const FieldError& e) {
            skipped.by_kernel[point.kernel].push_back(
                fmt::format("{} B {}: {}", point.bytes, point.cache, e.what()));
            continue;
        }
        point.rejected = count_of(p, "rejected", at);
        point.retaken = count_of(p, "retaken", at);
        point.unsettled_rounds = count_of(p, "unsettled_rounds", at);
        read_point_contention(p, at, point);
        point.sources = member_or(p, "sources", at, std::uint32_t{0}, [](const json& v, const Path& q) {
            return integer<std::uint32_t>(v, q, 0, kMaxSources);
        });
        f.sections.push_back(std::move(point));
    }
}

// The threshold points, likewise.
void read_thresholds(const json& j, const jsonc::Path& top, const KernelIndex& kernel_index, Skipped& skipped,
                     SweepFile& f) {
    using namespace jsonc;
    if (const json* thresholds = optional_member(j, "thresholds", top)) {
        for (std::size_t i = 0; i < array(*thresholds, top / "thresholds").size(); ++i) {
            const Path at = (top / "thresholds")[i];
            const json& p = object((*thresholds)[i], at);
            ThresholdPoint point;
            point.kernel = kernel_of(p, at, kernel_index);
            point.dirty = one_of(member(p, "dirty", at), at / "dirty", {"xmm", "ymm", "zmm", "none"});
            point.bytes = bytes_of(p, at);
            try {
                point.ticks = stats_from(member(p, "ticks", at), at / "ticks", false);
                if (const json* c = optional_member(p, "cycles", at))
                    point.cycles = stats_from(*c, at / "cycles", false);
            } catch (const FieldError& e) {
                skipped.by_kernel[point.kernel].push_back(
                    fmt::format("threshold {} B {}: {}", point.bytes, point.dirty, e.what()));
                continue;
            }
            point.rejected = count_of(p, "rejected", at);
            point.retaken = count_of(p, "retaken", at);
            point.unsettled_rounds = count_of(p, "unsettled_rounds", at);
            f.thresholds.push_back(std::move(point));
        }
    }
}

}  // namespace

SweepFile sweep_from_json(const json& j, const std::string& source) {
    auto fail = [&](const std::string& why) { return InputError(source + ": " + why); };
    // A file from another machine of a fleet is refused naming that machine, whatever the file is called.
    const bool named = j.is_object() && j.contains("host") && j["host"].is_string();
    const std::string named_source =
        named ? fmt::format("{} (host {})", source, printable(j["host"].get<std::string>(), 64)) : source;
    jsonc::check_schema(j, named_source,
                        {"fputune.sweep/", kSweepSchema, 1, "sweep file", "a sweep", "expected schema ",
                         "fputune sweep"});
    const std::string schema = j["schema"].get<std::string>();
    SweepFile f;
    f.schema = schema;
    try {
        const jsonc::Path top;
        read_head(j, top, f);
        const KernelIndex kernel_index = read_kernel_list(j, top, f);
        Skipped skipped;
        read_sections(j, top, kernel_index, skipped, f);
        read_thresholds(j, top, kernel_index, skipped, f);
        read_measurement_record(j, f);
        skipped.note(f.notes);
        for (const auto& [kernel, why] : skipped.by_kernel) f.skipped_points[kernel] = why.size();
    } catch (const InputError& e) {
        throw fail(std::string("malformed sweep file: ") + e.what());
    }
    return f;
}

SweepFile read_sweep_file(const std::string& path) {
    return sweep_from_json(jsonc::parse(read_file(path), path), path);
}

void write_sweep_file(const std::string& path, const SweepFile& f) {
    write_file_atomic(path, to_json(f).dump(1) + "\n");
}

}  // namespace fputune
