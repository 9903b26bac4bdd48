// SPDX-License-Identifier: MIT
// The numbers behind `fputune report`: inputs read by content, trade-off curves and measured points per
// variant and machine, one-shot costs per path, XSAVE costs, and a note for everything an input lacks.
#include "report_data.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "atomic_file.hpp"
#include "errors.hpp"
#include "fit_sweep.hpp"
#include "select_models.hpp"

namespace fputune {

using nlohmann::json;

namespace {

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// The schemas fputune writes that a report cannot draw, and where they belong instead.
std::string foreign_schema_message(const std::string& path, const std::string& schema) {
    if (starts_with(schema, "fputune.bench/"))
        return fmt::format(
            "{}: a bench file ({}) has no sections to chart; `fputune report` takes sweep or model files (or a "
            "reference CSV); compare bench files with `fputune compare A.json B.json`",
            path, schema);
    if (starts_with(schema, "fputune.recommendation/"))
        return fmt::format(
            "{}: a recommendation ({}) has no points or lines to chart; pass the sweep or model files it was made "
            "from",
            path, schema);
    return fmt::format(
        "{}: schema '{}' is neither a sweep ({}) nor a model ({}) file; `fputune report` takes those (or a "
        "reference CSV)",
        path, schema, kSweepSchema, kModelSchema);
}

}  // namespace

ReportInput load_report_input(const std::string& path, const std::vector<std::string>& kernel_globs,
                              const ContentionTarget& contention) {
    ReportInput in;
    in.path = path;
    in.doctor = nullptr;
    in.sampling = nullptr;
    const std::string text = read_file(path);
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos || text[first] != '{') {
        // Not JSON: a reference CSV, or nothing fputune reads (load_models says which).
        in.model = load_models(path, kernel_globs, contention);
        in.kind = in.model->source_kind;
        in.machine = in.model->machine;
        in.cpu = in.model->cpu;
        return in;
    }
    json j;
    try {
        j = json::parse(text);
    } catch (const json::parse_error& e) {
        throw InputError(path + ": not valid JSON (truncated, or not a sweep/model file?): " + e.what());
    }
    if (!j.is_object() || !j.contains("schema") || !j["schema"].is_string())
        throw InputError(fmt::format("{}: JSON without a \"schema\" field; expected a sweep ({}) or model ({}) file",
                                     path, kSweepSchema, kModelSchema));
    in.schema = j["schema"].get<std::string>();
    if (starts_with(in.schema, "fputune.sweep/")) {
        SweepFile sweep = sweep_from_json(j, path);
        in.kind = "sweep";
        in.cpu = sweep.cpu;
        in.machine = machine_name(sweep.cpu);
        if (j.contains("doctor")) in.doctor = j["doctor"];
        if (j.contains("sampling") && j["sampling"].is_object()) in.sampling = j["sampling"];
        if (sweep.sections.empty())
            in.notes.push_back(
                fmt::format("{}: the sweep has no section points{}: nothing to fit or chart but its machine; run "
                            "`fputune sweep` (or --resume it)",
                            path, sweep.partial ? " (it was interrupted before the first)" : ""));
        else {
            in.model = fit_sweep(sweep, path, kernel_globs, contention.kind == ContentionTarget::Kind::as_measured);
            restate_contention(*in.model, contention);
        }
        in.sweep = std::move(sweep);
        return in;
    }
    if (starts_with(in.schema, "fputune.model/")) {
        in.kind = "model";
        const json* models = j.contains("models") ? &j["models"] : nullptr;
        if (models && models->is_array() && models->empty()) {
            // Nothing to draw, but the file still says which machine it came from.
            const json source = j.value("source", json::object());
            in.cpu = source.is_object() ? source.value("cpu", json::object()) : json::object();
            in.machine = source.is_object() && source.contains("machine") && source["machine"].is_string()
                             ? source["machine"].get<std::string>()
                             : machine_name(in.cpu);
            in.notes.push_back(
                path +
                ": the model file has no models (no kernel had section points): nothing to chart but its "
                "machine; fit a sweep that has points with `fputune fit`");
            return in;
        }
        in.model = load_models(path, kernel_globs, contention);
        in.machine = in.model->machine;
        in.cpu = in.model->cpu;
        return in;
    }
    throw InputError(foreign_schema_message(path, in.schema));
}

