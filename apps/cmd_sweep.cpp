// SPDX-License-Identifier: MIT
// `fputune sweep`: measure every selected kernel's sections and thresholds into fputune.sweep/1.
#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <sstream>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "atomic_file.hpp"
#include "cli.hpp"
#include "clock.hpp"
#include "cpu.hpp"
#include "probe.hpp"
#include "progress.hpp"
#include "registry.hpp"
#include "signals.hpp"
#include "sweep.hpp"
#include "units.hpp"

namespace fputune::cli {

namespace {

std::string sweep_csv(const SweepFile& f) {
    std::string s = fmt::format("# fputune.sweep/1 as CSV; {} ; TSC {:.0f} Hz; core/TSC {:.4f} (probed {:.3f}..{:.3f}); dirty {}; date {}; "
                                "ticks with timer overhead subtracted; cycles_* = each sample x the core/TSC ratio probed around it\n",
                                f.cpu.value("brand", "?"), f.tsc_hz, f.core_per_tsc, f.ratio_trace.min, f.ratio_trace.max, f.dirty, f.date);
    s += "kind,kernel,state,bytes,samples,min,p10,p50,p90,p99,p999,max,interrupted,rel_ci50,p99_clean,cycles_p50,cycles_p90,cycles_p99_clean,cycles_interrupted\n";
    auto row = [&](const char* kind, const std::string& k, const std::string& state, std::uint64_t bytes, const PointStats& p, const PointStats& c) {
        s += fmt::format("{},{},{},{},{},{:.1f},{:.1f},{:.1f},{:.1f},{:.1f},{:.1f},{:.1f},{},{:.4f},{:.1f},{:.1f},{:.1f},{:.1f},{}\n", kind, k, state, bytes,
                         p.samples, p.min, p.p10, p.p50, p.p90, p.p99, p.p999, p.max, p.interrupted, p.rel_ci50, p.p99_clean, c.p50, c.p90,
                         c.p99_clean, c.interrupted);
    };
    for (const auto& p : f.sections) row("section", p.kernel, p.cache, p.bytes, p.ticks, p.cycles);
    for (const auto& p : f.thresholds) row("threshold", p.kernel, p.dirty, p.bytes, p.ticks, p.cycles);
    return s;
}

}  // namespace

int run_sweep(const Args& args) {
    po::options_description desc("sweep options");
    desc.add_options()("kernel,k", po::value<std::vector<std::string>>()->composing(), "kernels matching GLOB (repeatable; default: all of ours)")(
        "output,o", po::value<std::string>()->default_value("fputune-sweep.json"), "sweep file to write (atomically)")(
        "csv", po::value<std::string>(), "also write the points as CSV to this file")(
        "dirty", po::value<std::string>()->default_value("ymm"), "user state dirtied before each request: xmm|ymm|zmm")(
        "section-overhead", po::value<std::uint64_t>()->default_value(0), "extra core cycles per section (begin/end cost; 2022 kernel: 45-56)")(
        "cache", po::value<std::string>()->default_value("both"), "hot|cold|both")(
        "sizes", po::value<std::string>(), "section sizes instead of the default geometric sweep (comma-separated)")(
        "max-bytes", po::value<std::string>()->default_value("1MiB"), "largest section of the default sweep")(
        "no-thresholds", "skip the SIMD-vs-scalar threshold sweep")(
        "quick", "10-30 s: to 256 KiB, 2 points per doubling, fewer samples (p90 to ~3 %)")(
        "time-budget", po::value<double>(), "seconds for the whole sweep, shared evenly by the groups (default 150; --quick 25)")(
        "threshold-dirty", po::value<std::string>(), "dirty states for the threshold sweep: a list of xmm,ymm,zmm,none (none = user state already saved, no XSAVE) or 'all' (= xmm,ymm,zmm,none; default: --dirty)")(
        "resume", po::value<std::string>(), "continue a partial sweep file (written back to -o)")(
        "cpu", po::value<int>(), "pin to this CPU (default: the last allowed)");
    po::variables_map vm;
    if (!parse("sweep", "[-k GLOB]... [-o FILE] [--csv FILE] [--dirty ymm] [--cache both] [--quick] [--resume FILE]", desc, args, vm))
        return kExitOk;

    SweepOptions opt;
    try {
        opt.dirty = parse_dirty(vm["dirty"].as<std::string>());
        if (vm.count("sizes")) opt.sizes = parse_size_list(vm["sizes"].as<std::string>(), 1ull << 30, "--sizes");
        opt.max_section_bytes = parse_size(vm["max-bytes"].as<std::string>(), "--max-bytes");
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    if (!dirty_supported(opt.dirty)) throw UsageError(fmt::format("--dirty {}: this CPU (or --disable) lacks that register state", vm["dirty"].as<std::string>()));
    const std::string cache = vm["cache"].as<std::string>();
    if (cache != "hot" && cache != "cold" && cache != "both") throw UsageError("--cache '" + cache + "': accepted: hot, cold, both");
    opt.hot = cache != "cold";
    opt.cold = cache != "hot";
    opt.section_overhead_cycles = vm["section-overhead"].as<std::uint64_t>();
    if (opt.section_overhead_cycles > 1000000) throw UsageError("--section-overhead: at most 1000000 cycles");
    opt.thresholds = !vm.count("no-thresholds");
    const bool quick = vm.count("quick") > 0;
    opt.budget_s = vm.count("time-budget") ? vm["time-budget"].as<double>() : quick ? 25 : 150;
    if (!(opt.budget_s > 0 && opt.budget_s <= 86400)) throw UsageError("--time-budget: seconds, > 0 and <= 86400");
    if (vm.count("threshold-dirty")) {
        std::string list = vm["threshold-dirty"].as<std::string>();
        if (list == "all") list = "xmm,ymm,zmm,none";
        std::stringstream ss(list);
        for (std::string item; std::getline(ss, item, ',');) {
            DirtyState d = DirtyState::none;
            if (item != "none") try {
                    d = parse_dirty(item);
                } catch (const std::invalid_argument&) {
                    throw UsageError("--threshold-dirty: unknown state '" + item +
                                     "'; accepted: a list of xmm, ymm, zmm, none (user state already saved), or all");
                }
            if (!dirty_supported(d)) throw UsageError("--threshold-dirty " + item + ": this CPU (or --disable) lacks that register state");
            opt.threshold_dirty.push_back(d);
        }
    }
    if (quick) {
        if (!vm["max-bytes"].defaulted()) opt.max_section_bytes = std::min<std::uint64_t>(opt.max_section_bytes, 1u << 30);
        else opt.max_section_bytes = 256u << 10;
        opt.points_per_doubling = 2;
        opt.point_cap_s = 0.04;
        opt.min_samples = 9;
        opt.target_rel_ci = 0.02;
        opt.min_samples90 = 40;
        opt.target_rel_ci90 = 0.03;
        opt.min_samples99 = 100;
        opt.target_rel_ci99 = 0.10;
    }
    const std::vector<std::string> patterns = kernel_patterns(vm);
    opt.kernels = selected_kernels(vm);
    const std::string output = vm["output"].as<std::string>();
    check_writable(output);
    if (vm.count("csv")) check_writable(vm["csv"].as<std::string>());
    // -o may be the --resume file (written back), but nothing else may name one file twice.
    const std::string csv_path = vm.count("csv") ? vm["csv"].as<std::string>() : "";
    refuse_same_files({{"-o", output}, {"--csv", csv_path}}, {});
    refuse_same_files({{"--csv", csv_path}}, {{"--resume", vm.count("resume") ? vm["resume"].as<std::string>() : ""}});
    const int cpu = pin_cpu(vm);

    SweepFile file;
    nlohmann::json options = {{"kernels", patterns}, {"dirty", dirty_name(opt.dirty)}, {"section_overhead_cycles", opt.section_overhead_cycles},
                              {"cache", cache}, {"quick", quick}, {"max_section_bytes", opt.max_section_bytes},
                              {"points_per_doubling", opt.points_per_doubling}, {"thresholds", opt.thresholds}, {"cpu", cpu},
                              {"point_cap_s", opt.point_cap_s}, {"time_budget_s", opt.budget_s}, {"threshold_dirty", [&] { std::vector<std::string> v; for (auto d : opt.threshold_dirty) v.push_back(dirty_name(d)); return v; }()}, {"target_rel_ci", opt.target_rel_ci}, {"target_rel_ci90", opt.target_rel_ci90}, {"min_samples90", opt.min_samples90}, {"tail_max_s", opt.tail_max_s}, {"min_samples99", opt.min_samples99}, {"target_rel_ci99", opt.target_rel_ci99},
                              {"masked_features", feature_list_string(disabled_features() & detected_features())}};
    if (vm.count("sizes")) options["sizes"] = opt.sizes;
    const nlohmann::json probe = probe_cpu();
    if (vm.count("resume")) {
        file = read_sweep_file(vm["resume"].as<std::string>());
        if (file.cpu.value("brand", "") != probe.value("brand", "") || file.dirty != dirty_name(opt.dirty) ||
            file.options.value("section_overhead_cycles", std::uint64_t{0}) != opt.section_overhead_cycles)
            throw UsageError(fmt::format("--resume {}: made on '{}' with --dirty {} --section-overhead {}; resume it on the same machine with the same options",
                                         vm["resume"].as<std::string>(), file.cpu.value("brand", "?"), file.dirty,
                                         file.options.value("section_overhead_cycles", std::uint64_t{0})));
        spdlog::info("resuming {}: {} section and {} threshold points already measured", vm["resume"].as<std::string>(), file.sections.size(),
                     file.thresholds.size());
        file.partial = false;
        // The merged file says what it holds: no stale "interrupted" warning, and every kernel pattern swept into it.
        std::erase_if(file.warnings, [](const std::string& w) { return w.rfind("interrupted: partial sweep", 0) == 0; });
        nlohmann::json kernels = nlohmann::json::array();
        for (const nlohmann::json& list : {file.options.value("kernels", nlohmann::json::array()), nlohmann::json(patterns)}) {
            if (list.empty()) kernels.push_back("*");
            for (const auto& k : list)
                if (std::find(kernels.begin(), kernels.end(), k) == kernels.end()) kernels.push_back(k);
        }
        if (kernels == nlohmann::json::array({"*"})) kernels = nlohmann::json::array();
        file.options["kernels"] = kernels;
    } else {
        file.cpu = probe;
        file.options = options;
        file.dirty = dirty_name(opt.dirty);
        file.tsc_hz = tsc_info().hz;
    }
    file.tool_version = tool_version();
    file.tool_commit = tool_commit();
    file.date = utc_now_iso8601();
    const CoreRatio start = measure_core_per_tsc();
    if (!vm.count("resume")) file.core_per_tsc = start.best;
    file.section_overhead_ticks = static_cast<double>(opt.section_overhead_cycles) / file.core_per_tsc;

    spdlog::info("sweep on {} (CPU {}), TSC {:.4f} GHz, core/TSC {:.3f}; dirty {}, cache {}, section overhead {} cycles{}",
                 probe.value("brand", "?"), cpu, file.tsc_hz / 1e9, start.best, file.dirty, cache, opt.section_overhead_cycles,
                 quick ? ", quick" : "");
    // Until the file is written, these signals (a second Ctrl-C too) only ask the sweep to stop.
    const StopOnSignals signals;
    const bool tty = isatty(STDERR_FILENO);
    const std::uint64_t t_start = tsc_begin();
    ProgressLog progress(tty);
    run_sweep(opt, file, [&](const SweepProgress& p) { progress.update(p.done, p.total, p.what); }, signals.stop());
    if (tty && file.partial) std::cerr << "\n";
    const CoreRatio end = measure_core_per_tsc();
    file.core_per_tsc_end = end.best;
    const double drift = std::abs(end.best - file.core_per_tsc) / file.core_per_tsc;
    if (drift > 0.03) {
        std::string w = fmt::format("core/TSC ratio changed from {:.3f} to {:.3f} ({:.1f}%) during the sweep (probed {:.3f}..{:.3f}): the core "
                                    "clock moved (frequency scaling, thermal limits or a busy host); each sample was converted to cycles "
                                    "with the ratio probed around it",
                                    file.core_per_tsc, end.best, 100 * drift, file.ratio_trace.min, file.ratio_trace.max);
        file.warnings.push_back(w);
        spdlog::warn("{}", w);
    }
    if (file.partial)
        file.warnings.push_back(fmt::format("interrupted: partial sweep{}; continue it with --resume",
                                            signals.signal() ? fmt::format(" ({})", signal_name(signals.signal())) : ""));
    write_sweep_file(output, file);
    if (vm.count("csv")) write_file_atomic(vm["csv"].as<std::string>(), sweep_csv(file));
    const double elapsed = static_cast<double>(tsc_begin() - t_start) / file.tsc_hz;
    std::uint64_t interrupted = 0;
    for (const auto& p : file.sections) interrupted += p.cycles.samples ? p.cycles.interrupted : p.ticks.interrupted;
    std::ostream& summary = is_stdout_path(output) ? std::cerr : std::cout;  // `-o -` keeps stdout pure JSON
    summary << fmt::format("{} {}: {} kernels, {} section points, {} threshold points in {:.0f} s; {} samples hit by interruptions{}\n",
                             file.partial ? "partial sweep written to" : "wrote", output, file.kernels.size(), file.sections.size(),
                             file.thresholds.size(), elapsed, interrupted,
                             file.partial ? fmt::format(" (continue with: fputune sweep --resume {} -o {})", output, output) : "");
    return file.partial ? kExitPartial : kExitOk;
}

}  // namespace fputune::cli
