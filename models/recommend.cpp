// SPDX-License-Identifier: MIT
// Budget solver, upstream comparison, conservative merge, and the recommendation's table and JSON.
#include "recommend.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "units.hpp"

namespace fputune {

extern const char* const kUpstreamLimitsCsv;

using nlohmann::json;

const std::vector<UpstreamLimit>& upstream_limits() {
    static const std::vector<UpstreamLimit> table = [] {
        std::vector<UpstreamLimit> out;
        std::istringstream in(kUpstreamLimitsCsv);
        std::string line;
        bool header = false;
        while (std::getline(in, line)) {
            if (line.empty() || line[0] == '#') continue;
            if (!header) {
                header = true;  // algorithm,x86_variants,fpu_chunk_bytes,simd_min_len,notes,source
                continue;
            }
            std::vector<std::string> f;
            std::stringstream ls(line);
            std::string cell;
            while (std::getline(ls, cell, ',')) f.push_back(cell);
            if (f.size() < 4) continue;
            UpstreamLimit u;
            u.algorithm = f[0];
            if (f[2] != "none") u.fpu_chunk_bytes = std::stoull(f[2]);
            u.simd_min_len = f[3];
            u.source = f.back();
            out.push_back(u);
        }
        return out;
    }();
    return table;
}

const UpstreamLimit* find_upstream_limit(const std::string& algorithm) {
    std::string alg = algorithm == "sha224" ? "sha256" : algorithm == "sha384" ? "sha512" : algorithm;
    for (const auto& u : upstream_limits())
        if (u.algorithm == alg) return &u;
    return nullptr;
}

void validate(const RecommendOptions& o) {
    if (!(o.budget_s > 0) || !std::isfinite(o.budget_s))
        throw std::invalid_argument("--budget: must be a duration greater than 0, e.g. 30us");
    if (!(o.min_freq_hz > 0) || !std::isfinite(o.min_freq_hz))
        throw std::invalid_argument("--min-freq: must be a frequency greater than 0, e.g. 1GHz");
    if (!(o.margin >= 1) || !std::isfinite(o.margin))
        throw std::invalid_argument(fmt::format("--margin {}: must be at least 1 (the limit fits budget / margin: 1 = no "
                                                "headroom, 1.5 = 50 % headroom)", o.margin));
    if (o.round != "block" && o.round != "kib" && o.round != "pow2")
        throw std::invalid_argument("--round " + o.round + ": expected block, kib or pow2");
    if (o.cache != "cold" && o.cache != "hot") throw std::invalid_argument("--cache " + o.cache + ": expected cold or hot");
    if (o.quantile != "p90" && o.quantile != "p99")
        throw std::invalid_argument("--quantile " + o.quantile + ": expected p90 or p99 (of uninterrupted samples)");
    if (!o.dirty.empty() && o.dirty != "xmm" && o.dirty != "ymm" && o.dirty != "zmm" && o.dirty != "none")
        throw std::invalid_argument("--dirty " + o.dirty + ": expected xmm, ymm, zmm or none (thresholds with the user state already saved)");
}

double effective_budget_s(const RecommendOptions& o) { return o.budget_s / o.margin; }

std::string format_margin(double margin) {
    return margin == std::floor(margin) ? fmt::format("{:.1f}", margin) : fmt::format("{:g}", margin);
}

const LineFit& bound_fit(const CacheModel& m, const std::string& quantile) { return quantile == "p99" ? m.p99 : m.p90; }

double predict_upper_s(const CacheModel& m, double core_per_tsc, double bytes, double min_freq_hz, const std::string& quantile) {
    return bound_fit(m, quantile).upper_at(bytes) * core_per_tsc / min_freq_hz;
}

std::string Recommendation::dirty_label() const {
    if (!options.dirty.empty()) return options.dirty;
    std::set<std::string> d;
    for (const auto& m : machines)
        if (!m.dirty.empty()) d.insert(m.dirty);
    if (d.empty()) return "n/a";
    std::string s;
    for (const auto& x : d) s += (s.empty() ? "" : "/") + x;
    return s + " (as swept)";
}

std::string no_fit_message(const VariantResult& v, double min_freq_hz) {
    return fmt::format("no size fits: one block ({} B) takes {} at {}", v.block_bytes, format_duration(v.one_block_s),
                       format_frequency(min_freq_hz));
}

namespace {

std::uint64_t round_granule(const std::string& mode, std::uint32_t block) {
    if (mode == "kib") return std::lcm<std::uint64_t>(1024, block);
    return block;
}

VariantResult solve(const ModelFile& src, const KernelInfo& k, const CacheModel& cm, const RecommendOptions& o) {
    VariantResult v;
    v.kernel = k.name;
    v.algorithm = k.algorithm;
    v.machine = src.machine;
    v.source = src.source;
    v.cache = cm.cache;
    v.block_bytes = std::max<std::uint32_t>(1, k.block_bytes);
    const double budget = effective_budget_s(o);
    auto t = [&](double n) { return predict_upper_s(cm, src.core_per_tsc, n, o.min_freq_hz, o.quantile); };
    const LineFit& bound = bound_fit(cm, o.quantile);
    v.one_block_s = t(v.block_bytes);
    const double b_ticks = bound.b_hi;
    if (!(b_ticks > 0)) {
        v.notes.push_back("the fit has no positive per-byte cost; no limit can be computed");
        return v;
    }
    const double budget_ticks = budget * o.min_freq_hz / src.core_per_tsc;
    v.unrounded_bytes = std::max(0.0, (budget_ticks - bound.a_hi) / b_ticks);
    auto largest_multiple = [&](std::uint64_t g) {
        std::uint64_t n = static_cast<std::uint64_t>(std::floor(v.unrounded_bytes / static_cast<double>(g))) * g;
        while (n > 0 && t(static_cast<double>(n)) > budget) n -= g;  // guard against rounding at the edge
        while (t(static_cast<double>(n + g)) <= budget) n += g;
        return n;
    };
    const std::uint64_t block = v.block_bytes;
    std::uint64_t n = 0, granule = block;
    if (o.round == "pow2") {
        const std::uint64_t blocks = largest_multiple(block);
        std::uint64_t p = block;
        if (blocks >= block) {
            while (p * 2 <= blocks) p *= 2;
            n = p;
        }
        granule = n ? n : block;  // the next power of two up
    } else {
        granule = round_granule(o.round, v.block_bytes);
        n = largest_multiple(granule);
        if (n == 0 && granule != block) {
            n = largest_multiple(block);
            if (n) v.notes.push_back(fmt::format("less than 1 KiB fits: rounded to whole blocks ({} B)", block));
            granule = block;
        }
    }
    if (n == 0) return v;
    if (!cm.bound_bytes.empty() && n > cm.bound_bytes.back())
        v.notes.push_back(fmt::format("extrapolated: the bound was fitted on sections up to {} B", cm.bound_bytes.back()));
    v.fits = true;
    v.bytes = n;
    v.time_s = t(static_cast<double>(n));
    v.next_time_s = t(static_cast<double>(n + granule));
    const double a = cm.p50.a, bn = cm.p50.b * static_cast<double>(n);
    v.throughput_cost = a + bn > 0 ? std::max(0.0, a) / (a + bn) : 0;
    return v;
}

void judge_upstream(VariantResult& v, const CacheModel& cm, double core_per_tsc, const RecommendOptions& o) {
    const UpstreamLimit* u = find_upstream_limit(v.algorithm);
    if (!u) return;
    v.upstream_known = true;
    v.upstream_bytes = u->fpu_chunk_bytes;
    if (u->fpu_chunk_bytes) {
        v.upstream_time_s = predict_upper_s(cm, core_per_tsc, static_cast<double>(*u->fpu_chunk_bytes), o.min_freq_hz, o.quantile);
        v.upstream_pass = v.upstream_time_s <= effective_budget_s(o);
    } else {
        v.upstream_time_s = std::numeric_limits<double>::infinity();
        v.upstream_pass = false;
    }
}

// Orders results from most to least conservative: no fit first (longest block first), then smallest limit.
bool more_conservative(const VariantResult& x, const VariantResult& y) {
    if (x.fits != y.fits) return !x.fits;
    if (!x.fits) return x.one_block_s > y.one_block_s;
    if (x.bytes != y.bytes) return x.bytes < y.bytes;
    return x.time_s > y.time_s;
}

std::string threshold_text(const std::optional<SimdThreshold>& t) {
    if (!t) return "-";
    if (t->kind == "never") return fmt::format("never (<= {} B)", t->measured_to);
    if (t->kind == "always") return fmt::format("always ({} B)", t->bytes);
    return fmt::format("{} B", t->bytes);
}

std::string upstream_text(const std::optional<std::uint64_t>& bytes, bool known) {
    if (!known) return "-";
    return bytes ? fmt::format("{} B", *bytes) : "none";
}

std::string upstream_time_text(double s, bool known, bool pass) {
    if (!known) return "-";
    if (std::isinf(s)) return "unbounded OVER";
    return fmt::format("{} {}", format_duration(s), pass ? "PASS" : "OVER");
}

json threshold_json(const std::optional<SimdThreshold>& t) {
    if (!t) return nullptr;
    return {{"kernel", t->kernel}, {"dirty", t->dirty}, {"kind", t->kind}, {"bytes", t->bytes},
            {"scalar_kernels", t->scalar_kernels}, {"measured_from", t->measured_from}, {"measured_to", t->measured_to}};
}

json variant_json(const VariantResult& v) {
    json j = {{"kernel", v.kernel}, {"algorithm", v.algorithm}, {"machine", v.machine}, {"source", v.source},
              {"cache", v.cache}, {"block_bytes", v.block_bytes}, {"fits", v.fits},
              {"unrounded_bytes", v.unrounded_bytes}, {"one_block_s", v.one_block_s}, {"notes", v.notes}};
    j["bytes"] = v.fits ? json(v.bytes) : json(nullptr);
    j["time_s"] = v.fits ? json(v.time_s) : json(nullptr);
    j["next_granule_time_s"] = v.fits ? json(v.next_time_s) : json(nullptr);
    j["throughput_cost"] = v.fits ? json(v.throughput_cost) : json(nullptr);
    j["upstream"] = v.upstream_known ? json{{"fpu_chunk_bytes", v.upstream_bytes ? json(*v.upstream_bytes) : json("none")},
                                            {"time_s", std::isinf(v.upstream_time_s) ? json(nullptr) : json(v.upstream_time_s)},
                                            {"verdict", v.upstream_pass ? "PASS" : "OVER"}}
                                      : json(nullptr);
    j["simd_threshold"] = threshold_json(v.threshold);
    return j;
}

}  // namespace

Recommendation recommend(const std::vector<ModelFile>& sources, const RecommendOptions& o) {
    validate(o);
    if (sources.empty()) throw std::invalid_argument("--from: no input files");
    Recommendation r;
    r.options = o;
    r.tool_version = tool_version();
    r.tool_commit = tool_commit();
    r.date = utc_now_iso8601();
    for (const auto& s : sources) {
        r.machines.push_back({s.machine, s.source, s.source_kind, s.sweep_date, s.dirty,
                              s.sweep_tool_version.empty() ? s.tool_version : s.sweep_tool_version,
                              s.sweep_tool_commit.empty() ? s.tool_commit : s.sweep_tool_commit, s.core_per_tsc, s.tsc_hz});
        for (const auto& n : s.notes) r.notes.push_back(s.machine + ": " + n);
        if (!o.dirty.empty() && !s.dirty.empty() && s.dirty != o.dirty)
            r.notes.push_back(fmt::format("{}: sections were swept with {} dirty; --dirty {} selects the thresholds only",
                                          s.machine, s.dirty, o.dirty));
    }
    // Which kernels: ours that need the FPU; an algorithm's peers only when it has none of ours.
    std::set<std::string> own_algorithms;
    for (const auto& s : sources)
        for (const auto& k : s.kernels)
            if (k.needs_fpu && !is_peer(k) && (s.model(k.name, "hot") || s.model(k.name, "cold"))) own_algorithms.insert(k.algorithm);
    std::map<std::string, VariantRow> rows;
    std::vector<std::string> order;
    std::vector<std::string> fallback;
    for (const auto& s : sources) {
        for (const auto& k : s.kernels) {
            if (!k.needs_fpu) continue;
            if (is_peer(k) && own_algorithms.count(k.algorithm)) continue;
            const CacheModel* cm = s.model(k.name, o.cache);
            if (!cm) {
                cm = s.model(k.name, o.cache == "cold" ? "hot" : "cold");
                if (!cm) continue;
                fallback.push_back(k.name + (sources.size() > 1 ? " on " + s.machine : ""));
            }
            VariantResult v = solve(s, k, *cm, o);
            if (is_peer(k)) v.notes.push_back("a peer (" + k.provider + "): the algorithm has no variant of ours");
            // The median line shows structure (a cache step); the p90 one mostly shows noise (see `fit`).
            if (!cm->p50.straight) v.notes.push_back("p50 fit: " + cm->p50.note);
            judge_upstream(v, *cm, s.core_per_tsc, o);
            const std::string dirty = o.dirty.empty() ? s.dirty : o.dirty;
            for (const auto& t : s.thresholds)
                if (t.kernel == k.name && (t.dirty == dirty || dirty.empty())) v.threshold = t;
            if (!rows.count(k.name)) order.push_back(k.name);
            rows[k.name].per_machine.push_back(std::move(v));
        }
    }
    if (!fallback.empty()) {
        std::string names;
        for (const auto& f : fallback) names += (names.empty() ? "" : ", ") + f;
        r.notes.push_back(fmt::format("no {}-cache points for {}: used {} cache", o.cache, names, o.cache == "cold" ? "hot" : "cold"));
    }
    if (rows.empty())
        throw std::runtime_error("no kernel that needs the FPU has section points in the input; sweep some with `fputune sweep`");
    for (const auto& name : order) {
        VariantRow& row = rows[name];
        row.bound = *std::min_element(row.per_machine.begin(), row.per_machine.end(), more_conservative);
        // Upstream is judged on the slowest machine.
        for (const auto& v : row.per_machine)
            if (v.upstream_known && v.upstream_time_s > row.bound.upstream_time_s) {
                row.bound.upstream_time_s = v.upstream_time_s;
                row.bound.upstream_pass = v.upstream_pass;
            }
        r.variants.push_back(row);
    }
    // Per algorithm: the smallest limit over its variants and machines.
    std::vector<std::string> alg_order;
    for (const auto& row : r.variants)
        if (std::find(alg_order.begin(), alg_order.end(), row.bound.algorithm) == alg_order.end())
            alg_order.push_back(row.bound.algorithm);
    for (const auto& alg : alg_order) {
        AlgorithmRow a;
        a.algorithm = alg;
        const VariantResult* worst = nullptr;
        for (const auto& row : r.variants) {
            if (row.bound.algorithm != alg) continue;
            if (!worst || more_conservative(row.bound, *worst)) worst = &row.bound;
            if (row.bound.upstream_known) {
                a.upstream_known = true;
                a.upstream_bytes = row.bound.upstream_bytes;
                if (row.bound.upstream_time_s >= a.upstream_time_s) {
                    a.upstream_time_s = row.bound.upstream_time_s;
                    a.upstream_pass = row.bound.upstream_pass;
                }
            }
        }
        a.fits = worst->fits;
        a.bytes = worst->bytes;
        a.time_s = worst->time_s;
        a.one_block_s = worst->one_block_s;
        a.kernel = worst->kernel;
        a.machine = worst->machine;
        // Threshold: per machine the fastest SIMD variant of ours (the one a dispatcher picks: lowest
        // one-shot cost at the longest length measured), then the largest across machines.
        for (const auto& s : sources) {
            const std::string dirty = o.dirty.empty() ? s.dirty : o.dirty;
            const SimdThreshold* best = nullptr;
            for (const auto& t : s.thresholds) {
                const KernelInfo* k = s.kernel(t.kernel);
                if (t.algorithm != alg || (k && is_peer(*k)) || (!dirty.empty() && t.dirty != dirty)) continue;
                if (!best || t.simd_ticks_at_max < best->simd_ticks_at_max) best = &t;
            }
            if (!best) continue;
            auto rank = [](const SimdThreshold& t) { return t.kind == "never" ? std::numeric_limits<std::uint64_t>::max() : t.bytes; };
            if (!a.threshold || rank(*best) > rank(*a.threshold)) {
                a.threshold = *best;
                a.threshold_machine = s.machine;
            }
        }
        r.algorithms.push_back(a);
    }
    return r;
}

std::string render_table(const Recommendation& r) {
    const RecommendOptions& o = r.options;
    const bool many = r.machines.size() > 1;
    std::string out;
    out += fmt::format("fputune {} ({}) recommend: budget {} per FPU section at {} minimum, margin {} (limit fits {}), "
                       "{} cache, dirty {}, rounding {}, bound {}\n",
                       r.tool_version, r.tool_commit, format_duration(o.budget_s), format_frequency(o.min_freq_hz), format_margin(o.margin),
                       format_duration(effective_budget_s(o)), o.cache, r.dirty_label(), o.round, o.quantile);
    for (std::size_t i = 0; i < r.machines.size(); ++i) {
        const auto& m = r.machines[i];
        out += fmt::format("machine{}: {} ({} {}{}, core/TSC {:.3f})\n", many ? fmt::format(" [{}]", i + 1) : "", m.machine,
                           m.kind, m.source, m.date.empty() ? "" : ", " + m.date, m.core_per_tsc);
    }
    auto machine_ref = [&](const std::string& name) -> std::string {
        for (std::size_t i = 0; i < r.machines.size(); ++i)
            if (r.machines[i].machine == name) return fmt::format("[{}]", i + 1);
        return name;
    };
    out += "\n";
    const std::string tcol = "time@" + format_frequency(o.min_freq_hz);
    out += fmt::format("{:<22} {:<5} {:>20} {:>10} {:>11} {:>6} {:>9} {:>17} {:>14}{}\n", "kernel", "cache", "limit", "unrounded",
                       tcol, "cost", "upstream", "upstream time", "simd min", many ? "  bound by" : "");
    for (const auto& row : r.variants) {
        const VariantResult& v = row.bound;
        const std::string by = many ? "  " + machine_ref(v.machine) : "";
        if (!v.fits) {
            out += fmt::format("{:<22} {:<5} {}{}\n", v.kernel, v.cache, no_fit_message(v, o.min_freq_hz), by);
            for (const auto& n : v.notes) out += fmt::format("{:<22}   note: {}\n", "", n);
            continue;
        }
        out += fmt::format("{:<22} {:<5} {:>20} {:>10} {:>11} {:>5.1f}% {:>9} {:>17} {:>14}{}\n", v.kernel, v.cache,
                           fmt::format("{} B ({})", v.bytes, format_size(v.bytes)), fmt::format("{:.0f} B", v.unrounded_bytes),
                           format_duration(v.time_s), 100 * v.throughput_cost, upstream_text(v.upstream_bytes, v.upstream_known),
                           upstream_time_text(v.upstream_time_s, v.upstream_known, v.upstream_pass), threshold_text(v.threshold), by);
        for (const auto& n : v.notes) out += fmt::format("{:<22}   note: {}\n", "", n);
    }
    out += "\nper algorithm (the smallest limit across its variants" + std::string(many ? " and machines" : "") + "):\n";
    out += fmt::format("{:<11} {:>20} {:>11} {:>9} {:>17} {:>14}  {}\n", "algorithm", "limit", tcol, "upstream", "upstream time",
                       "simd min", "bound by");
    for (const auto& a : r.algorithms) {
        const std::string by = a.kernel + (many ? " on " + machine_ref(a.machine) : "");
        const std::string thr = threshold_text(a.threshold);
        if (!a.fits) {
            out += fmt::format("{:<11} no size fits: one block of {} takes {} at {}  ({})\n", a.algorithm, a.kernel,
                               format_duration(a.one_block_s), format_frequency(o.min_freq_hz), by);
            continue;
        }
        out += fmt::format("{:<11} {:>20} {:>11} {:>9} {:>17} {:>14}  {}\n", a.algorithm,
                           fmt::format("{} B ({})", a.bytes, format_size(a.bytes)), format_duration(a.time_s),
                           upstream_text(a.upstream_bytes, a.upstream_known),
                           upstream_time_text(a.upstream_time_s, a.upstream_known, a.upstream_pass), thr, by);
    }
    out += "\nlimit: largest section in whole " + std::string(o.round == "block" ? "blocks" : o.round == "kib" ? "KiB (and blocks)" : "blocks, a power of two") +
           " whose predicted time (upper 95 % bound of the " + o.quantile + " fit, core cycles = ticks x core/TSC) at the minimum frequency "
           "fits budget / margin; unrounded: the exact size where it equals it; cost: throughput lost against no limit "
           "(A / (A + B n), p50 fit); simd min: shortest input from which the SIMD path beats the no-FPU one\n";
    for (const auto& n : r.notes) out += "note: " + n + "\n";
    return out;
}

json to_json(const Recommendation& r) {
    const RecommendOptions& o = r.options;
    json j;
    j["schema"] = kRecommendationSchema;
    j["tool"] = {{"name", "fputune"}, {"version", r.tool_version}, {"commit", r.tool_commit}};
    j["date"] = r.date;
    j["inputs"] = {{"budget_s", o.budget_s}, {"min_freq_hz", o.min_freq_hz}, {"margin", o.margin},
                   {"effective_budget_s", effective_budget_s(o)}, {"cache", o.cache}, {"dirty", r.dirty_label()}, {"quantile", o.quantile},
                   {"round", o.round}, {"command", o.command_line}};
    j["machines"] = json::array();
    for (const auto& m : r.machines)
        j["machines"].push_back({{"machine", m.machine}, {"source", m.source}, {"kind", m.kind}, {"date", m.date},
                                 {"dirty", m.dirty}, {"core_per_tsc", m.core_per_tsc}, {"tsc_hz", m.tsc_hz},
                                 {"tool", {{"version", m.tool_version}, {"commit", m.tool_commit}}}});
    j["variants"] = json::array();
    for (const auto& row : r.variants) {
        json v = variant_json(row.bound);
        v["per_machine"] = json::array();
        for (const auto& pm : row.per_machine) v["per_machine"].push_back(variant_json(pm));
        j["variants"].push_back(v);
    }
    j["algorithms"] = json::array();
    for (const auto& a : r.algorithms)
        j["algorithms"].push_back(
            {{"algorithm", a.algorithm}, {"fits", a.fits}, {"bytes", a.fits ? json(a.bytes) : json(nullptr)},
             {"time_s", a.fits ? json(a.time_s) : json(nullptr)}, {"bound_by", {{"kernel", a.kernel}, {"machine", a.machine}}},
             {"one_block_s", a.one_block_s},
             {"upstream", a.upstream_known ? json{{"fpu_chunk_bytes", a.upstream_bytes ? json(*a.upstream_bytes) : json("none")},
                                                  {"time_s", std::isinf(a.upstream_time_s) ? json(nullptr) : json(a.upstream_time_s)},
                                                  {"verdict", a.upstream_pass ? "PASS" : "OVER"}}
                                            : json(nullptr)},
             {"simd_threshold", threshold_json(a.threshold)}, {"simd_threshold_machine", a.threshold_machine}});
    j["notes"] = r.notes;
    return j;
}

}  // namespace fputune