std::vector<FpuCost> fpu_costs(const json& cpu) {
    std::vector<FpuCost> out;
    if (!cpu.is_object() || !cpu.contains("xsave") || !cpu["xsave"].is_object() || !cpu["xsave"].contains("costs"))
        return out;
    double hz = 0;
    if (cpu.contains("tsc") && cpu["tsc"].is_object() && cpu["tsc"].contains("hz") && cpu["tsc"]["hz"].is_number())
        hz = cpu["tsc"]["hz"].get<double>();
    const json& costs = cpu["xsave"]["costs"];
    if (!(hz > 0) || !costs.is_array()) return out;
    auto number = [](const json& o, const char* key) {
        return o.contains(key) && o[key].is_number() ? o[key].get<double>() : -1.0;
    };
    for (const auto& c : costs) {
        if (!c.is_object() || !c.contains("dirty") || !c["dirty"].is_string()) continue;
        const double save = number(c, "save_ticks"), restore = number(c, "restore_ticks"),
                     pair = number(c, "pair_ticks");
        if (save < 0 || restore < 0) continue;
        out.push_back({c["dirty"].get<std::string>(), save / hz * 1e9, restore / hz * 1e9,
                       (pair < 0 ? save + restore : pair) / hz * 1e9});
    }
    return out;
}

