// SPDX-License-Identifier: MIT
// The simulation: each request of a workload split into FPU sections as the kernel glue splits it,
// each section costed with the fitted lines.
#include "simulate.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "header_constants.hpp"
#include "macro_names.hpp"
#include "select_models.hpp"
#include "units.hpp"
#include "upstream.hpp"

namespace fputune {

namespace {

// The one place that knows the unit of a model's lines: core cycles (fputune.model/2).
double core_cycles(const LineFit& f, double bytes) { return f.at(bytes); }
double core_cycles_upper(const LineFit& f, double bytes) { return f.upper_at(bytes); }

// How the kernel's glue splits one request. A Merkle-Damgard hash (lib/crypto/x86/sha*.h, sm3) runs
// update() on the whole blocks, then final() on the padding block(s) in a second begin/end pair;
// BLAKE2s keeps the last block for final(). The MACs and CRCs take the request in one run of blocks.
struct Shape {
    bool own_final = false;
    std::uint32_t length_field_bytes = 0;  // the length appended by the padding
    bool keeps_last_block = false;
};

Shape section_shape(const std::string& algorithm) {
    if (algorithm == "sha1" || algorithm == "sha224" || algorithm == "sha256" || algorithm == "sm3")
        return {true, 8, false};
    if (algorithm == "sha384" || algorithm == "sha512") return {true, 16, false};
    if (algorithm == "blake2s") return {true, 0, true};
    return {};
}

std::uint64_t upstream_threshold(const std::string& simd_min_len) {
    if (simd_min_len.empty() || simd_min_len == "none") return 0;
    try {
        return std::stoull(simd_min_len);
    } catch (const std::exception&) {
        return 0;
    }
}

// The "today" column before it is costed: the --linux version's chunks and SIMD threshold for the kernel (a
// variant that version lacks takes its algorithm's sections, with a note).
SimColumn upstream_column(const KernelInfo& k, const std::string& version, SimRow& row) {
    const UpstreamLimit* u = find_upstream_limit(k.algorithm, version, k.name);
    if (u && u->absent()) {
        row.notes.push_back(
            fmt::format("{} ({}); simulated with {}'s sections", u->judged_because, u->cited(version), k.algorithm));
        u = find_upstream_limit(k.algorithm, version);
    }
    SimColumn up;
    up.simd_min_bytes = upstream_threshold(upstream_simd_min(k.algorithm, version));
    if (u && u->fpu_chunk_bytes) {
        up.limit_bytes = u->fpu_chunk_bytes;
        up.limit_from = "upstream Linux " + version + " " + u->source;
    } else {
        up.limit_from = u ? "none (upstream Linux " + version + " " + u->source + ")"
                          : "none (no upstream entry for Linux " + version + ")";
    }
    return up;
}

// The probe's XSAVE costs for the dirty state the sections were swept with, in ticks.
bool xsave_costs(const ModelFile& m, double& save_ticks, double& restore_ticks) {
    if (!m.dirty || !m.cpu.is_object() || !m.cpu.contains("xsave") || !m.cpu["xsave"].is_object()) return false;
    const auto& costs = m.cpu["xsave"].value("costs", nlohmann::json::array());
    if (!costs.is_array()) return false;
    for (const auto& c : costs) {
        if (!c.is_object() || c.value("dirty", "") != name(*m.dirty)) continue;
        const auto s = c.find("save_ticks"), r = c.find("restore_ticks");
        if (s == c.end() || r == c.end() || !s->is_number() || !r->is_number()) return false;
        save_ticks = s->get<double>();
        restore_ticks = r->get<double>();
        return save_ticks >= 0 && restore_ticks >= 0;
    }
    return false;
}

struct Costing {
    const CacheModel* cm = nullptr;
    double save_cycles = 0, restore_cycles = 0, pair_cycles = 0;
    bool kernel_thread = false;  // no user state to save (the measured sections still paid it: see inside())
    Quantile quantile = Quantile::p99;
    double min_freq_hz = 1;
    // p50 time of one section of n bytes: the line less the state save every measured section paid
    // (the kernel saves once per request; that is in `cost`), never below the per-byte part.
    double inside(double n) const {
        const double fixed = std::max(0.0, core_cycles(cm->p50, 0) - save_cycles);
        return std::max(0.0, core_cycles(cm->p50, n) - core_cycles(cm->p50, 0)) + fixed;
    }
    double bound(double n) const { return core_cycles_upper(bound_fit(*cm, quantile), n); }
};

// One run of `run_bytes` (whole blocks) in sections of at most `chunk` bytes (0: one section), `count` times.
void add_run(SimColumn& c, const Costing& k, std::uint64_t run_bytes, std::uint64_t chunk, double count) {
    if (run_bytes == 0) return;
    const std::uint64_t per = chunk ? std::min(chunk, run_bytes) : run_bytes;
    const std::uint64_t full = run_bytes / per, rest = run_bytes % per;
    c.sections += count * static_cast<double>(full + (rest ? 1 : 0));
    c.bytes += count * static_cast<double>(run_bytes);
    c.inside_cycles += count * (static_cast<double>(full) * k.inside(static_cast<double>(per)) +
                                (rest ? k.inside(static_cast<double>(rest)) : 0));
    c.longest_bytes = std::max(c.longest_bytes, per);
}

void simulate_requests(SimColumn& c, const Costing& k, const KernelInfo& info,
                       const std::vector<const WorkloadRequest*>& requests, std::uint64_t repeat) {
    const std::uint64_t block = std::max<std::uint32_t>(1, info.block_bytes);
    std::uint64_t chunk = 0;
    if (c.limit_bytes) chunk = std::max(block, *c.limit_bytes / block * block);  // the glue hands over whole blocks
    const Shape shape = section_shape(info.algorithm);
    for (const WorkloadRequest* r : requests) {
        const double count = static_cast<double>(r->count) * static_cast<double>(repeat);
        c.requests += count;
        if (r->bytes < c.simd_min_bytes) continue;  // the no-FPU path: no section
        c.simd_requests += count;
        if (!shape.own_final) {
            add_run(c, k, (r->bytes + block - 1) / block * block, chunk, count);
            continue;
        }
        const std::uint64_t whole = r->bytes / block * block, rem = r->bytes % block;
        if (shape.keeps_last_block) {
            const std::uint64_t blocks = (r->bytes + block - 1) / block;
            add_run(c, k, (blocks - 1) * block, chunk, count);
            add_run(c, k, block, chunk, count);
        } else {
            add_run(c, k, whole, chunk, count);
            add_run(c, k, (rem + 1 + shape.length_field_bytes > block ? 2 : 1) * block, chunk, count);
        }
    }
    c.cost_cycles =
        (k.kernel_thread ? 0 : c.simd_requests * (k.save_cycles + k.restore_cycles)) + c.sections * k.pair_cycles;
    if (c.longest_bytes) {
        c.longest_cycles = k.bound(static_cast<double>(c.longest_bytes));
        c.longest_s = c.longest_cycles / k.min_freq_hz;
        c.extrapolated = !k.cm->bound_bytes.empty() && c.longest_bytes > k.cm->bound_bytes.back();
    }
}

bool target_matches(const std::string& target, const KernelInfo& k) {
    return target == "*" || target == k.name || target == k.algorithm;
}

// The kernel's own constant, else its algorithm's; with the stem that matched.
const std::pair<const std::string, SimLimit>* find_limit(const SimLimits& limits, const KernelInfo& k) {
    for (const std::string& stem : {macro_stem(k.name), macro_stem(k.algorithm)}) {
        auto it = limits.by_stem.find(stem);
        if (it != limits.by_stem.end()) return &*it;
    }
    return nullptr;
}

}  // namespace

SimLimits limits_from_header(const std::string& text, const std::string& source) {
    SimLimits l;
    l.label = source;
    std::vector<std::string> skipped;
    for (const auto& c : parse_header_constants(text, skipped, source)) {
        const MacroName macro = parse_macro_name(c.name);
        if (macro.kind != MacroKind::fpu_bytes) {
            if (macro.kind != MacroKind::simd_min_bytes)
                l.notes.push_back(fmt::format(
                    "ignored {} (line {}): not of the form FPUTUNE_<KERNEL|ALGORITHM>_FPU_BYTES", c.name, c.line));
            continue;
        }
        if (c.value == 0)
            throw std::invalid_argument(
                fmt::format("{}:{}: {} is 0; a section limit is at least one block (the kernel's loop "
                            "would never end); remove it for no limit",
                            source, c.line, c.name));
        // Alternatives (#ifdef/#else): the first is simulated, the others named.
        const auto [it, fresh] = l.by_stem.emplace(macro.stem, SimLimit{c.value, fmt::format("{} (line {})", c.name, c.line)});
        if (!fresh)
            l.notes.push_back(fmt::format("{} (line {}, {}): an alternative to {}; simulated with that one", c.name,
                                          c.line, c.branch, it->second.from));
    }
    for (const auto& s : skipped) l.notes.push_back("ignored " + s);
    if (l.by_stem.empty())
        throw std::invalid_argument(
            fmt::format("{}: no constant of the form FPUTUNE_<KERNEL>_FPU_BYTES or FPUTUNE_<ALGORITHM>_FPU_BYTES; "
                        "write one, e.g. #define FPUTUNE_SHA256_FPU_BYTES 4096U, or generate them with "
                        "`fputune recommend --header limits.h`",
                        source));
    return l;
}

SimLimits limits_from_recommendation(const Recommendation& r) {
    SimLimits l;
    const RecommendOptions& o = r.options;
    l.label = fmt::format("recommend: budget {} at {}, margin {}, {} cache, bound {}", format_duration(o.question.budget_s),
                          format_frequency(o.question.min_freq_hz), format_margin(o.question.margin), name(o.question.cache), name(o.question.quantile));
    for (const auto& row : r.variants) {
        const VariantResult& v = row.bound;
        if (v.fits) {
            l.by_stem[macro_stem(v.kernel)] = {v.bytes, "recommended"};
            continue;
        }
        l.by_stem[macro_stem(v.kernel)] = {v.block_bytes, "one block: no size fits"};
        l.notes.push_back(
            fmt::format("{}: {}; simulated at one block per section", v.kernel, no_fit_message(v, o.question.min_freq_hz)));
    }
    return l;
}

void validate(const SimulateOptions& o) {
    validate(o.question, false);
    if (!(o.pair_cycles >= 0) || !std::isfinite(o.pair_cycles))
        throw std::invalid_argument(
            "--pair-cycles: must be 0 or more core cycles (Elliott 2022 measured 45-56 per begin/end pair)");
    if (o.repeat == 0) throw std::invalid_argument("--repeat: must be at least 1");
    if (!o.linux_version.empty()) resolve_linux_version(o.linux_version);  // throws naming the known versions
}

namespace {

// One machine's header: its provenance and the state save and restore each SIMD request pays.
SimMachine sim_machine(const ModelFile& s) {
    SimMachine m;
    m.machine = s.machine;
    m.source = s.source;
    m.kind = s.source_kind;
    m.date = s.sweep_date;
    m.dirty = s.dirty ? std::string(name(*s.dirty)) : "";
    m.core_per_tsc = s.core_per_tsc;
    double save_ticks = 0, restore_ticks = 0;
    m.save_known = xsave_costs(s, save_ticks, restore_ticks);
    m.save_cycles = save_ticks * s.core_per_tsc;
    m.restore_cycles = restore_ticks * s.core_per_tsc;
    if (!m.save_known)
        m.notes.push_back("the model carries no state save/restore cost (no XSAVE costs in its cpu probe" +
                          std::string(s.source_kind == "reference-csv" ? ": a reference CSV" : "") +
                          "): cost counts --pair-cycles only");
    return m;
}

// What one simulation run carries from kernel to kernel.
struct SimRun {
    const Workload& w;
    const SimLimits* limits;
    const SimulateOptions& o;
    std::set<std::string> used_stems;  // of limits
    std::vector<bool> request_reached;  // per request of w
};

// The requests of the workload that reach a kernel: a peer beside variants of ours only when a request
// names it.
std::vector<const WorkloadRequest*> requests_of(const ModelChoice& c, SimRun& run) {
    std::vector<const WorkloadRequest*> reqs;
    for (std::size_t i = 0; i < run.w.requests.size(); ++i) {
        const WorkloadRequest& r = run.w.requests[i];
        if (c.stands_for_algorithm ? target_matches(r.target, *c.kernel) : r.target == c.kernel->name) {
            reqs.push_back(&r);
            run.request_reached[i] = true;
        }
    }
    return reqs;
}

// The limited column's limit: the kernel's constant, else its algorithm's, else upstream's.
void apply_limit(SimColumn& lim, SimRow& row, const KernelInfo& k, SimRun& run) {
    const auto* found = find_limit(*run.limits, k);
    if (!found) {
        lim.limit_from = "no constant: as upstream";
        return;
    }
    const SimLimit* l = &found->second;
    lim.limit_bytes = l->bytes;
    lim.limit_from = l->from;
    run.used_stems.insert(found->first);
    if (l->bytes % row.block_bytes)
        row.notes.push_back(
            fmt::format("limit {} B is not whole blocks of {} B: sections of {} B", l->bytes, row.block_bytes,
                        std::max<std::uint64_t>(row.block_bytes, l->bytes / row.block_bytes * row.block_bytes)));
}

// One kernel on one machine: upstream's sections, and with limits the limited ones.
SimRow sim_row(const ModelChoice& c, const SimMachine& m, const std::vector<const WorkloadRequest*>& reqs,
               SimRun& run) {
    const KernelInfo& k = *c.kernel;
    const SimulateOptions& o = run.o;
    SimRow row;
    row.kernel = k.name;
    row.algorithm = k.algorithm;
    row.cache = c.cache;
    row.block_bytes = std::max<std::uint32_t>(1, k.block_bytes);
    row.own_final_section = section_shape(k.algorithm).own_final;
    row.bound_fit_max_bytes = c.model->bound_bytes.empty() ? 0 : c.model->bound_bytes.back();
    const Costing costing{c.model,           m.save_cycles,        m.restore_cycles, o.pair_cycles, run.w.kernel_thread,
                          o.question.quantile, o.question.min_freq_hz};
    SimColumn up = upstream_column(k, resolve_linux_version(o.linux_version), row);
    SimColumn lim = up, unlimited = up;
    unlimited.limit_bytes.reset();
    simulate_requests(up, costing, k, reqs, o.repeat);
    simulate_requests(unlimited, costing, k, reqs, o.repeat);
    const double none = unlimited.total_cycles();
    // What a column costs against no limit; the same sections summed another way (a limit no request reaches) can
    // differ in the last bits (-1e-16): that is no cost, not a saving.
    auto cost = [none](double total) {
        const double c = none > 0 ? total / none - 1 : 0;
        return std::abs(c) < 1e-12 ? 0.0 : c;
    };
    row.upstream_cost = cost(up.total_cycles());
    if (run.limits) {
        apply_limit(lim, row, k, run);
        simulate_requests(lim, costing, k, reqs, o.repeat);
        row.throughput_cost = cost(lim.total_cycles());
    }
    if (o.question.budget_s > 0) {
        const double budget = effective_budget_s(o.question);
        if (up.longest_bytes) up.within_budget = up.longest_s <= budget;
        if (run.limits && lim.longest_bytes) lim.within_budget = lim.longest_s <= budget;
    }
    if (up.simd_requests < up.requests)
        row.notes.push_back(fmt::format(
            "{:.0f} of {:.0f} requests are shorter than upstream's SIMD threshold ({} B): no-FPU path, no "
            "section (their time is not counted)",
            up.requests - up.simd_requests, up.requests, up.simd_min_bytes));
    row.upstream = up;
    if (run.limits) row.limited = lim;
    return row;
}

// The FPU kernels with section points, for messages ("none" when there is none).
std::string known_kernels(const ModelSelection& selection) {
    std::set<std::string> seen;
    for (const ModelChoice& c : selection.choices)
        if (c.kernel->needs_fpu) seen.insert(c.kernel->name);
    return seen.empty() ? std::string("none") : fmt::format("{}", fmt::join(seen, ", "));
}

// What the workload asked for and no input has: an error for a CSV's row or when nothing is reached at
// all, else a note.
void check_reached(Simulation& sim, const SimRun& run, const std::string& known) {
    const Workload& w = run.w;
    std::size_t rows = 0;
    for (const auto& m : sim.machines) rows += m.rows.size();
    for (std::size_t i = 0; i < w.requests.size(); ++i) {
        if (run.request_reached[i]) continue;
        const WorkloadRequest& r = w.requests[i];
        if (w.from_csv)
            throw std::invalid_argument(
                fmt::format("{}:{}: kernel '{}' is not in the models (FPU kernels with section points: {}); "
                            "name one of those or an algorithm, or sweep it with `fputune sweep -k '{}'`",
                            w.name, r.line, r.target, known, r.target));
        if (!rows) continue;
        const std::string note = fmt::format("the workload reaches {}, which no input has a kernel for", r.target);
        if (std::find(sim.notes.begin(), sim.notes.end(), note) == sim.notes.end()) sim.notes.push_back(note);
    }
    if (rows) return;
    std::set<std::string> targets;
    for (const auto& r : w.requests) targets.insert(r.target);
    if (targets.count("*"))
        throw std::invalid_argument(fmt::format(
            "workload {}: no input has an FPU kernel with section points; sweep some with `fputune sweep`", w.name));
    throw std::invalid_argument(
        fmt::format("workload {} reaches {}, and no input has an FPU kernel of {} with section points "
                    "(kernels: {}); sweep one with `fputune sweep -k '{}-*'`",
                    w.name, fmt::join(targets, ", "), targets.size() > 1 ? "them" : "it", known, *targets.begin()));
}

// A header none of whose constants the workload reaches is an error; the constants it does not reach, a note.
void check_limits_used(Simulation& sim, const SimRun& run, const std::string& known) {
    const SimLimits& limits = *run.limits;
    if (run.used_stems.empty()) {
        std::string stems;
        for (const auto& [stem, l] : limits.by_stem) stems += (stems.empty() ? "" : ", ") + stem;
        throw std::invalid_argument(
            fmt::format("{}: no constant names a kernel the workload reaches (constants for {}; kernels: {})",
                        limits.label, stems, known));
    }
    std::vector<std::string> unused;
    for (const auto& [stem, l] : limits.by_stem)
        if (!run.used_stems.count(stem))  // a header's constant names itself; a recommended limit gets its name
            unused.push_back(l.from.find("_FPU_BYTES") != std::string::npos ? l.from
                                                                            : "FPUTUNE_" + stem + "_FPU_BYTES");
    if (unused.empty()) return;
    std::string names;
    for (std::size_t i = 0; i < unused.size() && i < 8; ++i) names += (i ? ", " : "") + unused[i];
    if (unused.size() > 8) names += fmt::format(" and {} more", unused.size() - 8);
    sim.notes.push_back(fmt::format("{} constant{} of {} name{} no kernel this workload reaches: {}", unused.size(),
                                    unused.size() > 1 ? "s" : "", limits.label, unused.size() > 1 ? "" : "s", names));
}

}  // namespace

Simulation simulate(const std::vector<ModelFile>& sources, const Workload& w, const SimLimits* limits,
                    const SimulateOptions& o) {
    validate(o);
    if (sources.empty()) throw std::invalid_argument("--from: no input files");
    Simulation sim;
    sim.workload = w;
    sim.options = o;
    sim.limits_label = limits ? limits->label : "";
    sim.tool_version = tool_version();
    sim.tool_commit = tool_commit();
    sim.date = utc_now_iso8601();
    if (limits)
        for (const auto& n : limits->notes) sim.notes.push_back(n);
    SimRun run{w, limits, o, {}, std::vector<bool>(w.requests.size(), false)};
    // As `recommend` (select_models): our FPU kernels; a peer beside ours only when a request names it.
    const ModelSelection selection = select_models(sources, o.question);
    for (const ModelFile& s : sources) {
        SimMachine m = sim_machine(s);
        std::vector<std::string> fallback;
        for (const ModelChoice* c : selection.of_source(s)) {
            if (!c->kernel->needs_fpu) continue;
            const std::vector<const WorkloadRequest*> reqs = requests_of(*c, run);
            if (reqs.empty()) continue;
            if (c->fallback) fallback.push_back(c->kernel->name);
            m.rows.push_back(sim_row(*c, m, reqs, run));
        }
        if (!fallback.empty()) m.notes.push_back(fallback_note(fallback, o.question.cache));
        for (const auto& n : s.notes) m.notes.push_back(n);
        sim.machines.push_back(std::move(m));
    }
    const std::string known = known_kernels(selection);
    check_reached(sim, run, known);
    if (limits) check_limits_used(sim, run, known);
    if (const std::string tail = softirq_tail_note(o.linux_version); !tail.empty()) sim.notes.push_back(tail);
    return sim;
}

}  // namespace fputune
