// SPDX-License-Identifier: MIT
// Reading and writing fputune.model/2, and reading /1 (lines in ticks), converted to cycles on load.
#include "model_json.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "fit_sweep.hpp"  // kBoundFitMaxSeconds, kBoundFitMinPoints: what the file says about its fit

namespace fputune {

using nlohmann::json;

namespace {

json line_json(const LineFit& f) {
    return {{"a_cycles", f.a}, {"b_cycles_per_byte", f.b}, {"a_ci95", {f.a_lo, f.a_hi}}, {"b_ci95", {f.b_lo, f.b_hi}},
            {"r2", f.r2}, {"max_rel_residual", f.max_rel_residual}, {"max_residual_bytes", f.max_residual_bytes},
            {"points", f.points}, {"straight", f.straight}, {"note", f.note}};
}

// A /2 line is in cycles; a /1 line (`ticks`) is in ticks at the file's core/TSC ratio, `ticks_to_cycles`.
LineFit line_from(const json& j, bool ticks, double ticks_to_cycles) {
    LineFit f;
    f.a = j.at(ticks ? "a_ticks" : "a_cycles").get<double>();
    f.b = j.at(ticks ? "b_ticks_per_byte" : "b_cycles_per_byte").get<double>();
    f.a_lo = j.at("a_ci95").at(0).get<double>();
    f.a_hi = j.at("a_ci95").at(1).get<double>();
    f.b_lo = j.at("b_ci95").at(0).get<double>();
    f.b_hi = j.at("b_ci95").at(1).get<double>();
    if (ticks)
        for (double* v : {&f.a, &f.b, &f.a_lo, &f.a_hi, &f.b_lo, &f.b_hi}) *v *= ticks_to_cycles;
    f.r2 = j.value("r2", 1.0);
    f.max_rel_residual = j.value("max_rel_residual", 0.0);
    f.max_residual_bytes = j.value("max_residual_bytes", std::uint64_t{0});
    f.points = j.value("points", std::size_t{0});
    f.straight = j.value("straight", true);
    f.note = j.value("note", "");
    return f;
}

}  // namespace

json to_json(const ModelFile& m) {
    json j;
    j["schema"] = m.schema;
    j["tool"] = {{"name", "fputune"}, {"version", m.tool_version}, {"commit", m.tool_commit}};
    j["date"] = m.date;
    j["fit"] = {{"model", "cycles(n) = A + B*n per section, in core cycles (A cycles, B cycles per byte)"},
                {"method", "weighted least squares (Eigen), weights 1/y^2 so every size counts by its relative error, "
                           "Huber-reweighted (IRLS, k = 1.345 MAD sigmas) against points hit by interruptions"},
                {"quantiles", {"p50", "p90", "p99_clean"}},
                {"bound_fit_max_seconds", kBoundFitMaxSeconds},
                {"bound_fit", fmt::format("p90 and p99 lines on the sizes whose p50 section is at most {:.0f} us (at least the {} "
                                          "shortest): longer ones are hit by a host's interruptions too often to bound the kernel",
                                          kBoundFitMaxSeconds * 1e6, kBoundFitMinPoints)},
                {"confidence", 0.95},
                {"max_rel_residual_for_line", kMaxRelResidualForLine}};
    j["source"] = {{"path", m.source},
                   {"kind", m.source_kind},
                   {"machine", m.machine},
                   {"cpu", m.cpu},
                   {"date", m.sweep_date},
                   {"tool", {{"version", m.sweep_tool_version}, {"commit", m.sweep_tool_commit}}},
                   {"options", m.options},
                   {"clock", {{"tsc_hz", m.tsc_hz}, {"core_per_tsc", m.core_per_tsc}, {"core_per_tsc_end", m.core_per_tsc_end}}},
                   {"dirty", m.dirty ? std::string(name(*m.dirty)) : ""},
                   {"partial", m.partial},
                   {"warnings", m.warnings}};
    j["notes"] = m.notes;
    j["kernels"] = json::array();
    for (const auto& k : m.kernels)
        j["kernels"].push_back({{"name", k.name}, {"algorithm", k.algorithm}, {"isa", k.isa}, {"provider", k.provider},
                                {"block_bytes", k.block_bytes}, {"needs_fpu", k.needs_fpu}});
    j["models"] = json::array();
    for (const auto& cm : m.models)
        j["models"].push_back({{"kernel", cm.kernel},
                               {"cache", std::string(name(cm.cache))},
                               {"bytes", cm.bytes},
                               {"bound_bytes", cm.bound_bytes},
                               {"p50", line_json(cm.p50)},
                               {"p90", line_json(cm.p90)},
                               {"p99", line_json(cm.p99)}});
    j["thresholds"] = json::array();
    for (const auto& t : m.thresholds)
        j["thresholds"].push_back({{"algorithm", t.algorithm}, {"kernel", t.kernel},
                                   {"dirty", std::string(name(t.dirty))}, {"scalar_kernels", t.scalar_kernels},
                                   {"kind", std::string(name(t.kind))}, {"bytes", t.bytes},
                                   {"measured_from", t.measured_from}, {"measured_to", t.measured_to},
                                   {"simd_cycles_at_max", t.simd_cycles_at_max}});
    return j;
}

ModelFile model_from_json(const json& j, const std::string& source) {
    auto fail = [&](const std::string& why) { return std::runtime_error(source + ": " + why); };
    const std::string schema = j.value("schema", "");
    const std::string family = "fputune.model/";
    if (schema.rfind(family, 0) != 0) throw fail("schema '" + schema + "' is not a model file (expected " + kModelSchema + ")");
    int version = 0;
    try {
        version = std::stoi(schema.substr(family.size()));
    } catch (...) {
        throw fail("schema '" + schema + "' has no version number (expected " + kModelSchema + ")");
    }
    if (version > 2)
        throw fail("schema '" + schema + "' is newer than this fputune understands (" + kModelSchema +
                   "); update fputune");
    if (version < 1) throw fail("schema '" + schema + "' is not a version this fputune reads (" + kModelSchema + ")");
    ModelFile m;
    try {
        m.tool_version = j.at("tool").value("version", "");
        m.tool_commit = j.at("tool").value("commit", "");
        m.date = j.value("date", "");
        const json& s = j.at("source");
        m.source = source;
        m.source_kind = s.value("kind", "sweep");
        m.cpu = s.value("cpu", json::object());
        m.machine = s.value("machine", machine_name(m.cpu));
        m.sweep_date = s.value("date", "");
        m.sweep_tool_version = s.contains("tool") ? s["tool"].value("version", "") : "";
        m.sweep_tool_commit = s.contains("tool") ? s["tool"].value("commit", "") : "";
        m.options = s.value("options", json::object());
        m.tsc_hz = s.at("clock").value("tsc_hz", 0.0);
        m.core_per_tsc = s.at("clock").at("core_per_tsc").get<double>();
        m.core_per_tsc_end = s.at("clock").value("core_per_tsc_end", m.core_per_tsc);
        // fputune.model/1 held ticks at core_per_tsc: converted here, once, so models only know cycles.
        const bool ticks = version == 1;
        auto line = [&](const json& l) { return line_from(l, ticks, m.core_per_tsc); };
        if (const std::string dirty = s.value("dirty", ""); !dirty.empty()) {
            m.dirty = parse_dirty_state(dirty);
            if (!m.dirty)
                throw fail("malformed model file: source.dirty '" + dirty + "' (expected xmm, ymm, zmm or none)");
        }
        m.partial = s.value("partial", false);
        m.warnings = s.value("warnings", std::vector<std::string>{});
        m.notes = j.value("notes", std::vector<std::string>{});
        for (const auto& k : j.at("kernels"))
            m.kernels.push_back({k.at("name").get<std::string>(), k.at("algorithm").get<std::string>(), k.value("isa", ""),
                                 k.value("provider", "fputune"), k.at("block_bytes").get<std::uint32_t>(), k.value("needs_fpu", true)});
        for (const auto& c : j.at("models")) {
            CacheModel cm;
            cm.kernel = c.at("kernel").get<std::string>();
            const std::string cache = c.at("cache").get<std::string>();
            if (const auto parsed = parse_cache(cache)) cm.cache = *parsed;
            else
                throw fail("malformed model file: cache '" + cache + "' for kernel '" + cm.kernel +
                           "' (expected hot or cold)");
            cm.bytes = c.value("bytes", std::vector<std::uint64_t>{});
            cm.bound_bytes = c.value("bound_bytes", cm.bytes);
            cm.p50 = line(c.at("p50"));
            cm.p90 = line(c.at("p90"));
            cm.p99 = c.contains("p99") ? line(c.at("p99")) : cm.p90;
            if (!m.kernel(cm.kernel)) throw fail("malformed model file: model for kernel '" + cm.kernel + "' not in its kernels list");
            m.models.push_back(std::move(cm));
        }
        for (const auto& t : j.value("thresholds", json::array())) {
            SimdThreshold st;
            st.algorithm = t.at("algorithm").get<std::string>();
            st.kernel = t.at("kernel").get<std::string>();
            const std::string dirty = t.at("dirty").get<std::string>(), kind = t.at("kind").get<std::string>();
            if (const auto parsed = parse_dirty_state(dirty)) st.dirty = *parsed;
            else throw fail("malformed model file: threshold of '" + st.kernel + "' with dirty '" + dirty +
                            "' (expected xmm, ymm, zmm or none)");
            if (const auto parsed = parse_threshold_kind(kind)) st.kind = *parsed;
            else throw fail("malformed model file: threshold of '" + st.kernel + "' of kind '" + kind +
                            "' (expected bytes, always or never)");
            st.scalar_kernels = t.value("scalar_kernels", "");
            st.bytes = t.at("bytes").get<std::uint64_t>();
            st.measured_from = t.value("measured_from", std::uint64_t{0});
            st.measured_to = t.value("measured_to", std::uint64_t{0});
            st.simd_cycles_at_max =
                ticks ? t.value("simd_ticks_at_max", 0.0) * m.core_per_tsc : t.value("simd_cycles_at_max", 0.0);
            m.thresholds.push_back(std::move(st));
        }
    } catch (const json::exception& e) {
        throw fail(std::string("malformed model file: ") + e.what());
    }
    if (!(m.core_per_tsc > 0)) throw fail("malformed model file: source.clock.core_per_tsc must be > 0");
    if (m.models.empty()) throw fail("the model file has no models; fit a sweep with `fputune fit`");
    return m;
}

}  // namespace fputune
