// SPDX-License-Identifier: MIT
// Reading and writing fputune.model/2, and reading /1 (lines in ticks), converted to cycles on load.
#include "model_json.hpp"

#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "contention.hpp"
#include "errors.hpp"
#include "json_checked.hpp"
#include "provenance_json.hpp"
#include "text_lines.hpp"

#include "fit_sweep.hpp"  // kBoundFitMaxSeconds, kBoundFitMinPoints: what the file says about its fit

namespace fputune {

using nlohmann::json;

namespace {

json line_json(const LineFit& f) {
    return {{"a_cycles", f.a},
            {"b_cycles_per_byte", f.b},
            {"a_ci95", {f.a_lo, f.a_hi}},
            {"b_ci95", {f.b_lo, f.b_hi}},
            {"r2", f.r2},
            {"max_rel_residual", f.max_rel_residual},
            {"max_residual_bytes", f.max_residual_bytes},
            {"points", f.points},
            {"straight", f.straight},
            {"note", f.note}};
}

// A /2 line is in cycles; a /1 line (`ticks`) is in ticks at the file's core/TSC ratio, `ticks_to_cycles`.
// Every number finite; a confidence interval holds its value (lo <= value <= hi, what the solver's
// upper line relies on); the per-byte cost of a bound is not negative.
LineFit line_from(const json& j, const jsonc::Path& at, bool ticks, double ticks_to_cycles) {
    using namespace jsonc;
    object(j, at);
    LineFit f;
    // Lines of a real fit stay far inside these: A within +-1e13 cycles, B within +-1e9 cycles per byte.
    auto num = [&](const char* key, double limit) { return real(member(j, key, at), at / key, -limit, limit); };
    auto interval = [&](const char* key, double limit, double& lo, double& hi) {
        const json& v = array(member(j, key, at), at / key);
        if (v.size() != 2) fail(at / key, fmt::format("{} is not a [low, high] pair", quote(v)));
        lo = real(v[0], (at / key)[0], -limit, limit);
        hi = real(v[1], (at / key)[1], -limit, limit);
        if (lo > hi) fail(at / key, fmt::format("{} is not a [low, high] pair: low > high", quote(v)));
    };
    f.a = num(ticks ? "a_ticks" : "a_cycles", 1e13);
    f.b = num(ticks ? "b_ticks_per_byte" : "b_cycles_per_byte", 1e9);
    interval("a_ci95", 1e13, f.a_lo, f.a_hi);
    interval("b_ci95", 1e9, f.b_lo, f.b_hi);
    if (f.a < f.a_lo || f.a > f.a_hi)
        fail(at / "a_ci95", fmt::format("[{}, {}] does not hold A = {}", f.a_lo, f.a_hi, f.a));
    if (f.b < f.b_lo || f.b > f.b_hi)
        fail(at / "b_ci95", fmt::format("[{}, {}] does not hold B = {}", f.b_lo, f.b_hi, f.b));
    if (f.b_hi < 0) fail(at / "b_ci95", fmt::format("a cost per byte of {} (< 0)", f.b_hi));
    if (ticks)
        for (double* v : {&f.a, &f.b, &f.a_lo, &f.a_hi, &f.b_lo, &f.b_hi}) *v *= ticks_to_cycles;
    f.r2 = member_or(j, "r2", at, 1.0, [](const json& v, const Path& p) { return real(v, p, -1e6, 1); });
    f.max_rel_residual =
        member_or(j, "max_rel_residual", at, 0.0, [](const json& v, const Path& p) { return real(v, p, 0, 1e9); });
    f.max_residual_bytes = member_or(j, "max_residual_bytes", at, std::uint64_t{0}, [](const json& v, const Path& p) {
        return integer<std::uint64_t>(v, p, 0, 1ull << 30);
    });
    f.points = member_or(j, "points", at, std::size_t{0},
                         [](const json& v, const Path& p) { return integer<std::size_t>(v, p, 0, 1u << 20); });
    f.straight = member_or(j, "straight", at, true, [](const json& v, const Path& p) { return boolean(v, p); });
    f.note = member_or(j, "note", at, std::string(), [](const json& v, const Path& p) { return string(v, p, 1024); });
    return f;
}

std::vector<std::uint64_t> sizes(const json& v, const jsonc::Path& at) {
    std::vector<std::uint64_t> out;
    for (std::size_t i = 0; i < jsonc::array(v, at).size(); ++i)
        out.push_back(jsonc::integer<std::uint64_t>(v[i], at[i], 1, 1ull << 30));
    return out;
}

// A model's contention (absent: unknown, nothing adjusted).
void read_model_contention(const json& c, const jsonc::Path& at, CacheModel& cm) {
    using namespace jsonc;
    const json* x = optional_member(c, "contention", at);
    if (!x) return;
    const Path cat = at / "contention";
    object(*x, cat);
    auto s = [&](const char* key) { return real(member(*x, key, cat), cat / key, -10, 10); };
    cm.contention_known = true;
    cm.contention_s = s("sensitivity");
    cm.contention_s_lo = s("sensitivity_lo");
    cm.contention_s_hi = s("sensitivity_hi");
    cm.contention_level = real(member(*x, "level", cat), cat / "level", 0, 1000);  // 0: as measured
    if (optional_member(*x, "tail_p99", cat)) cm.contention_tail = {true, s("tail_p90"), s("tail_p99")};
}

}  // namespace

// One cache model: its lines, the bound statistics and each round's, its contention.
json model_entry_json(const CacheModel& cm) {
    json e = {{"kernel", cm.kernel},
              {"cache", std::string(name(cm.cache))},
              {"bytes", cm.bytes},
              {"bound_bytes", cm.bound_bytes},
              {"p50", line_json(cm.p50)},
              {"p90", line_json(cm.p90)},
              {"p99", line_json(cm.p99)}};
    if (!cm.bound_p99.empty()) {
        e["bound_p90"] = cm.bound_p90;
        e["bound_p99"] = cm.bound_p99;
    }
    if (!cm.round_p99.empty()) {
        json rounds = json::array();
        for (std::size_t r = 0; r < cm.round_p99.size(); ++r)
            rounds.push_back(json{{"p90", cm.round_p90[r]}, {"p99", cm.round_p99[r]}});
        e["rounds"] = rounds;
    }
    if (cm.contention_known)
        e["contention"] = {{"sensitivity", cm.contention_s},
                           {"sensitivity_lo", cm.contention_s_lo},
                           {"sensitivity_hi", cm.contention_s_hi},
                           {"level", cm.contention_level}};
    if (cm.contention_known && cm.contention_tail.known) {
        e["contention"]["tail_p90"] = cm.contention_tail.p90;
        e["contention"]["tail_p99"] = cm.contention_tail.p99;
    }
    return e;
}

json to_json(const ModelFile& m) {
    json j = provenance_json(m.schema, m.tool_version, m.tool_commit, m.date);
    j["fit"] = {{"model", "cycles(n) = A + B*n per section, in core cycles (A cycles, B cycles per byte)"},
                {"method",
                 "weighted least squares (Eigen), weights 1/y^2 so every size counts by its relative error, "
                 "Huber-reweighted (IRLS, k = 1.345 MAD sigmas) against points hit by interruptions"},
                {"quantiles", {"p50", "p90", "p99_clean"}},
                {"bound_fit_max_seconds", kBoundFitMaxSeconds},
                {"bound_fit",
                 fmt::format("p90 and p99 lines on the sizes whose p50 section is at most {:.0f} us (at least the {} "
                             "shortest): longer ones are hit by a host's interruptions too often to bound the kernel",
                             kBoundFitMaxSeconds * 1e6, kBoundFitMinPoints)},
                {"rounds",
                 "bound_p90/bound_p99: the statistics the bound lines were fitted on, at bound_bytes; \"rounds\": "
                 "the same for each round of the sweep alone (how the host's phases moved them: recommend's interval)"},
                {"confidence", 0.95},
                {"max_rel_residual_for_line", kMaxRelResidualForLine}};
    j["source"] = {
        {"path", m.source},
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
    for (const auto& k : m.kernels) {
        j["kernels"].push_back(kernel_entry_json(k));
    }
    j["models"] = json::array();
    for (const auto& cm : m.models) j["models"].push_back(model_entry_json(cm));
    if (!m.contention.empty())
        j["contention"] = {{"assumed", m.contention},
                           {"observed_p90", m.contention_observed},
                           {"observed_p50", m.contention_median},
                           {"quiet_level", m.contention_floor},
                           {"model",
                            "time(c) = quiet x (1 + s x (c - 1)); each model's bound statistics are stated "
                            "at its \"level\" c, each round moved there from the level it met"}};
    if (m.memory_p50_ticks > 0)
        j["memory"] = {{"bytes", m.memory_bytes},
                       {"p50_ticks", m.memory_p50_ticks},
                       {"use", "the sweep's memory probe: TSC ticks of one read of `bytes` in no cache, its median"}};
    j["thresholds"] = json::array();
    for (const auto& t : m.thresholds) {
        j["thresholds"].push_back({{"algorithm", t.algorithm},
                                   {"kernel", t.kernel},
                                   {"dirty", std::string(name(t.dirty))},
                                   {"scalar_kernels", t.scalar_kernels},
                                   {"kind", std::string(name(t.kind))},
                                   {"bytes", t.bytes},
                                   {"measured_from", t.measured_from},
                                   {"measured_to", t.measured_to},
                                   {"simd_cycles_at_max", t.simd_cycles_at_max}});
        // The curve and the save cost: `recommend --save-every` reads the threshold again from them.
        if (!t.lengths.empty())
            j["thresholds"].back().update(
                {{"save_cycles", t.save_cycles},
                 {"save_from", t.save_from},
                 {"block_bytes", t.block_bytes},
                 {"curve",
                  {{"bytes", t.lengths}, {"simd_cycles", t.simd_cycles}, {"scalar_cycles", t.scalar_cycles}}}});
    }
    return j;
}

namespace {

using namespace jsonc;

auto text(std::size_t max) {
    return [max](const json& v, const Path& p) { return string(v, p, max); };
}

// An optional array of strings.
std::vector<std::string> strings(const json& obj, const char* key, const Path& at) {
    std::vector<std::string> out;
    if (const json* v = optional_member(obj, key, at))
        for (std::size_t i = 0; i < array(*v, at / key).size(); ++i) out.push_back(string((*v)[i], (at / key)[i]));
    return out;
}

// "source": the sweep (or table) the models came from, and its clock.
void read_source(const json& j, ModelFile& m) {
    const Path top;
    const Path src = top / "source";
    const json& s = object(member(j, "source", top), src);
    m.source_kind = member_or(s, "kind", src, std::string("sweep"), [](const json& v, const Path& p) {
        return one_of(v, p, {"sweep", "reference-csv"});
    });
    m.cpu = member_or(s, "cpu", src, json::object(), [](const json& v, const Path& p) { return object(v, p); });
    m.machine = member_or(s, "machine", src, machine_name(m.cpu), text(256));
    m.sweep_date = member_or(s, "date", src, std::string(), text(64));
    if (const json* t = optional_member(s, "tool", src)) {
        m.sweep_tool_version =
            member_or(object(*t, src / "tool"), "version", src / "tool", std::string(), text(256));
        m.sweep_tool_commit = member_or(*t, "commit", src / "tool", std::string(), text(256));
    }
    m.options =
        member_or(s, "options", src, json::object(), [](const json& v, const Path& p) { return object(v, p); });
    const Path clock_at = src / "clock";
    const json& clock = object(member(s, "clock", src), clock_at);
    m.tsc_hz =
        member_or(clock, "tsc_hz", clock_at, 0.0, [](const json& v, const Path& p) { return real(v, p, 0, 1e11); });
    m.core_per_tsc = real(member(clock, "core_per_tsc", clock_at), clock_at / "core_per_tsc", 0.01, 100);
    m.core_per_tsc_end = member_or(clock, "core_per_tsc_end", clock_at, m.core_per_tsc,
                                   [](const json& v, const Path& p) { return real(v, p, 0, 100); });
    if (const std::string dirty = member_or(s, "dirty", src, std::string(), text(64)); !dirty.empty()) {
        m.dirty = parse_dirty_state(dirty);
        if (!m.dirty)
            throw jsonc::FieldError(
                fmt::format("source.dirty '{}' is not one of xmm, ymm, zmm, none", printable(dirty)));
    }
    m.partial = member_or(s, "partial", src, false, [](const json& v, const Path& p) { return boolean(v, p); });
    m.warnings = strings(s, "warnings", src);
}

// "kernels": every kernel (and series) of the file, each once; returns name -> index.
std::map<std::string, std::size_t> read_kernels(const json& j, ModelFile& m) {
    const Path top;
    const json& kernels = array(member(j, "kernels", top), top / "kernels");
    std::map<std::string, std::size_t> kernel_index;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        const Path at = (top / "kernels")[i];
        const json& k = object(kernels[i], at);
        KernelInfo info{
            name(member(k, "name", at), at / "name"),
            name(member(k, "algorithm", at), at / "algorithm"),
            member_or(k, "isa", at, std::string(), text(64)),
            member_or(k, "provider", at, std::string(kOwnProvider),
                      [](const json& v, const Path& p) { return provider(v, p); }),
            integer<std::uint32_t>(member(k, "block_bytes", at), at / "block_bytes", 1, 1u << 20),
            member_or(k, "needs_fpu", at, true, [](const json& v, const Path& p) { return boolean(v, p); })};
        read_series_fields(k, at,
                           info);  // a series of sections (formats/sweep_file.hpp): absent in files from before them
        if (auto [it, fresh] = kernel_index.emplace(info.name, i); !fresh)
            jsonc::fail(at / "name", fmt::format("'{}' is listed twice (also kernels[{}])", info.name, it->second));
        m.kernels.push_back(std::move(info));
    }
    return kernel_index;
}

// One of "models": a kernel's lines in one cache state, with the statistics they were fitted on.
CacheModel read_model(const json& c, const Path& at, bool ticks, double core_per_tsc,
                      const std::map<std::string, std::size_t>& kernel_index) {
    CacheModel cm;
    cm.kernel = name(member(c, "kernel", at), at / "kernel");
    if (!kernel_index.count(cm.kernel))
        jsonc::fail(at / "kernel", fmt::format("'{}' is not in the file's \"kernels\" list", cm.kernel));
    cm.cache = *parse_cache(one_of(member(c, "cache", at), at / "cache", {"hot", "cold"}));
    cm.bytes = member_or(c, "bytes", at, std::vector<std::uint64_t>{}, sizes);
    cm.bound_bytes = member_or(c, "bound_bytes", at, cm.bytes, sizes);
    cm.p50 = line_from(member(c, "p50", at), at / "p50", ticks, core_per_tsc);
    cm.p90 = line_from(member(c, "p90", at), at / "p90", ticks, core_per_tsc);
    cm.p99 = optional_member(c, "p99", at) ? line_from(c["p99"], at / "p99", ticks, core_per_tsc) : cm.p90;
    // In cycles like the lines (a /1 file has none of these): the bound statistics at bound_bytes,
    // and each round's alone (0 where a round took no sample of a point).
    auto cycles = [](const json& v, const Path& p) {
        std::vector<double> out;
        for (std::size_t i = 0; i < array(v, p).size(); ++i) out.push_back(real(v[i], p[i], 0, 1e13));
        return out;
    };
    const std::size_t nb = cm.bound_bytes.size();
    for (auto [key, into] : {std::pair{"bound_p90", &cm.bound_p90}, std::pair{"bound_p99", &cm.bound_p99}}) {
        *into = member_or(c, key, at, std::vector<double>{}, cycles);
        if (!into->empty() && into->size() != nb)
            jsonc::fail(at / key, fmt::format("{} values for {} bound_bytes", into->size(), nb));
        for (std::size_t b = 0; b < into->size(); ++b)
            if (!((*into)[b] > 0)) jsonc::fail((at / key)[b], "a bound statistic of 0 cycles");
    }
    if (const json* rounds = optional_member(c, "rounds", at)) {
        if (cm.bound_p99.empty() && !array(*rounds, at / "rounds").empty())
            jsonc::fail(at / "rounds", "rounds without bound_p99");
        for (std::size_t r = 0; r < array(*rounds, at / "rounds").size(); ++r) {
            const Path rat = (at / "rounds")[r];
            const json& round = object((*rounds)[r], rat);
            cm.round_p90.push_back(cycles(member(round, "p90", rat), rat / "p90"));
            cm.round_p99.push_back(cycles(member(round, "p99", rat), rat / "p99"));
            if (cm.round_p90.back().size() != nb || cm.round_p99.back().size() != nb)
                jsonc::fail(rat, fmt::format("not {} values in p90 and p99, one per bound_bytes", nb));
        }
    }
    return cm;
}

// One of "thresholds" (a /1 file's costs in ticks, converted).
SimdThreshold read_threshold(const json& t, const Path& at, bool ticks, double core_per_tsc) {
    SimdThreshold st;
    st.algorithm = name(member(t, "algorithm", at), at / "algorithm");
    st.kernel = name(member(t, "kernel", at), at / "kernel");
    st.dirty =
        *parse_dirty_state(one_of(member(t, "dirty", at), at / "dirty", {"xmm", "ymm", "zmm", "none"}));
    st.kind =
        *parse_threshold_kind(one_of(member(t, "kind", at), at / "kind", {"bytes", "always", "never"}));
    st.scalar_kernels = member_or(t, "scalar_kernels", at, std::string(), text(1024));
    st.bytes = integer<std::uint64_t>(member(t, "bytes", at), at / "bytes", 0, 1ull << 30);
    auto length = [](const json& v, const Path& p) { return integer<std::uint64_t>(v, p, 0, 1ull << 30); };
    st.measured_from = member_or(t, "measured_from", at, std::uint64_t{0}, length);
    st.measured_to = member_or(t, "measured_to", at, std::uint64_t{0}, length);
    auto cost = [](const json& v, const Path& p) { return real(v, p, 0, 1e13); };
    st.simd_cycles_at_max = ticks ? member_or(t, "simd_ticks_at_max", at, 0.0, cost) * core_per_tsc
                                  : member_or(t, "simd_cycles_at_max", at, 0.0, cost);
    if (const json* curve = optional_member(t, "curve", at); curve && !ticks) {
        const Path cat = at / "curve";
        object(*curve, cat);
        const json& lens = array(member(*curve, "bytes", cat), cat / "bytes");
        const json& simd = array(member(*curve, "simd_cycles", cat), cat / "simd_cycles");
        const json& scalar = array(member(*curve, "scalar_cycles", cat), cat / "scalar_cycles");
        if (lens.size() > 100000 || simd.size() != lens.size() || scalar.size() != lens.size())
            jsonc::fail(
                cat / "bytes",
                "bytes, simd_cycles and scalar_cycles must be arrays of one length (at most 100000)");
        for (std::size_t c = 0; c < lens.size(); ++c) {
            st.lengths.push_back(length(lens[c], (cat / "bytes")[c]));
            st.simd_cycles.push_back(cost(simd[c], (cat / "simd_cycles")[c]));
            st.scalar_cycles.push_back(cost(scalar[c], (cat / "scalar_cycles")[c]));
        }
        st.save_cycles = member_or(t, "save_cycles", at, 0.0, cost);
        st.save_from = member_or(t, "save_from", at, std::string(), text(64));
        st.block_bytes = member_or(
            t, "block_bytes", at, std::uint32_t{0},
            [](const json& v, const Path& p) { return integer<std::uint32_t>(v, p, 0, 1u << 20); });
    }
    return st;
}

}  // namespace

ModelFile model_from_json(const json& j, const std::string& source) {
    auto fail = [&](const std::string& why) { return InputError(source + ": " + why); };
    const int version = jsonc::check_schema(
        j, source, {"fputune.model/", kModelSchema, 2, "model file", "a model file", "expected ", "fputune fit"});
    ModelFile m;
    try {
        const Path top;
        const json& tool = object(member(j, "tool", top), top / "tool");
        m.tool_version = member_or(tool, "version", top / "tool", std::string(), text(256));
        m.tool_commit = member_or(tool, "commit", top / "tool", std::string(), text(256));
        m.date = member_or(j, "date", top, std::string(), text(64));
        m.source = source;
        read_source(j, m);
        m.notes = strings(j, "notes", top);
        // fputune.model/1 held ticks at core_per_tsc: converted here, once, so models only know cycles.
        const bool ticks = version == 1;
        const std::map<std::string, std::size_t> kernel_index = read_kernels(j, m);
        const json& models = array(member(j, "models", top), top / "models");
        std::map<std::pair<std::string, Cache>, std::size_t> model_index;
        for (std::size_t i = 0; i < models.size(); ++i) {
            const Path at = (top / "models")[i];
            CacheModel cm = read_model(object(models[i], at), at, ticks, m.core_per_tsc, kernel_index);
            if (auto [it, fresh] = model_index.emplace(std::pair{cm.kernel, cm.cache}, i); !fresh)
                jsonc::fail(at, fmt::format("a second model of '{}' in {} cache (also models[{}])", cm.kernel,
                                            name(cm.cache), it->second));
            read_model_contention(object(models[i], at), at, cm);
            m.models.push_back(std::move(cm));
        }
        if (const json* mc = optional_member(j, "contention", top)) {
            const Path at = top / "contention";
            m.contention = string(member(object(*mc, at), "assumed", at), at / "assumed", 64);
            if (!parse_contention_target(m.contention))
                jsonc::fail(at / "assumed", fmt::format("'{}' is not {}", printable(m.contention), kContentionChoices));
            m.contention_observed = member_or(*mc, "observed_p90", at, 0.0,
                                              [](const json& v, const Path& p) { return real(v, p, 0, 1000); });
            m.contention_median = member_or(*mc, "observed_p50", at, 0.0,
                                            [](const json& v, const Path& p) { return real(v, p, 0, 1000); });
            m.contention_floor = member_or(*mc, "quiet_level", at, 1.0,  // absent: older files, c = 1
                                           [](const json& v, const Path& p) { return real(v, p, 1, 1000); });
        }
        if (const json* mm = optional_member(j, "memory", top)) {
            const Path at = top / "memory";
            m.memory_bytes = integer<std::uint32_t>(member(object(*mm, at), "bytes", at), at / "bytes", 64);
            m.memory_p50_ticks = positive(member(*mm, "p50_ticks", at), at / "p50_ticks", 1e9);
        }
        if (const json* thresholds = optional_member(j, "thresholds", top))
            for (std::size_t i = 0; i < array(*thresholds, top / "thresholds").size(); ++i) {
                const Path at = (top / "thresholds")[i];
                m.thresholds.push_back(read_threshold(object((*thresholds)[i], at), at, ticks, m.core_per_tsc));
            }
    } catch (const InputError& e) {
        throw fail(std::string("malformed model file: ") + e.what());
    }
    if (m.models.empty()) throw fail("the model file has no models; fit a sweep with `fputune fit`");
    return m;
}

}  // namespace fputune
