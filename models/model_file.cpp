// SPDX-License-Identifier: MIT
// Fitting a sweep into models, thresholds from the threshold sweep, and reading/writing fputune.model/1.
#include "model_file.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "atomic_file.hpp"

namespace fputune {

using nlohmann::json;

namespace {

bool glob_match(const std::string& pattern, const std::string& name) {
    return fnmatch(pattern.c_str(), name.c_str(), 0) == 0;
}

json line_json(const LineFit& f) {
    return {{"a_ticks", f.a}, {"b_ticks_per_byte", f.b}, {"a_ci95", {f.a_lo, f.a_hi}}, {"b_ci95", {f.b_lo, f.b_hi}},
            {"r2", f.r2}, {"max_rel_residual", f.max_rel_residual}, {"max_residual_bytes", f.max_residual_bytes},
            {"points", f.points}, {"straight", f.straight}, {"note", f.note}};
}

LineFit line_from(const json& j) {
    LineFit f;
    f.a = j.at("a_ticks").get<double>();
    f.b = j.at("b_ticks_per_byte").get<double>();
    f.a_lo = j.at("a_ci95").at(0).get<double>();
    f.a_hi = j.at("a_ci95").at(1).get<double>();
    f.b_lo = j.at("b_ci95").at(0).get<double>();
    f.b_hi = j.at("b_ci95").at(1).get<double>();
    f.r2 = j.value("r2", 1.0);
    f.max_rel_residual = j.value("max_rel_residual", 0.0);
    f.max_residual_bytes = j.value("max_residual_bytes", std::uint64_t{0});
    f.points = j.value("points", std::size_t{0});
    f.straight = j.value("straight", true);
    f.note = j.value("note", "");
    return f;
}

// Keeps the models of kernels matching any glob; a glob that matches none is an error.
void filter_kernels(ModelFile& m, const std::vector<std::string>& globs) {
    if (globs.empty()) return;
    std::set<std::string> with_points;
    for (const auto& cm : m.models) with_points.insert(cm.kernel);
    for (const auto& g : globs) {
        bool any = std::any_of(with_points.begin(), with_points.end(), [&](const std::string& k) { return glob_match(g, k); });
        if (!any) {
            std::string names;
            for (const auto& k : with_points) names += (names.empty() ? "" : ", ") + k;
            throw std::runtime_error(fmt::format("{}: no section points for kernel '{}' (kernels with points: {}); "
                                                 "sweep it with `fputune sweep -k '{}'` or pick one of those",
                                                 m.source, g, names.empty() ? "none" : names, g));
        }
    }
    auto unwanted = [&](const std::string& kernel) {
        return std::none_of(globs.begin(), globs.end(), [&](const std::string& g) { return glob_match(g, kernel); });
    };
    std::erase_if(m.models, [&](const CacheModel& cm) { return unwanted(cm.kernel); });
    std::erase_if(m.thresholds, [&](const SimdThreshold& t) { return unwanted(t.kernel); });
}

}  // namespace

// The kernel's own code ("linux <version>", kernels/linux) is measured and recommended like ours.
bool is_peer(const KernelInfo& k) {
    return !k.provider.empty() && k.provider != "fputune" && k.provider != "reference" && k.provider.rfind("linux ", 0) != 0;
}

std::string machine_name(const json& cpu) {
    auto str = [](const json& o, const char* key) -> std::string {
        if (o.is_object() && o.contains(key) && o[key].is_string()) return o[key].get<std::string>();
        return "";
    };
    if (auto b = str(cpu, "brand"); !b.empty()) return b;
    if (cpu.is_object())
        for (const auto& [key, value] : cpu.items())
            if (auto b = str(value, "brand"); !b.empty()) return b;
    if (auto v = str(cpu, "vendor"); !v.empty()) return v;
    return "unknown CPU";
}

const KernelInfo* ModelFile::kernel(const std::string& name) const {
    for (const auto& k : kernels)
        if (k.name == name) return &k;
    return nullptr;
}

const CacheModel* ModelFile::model(const std::string& kernel_name, const std::string& cache) const {
    for (const auto& m : models)
        if (m.kernel == kernel_name && m.cache == cache) return &m;
    return nullptr;
}

std::vector<SimdThreshold> compute_thresholds(const SweepFile& sweep) {
    // p50 one-shot cost per (kernel, dirty) and length; a repeated point keeps its lowest median.
    std::map<std::pair<std::string, std::string>, std::map<std::uint64_t, double>> cost;
    for (const auto& p : sweep.thresholds) {
        auto& slot = cost[{p.kernel, p.dirty}];
        auto it = slot.find(p.bytes);
        const double p50 = model_ticks(sweep, p.ticks, p.cycles).p50;
        if (it == slot.end() || p50 < it->second) slot[p.bytes] = p50;
    }
    std::vector<SimdThreshold> out;
    std::set<std::string> algorithms;
    for (const auto& k : sweep.kernels) algorithms.insert(k.algorithm);
    for (const auto& alg : algorithms) {
        // The no-FPU baseline: the best of our no-FPU kernels at each length.
        std::map<std::uint64_t, double> scalar;
        std::string scalar_names;
        for (const auto& k : sweep.kernels) {
            if (k.algorithm != alg || k.needs_fpu || is_peer(k)) continue;
            bool used = false;
            for (const auto& [key, points] : cost) {
                if (key.first != k.name) continue;
                for (const auto& [len, ticks] : points) {
                    auto it = scalar.find(len);
                    if (it == scalar.end() || ticks < it->second) scalar[len] = ticks;
                    used = true;
                }
            }
            if (used) scalar_names += (scalar_names.empty() ? "" : " ") + k.name;
        }
        if (scalar.empty()) continue;
        for (const auto& k : sweep.kernels) {
            if (k.algorithm != alg || !k.needs_fpu) continue;
            for (const auto& [key, points] : cost) {
                if (key.first != k.name) continue;
                std::vector<std::uint64_t> lengths;
                for (const auto& [len, ticks] : points)
                    if (scalar.count(len)) lengths.push_back(len);
                if (lengths.empty()) continue;
                SimdThreshold t;
                t.algorithm = alg;
                t.kernel = k.name;
                t.dirty = key.second;
                t.scalar_kernels = scalar_names;
                t.measured_from = lengths.front();
                t.measured_to = lengths.back();
                t.simd_ticks_at_max = points.at(lengths.back());
                std::ptrdiff_t last_loss = -1;
                for (std::size_t i = 0; i < lengths.size(); ++i)
                    if (points.at(lengths[i]) >= scalar.at(lengths[i])) last_loss = static_cast<std::ptrdiff_t>(i);
                const std::uint64_t block = std::max<std::uint32_t>(1, k.block_bytes);
                if (last_loss < 0) {
                    t.kind = "always";
                    t.bytes = block;
                } else if (static_cast<std::size_t>(last_loss) + 1 == lengths.size()) {
                    t.kind = "never";
                    t.bytes = 0;
                } else {
                    t.kind = "bytes";
                    t.bytes = (lengths[static_cast<std::size_t>(last_loss) + 1] + block - 1) / block * block;
                }
                out.push_back(t);
            }
        }
    }
    return out;
}

namespace {
// A model file stamped with who fitted it, when, and from what.
ModelFile new_model(const std::string& source, const std::string& kind) {
    ModelFile m;
    m.tool_version = tool_version();
    m.tool_commit = tool_commit();
    m.date = utc_now_iso8601();
    m.source = source;
    m.source_kind = kind;
    return m;
}
}  // namespace

ModelFile fit_sweep(const SweepFile& sweep, const std::string& source, const std::vector<std::string>& kernel_globs) {
    ModelFile m = new_model(source, "sweep");
    m.machine = machine_name(sweep.cpu);
    m.cpu = sweep.cpu;
    m.sweep_date = sweep.date;
    m.sweep_tool_version = sweep.tool_version;
    m.sweep_tool_commit = sweep.tool_commit;
    m.options = sweep.options;
    m.tsc_hz = sweep.tsc_hz;
    // Ticks at one reference ratio: the sweep's median probed ratio when every sample was converted to
    // core cycles around it (the start and end values then only describe the run), else the start.
    m.core_per_tsc = model_core_per_tsc(sweep);
    m.core_per_tsc_end = sweep.ratio_trace.probes ? m.core_per_tsc : sweep.core_per_tsc_end;
    m.dirty = sweep.dirty;
    m.partial = sweep.partial;
    m.warnings = sweep.warnings;
    m.kernels = sweep.kernels;
    // Group the section points by (kernel, cache), in the order of the kernel list, with the
    // statistics the fits use.
    std::map<std::pair<std::string, std::string>, std::vector<std::pair<std::uint64_t, PointStats>>> groups;
    for (const auto& p : sweep.sections) {
        if (!m.kernel(p.kernel))
            throw std::runtime_error(fmt::format("{}: malformed sweep file: section points for kernel '{}', which is not in "
                                                 "its \"kernels\" list", source, p.kernel));
        if (p.cache != "hot" && p.cache != "cold")
            throw std::runtime_error(fmt::format("{}: malformed sweep file: cache '{}' for kernel '{}' (expected hot or cold)",
                                                 source, p.cache, p.kernel));
        const PointStats st = model_ticks(sweep, p.ticks, p.cycles);
        if (p.bytes == 0 || !(st.p50 > 0) || !(st.p90 > 0))
            throw std::runtime_error(fmt::format("{}: malformed sweep file: point {} B of '{}' ({}) has no positive p50/p90",
                                                 source, p.bytes, p.kernel, p.cache));
        groups[{p.kernel, p.cache}].emplace_back(p.bytes, st);
    }
    if (groups.empty())
        throw std::runtime_error(fmt::format("{}: the sweep has no section points{}; run `fputune sweep` (or --resume it)", source,
                                             sweep.partial ? " (it was interrupted before the first)" : ""));
    for (const auto& k : sweep.kernels) {
        for (const char* cache : {"hot", "cold"}) {
            auto it = groups.find({k.name, cache});
            if (it == groups.end()) continue;
            CacheModel cm;
            cm.kernel = k.name;
            cm.cache = cache;
            // The bounds: sizes whose typical section is at most kBoundFitMaxSeconds, at least the
            // kBoundFitMinPoints shortest.
            std::vector<std::pair<std::uint64_t, PointStats>>& points = it->second;
            std::sort(points.begin(), points.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
            std::vector<double> xs, y50, bx, b90, b99;
            for (const auto& [bytes, st] : points) {
                xs.push_back(static_cast<double>(bytes));
                y50.push_back(st.p50);
                cm.bytes.push_back(bytes);
                if (bx.size() >= kBoundFitMinPoints && st.p50 / m.tsc_hz > kBoundFitMaxSeconds) continue;
                bx.push_back(static_cast<double>(bytes));
                b90.push_back(st.p90);
                b99.push_back(std::max(st.p99_clean, st.p90));
                cm.bound_bytes.push_back(bytes);
            }
            cm.p50 = fit_line(xs, y50);
            cm.p90 = fit_line(bx, b90);
            cm.p99 = fit_line(bx, b99);
            m.models.push_back(std::move(cm));
        }
        const bool has_points = groups.count({k.name, "hot"}) || groups.count({k.name, "cold"});
        if (k.needs_fpu && !has_points && kernel_globs.empty()) {
            // Ours must be there in a complete sweep; a peer may have been listed for thresholds only.
            if (!sweep.partial && !is_peer(k))
                throw std::runtime_error(fmt::format("{}: no section points for kernel '{}', which the sweep lists; the file is "
                                                     "incomplete: sweep again, or choose kernels with -k", source, k.name));
            m.notes.push_back(fmt::format("{}: no section points{}; skipped", k.name, sweep.partial ? " (the sweep was interrupted)" : ""));
        }
    }
    m.thresholds = compute_thresholds(sweep);
    filter_kernels(m, kernel_globs);
    if (sweep.partial) m.notes.push_back("the sweep is partial (interrupted): some points are missing");
    if (sweep.ratio_trace.probes)
        m.notes.push_back(fmt::format("every sample converted to core cycles with the core/TSC ratio probed around it "
                                      "({} probes, {:.3f}..{:.3f}, median {:.3f}, the reference here)",
                                      sweep.ratio_trace.probes, sweep.ratio_trace.min, sweep.ratio_trace.max, sweep.ratio_trace.p50));
    else if (sweep.core_per_tsc_end > 0 && std::abs(sweep.core_per_tsc_end / sweep.core_per_tsc - 1) > 0.02)
        m.notes.push_back(fmt::format("core/TSC ratio moved during the sweep: {:.3f} -> {:.3f}; the start value is used",
                                      sweep.core_per_tsc, sweep.core_per_tsc_end));
    return m;
}

json to_json(const ModelFile& m) {
    json j;
    j["schema"] = m.schema;
    j["tool"] = {{"name", "fputune"}, {"version", m.tool_version}, {"commit", m.tool_commit}};
    j["date"] = m.date;
    j["fit"] = {{"model", "ticks(n) = A + B*n per section"},
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
                   {"dirty", m.dirty},
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
                               {"cache", cm.cache},
                               {"bytes", cm.bytes},
                               {"bound_bytes", cm.bound_bytes},
                               {"core_cycles_per_byte_p50", cm.p50.b * m.core_per_tsc},
                               {"p50", line_json(cm.p50)},
                               {"p90", line_json(cm.p90)},
                               {"p99", line_json(cm.p99)}});
    j["thresholds"] = json::array();
    for (const auto& t : m.thresholds)
        j["thresholds"].push_back({{"algorithm", t.algorithm}, {"kernel", t.kernel}, {"dirty", t.dirty},
                                   {"scalar_kernels", t.scalar_kernels}, {"kind", t.kind}, {"bytes", t.bytes},
                                   {"measured_from", t.measured_from}, {"measured_to", t.measured_to},
                                   {"simd_ticks_at_max", t.simd_ticks_at_max}});
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
    if (version > 1) throw fail("schema '" + schema + "' is newer than this fputune understands (" + kModelSchema + "); update fputune");
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
        m.dirty = s.value("dirty", "");
        m.partial = s.value("partial", false);
        m.warnings = s.value("warnings", std::vector<std::string>{});
        m.notes = j.value("notes", std::vector<std::string>{});
        for (const auto& k : j.at("kernels"))
            m.kernels.push_back({k.at("name").get<std::string>(), k.at("algorithm").get<std::string>(), k.value("isa", ""),
                                 k.value("provider", "fputune"), k.at("block_bytes").get<std::uint32_t>(), k.value("needs_fpu", true)});
        for (const auto& c : j.at("models")) {
            CacheModel cm;
            cm.kernel = c.at("kernel").get<std::string>();
            cm.cache = c.at("cache").get<std::string>();
            cm.bytes = c.value("bytes", std::vector<std::uint64_t>{});
            cm.bound_bytes = c.value("bound_bytes", cm.bytes);
            cm.p50 = line_from(c.at("p50"));
            cm.p90 = line_from(c.at("p90"));
            cm.p99 = c.contains("p99") ? line_from(c.at("p99")) : cm.p90;
            if (!m.kernel(cm.kernel)) throw fail("malformed model file: model for kernel '" + cm.kernel + "' not in its kernels list");
            m.models.push_back(std::move(cm));
        }
        for (const auto& t : j.value("thresholds", json::array()))
            m.thresholds.push_back({t.at("algorithm").get<std::string>(), t.at("kernel").get<std::string>(),
                                    t.at("dirty").get<std::string>(), t.value("scalar_kernels", ""), t.at("kind").get<std::string>(),
                                    t.at("bytes").get<std::uint64_t>(), t.value("measured_from", std::uint64_t{0}),
                                    t.value("measured_to", std::uint64_t{0}), t.value("simd_ticks_at_max", 0.0)});
    } catch (const json::exception& e) {
        throw fail(std::string("malformed model file: ") + e.what());
    }
    if (!(m.core_per_tsc > 0)) throw fail("malformed model file: source.clock.core_per_tsc must be > 0");
    if (m.models.empty()) throw fail("the model file has no models; fit a sweep with `fputune fit`");
    return m;
}

