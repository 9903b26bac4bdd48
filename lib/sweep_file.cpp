// SPDX-License-Identifier: MIT
// Reading and writing fputune.sweep/1, with one clear message for each way a file can be wrong.
#include "sweep_file.hpp"

#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "atomic_file.hpp"
#include "json_checked.hpp"

namespace fputune {

using nlohmann::json;

namespace {

json stats_json(const PointStats& s) {
    return {{"samples", s.samples}, {"min", s.min}, {"p10", s.p10}, {"p50", s.p50}, {"p90", s.p90}, {"p99", s.p99},
            {"p999", s.p999}, {"max", s.max}, {"interrupted", s.interrupted}, {"rel_ci50", s.rel_ci50}, {"p99_clean", s.p99_clean}};
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
    auto used = [&](const char* key) { return positive(member(j, key, at), at / key); };
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
            std::string s = fmt::format("{}: {} point{} skipped (statistics missing, not finite or not > 0): ", kernel, why.size(),
                                        why.size() == 1 ? "" : "s");
            for (std::size_t i = 0; i < why.size() && i < 3; ++i) s += (i ? "; " : "") + why[i];
            if (why.size() > 3) s += fmt::format("; and {} more", why.size() - 3);
            notes.push_back(s);
        }
    }
};

}  // namespace

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
        if (!p.settled) j["sections"].back()["settled"] = false;
        if (p.cycles.samples) j["sections"].back()["cycles"] = stats_json(p.cycles);
    }
    j["thresholds"] = json::array();
    for (const auto& p : f.thresholds) {
        j["thresholds"].push_back({{"kernel", p.kernel}, {"dirty", p.dirty}, {"bytes", p.bytes}, {"ticks", stats_json(p.ticks)}});
        if (p.cycles.samples) j["thresholds"].back()["cycles"] = stats_json(p.cycles);
    }
    return j;
}

