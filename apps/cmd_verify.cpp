// SPDX-License-Identifier: MIT
// `fputune verify`: measure each FPU_BYTES constant of a header on this machine, with the sweep's own
// emulation, and judge the section's p99 (uninterrupted samples) at the minimum frequency. Exit 1 if over.
#include <algorithm>
#include <iostream>
#include <map>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "atomic_file.hpp"
#include "check.hpp"
#include "cli.hpp"
#include "clock.hpp"
#include "cpu.hpp"
#include "doctor.hpp"
#include "fit_sweep.hpp"
#include "header.hpp"
#include "probe.hpp"
#include "registry.hpp"
#include "stats.hpp"
#include "stripes.hpp"
#include "sweep.hpp"
#include "units.hpp"

namespace fputune::cli {

namespace {

// One header constant and the sections it stands for: one kernel (FPUTUNE_SHA256_AVX2_FPU_BYTES) or
// every variant of ours this CPU runs (FPUTUNE_SHA256_FPU_BYTES).
struct Constant {
    HeaderConstant c;
    std::string target;  // kernel or algorithm
    std::vector<std::size_t> points;  // into the plan's sections
};

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A multi-source kernel's count at md's 4 KiB stripes (FPUTUNE_RAID6_AVX512_MAX_DISKS_4K, FPUTUNE_XOR_MAX_SOURCES_4K):
// one section of that many disks (data + P + Q) or sources of 4096 B each, on the kernel or on every variant
// of the algorithm. False: not such a constant.
bool map_count_constant(const HeaderConstant& c, const SweepOptions& opt, SweepPlan& plan,
                        std::map<std::pair<std::string, std::uint64_t>, std::size_t>& index, std::vector<Constant>& out,
                        std::vector<std::string>& notes) {
    constexpr std::uint64_t kStripeBytes = 4096;
    const std::string stem = c.name.rfind("FPUTUNE_", 0) == 0 ? c.name.substr(8) : c.name;
    Constant k{c, "", {}};
    bool matched = false, refused = false;
    for (const Kernel* kern : opt.kernels) {
        if (is_peer(*kern) || !kern->needs_fpu || !is_multisource(*kern)) continue;
        const StripeUnit unit = stripe_unit(series_info(*kern, {SectionShape::stripe, 1}));
        for (const std::string& name : {std::string(kern->name), std::string(kern->algorithm)}) {
            if (stripe_count_stem(name, unit, kStripeBytes) != stem) continue;
            matched = true;
            if (missing_features(*kern, usable_features())) break;
            const std::uint64_t sources = c.value > unit.extra ? c.value - unit.extra : 0;
            if (sources < std::max(1u, kern->min_sources) || (kern->max_sources && sources > kern->max_sources)) {
                notes.push_back(fmt::format(
                    "ignored {} (line {}) for {}: {} {} is {} sources, outside the {}..{} it takes", c.name, c.line,
                    kern->name, c.value, unit.word, sources, std::max(1u, kern->min_sources), kern->max_sources));
                refused = true;
                break;
            }
            const SeriesSpec series{SectionShape::stripe, static_cast<std::uint32_t>(sources)};
            const std::uint64_t bytes =
                std::max<std::uint64_t>(1, kStripeBytes / kern->block_bytes) * kern->block_bytes;
            k.target = name == kern->name ? series_name(*kern, series) : name;
            auto [it, fresh] = index.emplace(std::make_pair(series_name(*kern, series), bytes), plan.sections.size());
            if (fresh) {
                plan.sections.push_back({kern, opt.cold, bytes, series});
                if (std::find(plan.kernels.begin(), plan.kernels.end(), kern) == plan.kernels.end())
                    plan.kernels.push_back(kern);
            }
            k.points.push_back(it->second);
            break;
        }
    }
    if (!matched) return false;
    if (k.points.empty() && !refused)
        notes.push_back(fmt::format("ignored {} (line {}): no variant of it is available on this CPU", c.name, c.line));
    if (!k.points.empty()) out.push_back(std::move(k));
    return true;
}

// The constants of the header that name a kernel or algorithm of ours, and the plan that measures them.
std::vector<Constant> map_constants(const std::string& text, const SweepOptions& opt, SweepPlan& plan,
                                    std::vector<std::string>& notes) {
    std::vector<std::string> skipped;
    std::vector<Constant> out;
    std::map<std::pair<std::string, std::uint64_t>, std::size_t> index;  // (series, bytes) -> point
    for (const HeaderConstant& c : parse_header_constants(text, skipped)) {
        if (map_count_constant(c, opt, plan, index, out, notes)) continue;
        if (!ends_with(c.name, "_FPU_BYTES")) continue;  // thresholds and the include guard are not sections
        std::string stem = c.name.substr(0, c.name.size() - std::string("_FPU_BYTES").size());
        if (stem.rfind("FPUTUNE_", 0) == 0) stem = stem.substr(8);
        Constant k{c, "", {}};
        std::vector<std::string> unavailable;
        for (const Kernel* kern : opt.kernels) {
            if (is_peer(*kern) || !kern->needs_fpu) continue;
            // Each series of the kernel's sections (lib/sweep.hpp: its primary shape, GCM's AAD) has its macro stem.
            for (const SeriesSpec& series : section_series(*kern, opt)) {
                const KernelInfo info = series_info(*kern, series);
                const bool as_kernel = series_stem(info) == stem, as_algorithm = series_algorithm_stem(info) == stem;
                if (!as_kernel && !as_algorithm) continue;
                if (missing_features(*kern, usable_features())) {
                    unavailable.push_back(kern->name);
                    continue;
                }
                k.target = as_kernel ? info.name : info.algorithm;
                const std::uint64_t bytes = std::max<std::uint64_t>(1, c.value / kern->block_bytes) * kern->block_bytes;
                if (bytes != c.value)
                    notes.push_back(
                        fmt::format("{} (line {}): {} B is not whole blocks of {} B; {} measures {} B per section",
                                    c.name, c.line, c.value, kern->block_bytes, info.name, bytes));
                auto [it, fresh] = index.emplace(std::make_pair(info.name, bytes), plan.sections.size());
                if (fresh) {
                    plan.sections.push_back({kern, opt.cold, bytes, series});
                    if (std::find(plan.kernels.begin(), plan.kernels.end(), kern) == plan.kernels.end())
                        plan.kernels.push_back(kern);
                }
                k.points.push_back(it->second);
            }
        }
        if (k.points.empty()) {
            notes.push_back(unavailable.empty()
                                ? fmt::format("ignored {} (line {}): no kernel or algorithm of ours is named '{}'",
                                              c.name, c.line, stem)
                                : fmt::format("ignored {} (line {}): {} not available on this CPU", c.name, c.line,
                                              fmt::join(unavailable, ", ")));
            continue;
        }
        out.push_back(std::move(k));
    }
    return out;
}

}  // namespace

int run_verify(const Args& args) {
    po::options_description desc("verify options");
    desc.add_options()(
        "header", po::value<std::string>(),
        "the header whose FPUTUNE_*_FPU_BYTES constants (and *_MAX_DISKS_4K, *_MAX_SOURCES_4K counts) to measure")(
        "budget", po::value<std::string>(), "time budget per FPU section, e.g. 30us (required)")(
        "min-freq", po::value<std::string>()->default_value("1GHz"), "slowest core clock the budget must hold at")(
        "quantile", po::value<std::string>()->default_value("p99"),
        "judged statistic: p99 of uninterrupted samples, or p90 of all (as recommend --quantile)")(
        "dirty", po::value<std::string>()->default_value("ymm"),
        "user state dirtied before each request: xmm|ymm|zmm (as the sweep)")(
        "cache", po::value<std::string>()->default_value("cold"), "hot|cold (recommend's default: cold)")(
        "section-overhead", po::value<std::uint64_t>()->default_value(0),
        "extra core cycles per section (as the sweep)")("time-budget", po::value<double>()->default_value(30),
                                                        "seconds for the measurement")(
        "json", "print the results as JSON (fputune.verify/1)")("cpu", po::value<int>(),
                                                                "pin to this CPU (default: the last allowed)");
    po::positional_options_description pos;
    pos.add("header", 1);
    po::variables_map vm;
    if (!parse("verify", "limits.h --budget 30us [--min-freq 1GHz] [--cache cold] [--dirty ymm] [--json]", desc, args,
               vm, true, &pos))
        return kExitOk;
    if (!vm.count("header"))
        throw UsageError("which header? e.g. `fputune verify limits.h --budget 30us --min-freq 1GHz`");
    if (!vm.count("budget")) throw UsageError("--budget is required, e.g. --budget 30us");
    SweepOptions opt;
    double budget_s = 0, min_freq_hz = 0;
    try {
        budget_s = parse_duration_s(vm["budget"].as<std::string>(), "--budget");
        min_freq_hz = parse_frequency_hz(vm["min-freq"].as<std::string>(), "--min-freq");
        opt.dirty = parse_dirty(vm["dirty"].as<std::string>());
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    const std::string quantile = vm["quantile"].as<std::string>();
    if (quantile != "p99" && quantile != "p90") throw UsageError("--quantile " + quantile + ": expected p90 or p99");
    if (!dirty_supported(opt.dirty))
        throw UsageError("--dirty " + vm["dirty"].as<std::string>() +
                         ": this CPU (or --disable) lacks that register state");
    const std::string cache = vm["cache"].as<std::string>();
    if (cache != "hot" && cache != "cold") throw UsageError("--cache '" + cache + "': accepted: hot, cold");
    opt.cold = cache == "cold";
    opt.hot = !opt.cold;
    opt.section_overhead_cycles = vm["section-overhead"].as<std::uint64_t>();
    if (opt.section_overhead_cycles > 1000000) throw UsageError("--section-overhead: at most 1000000 cycles");
    opt.budget_s = vm["time-budget"].as<double>();
    if (!(opt.budget_s > 0 && opt.budget_s <= 86400)) throw UsageError("--time-budget: seconds, > 0 and <= 86400");
    opt.kernels = select_kernels({});
    // Every section needs its p99 of uninterrupted samples to ~3 % (>= 500 samples), in 4 rounds as a sweep's
    // points; judged is their mean (fit_sweep bound_stats): the machine over these seconds, phases included,
    // not the calmest round that recommend's central estimate stands on.
    opt.sampling.rounds = 4;
    opt.sampling.tail_max_s = 1;
    opt.sampling.point_cap_s = 2;
    opt.sampling.max_samples = 20000;

    const std::string path = vm["header"].as<std::string>();
    const std::string text = read_file(path);
    SweepPlan plan;
    std::vector<std::string> notes;
    const std::vector<Constant> constants = map_constants(text, opt, plan, notes);
    if (constants.empty())
        throw UsageError(fmt::format(
            "{}: no constant of the form FPUTUNE_<KERNEL>_FPU_BYTES or FPUTUNE_<ALGORITHM>_FPU_BYTES names a kernel "
            "this CPU runs; write one, e.g. #define FPUTUNE_SHA256_FPU_BYTES 4096U",
            path));
    opt.cpu = pin_cpu(vm);
    DoctorReport doctor = fputune::run_doctor("/", opt.cpu, 0.5);
    const bool json_out = vm.count("json") > 0;
    if (!json_out) spdlog::info("doctor (quick): this machine is {}", verdict_name(doctor.verdict));
    const SweepMeasurement m = measure_plan(plan, opt, doctor.health.calm, PoolHooks{});

    // Per constant: its worst variant.
    const double q = quantile == "p99" ? 0.99 : 0.90;
    struct Row {
        std::string kernel;
        std::uint64_t bytes;
        double p50_s, bound_s;
        std::uint64_t samples, interrupted;
    };
    auto row_of = [&](std::size_t i) {
        const PointSamples& s = m.pool.points[i];
        const PointStats st = summarize(s.cycles);
        // The statistics recommend bounds: p99 of the uninterrupted samples (never below the p90), or the p90,
        // each round's, averaged over the rounds.
        std::vector<RoundStats> rounds;
        for (std::size_t r = 0; r < s.round_begin.size(); ++r) {
            const PointStats rs = summarize(s.round_cycles(r));
            rounds.push_back({rs.samples, rs.p10, rs.p50, rs.p90, rs.p99_clean, rs.interrupted});
        }
        const BoundStats b = bound_stats(st, rounds, OverRounds::mean);
        const double bound = q == 0.99 ? b.p99 : b.p90;
        return Row{series_name(*plan.sections[i].kernel, plan.sections[i].series),
                   plan.sections[i].bytes,
                   st.p50 / min_freq_hz,
                   bound / min_freq_hz,
                   st.samples,
                   st.interrupted};
    };
    bool all_pass = true;
    nlohmann::json results = nlohmann::json::array();
    std::string table = fmt::format("{:<36} {:>9} {:<26} {:>9} {:>10} {:>8}  {}\n", "constant", "bytes", "kernel",
                                    "p50", quantile == "p99" ? "p99 clean" : "p90", "samples", "verdict");
    for (const Constant& c : constants) {
        for (std::size_t i : c.points) {
            const Row r = row_of(i);
            const bool pass = r.bound_s <= budget_s && r.samples > 0;
            all_pass = all_pass && pass;
            table +=
                fmt::format("{:<36} {:>9} {:<26} {:>9} {:>10} {:>8}  {}\n", c.c.name, r.bytes, r.kernel,
                            format_duration(r.p50_s), format_duration(r.bound_s), r.samples, pass ? "PASS" : "OVER");
            results.push_back({{"constant", c.c.name},
                               {"line", c.c.line},
                               {"value", c.c.value},
                               {"target", c.target},
                               {"kernel", r.kernel},
                               {"bytes", r.bytes},
                               {"p50_s", r.p50_s},
                               {"bound_s", r.bound_s},
                               {"samples", r.samples},
                               {"interrupted", r.interrupted},
                               {"pass", pass}});
        }
    }
    if (json_out) {
        nlohmann::json j = {{"schema", "fputune.verify/1"},
                            {"tool", {{"name", "fputune"}, {"version", tool_version()}, {"commit", tool_commit()}}},
                            {"date", utc_now_iso8601()},
                            {"header", path},
                            {"machine", probe_cpu().value("brand", "?")},
                            {"cpu", opt.cpu},
                            {"budget_s", budget_s},
                            {"min_freq_hz", min_freq_hz},
                            {"quantile", quantile},
                            {"options", opt.to_json()},
                            {"doctor", doctor.to_json()},
                            {"disturbances", m.pool.events.size()},
                            {"results", results},
                            {"notes", notes},
                            {"pass", all_pass}};
        std::cout << j.dump(1) << "\n";
        return all_pass ? kExitOk : kExitCheckFailed;
    }
    std::cout << fmt::format(
        "fputune {} ({}) verify {}: each section measured on CPU {} ({}), {} cache, dirty {}, section overhead {} "
        "cycles; {} in core cycles at {} against {}\n\n",
        tool_version(), tool_commit(), path, opt.cpu, probe_cpu().value("brand", "?"), cache, dirty_name(opt.dirty),
        opt.section_overhead_cycles, quantile == "p99" ? "p99 of uninterrupted samples" : "p90",
        format_frequency(min_freq_hz), format_duration(budget_s));
    std::cout << table;
    for (const std::string& n : notes) std::cout << "note: " << n << "\n";
    std::cout << fmt::format("\n{}: {} sections measured in {:.1f} s ({} host disturbances waited out; doctor: {})\n",
                             all_pass ? "PASS" : "OVER", plan.sections.size(), m.pool.elapsed_s, m.pool.events.size(),
                             verdict_name(doctor.verdict));
    return all_pass ? kExitOk : kExitCheckFailed;
}

}  // namespace fputune::cli