namespace {

// Block sizes of the kernels a reference CSV names (it does not say): SHA-1/224/256 and SM3 hash 64-byte
// blocks, SHA-384/512 128-byte ones; the CRC drivers fold 8 bytes (crc32c, the crc32q instruction) or
// 16 bytes (one xmm of PCLMULQDQ folding for crct10dif, crc32, crc64) at a time.
std::uint32_t reference_block_bytes(const std::string& algorithm) {
    static const std::map<std::string, std::uint32_t> table = {
        {"sha1", 64},   {"sha224", 64}, {"sha256", 64},    {"sm3", 64},     {"sha384", 128}, {"sha512", 128},
        {"crc32c", 8},  {"crc32", 16},  {"crct10dif", 16}, {"crc64", 16},   {"poly1305", 16}, {"ghash", 16},
        {"polyval", 16}, {"nh", 16},    {"blake2s", 64},   {"chacha", 64}};
    auto it = table.find(algorithm);
    return it == table.end() ? 0 : it->second;
}

std::string trim(std::string s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
    std::size_t b = 0;
    while (b < s.size() && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    return s.substr(b);
}

}  // namespace

ModelFile read_reference_csv(const std::string& text, const std::string& source) {
    ModelFile m = new_model(source, "reference-csv");
    m.core_per_tsc = m.core_per_tsc_end = 1;  // cycles per op: the counter is the core clock there
    m.notes.push_back("reference CSV: one point per kernel in core cycles (TSC = core, core/TSC 1); A = 0, B = cycles / bytes, "
                      "no confidence interval; cache state not stated (taken as hot)");
    std::istringstream in(text);
    std::string line, comments;
    bool header = false;
    int lineno = 0;
    while (std::getline(in, line)) {
        ++lineno;
        line = trim(line);
        if (line.empty()) continue;
        if (line[0] == '#') {
            comments += line.substr(1) + "\n";
            continue;
        }
        if (!header) {
            if (line != kReferenceCsvHeader)
                throw std::runtime_error(fmt::format("{}:{}: expected the header '{}', found '{}'", source, lineno, kReferenceCsvHeader, line));
            header = true;
            continue;
        }
        std::vector<std::string> f;
        std::stringstream ls(line);
        std::string cell;
        while (std::getline(ls, cell, ',')) f.push_back(trim(cell));
        auto bad = [&](const std::string& why) {
            return std::runtime_error(fmt::format("{}:{}: {} in '{}' (expected algorithm,bytes,cycles_per_op, e.g. "
                                                  "sha256-avx2,4096,21179)", source, lineno, why, line));
        };
        if (f.size() != 3) throw bad(fmt::format("{} fields", f.size()));
        KernelInfo k;
        k.name = f[0];
        if (k.name.empty()) throw bad("an empty name");
        k.algorithm = k.name.substr(0, k.name.find('-'));
        k.isa = k.name.find('-') == std::string::npos ? "" : k.name.substr(k.name.find('-') + 1);
        k.provider = "reference";
        k.needs_fpu = true;  // tcrypt measured the SIMD drivers
        k.block_bytes = reference_block_bytes(k.algorithm);
        if (k.block_bytes == 0) {
            k.block_bytes = 1;
            m.notes.push_back(fmt::format("{}: block size unknown for '{}'; limits are in bytes", k.name, k.algorithm));
        }
        double bytes = 0, cycles = 0;
        try {
            std::size_t used = 0;
            bytes = std::stod(f[1], &used);
            if (used != f[1].size()) throw std::invalid_argument("");
            cycles = std::stod(f[2], &used);
            if (used != f[2].size()) throw std::invalid_argument("");
        } catch (const std::exception&) {
            throw bad("a number that does not parse");
        }
        if (!(bytes > 0) || !(cycles > 0)) throw bad("bytes and cycles must be > 0");
        if (m.kernel(k.name)) throw bad("a repeated kernel '" + k.name + "'");
        m.kernels.push_back(k);
        CacheModel cm;
        cm.kernel = k.name;
        cm.cache = "hot";
        cm.bytes = {static_cast<std::uint64_t>(bytes)};
        LineFit line_fit;
        line_fit.a = line_fit.a_lo = line_fit.a_hi = 0;
        line_fit.b = line_fit.b_lo = line_fit.b_hi = cycles / bytes;
        line_fit.points = 1;
        line_fit.note = "one point: A = 0, B = cycles/bytes";
        cm.p50 = cm.p90 = cm.p99 = line_fit;
        m.models.push_back(cm);
    }
    if (!header) throw std::runtime_error(fmt::format("{}: no header line '{}'", source, kReferenceCsvHeader));
    {
        std::string blocks;
        for (const auto& k : m.kernels) blocks += fmt::format("{}{} {} B", blocks.empty() ? "" : ", ", k.name, k.block_bytes);
        m.notes.push_back("block sizes assumed (the CSV does not say; SHA-1/224/256 64 B, SHA-384/512 128 B, crc32c 8 B for the "
                          "crc32q instruction, crct10dif 16 B for one PCLMULQDQ fold): " + blocks);
    }
    if (m.models.empty()) throw std::runtime_error(fmt::format("{}: no data rows after the header", source));
    // The machine: an explicit "machine: X" comment, else the first "Intel ..." / "AMD ..." phrase.
    std::smatch match;
    static const std::regex explicit_re(R"(machine:\s*([^\n]+))", std::regex::icase);
    static const std::regex vendor_re(R"(((Intel|AMD)( [A-Za-z0-9+-]+)+?)(?= at |,|;|\.|\(|\n|$))");
    if (std::regex_search(comments, match, explicit_re)) m.machine = trim(match[1].str());
    else if (std::regex_search(comments, match, vendor_re)) m.machine = trim(match[1].str());
    else m.machine = "machine of " + source;
    m.cpu = {{"brand", m.machine}, {"source", "comment lines of " + source}};
    return m;
}

ModelFile load_models(const std::string& path, const std::vector<std::string>& kernel_globs) {
    const std::string text = read_file(path);
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && text[first] == '{') {
        json j;
        try {
            j = json::parse(text);
        } catch (const json::parse_error& e) {
            throw std::runtime_error(path + ": not valid JSON (truncated, or not a sweep/model file?): " + e.what());
        }
        if (!j.is_object() || !j.contains("schema") || !j["schema"].is_string())
            throw std::runtime_error(path + ": JSON without a \"schema\" field; expected a sweep (" + kSweepSchema + ") or model (" +
                                     kModelSchema + ") file");
        const std::string schema = j["schema"].get<std::string>();
        if (schema.rfind("fputune.sweep/", 0) == 0) return fit_sweep(sweep_from_json(j, path), path, kernel_globs);
        if (schema.rfind("fputune.model/", 0) == 0) {
            ModelFile m = model_from_json(j, path);
            filter_kernels(m, kernel_globs);
            return m;
        }
        throw std::runtime_error(path + ": schema '" + schema + "' is neither a sweep (" + kSweepSchema + ") nor a model (" +
                                 kModelSchema + ") file");
    }
    if (text.find(kReferenceCsvHeader) != std::string::npos) {
        ModelFile m = read_reference_csv(text, path);
        filter_kernels(m, kernel_globs);
        return m;
    }
    throw std::runtime_error(path + ": neither a sweep/model JSON file (with a \"schema\" field) nor a reference CSV with the header '" +
                             kReferenceCsvHeader + "'");
}

}  // namespace fputune