SweepFile sweep_from_json(const json& j, const std::string& source) {
    auto fail = [&](const std::string& why) { return InputError(source + ": " + why); };
    if (!j.is_object() || !j.contains("schema") || !j["schema"].is_string())
        throw fail("not an fputune sweep file (no \"schema\" field); expected schema " + std::string(kSweepSchema) +
                   ", as written by `fputune sweep`");
    const std::string schema = j["schema"].get<std::string>();
    if (schema.size() > 64) throw fail("\"schema\" is " + jsonc::quote(j["schema"]) + ", not a schema name (expected " + kSweepSchema + ")");
    const std::string family = "fputune.sweep/";
    if (schema.rfind(family, 0) != 0)
        throw fail("schema '" + schema + "' is not a sweep (expected " + kSweepSchema + ")");
    const std::string digits = schema.substr(family.size());
    if (digits.empty() || digits.size() > 4 || digits.find_first_not_of("0123456789") != std::string::npos)
        throw fail("schema '" + schema + "' has no version number (expected " + kSweepSchema + ")");
    const int version = std::stoi(digits);
    if (version > 1)
        throw fail("schema '" + schema + "' is newer than this fputune understands (" + kSweepSchema + "); update fputune");
    if (version < 1) throw fail("schema '" + schema + "' is not a version this fputune reads (" + kSweepSchema + ")");
    SweepFile f;
    f.schema = schema;
    try {
        using namespace jsonc;
        const Path top;
        const json& tool = object(member(j, "tool", top), top / "tool");
        f.tool_version = member_or(tool, "version", top / "tool", std::string(), [](const json& v, const Path& p) { return string(v, p, 256); });
        f.tool_commit = member_or(tool, "commit", top / "tool", std::string(), [](const json& v, const Path& p) { return string(v, p, 256); });
        f.date = member_or(j, "date", top, std::string(), [](const json& v, const Path& p) { return string(v, p, 64); });
        f.cpu = object(member(j, "cpu", top), top / "cpu");
        f.options = member_or(j, "options", top, json::object(), [](const json& v, const Path& p) { return object(v, p); });
        const Path clock_at = top / "clock";
        const json& clock = object(member(j, "clock", top), clock_at);
        // A TSC of 1 MHz .. 100 GHz and a core/TSC ratio of 0.01 .. 100: beyond those no machine runs.
        f.tsc_hz = real(member(clock, "tsc_hz", clock_at), clock_at / "tsc_hz", 1e6, 1e11);
        f.core_per_tsc = real(member(clock, "core_per_tsc", clock_at), clock_at / "core_per_tsc", 0.01, 100);
        f.core_per_tsc_end = member_or(clock, "core_per_tsc_end", clock_at, f.core_per_tsc, [](const json& v, const Path& p) { return real(v, p, 0, 100); });
        if (const json* t = optional_member(clock, "core_per_tsc_trace", clock_at)) {
            const Path at = clock_at / "core_per_tsc_trace";
            auto ratio = [&](const char* key) { return real(member(*t, key, at), at / key, 0, 100); };
            f.ratio_trace = {integer<std::uint64_t>(member(*t, "probes", at), at / "probes"), ratio("min"), ratio("p10"), ratio("p50"),
                             ratio("p90"), ratio("max")};
            if (f.ratio_trace.probes && f.ratio_trace.p50 < 0.01) jsonc::fail(at / "p50", fmt::format("{} is below 0.01", f.ratio_trace.p50));
        }
        f.section_overhead_ticks = member_or(j, "section_overhead_ticks", top, 0.0, [](const json& v, const Path& p) { return real(v, p, 0, 1e12); });
        f.dirty = member_or(j, "dirty", top, std::string("ymm"), [](const json& v, const Path& p) { return one_of(v, p, {"xmm", "ymm", "zmm", "none"}); });
        f.partial = member_or(j, "partial", top, false, [](const json& v, const Path& p) { return boolean(v, p); });
        if (const json* w = optional_member(j, "warnings", top))
            for (std::size_t i = 0; i < array(*w, top / "warnings").size(); ++i) f.warnings.push_back(string((*w)[i], (top / "warnings")[i]));

        const json& kernels = array(member(j, "kernels", top), top / "kernels");
        std::map<std::string, std::size_t> kernel_index;
        for (std::size_t i = 0; i < kernels.size(); ++i) {
            const Path at = (top / "kernels")[i];
            const json& k = object(kernels[i], at);
            KernelInfo info{name(member(k, "name", at), at / "name"), name(member(k, "algorithm", at), at / "algorithm"),
                            member_or(k, "isa", at, std::string(), [](const json& v, const Path& p) { return string(v, p, 64); }),
                            member_or(k, "provider", at, std::string("fputune"), [](const json& v, const Path& p) { return provider(v, p); }),
                            integer<std::uint32_t>(member(k, "block_bytes", at), at / "block_bytes", 1, kMaxBlockBytes),
                            member_or(k, "needs_fpu", at, true, [](const json& v, const Path& p) { return boolean(v, p); })};
            if (auto [it, fresh] = kernel_index.emplace(info.name, i); !fresh)
                jsonc::fail(at / "name", fmt::format("'{}' is listed twice (also kernels[{}])", info.name, it->second));
            f.kernels.push_back(std::move(info));
        }
        auto kernel_of = [&](const json& p, const Path& at) {
            std::string k = name(member(p, "kernel", at), at / "kernel");
            if (!kernel_index.count(k)) jsonc::fail(at / "kernel", fmt::format("'{}' is not in the file's \"kernels\" list", k));
            return k;
        };
        auto bytes_of = [&](const json& p, const Path& at) {
            return integer<std::uint64_t>(member(p, "bytes", at), at / "bytes", 1, kMaxPointBytes);
        };
        Skipped skipped;
        const json& sections = array(member(j, "sections", top), top / "sections");
        for (std::size_t i = 0; i < sections.size(); ++i) {
            const Path at = (top / "sections")[i];
            const json& p = object(sections[i], at);
            SectionPoint point;
            point.kernel = kernel_of(p, at);
            point.cache = one_of(member(p, "cache", at), at / "cache", {"hot", "cold"});
            point.bytes = bytes_of(p, at);
            point.settled = member_or(p, "settled", at, true, [](const json& v, const Path& q) { return boolean(v, q); });
            try {
                point.ticks = stats_from(member(p, "ticks", at), at / "ticks", true);
                if (const json* c = optional_member(p, "cycles", at)) point.cycles = stats_from(*c, at / "cycles", true);
                point.request_ticks_p50 = member_or(p, "request_ticks_p50", at, 0.0, [](const json& v, const Path& q) { return real(v, q, 0); });
            } catch (const FieldError& e) {
                skipped.by_kernel[point.kernel].push_back(fmt::format("{} B {}: {}", point.bytes, point.cache, e.what()));
                continue;
            }
            f.sections.push_back(std::move(point));
        }
        if (const json* thresholds = optional_member(j, "thresholds", top)) {
            for (std::size_t i = 0; i < array(*thresholds, top / "thresholds").size(); ++i) {
                const Path at = (top / "thresholds")[i];
                const json& p = object((*thresholds)[i], at);
                ThresholdPoint point;
                point.kernel = kernel_of(p, at);
                point.dirty = one_of(member(p, "dirty", at), at / "dirty", {"xmm", "ymm", "zmm", "none"});
                point.bytes = bytes_of(p, at);
                try {
                    point.ticks = stats_from(member(p, "ticks", at), at / "ticks", false);
                    if (const json* c = optional_member(p, "cycles", at)) point.cycles = stats_from(*c, at / "cycles", false);
                } catch (const FieldError& e) {
                    skipped.by_kernel[point.kernel].push_back(fmt::format("threshold {} B {}: {}", point.bytes, point.dirty, e.what()));
                    continue;
                }
                f.thresholds.push_back(std::move(point));
            }
        }
        skipped.note(f.notes);
    } catch (const InputError& e) {
        throw fail(std::string("malformed sweep file: ") + e.what());
    }
    return f;
}

SweepFile read_sweep_file(const std::string& path) { return sweep_from_json(jsonc::parse(read_file(path), path), path); }

void write_sweep_file(const std::string& path, const SweepFile& f) { write_file_atomic(path, to_json(f).dump(1) + "\n"); }

}  // namespace fputune