namespace {

constexpr std::size_t kGridPoints = 97;

std::vector<double> log_grid(double lo, double hi) {
    std::vector<double> xs;
    const double step = std::log(hi / lo) / static_cast<double>(kGridPoints - 1);
    for (std::size_t i = 0; i < kGridPoints; ++i) xs.push_back(lo * std::exp(step * static_cast<double>(i)));
    return xs;
}

int dirty_rank(const std::string& d) {
    static const std::vector<std::string> order = {"none", "xmm", "ymm", "zmm"};
    auto it = std::find(order.begin(), order.end(), d);
    return static_cast<int>(it - order.begin());
}

// The measured points of one kernel and cache state, in seconds at the minimum frequency (core cycles /
// f_min, as the lines).
void add_points(TradeoffCurve& c, const SweepFile& sweep, const CacheModel& cm, const RecommendOptions& o) {
    const std::set<std::uint64_t> fitted(cm.bound_bytes.begin(), cm.bound_bytes.end());
    for (const auto& p : sweep.sections) {
        if (p.kernel != cm.kernel || p.cache != name(cm.cache)) continue;
        const PointStats st = point_cycles(sweep, p.ticks, p.cycles);
        const double x = static_cast<double>(p.bytes);
        // The bound quantile as the fit took it (fit_sweep bound_stats: the calmest round's p99 of uninterrupted
        // samples, never below its p90).
        const BoundStats b = bound_stats(st, p.cycles.samples ? p.rounds : std::vector<RoundStats>{});
        const double bound = o.question.quantile == Quantile::p99 ? b.p99 : b.p90;
        if (st.p50 > 0) c.points_p50.push_back({x, st.p50 / o.question.min_freq_hz});
        if (bound > 0)
            (fitted.count(p.bytes) ? c.points_bound : c.points_bound_unfitted).push_back({x, bound / o.question.min_freq_hz});
    }
    auto by_x = [](const XY& a, const XY& b) { return a.x < b.x; };
    std::sort(c.points_p50.begin(), c.points_p50.end(), by_x);
    std::sort(c.points_bound.begin(), c.points_bound.end(), by_x);
    std::sort(c.points_bound_unfitted.begin(), c.points_bound_unfitted.end(), by_x);
}

void fill_lines(TradeoffCurve& c, const CacheModel& cm, const RecommendOptions& o, double x_min, double x_max) {
    const LineFit& bound = bound_fit(cm, o.question.quantile);
    auto sec = [&](double cycles) { return cycles / o.question.min_freq_hz; };
    c.bytes = log_grid(x_min, x_max);
    const BoundPoints points = bound_points(cm, o.question.quantile);
    for (double n : c.bytes) {
        c.p50_s.push_back(sec(cm.p50.at(n)));
        // As recommend and check take it: scaled to the points near n, with that scale's band (local_band).
        const LocalBand band = local_band(bound, points, n);
        c.bound_s.push_back(sec(band.mid));
        c.bound_lo_s.push_back(sec(band.lo));
        c.bound_hi_s.push_back(sec(band.hi));
        const double a = std::max(0.0, cm.p50.a), bn = cm.p50.b * n;
        c.share.push_back(bn > 0 ? bn / (a + bn) : 0.0);
    }
}

TradeoffChart tradeoff_chart(const ReportData& d, const VariantRow& row) {
    const RecommendOptions& o = d.options;
    TradeoffChart chart;
    chart.kernel = row.bound.kernel;
    chart.algorithm = row.bound.algorithm;
    chart.bound = row.bound;
    double lo = std::max<double>(1, row.bound.block_bytes), hi = 0;
    std::vector<const CacheModel*> sources;
    for (const VariantResult& v : row.per_machine) {
        std::size_t index = d.inputs.size();
        for (std::size_t i = 0; i < d.inputs.size(); ++i)
            if (d.inputs[i].model && d.inputs[i].model->source == v.source) {
                index = i;
                break;
            }
        if (index == d.inputs.size()) continue;
        const ModelFile& m = *d.inputs[index].model;
        const CacheModel* cm = m.model(v.kernel, v.cache);
        if (!cm) continue;
        TradeoffCurve c;
        c.input = index;
        c.cache = v.cache;
        c.result = v;
        c.binds = v.source == row.bound.source;
        if (d.inputs[index].sweep)
            add_points(c, *d.inputs[index].sweep, *cm, o);
        else
            chart.notes.push_back(fmt::format("{}: no measured points (a {} has fitted lines only)", d.labels[index],
                                              d.inputs[index].kind == "model" ? "model file" : "reference CSV"));
        for (const auto& p : c.points_p50) lo = std::min(lo, p.x), hi = std::max(hi, p.x);
        for (std::uint64_t b : cm->bytes) hi = std::max(hi, static_cast<double>(b));
        if (v.fits) hi = std::max(hi, 2.0 * static_cast<double>(v.bytes));
        if (v.upstream_bytes) hi = std::max(hi, 2.0 * static_cast<double>(*v.upstream_bytes));
        chart.curves.push_back(std::move(c));
        sources.push_back(cm);
    }
    hi = std::max(hi, 64.0 * lo);
    chart.x_min = lo;
    chart.x_max = hi;
    for (std::size_t i = 0; i < chart.curves.size(); ++i) fill_lines(chart.curves[i], *sources[i], o, lo, hi);
    return chart;
}

// One machine's one-shot costs for an algorithm: every path that has threshold points, by dirty state.
std::vector<CostCurve> cost_curves(const ModelFile& m, const SweepFile& sweep, const std::string& algorithm) {
    std::map<std::pair<std::string, std::string>, std::map<std::uint64_t, double>> cost;
    const ModelSelection selected = select_models(std::span(&m, 1), BudgetQuestion{});
    for (const auto& p : sweep.thresholds) {
        const KernelInfo* k = m.kernel(p.kernel);
        if (!k || k->algorithm != algorithm) continue;
        // -k selects the SIMD kernels (those with section points); the no-FPU paths stay, as the baseline
        // they are judged against.
        if (k->needs_fpu && !selected.find(m, k->name)) continue;
        const double cycles = point_cycles(sweep, p.ticks, p.cycles).p50;
        if (!(cycles > 0)) continue;
        auto& slot = cost[{p.kernel, p.dirty}];
        auto it = slot.find(p.bytes);
        if (it == slot.end() || cycles < it->second)
            slot[p.bytes] = cycles;  // a repeated length keeps its lowest median
    }
    std::vector<CostCurve> out;
    for (const auto& k : m.kernels) {
        std::vector<CostCurve> of_kernel;
        for (const auto& [key, points] : cost) {
            if (key.first != k.name) continue;
            CostCurve c{k.name, key.second, k.needs_fpu, {}};
            for (const auto& [len, cyc] : points) c.cycles.push_back({static_cast<double>(len), cyc});
            of_kernel.push_back(std::move(c));
        }
        std::sort(of_kernel.begin(), of_kernel.end(),
                  [](const CostCurve& a, const CostCurve& b) { return dirty_rank(a.dirty) < dirty_rank(b.dirty); });
        for (auto& c : of_kernel) out.push_back(std::move(c));
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const CostCurve& a, const CostCurve& b) { return !a.needs_fpu && b.needs_fpu; });
    return out;
}

std::string label_for(const std::vector<ReportInput>& inputs, std::size_t i) {
    std::size_t same = 0;
    for (const auto& in : inputs) same += in.machine == inputs[i].machine;
    std::string label =
        fmt::format("[{}] {}", i + 1, inputs[i].machine.empty() ? "unknown machine" : inputs[i].machine);
    if (same > 1) label += " (" + std::filesystem::path(inputs[i].path).filename().string() + ")";
    return label;
}

}  // namespace

