// SPDX-License-Identifier: MIT
// The conservative merge: per kernel the machine with the smallest limit, per algorithm its smallest variant.
#include "recommend.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "errors.hpp"
#include "kernel_globs.hpp"
#include "macro_names.hpp"
#include "select_models.hpp"
#include "stats.hpp"
#include "units.hpp"

namespace fputune {

std::string Recommendation::dirty_label() const {
    if (options.dirty) return std::string(name(*options.dirty));
    std::set<std::string> d;
    for (const auto& m : machines)
        if (!m.dirty.empty()) d.insert(m.dirty);
    if (d.empty()) return "n/a";
    std::string s;
    for (const auto& x : d) s += (s.empty() ? "" : "/") + x;
    return s + " (as swept)";
}

std::string Recommendation::save_label() const {
    if (options.dirty == Dirty::none) return "paid by none (--dirty none: the state was saved before)";
    if (options.save_every == 1) return "paid by every one-shot (--save-every 1)";
    return fmt::format("paid by one one-shot in {} (--save-every {})", options.save_every, options.save_every);
}

namespace {

// Orders results from most to least conservative: no fit first (longest block first), then smallest limit.
bool more_conservative(const VariantResult& x, const VariantResult& y) {
    if (x.fits != y.fits) return !x.fits;
    if (!x.fits) return x.one_block_s > y.one_block_s;
    if (x.bytes != y.bytes) return x.bytes < y.bytes;
    return x.time_s > y.time_s;
}

// A row with the ZMM warm-up state: what it does to the limit, said on the row.
void warm_up_note(VariantRow& row, const RecommendOptions& o) {
    const VariantResult *warm = nullptr, *idle = nullptr;
    for (const VariantResult& v : row.per_machine) {
        const VariantResult*& slot = v.idle_s > 0 ? idle : warm;
        if (!slot || more_conservative(v, *slot)) slot = &v;
    }
    if (!warm || !idle) return;
    auto limit = [&](const VariantResult& v) { return v.fits ? fmt::format("{} B", v.bytes) : std::string("no size"); };
    const double change = warm->fits && warm->bytes
                              ? 100.0 * (static_cast<double>(idle->bytes) - static_cast<double>(warm->bytes)) /
                                    static_cast<double>(warm->bytes)
                              : 0;
    row.bound.notes.push_back(
        fmt::format("ZMM warm-up: the first section after {} idle fits {} ({} at {}), warm code {}: {}",
                    format_duration(idle->idle_s), limit(*idle), format_duration(idle->time_s),
                    format_frequency(o.question.min_freq_hz), limit(*warm),
                    idle->bytes < warm->bytes ? fmt::format("the warm-up binds ({:+.1f} %)", change)
                                              : std::string("no change to the limit")));
}

// The multi-source kernels: per kernel and machine the most sources at 4 KiB stripes, the fewest binding.
void recommend_stripes(Recommendation& r, const std::vector<ModelFile>& sources, const RecommendOptions& o) {
    std::map<std::string, StripeRow> rows;
    std::vector<std::string> order;
    for (const auto& s : sources)
        for (const StripeSeries& series : stripe_series(s, o.question.cache)) {
            if (!rows.count(series.kernel)) order.push_back(series.kernel);
            rows[series.kernel].per_machine.push_back(solve_stripe_count(series, o));
        }
    for (const std::string& k : order) {
        StripeRow& row = rows[k];
        row.bound = *std::min_element(
            row.per_machine.begin(), row.per_machine.end(),
            [](const StripeResult& x, const StripeResult& y) { return x.max_sources < y.max_sources; });
        r.stripes.push_back(row);
        auto it = std::find_if(r.stripe_algorithms.begin(), r.stripe_algorithms.end(),
                               [&](const StripeResult& a) { return a.algorithm == row.bound.algorithm; });
        if (it == r.stripe_algorithms.end())
            r.stripe_algorithms.push_back(row.bound);
        else if (row.bound.max_sources < it->max_sources)
            *it = row.bound;
    }
}

// The provenance and each machine's notes.
Recommendation start_recommendation(const std::vector<ModelFile>& sources, const RecommendOptions& o) {
    Recommendation r;
    r.options = o;
    r.tool_version = tool_version();
    r.tool_commit = tool_commit();
    r.date = utc_now_iso8601();
    for (const auto& s : sources) {
        r.machines.push_back(
            {s.machine, s.source, s.source_kind, s.sweep_date, s.dirty ? std::string(name(*s.dirty)) : "",
             s.sweep_tool_version.empty() ? s.tool_version : s.sweep_tool_version,
             s.sweep_tool_commit.empty() ? s.tool_commit : s.sweep_tool_commit, s.core_per_tsc, s.tsc_hz,
             s.cpu.is_object() && s.cpu.contains("kernel_release") && s.cpu["kernel_release"].is_string()
                 ? s.cpu["kernel_release"].get<std::string>()
                 : "",
             s.doctor_verdict, s.closed_loop, s.memory_p50_ticks, s.memory_bytes});
        for (const auto& n : s.notes) r.notes.push_back(s.machine + ": " + n);
        if (o.dirty && s.dirty && s.dirty != o.dirty)
            r.notes.push_back(
                fmt::format("{}: sections were swept with {} dirty; --dirty {} selects the thresholds only", s.machine,
                            name(*s.dirty), name(*o.dirty)));
    }
    return r;
}

// Each source's thresholds as the kernel pays them: the state save by one one-shot in --save-every
// (parallel to the source's own).
using PaidThresholds = std::vector<std::vector<SimdThreshold>>;
PaidThresholds paid_thresholds(const std::vector<ModelFile>& sources, const RecommendOptions& o) {
    PaidThresholds paid(sources.size());
    for (std::size_t i = 0; i < sources.size(); ++i)
        for (const auto& t : sources[i].thresholds) paid[i].push_back(amortised(t, o.save_every));
    return paid;
}

std::size_t index_of(const std::vector<ModelFile>& sources, const ModelFile& s) {
    return static_cast<std::size_t>(&s - sources.data());
}

// One kernel on one machine: its limit, upstream's verdict, its threshold.
VariantResult variant_result(const ModelChoice& c, const std::vector<SimdThreshold>& paid, const RecommendOptions& o) {
    const ModelFile& s = *c.source;
    const KernelInfo& k = *c.kernel;
    VariantResult v = solve_budget(s, k, *c.model, o);
    v.stem = series_stem(k);
    v.algorithm_stem = series_algorithm_stem(k);
    v.idle_s = k.idle_s;
    if (is_peer(k)) v.notes.push_back("a peer (" + k.provider + "): the algorithm has no variant of ours");
    // The median line shows structure (a cache step); the p90 one mostly shows noise (see `fit`).
    if (!c.model->p50.straight) v.notes.push_back("p50 fit: " + c.model->p50.note);
    judge_upstream(v, *c.model, o);
    const std::optional<Dirty> dirty = o.dirty ? o.dirty : s.dirty;
    for (const auto& t : paid)
        if (t.kernel == k.name && (!dirty || t.dirty == *dirty)) v.threshold = t;
    return v;
}

// Per variant (the ZMM warm-up state joins its warm series' row: the limit must hold after an idle period
// too) every machine's result, then the most conservative one, upstream judged on the slowest machine.
void recommend_variants(Recommendation& r, const std::vector<ModelFile>& sources, const PaidThresholds& paid,
                        const RecommendOptions& o) {
    std::map<std::string, VariantRow> rows;
    std::vector<std::string> order, fallback;
    for (const ModelChoice& c : select_models(sources, o.question).choices) {
        if (!c.stands_for_algorithm || c.kernel->count_only) continue;  // a count's series: the count reads it
        if (c.fallback) fallback.push_back(c.kernel->name + (sources.size() > 1 ? " on " + c.source->machine : ""));
        const KernelInfo& k = *c.kernel;
        const std::string key =
            k.idle_s > 0 && k.name.ends_with(".idle") ? k.name.substr(0, k.name.size() - 5) : k.name;
        if (!rows.count(key)) order.push_back(key);
        rows[key].per_machine.push_back(variant_result(c, paid[index_of(sources, *c.source)], o));
    }
    if (!fallback.empty()) r.notes.push_back(fallback_note(fallback, o.question.cache));
    if (rows.empty())
        throw InputError(
            "no kernel that needs the FPU has section points in the input; sweep some with `fputune sweep`");
    for (const auto& name : order) {
        VariantRow& row = rows[name];
        row.bound = *std::min_element(row.per_machine.begin(), row.per_machine.end(), more_conservative);
        for (const auto& v : row.per_machine)
            if (v.upstream_known && v.upstream_time_s > row.bound.upstream_time_s) {
                row.bound.upstream_time_s = v.upstream_time_s;
                row.bound.upstream_pass = v.upstream_pass;
            }
        warm_up_note(row, o);
        r.variants.push_back(row);
    }
}

// The most conservative variant of an algorithm (over its machines), and upstream's worst verdict.
const VariantResult* slowest_variant(const Recommendation& r, AlgorithmRow& a) {
    const VariantResult* worst = nullptr;
    for (const auto& row : r.variants) {
        if (row.bound.algorithm != a.algorithm) continue;
        if (!worst || more_conservative(row.bound, *worst)) worst = &row.bound;
        if (row.bound.upstream_known) {
            a.upstream_known = true;
            a.upstream_bytes = row.bound.upstream_bytes;
            a.upstream_judged_at = row.bound.upstream_judged_at;
            if (row.bound.upstream_time_s >= a.upstream_time_s) {
                a.upstream_time_s = row.bound.upstream_time_s;
                a.upstream_pass = row.bound.upstream_pass;
            }
        }
    }
    return worst;
}

// Why a machine's choice is unknown, once: the same reason from each of the `machines` sources (three sweeps of
// one CPU) is said once; otherwise each with its machine, and each once.
std::string selection_why(const std::vector<std::pair<std::string, std::string>>& whys, std::size_t machines) {
    if (whys.empty()) return "";
    if (whys.size() == machines &&
        std::all_of(whys.begin(), whys.end(), [&](const auto& w) { return w.second == whys.front().second; }))
        return whys.front().second;
    std::vector<std::string> said;
    std::string out;
    for (const auto& [machine, why] : whys) {
        std::string line = machine + ": " + why;
        if (std::find(said.begin(), said.end(), line) != said.end()) continue;
        out += (out.empty() ? "" : "; ") + line;
        said.push_back(std::move(line));
    }
    return out;
}

// --per-algorithm selected: per machine the variant the kernel runs there, then the most conservative of
// those; when one machine's choice is unknown, the slowest variant stands in for the whole algorithm.
// Returns the binding result (`worst` when it stands in) and fills `selected_on` (per source, the variant).
const VariantResult* selected_variant_result(const Recommendation& r, AlgorithmRow& a,
                                             const std::vector<ModelFile>& sources, const VariantResult* worst,
                                             std::map<std::string, std::string>& selected_on) {
    const VariantResult* chosen = nullptr;
    std::map<std::string, std::string> choice;  // per source
    std::size_t machines = 0;
    std::vector<std::pair<std::string, std::string>> whys;  // (machine, why) per source
    for (const auto& s : sources) {
        std::vector<std::string> have;
        std::vector<const VariantResult*> results;
        for (const auto& row : r.variants)
            for (const auto& pm : row.per_machine)
                if (pm.algorithm == a.algorithm && pm.source == s.source) {
                    have.push_back(pm.kernel);
                    results.push_back(&pm);
                }
        if (have.empty()) continue;
        ++machines;
        std::string why;
        const std::optional<std::string> v = selected_variant(a.algorithm, s.cpu, have, &why);
        if (!why.empty()) whys.emplace_back(s.machine, why);
        if (!v) continue;
        const VariantResult* pm =
            results[static_cast<std::size_t>(std::find(have.begin(), have.end(), *v) - have.begin())];
        a.selected.push_back(*v + (sources.size() > 1 ? " on " + s.machine : ""));
        choice[s.source] = *v;
        if (!chosen || more_conservative(*pm, *chosen)) chosen = pm;
    }
    const std::string note = selection_why(whys, machines);
    a.selection_note = note;
    if (chosen && a.selected.size() == machines) {
        a.policy = PerAlgorithm::selected;
        selected_on = std::move(choice);
        return chosen;
    }
    a.selected.clear();
    a.selection_note = "the slowest variant stands in (" + (note.empty() ? "no machine's choice is known" : note) + ")";
    return worst;
}

// Threshold: per machine the fastest SIMD variant of ours (the one a dispatcher picks: lowest one-shot
// cost at the longest length measured; with --per-algorithm selected, the kernel's variant there when it
// has threshold points), then the largest across machines.
void algorithm_threshold(AlgorithmRow& a, const std::vector<ModelFile>& sources, const PaidThresholds& paid,
                         const std::map<std::string, std::string>& selected_on, const RecommendOptions& o) {
    auto rank = [](const SimdThreshold& t) {
        return t.kind == ThresholdKind::never ? std::numeric_limits<std::uint64_t>::max() : t.bytes;
    };
    for (const auto& s : sources) {
        const std::optional<Dirty> dirty = o.dirty ? o.dirty : s.dirty;
        const std::vector<SimdThreshold>& thresholds = paid[index_of(sources, s)];
        const auto sel = selected_on.find(s.source);
        const bool only_selected = sel != selected_on.end() &&
                                   std::any_of(thresholds.begin(), thresholds.end(), [&](const SimdThreshold& t) {
                                       return t.kernel == sel->second && (!dirty || t.dirty == *dirty);
                                   });
        const SimdThreshold* best = nullptr;
        for (const auto& t : thresholds) {
            const KernelInfo* k = s.kernel(t.kernel);
            if (t.algorithm != a.algorithm || (k && is_peer(*k)) || (dirty && t.dirty != *dirty)) continue;
            if (only_selected && t.kernel != sel->second) continue;
            if (!best || t.simd_cycles_at_max < best->simd_cycles_at_max) best = &t;
        }
        if (!best || (a.threshold && rank(*best) <= rank(*a.threshold))) continue;
        a.threshold = *best;
        a.threshold_machine = s.machine;
        const SimdThreshold& raw = s.thresholds[static_cast<std::size_t>(best - thresholds.data())];
        a.threshold_every = amortised(raw, 1);
        a.threshold_none = amortised(raw, kSaveNever);
        a.threshold_parts = threshold_parts(*best);
    }
}

// Per algorithm: the smallest limit over its variants and machines (or the selected variants'), its
// threshold, and upstream's figures beside them.
AlgorithmRow algorithm_row(const Recommendation& r, const std::string& alg, const std::vector<ModelFile>& sources,
                           const PaidThresholds& paid, const RecommendOptions& o) {
    AlgorithmRow a;
    a.algorithm = alg;
    const VariantResult* worst = slowest_variant(r, a);
    std::map<std::string, std::string> selected_on;  // --per-algorithm selected: per source, the kernel's variant
    if (o.per_algorithm == PerAlgorithm::selected) worst = selected_variant_result(r, a, sources, worst, selected_on);
    a.fits = worst->fits;
    a.bytes = worst->bytes;
    a.time_s = worst->time_s;
    a.one_block_s = worst->one_block_s;
    a.kernel = worst->kernel;
    a.machine = worst->machine;
    a.stem = worst->algorithm_stem.empty() ? macro_stem(alg) : worst->algorithm_stem;
    const std::string version = resolve_linux_version(o.linux_version);
    // The binding kernel's own row where it has one there (sha256-shani-2x's finup_2x), else the algorithm's.
    const UpstreamLimit* u = find_upstream_limit(alg, version, a.kernel);
    if (!u || u->absent()) u = find_upstream_limit(alg, version);
    if (u && !u->absent()) {
        a.upstream_cited = u->cited(version);
        if (!u->judged_because.empty()) {
            a.upstream_because = u->judged_because;
            a.upstream_source = u->source;
        }
    }
    algorithm_threshold(a, sources, paid, selected_on, o);
    a.upstream_simd_min = upstream_simd_min(alg, version);
    return a;
}

}  // namespace

namespace {

// Recommendation::repeats over the rows `r` has (recommend: all; keep_shown: the ones shown).
void set_repeats(Recommendation& r, const std::vector<ModelFile>& sources) {
    r.repeats.clear();
    std::vector<bool> taken(sources.size(), false);
    for (std::size_t i = 0; i < sources.size(); ++i) {
        if (taken[i]) continue;
        RepeatSpread rep;
        rep.machine = sources[i].machine;
        for (std::size_t j = i; j < sources.size(); ++j)
            if (j == i || (!taken[j] && same_cpu(sources[i], sources[j]))) {
                taken[j] = true;
                rep.sources.push_back(sources[j].source);
            }
        if (rep.sources.size() < 2) continue;
        std::vector<double> spreads;
        for (const VariantRow& row : r.variants) {
            std::vector<std::uint64_t> limits;
            for (const VariantResult& pm : row.per_machine)
                if (pm.fits && pm.bytes > 0 &&
                    std::find(rep.sources.begin(), rep.sources.end(), pm.source) != rep.sources.end())
                    limits.push_back(pm.bytes);
            if (limits.size() != rep.sources.size()) continue;
            const auto [lo, hi] = std::minmax_element(limits.begin(), limits.end());
            const RepeatSpread::Widest w{row.bound.kernel, row.bound.cache, *lo, *hi, row.bound.block_bytes};
            spreads.push_back(w.spread());
            const bool within = w.spread() <= kRepeatWithin + 1e-12;
            rep.within += within;
            rep.within_block += within || w.one_block();
            if (!within) rep.widest.push_back(w);
        }
        rep.variants = spreads.size();
        if (!spreads.empty()) rep.median_spread = median(spreads);
        std::stable_sort(rep.widest.begin(), rep.widest.end(),
                         [](const auto& a, const auto& b) { return a.spread() > b.spread(); });
        if (rep.widest.size() > kRepeatWidest) rep.widest.resize(kRepeatWidest);
        r.repeats.push_back(std::move(rep));
    }
}

}  // namespace

Recommendation recommend(const std::vector<ModelFile>& sources, const RecommendOptions& o) {
    validate(o);
    if (sources.empty()) throw std::invalid_argument("--from: no input files");
    Recommendation r = start_recommendation(sources, o);
    const PaidThresholds paid = paid_thresholds(sources, o);
    recommend_variants(r, sources, paid, o);
    std::vector<std::string> alg_order;
    for (const auto& row : r.variants)
        if (std::find(alg_order.begin(), alg_order.end(), row.bound.algorithm) == alg_order.end())
            alg_order.push_back(row.bound.algorithm);
    for (const auto& alg : alg_order) r.algorithms.push_back(algorithm_row(r, alg, sources, paid, o));
    recommend_stripes(r, sources, o);
    set_repeats(r, sources);
    return r;
}

// -k chooses what is shown, never what the answer is computed from: every kernel of the files is recommended (an
// algorithm's constant over all its variants), then the rows of the kernels -k names are kept.
void keep_shown(Recommendation& r, const std::vector<ModelFile>& sources, const std::vector<std::string>& globs) {
    if (globs.empty()) return;
    auto shown = [&](const std::string& name) { return selected_in(sources, globs, name); };
    std::erase_if(r.variants, [&](const VariantRow& row) { return !shown(row.bound.kernel); });
    std::erase_if(r.stripes, [&](const StripeRow& row) { return !shown(row.bound.kernel); });
    std::set<std::string> algorithms;
    for (const VariantRow& row : r.variants) algorithms.insert(row.bound.algorithm);
    for (const StripeRow& row : r.stripes) algorithms.insert(row.bound.algorithm);
    std::erase_if(r.algorithms, [&](const AlgorithmRow& a) { return !algorithms.count(a.algorithm); });
    std::erase_if(r.stripe_algorithms, [&](const StripeResult& a) { return !algorithms.count(a.algorithm); });
    set_repeats(r, sources);
}

}  // namespace fputune
