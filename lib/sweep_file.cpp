// SPDX-License-Identifier: MIT
// Reading and writing fputune.sweep/1, with one clear message for each way a file can be wrong.
#include "sweep_file.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "atomic_file.hpp"

namespace fputune {

using nlohmann::json;

namespace {

json stats_json(const PointStats& s) {
    return {{"samples", s.samples}, {"min", s.min}, {"p10", s.p10}, {"p50", s.p50}, {"p90", s.p90}, {"p99", s.p99},
            {"p999", s.p999}, {"max", s.max}, {"interrupted", s.interrupted}, {"rel_ci50", s.rel_ci50}, {"p99_clean", s.p99_clean}};
}

PointStats stats_from(const json& j) {
    PointStats s;
    s.samples = j.at("samples").get<std::uint64_t>();
    s.min = j.at("min").get<double>();
    s.p10 = j.at("p10").get<double>();
    s.p50 = j.at("p50").get<double>();
    s.p90 = j.at("p90").get<double>();
    s.p99 = j.at("p99").get<double>();
    s.p999 = j.at("p999").get<double>();
    s.max = j.at("max").get<double>();
    s.interrupted = j.at("interrupted").get<std::uint64_t>();
    s.rel_ci50 = j.value("rel_ci50", 0.0);
    s.p99_clean = j.value("p99_clean", s.p99);
    return s;
}

json rounds_json(const std::vector<RoundStats>& rounds) {
    json a = json::array();
    for (const RoundStats& r : rounds)
        a.push_back({{"samples", r.samples}, {"p10", r.p10}, {"p50", r.p50}, {"p90", r.p90}, {"p99_clean", r.p99_clean},
                     {"interrupted", r.interrupted}});
    return a;
}

// What a sweep writes about how it measured: the timer trace, the sampling summary, the disturbances,
// the doctor's verdict (absent in older files; everything here is optional on reading).
void write_measurement_record(json& j, const SweepFile& f) {
    if (f.ratio_trace.probes) j["clock"]["core_per_tsc_trace"]["rejected"] = f.ratio_trace.rejected;
    if (f.timer_trace.calibrations) {
        const TimerTrace& t = f.timer_trace;
        j["clock"]["timer_trace"] = {{"calibrations", t.calibrations},
                                     {"overhead_ticks", {{"min", t.overhead_min}, {"p50", t.overhead_p50}, {"p99", t.overhead_p99}, {"max", t.overhead_max}}},
                                     {"step_ticks", {{"min", t.step_min}, {"p50", t.step_p50}, {"max", t.step_max}}},
                                     {"use", "every sample is corrected with the empty-section overhead probed around it"}};
    }
    if (f.sampling.rounds) {
        const SamplingSummary& s = f.sampling;
        j["sampling"] = {{"rounds", s.rounds}, {"rejected_samples", s.rejected}, {"retaken_samples", s.retaken},
                         {"disturbances", s.disturbances}, {"waited_s", s.waited_s}, {"elapsed_s", s.elapsed_s}};
    }
    json events = json::array();
    for (const DisturbanceRecord& d : f.disturbances)
        events.push_back({{"kind", d.kind}, {"start_s", d.start_s}, {"length_s", d.length_s}, {"count", d.count},
                          {"adopted", d.adopted}, {"detail", d.detail}});
    if (f.sampling.rounds || !f.disturbances.empty()) j["disturbances"] = events;
    if (!f.doctor.is_null()) j["doctor"] = f.doctor;
}

void read_measurement_record(const json& j, SweepFile& f) {
    if (j.at("clock").contains("core_per_tsc_trace")) f.ratio_trace.rejected = j["clock"]["core_per_tsc_trace"].value("rejected", std::uint64_t{0});
    if (j.at("clock").contains("timer_trace")) {
        const json& t = j["clock"]["timer_trace"];
        const json& o = t.at("overhead_ticks");
        const json& st = t.at("step_ticks");
        f.timer_trace = {t.at("calibrations").get<std::uint64_t>(), o.at("min").get<double>(), o.at("p50").get<double>(),
                         o.at("p99").get<double>(), o.at("max").get<double>(), st.at("min").get<double>(), st.at("p50").get<double>(),
                         st.at("max").get<double>()};
    }
    if (j.contains("sampling")) {
        const json& s = j["sampling"];
        f.sampling = {s.at("rounds").get<int>(), s.value("rejected_samples", std::uint64_t{0}), s.value("retaken_samples", std::uint64_t{0}),
                      s.value("disturbances", std::uint64_t{0}), s.value("waited_s", 0.0), s.value("elapsed_s", 0.0)};
    }
    for (const json& d : j.value("disturbances", json::array()))
        f.disturbances.push_back({d.at("kind").get<std::string>(), d.at("start_s").get<double>(), d.at("length_s").get<double>(),
                                  d.value("count", std::uint64_t{1}), d.value("adopted", false), d.value("detail", "")});
    f.doctor = j.value("doctor", json());
}

// A section point's optional measurement record: rounds, rejected and re-taken samples.
void read_point_record(const json& p, SectionPoint& s) {
    for (const json& r : p.value("rounds", json::array()))
        s.rounds.push_back({r.at("samples").get<std::uint64_t>(), r.at("p10").get<double>(), r.at("p50").get<double>(),
                            r.at("p90").get<double>(), r.at("p99_clean").get<double>(), r.value("interrupted", std::uint64_t{0})});
    s.rejected = p.value("rejected", std::uint64_t{0});
    s.retaken = p.value("retaken", std::uint64_t{0});
}

bool possible(const PointStats& s) {
    for (double v : {s.min, s.p10, s.p50, s.p90, s.p99, s.p999, s.max, s.p99_clean})
        if (!(v > 0) || !std::isfinite(v)) return false;
    return s.samples > 0;
}

}  // namespace

bool possible_point(const PointStats& ticks, const PointStats& cycles) { return possible(ticks) && (!cycles.samples || possible(cycles)); }

std::vector<std::string> impossible_points(const SweepFile& f) {
    std::vector<std::string> bad;
    for (const auto& p : f.sections)
        if (!possible_point(p.ticks, p.cycles)) bad.push_back(fmt::format("{} {} B {}", p.kernel, p.bytes, p.cache));
    for (const auto& p : f.thresholds)
        if (!possible_point(p.ticks, p.cycles)) bad.push_back(fmt::format("{} {} B threshold {}", p.kernel, p.bytes, p.dirty));
    return bad;
}

PointStats scaled(const PointStats& s, double by) {
    PointStats r = s;
    for (double* v : {&r.min, &r.p10, &r.p50, &r.p90, &r.p99, &r.p999, &r.max, &r.p99_clean}) *v /= by;
    return r;
}

double model_core_per_tsc(const SweepFile& f) { return f.ratio_trace.probes && f.ratio_trace.p50 > 0 ? f.ratio_trace.p50 : f.core_per_tsc; }

PointStats model_ticks(const SweepFile& f, const PointStats& ticks, const PointStats& cycles) {
    return cycles.samples && f.ratio_trace.probes && f.ratio_trace.p50 > 0 ? scaled(cycles, f.ratio_trace.p50) : ticks;
}

json to_json(const SweepFile& f) {
    json j;
    j["schema"] = f.schema;
    j["tool"] = {{"name", "fputune"}, {"version", f.tool_version}, {"commit", f.tool_commit}};
    j["date"] = f.date;
    j["cpu"] = f.cpu;
    j["options"] = f.options;
    j["clock"] = {{"tsc_hz", f.tsc_hz}, {"core_per_tsc", f.core_per_tsc}, {"core_per_tsc_end", f.core_per_tsc_end}};
    if (f.ratio_trace.probes)
        j["clock"]["core_per_tsc_trace"] = {{"probes", f.ratio_trace.probes}, {"min", f.ratio_trace.min}, {"p10", f.ratio_trace.p10},
                                            {"p50", f.ratio_trace.p50}, {"p90", f.ratio_trace.p90}, {"max", f.ratio_trace.max},
                                            {"use", "every sample x the ratio probed around it = its \"cycles\""}};
    j["section_overhead_ticks"] = f.section_overhead_ticks;
    j["dirty"] = f.dirty;
    j["partial"] = f.partial;
    j["warnings"] = f.warnings;
    j["kernels"] = json::array();
    for (const auto& k : f.kernels)
        j["kernels"].push_back({{"name", k.name}, {"algorithm", k.algorithm}, {"isa", k.isa}, {"provider", k.provider},
                                {"block_bytes", k.block_bytes}, {"needs_fpu", k.needs_fpu}});
    j["sections"] = json::array();
    for (const auto& p : f.sections) {
        j["sections"].push_back({{"kernel", p.kernel}, {"cache", p.cache}, {"bytes", p.bytes},
                                 {"ticks", stats_json(p.ticks)}, {"request_ticks_p50", p.request_ticks_p50}});
        json& o = j["sections"].back();
        if (!p.settled) o["settled"] = false;
        if (p.cycles.samples) o["cycles"] = stats_json(p.cycles);
        if (!p.rounds.empty()) o["rounds"] = rounds_json(p.rounds);
        if (p.rejected) o["rejected"] = p.rejected;
        if (p.retaken) o["retaken"] = p.retaken;
    }
    j["thresholds"] = json::array();
    for (const auto& p : f.thresholds) {
        j["thresholds"].push_back({{"kernel", p.kernel}, {"dirty", p.dirty}, {"bytes", p.bytes}, {"ticks", stats_json(p.ticks)}});
        if (p.cycles.samples) j["thresholds"].back()["cycles"] = stats_json(p.cycles);
        if (p.rejected) j["thresholds"].back()["rejected"] = p.rejected;
        if (p.retaken) j["thresholds"].back()["retaken"] = p.retaken;
    }
    write_measurement_record(j, f);
    return j;
}

SweepFile sweep_from_json(const json& j, const std::string& source) {
    auto fail = [&](const std::string& why) { return std::runtime_error(source + ": " + why); };
    if (!j.is_object() || !j.contains("schema") || !j["schema"].is_string())
        throw fail("not an fputune sweep file (no \"schema\" field); expected schema " + std::string(kSweepSchema) +
                   ", as written by `fputune sweep`");
    const std::string schema = j["schema"].get<std::string>();
    const std::string family = "fputune.sweep/";
    if (schema.rfind(family, 0) != 0)
        throw fail("schema '" + schema + "' is not a sweep (expected " + kSweepSchema + ")");
    int version = 0;
    try {
        version = std::stoi(schema.substr(family.size()));
    } catch (...) {
        throw fail("schema '" + schema + "' has no version number (expected " + kSweepSchema + ")");
    }
    if (version > 1)
        throw fail("schema '" + schema + "' is newer than this fputune understands (" + kSweepSchema + "); update fputune");
    if (version < 1) throw fail("schema '" + schema + "' is not a version this fputune reads (" + kSweepSchema + ")");
    SweepFile f;
    try {
        f.schema = schema;
        f.tool_version = j.at("tool").value("version", "");
        f.tool_commit = j.at("tool").value("commit", "");
        f.date = j.value("date", "");
        f.cpu = j.at("cpu");
        f.options = j.value("options", json::object());
        f.tsc_hz = j.at("clock").at("tsc_hz").get<double>();
        f.core_per_tsc = j.at("clock").at("core_per_tsc").get<double>();
        f.core_per_tsc_end = j.at("clock").value("core_per_tsc_end", f.core_per_tsc);
        if (j.at("clock").contains("core_per_tsc_trace")) {
            const json& t = j["clock"]["core_per_tsc_trace"];
            f.ratio_trace = {t.at("probes").get<std::uint64_t>(), t.at("min").get<double>(), t.at("p10").get<double>(),
                             t.at("p50").get<double>(), t.at("p90").get<double>(), t.at("max").get<double>()};
        }
        f.section_overhead_ticks = j.value("section_overhead_ticks", 0.0);
        f.dirty = j.value("dirty", "ymm");
        f.partial = j.value("partial", false);
        f.warnings = j.value("warnings", std::vector<std::string>{});
        for (const auto& k : j.at("kernels"))
            f.kernels.push_back({k.at("name").get<std::string>(), k.at("algorithm").get<std::string>(),
                                 k.value("isa", ""), k.value("provider", "fputune"), k.at("block_bytes").get<std::uint32_t>(),
                                 k.value("needs_fpu", true)});
        for (const auto& p : j.at("sections")) {
            f.sections.push_back({p.at("kernel").get<std::string>(), p.at("cache").get<std::string>(),
                                  p.at("bytes").get<std::uint64_t>(), stats_from(p.at("ticks")), p.value("request_ticks_p50", 0.0),
                                  p.value("settled", true), p.contains("cycles") ? stats_from(p["cycles"]) : PointStats{}, {}, 0, 0});
            read_point_record(p, f.sections.back());
        }
        for (const auto& p : j.value("thresholds", json::array()))
            f.thresholds.push_back({p.at("kernel").get<std::string>(), p.at("dirty").get<std::string>(),
                                    p.at("bytes").get<std::uint64_t>(), stats_from(p.at("ticks")),
                                    p.contains("cycles") ? stats_from(p["cycles"]) : PointStats{}, p.value("rejected", std::uint64_t{0}),
                                    p.value("retaken", std::uint64_t{0})});
        read_measurement_record(j, f);
    } catch (const json::exception& e) {
        throw fail(std::string("malformed sweep file: ") + e.what());
    }
    if (!(f.tsc_hz > 0) || !(f.core_per_tsc > 0)) throw fail("malformed sweep file: clock.tsc_hz and clock.core_per_tsc must be > 0");
    if (f.ratio_trace.probes && !(f.ratio_trace.p50 > 0)) throw fail("malformed sweep file: clock.core_per_tsc_trace.p50 must be > 0");
    return f;
}

SweepFile read_sweep_file(const std::string& path) {
    const std::string text = read_file(path);
    json j;
    try {
        j = json::parse(text);
    } catch (const json::parse_error& e) {
        throw std::runtime_error(path + ": not valid JSON (truncated or not a sweep file?): " + e.what());
    }
    return sweep_from_json(j, path);
}

void write_sweep_file(const std::string& path, const SweepFile& f) { write_file_atomic(path, to_json(f).dump(1) + "\n"); }

}  // namespace fputune