ReportData build_report(std::vector<ReportInput> inputs, const RecommendOptions& options,
                        const std::vector<Workload>& workloads) {
    validate(options);
    ReportData d;
    d.options = options;
    d.inputs = std::move(inputs);
    for (std::size_t i = 0; i < d.inputs.size(); ++i) {
        d.labels.push_back(label_for(d.inputs, i));
        d.fpu_costs.push_back(fpu_costs(d.inputs[i].cpu));
        for (const auto& n : d.inputs[i].notes) d.notes.push_back(n);
    }
    std::vector<ModelFile> models;
    std::vector<std::optional<Recommendation>> alone(d.inputs.size());
    for (std::size_t i = 0; i < d.inputs.size(); ++i) {
        if (!d.inputs[i].model) continue;
        models.push_back(*d.inputs[i].model);
        try {
            alone[i] = recommend({*d.inputs[i].model}, options);
        } catch (const std::runtime_error& e) {
            d.notes.push_back(d.labels[i] + ": " + e.what());
        }
    }
    if (models.empty()) {
        d.notes.push_back(
            "no input has section points: no trade-off charts, thresholds or limits; the machines are shown");
        return d;
    }
    try {
        d.recommendation = recommend(models, options);
    } catch (const std::runtime_error& e) {
        d.notes.push_back(std::string(e.what()) + ": no trade-off charts or limits; the machines are shown");
        return d;
    }
    const Recommendation& r = *d.recommendation;
    if (!workloads.empty()) {
        const SimLimits limits = limits_from_recommendation(r);
        SimulateOptions so;
        so.question = options.question;
        so.linux_version = options.linux_version;
        so.command_line = options.command_line;
        for (const Workload& w : workloads) {
            try {
                d.simulations.push_back(simulate(models, w, &limits, so));
            } catch (const std::invalid_argument& e) {
                d.notes.push_back("workload " + w.name + ": " + e.what());
            }
        }
    }
    for (const AlgorithmRow& a : r.algorithms) {
        AlgorithmReport ar;
        ar.algorithm = a.algorithm;
        ar.row = a;
        if (const UpstreamLimit* u = find_upstream_limit(a.algorithm, options.linux_version)) ar.upstream = *u;
        for (const VariantRow& row : r.variants)
            if (row.bound.algorithm == a.algorithm) ar.tradeoffs.push_back(tradeoff_chart(d, row));
        for (std::size_t i = 0; i < d.inputs.size(); ++i) {
            const ReportInput& in = d.inputs[i];
            if (!in.model) continue;
            bool has_algorithm = false;
            for (const auto& k : in.model->kernels) has_algorithm |= k.algorithm == a.algorithm;
            if (!has_algorithm) continue;
            if (!in.sweep) {
                ar.notes.push_back(
                    fmt::format("{}: no threshold chart: a {} has no one-shot points (its crossovers are in the "
                                "summary table)",
                                d.labels[i], in.kind == "model" ? "model file" : "reference CSV"));
                continue;
            }
            ThresholdChart tc;
            tc.algorithm = a.algorithm;
            tc.input = i;
            tc.curves = cost_curves(*in.model, *in.sweep, a.algorithm);
            const bool scalar =
                std::any_of(tc.curves.begin(), tc.curves.end(), [](const CostCurve& c) { return !c.needs_fpu; });
            const bool simd =
                std::any_of(tc.curves.begin(), tc.curves.end(), [](const CostCurve& c) { return c.needs_fpu; });
            if (!scalar || !simd) {
                ar.notes.push_back(
                    fmt::format("{}: no threshold chart for {}: the sweep has no one-shot points for {} (sweep the "
                                "algorithm's generic and SIMD kernels together, thresholds on)",
                                d.labels[i], a.algorithm,
                                !scalar && !simd ? "any path"
                                : !scalar        ? "a no-FPU path"
                                                 : "a SIMD path"));
                continue;
            }
            if (alone[i])
                for (const AlgorithmRow& own : alone[i]->algorithms)
                    if (own.algorithm == a.algorithm) tc.crossover = own.threshold;
            tc.binds = tc.crossover && a.threshold && a.threshold_machine == in.model->machine &&
                       tc.crossover->kernel == a.threshold->kernel && tc.crossover->dirty == a.threshold->dirty &&
                       tc.crossover->bytes == a.threshold->bytes && tc.crossover->kind == a.threshold->kind;
            ar.thresholds.push_back(std::move(tc));
        }
        d.algorithms.push_back(std::move(ar));
    }
    return d;
}

}  // namespace fputune
