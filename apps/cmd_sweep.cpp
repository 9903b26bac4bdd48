// SPDX-License-Identifier: MIT
// `fputune sweep`: measure every selected kernel's sections and thresholds into fputune.sweep/1.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <iostream>
#include <optional>
#include <sstream>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "atomic_file.hpp"
#include "cli.hpp"
#include "clock.hpp"
#include "cpu.hpp"
#include "doctor.hpp"
#include "probe.hpp"
#include "progress.hpp"
#include "registry.hpp"
#include "contention.hpp"
#include "contention_levels.hpp"
#include "sibling.hpp"
#include "signals.hpp"
#include "sweep.hpp"
#include "sweep_loop.hpp"
#include "text_lines.hpp"
#include "units.hpp"

namespace fputune::cli {

namespace {

std::string sweep_csv(const SweepFile& f) {
    std::string s = fmt::format(
        "# fputune.sweep/1 as CSV; {} ; TSC {:.0f} Hz; core/TSC {:.4f} (probed {:.3f}..{:.3f}); dirty {}; date {}; "
        "ticks with timer overhead subtracted; cycles_* = each sample x the core/TSC ratio probed around it\n",
        f.cpu.value("brand", "?"), f.tsc_hz, f.core_per_tsc, f.ratio_trace.min, f.ratio_trace.max, f.dirty, f.date);
    s += "kind,kernel,state,bytes,samples,min,p10,p50,p90,p99,p999,max,interrupted,rel_ci50,p99_clean,cycles_p50,"
         "cycles_p90,cycles_p99_clean,cycles_interrupted\n";
    auto row = [&](const char* kind, const std::string& k, const std::string& state, std::uint64_t bytes,
                   const PointStats& p, const PointStats& c) {
        s += fmt::format(
            "{},{},{},{},{},{:.1f},{:.1f},{:.1f},{:.1f},{:.1f},{:.1f},{:.1f},{},{:.4f},{:.1f},{:.1f},{:.1f},{:.1f},{}"
            "\n",
            kind, k, state, bytes, p.samples, p.min, p.p10, p.p50, p.p90, p.p99, p.p999, p.max, p.interrupted,
            p.rel_ci50, p.p99_clean, c.p50, c.p90, c.p99_clean, c.interrupted);
    };
    for (const auto& p : f.sections) row("section", p.kernel, p.cache, p.bytes, p.ticks, p.cycles);
    for (const auto& p : f.thresholds) row("threshold", p.kernel, p.dirty, p.bytes, p.ticks, p.cycles);
    return s;
}

// The closed loop's question (--budget, --min-freq) and whether it runs: not with --sizes (exactly those
// sizes were asked for) nor --no-closed-loop.
void loop_options(const po::variables_map& vm, SweepOptions& opt) {
    try {
        opt.loop_budget_s = parse_duration_s(vm["budget"].as<std::string>(), "--budget");
        opt.loop_min_freq_hz = parse_frequency_hz(vm["min-freq"].as<std::string>(), "--min-freq");
        check_plausible_budget(opt.loop_budget_s, "--budget");
        check_plausible_min_freq(opt.loop_min_freq_hz, "--min-freq");
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    opt.closed_loop = !vm.count("no-closed-loop") && opt.sizes.empty();
}

// The options from the command line; a UsageError names each mistake.
SweepOptions sweep_options(const po::variables_map& vm) {
    SweepOptions opt;
    try {
        opt.dirty = parse_dirty(vm["dirty"].as<std::string>());
        if (vm.count("sizes")) opt.sizes = parse_size_list(vm["sizes"].as<std::string>(), 1ull << 30, "--sizes");
        if (vm.count("zmm-idle")) opt.zmm_idle_s = parse_duration_s(vm["zmm-idle"].as<std::string>(), "--zmm-idle");
        opt.max_section_bytes = parse_size(vm["max-bytes"].as<std::string>(), "--max-bytes");
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    if (!dirty_supported(opt.dirty))
        throw UsageError(fmt::format("--dirty {}: this CPU (or --disable) lacks that register state",
                                     vm["dirty"].as<std::string>()));
    const std::string cache = vm["cache"].as<std::string>();
    if (cache != "hot" && cache != "cold" && cache != "both")
        throw UsageError("--cache '" + cache + "': accepted: hot, cold, both");
    opt.hot = cache != "cold";
    opt.cold = cache != "hot";
    opt.section_overhead_cycles = vm["section-overhead"].as<std::uint64_t>();
    if (opt.section_overhead_cycles > 1000000) throw UsageError("--section-overhead: at most 1000000 cycles");
    opt.thresholds = !vm.count("no-thresholds");
    if (vm.count("quick")) opt.apply_quick(!vm["max-bytes"].defaulted());
    if (vm.count("time-budget")) opt.budget_s = vm["time-budget"].as<double>();
    if (!(opt.budget_s > 0 && opt.budget_s <= 86400)) throw UsageError("--time-budget: seconds, > 0 and <= 86400");
    if (vm.count("rounds")) opt.sampling.rounds = vm["rounds"].as<int>();
    if (opt.sampling.rounds < 1 || opt.sampling.rounds > 64) throw UsageError("--rounds: 1 to 64");
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
            if (!dirty_supported(d))
                throw UsageError("--threshold-dirty " + item + ": this CPU (or --disable) lacks that register state");
            opt.threshold_dirty.push_back(d);
        }
    }
    if (vm.count("zmm-idle") && !(opt.zmm_idle_s >= 10e-6 && opt.zmm_idle_s <= 1))
        throw UsageError("--zmm-idle " + vm["zmm-idle"].as<std::string>() +
                         ": an idle time of 10us to 1s, e.g. 1ms (Intel powers the "
                         "512-bit units down after ~0.7 ms without 512-bit code)");
    loop_options(vm, opt);
    opt.kernel_patterns = kernel_patterns(vm);
    opt.kernels = selected_kernels(vm);
    return opt;
}

// --resume: the sweep continues with the options its file records (kernels, --quick, sizes, cache, time budget,
// rounds, thresholds, sampling rules); an option given on the command line overrides the file's.
void options_from_file(SweepOptions& opt, const nlohmann::json& o, const po::variables_map& vm, const std::string& path) {
    auto given = [&](const char* name) { return vm.count(name) && !vm[name].defaulted(); };
    try {
        if (!given("kernel")) {
            opt.kernel_patterns = o.value("kernels", std::vector<std::string>{});
            opt.kernels = select_kernels_or_kinds(opt.kernel_patterns);
        }
        if (!given("dirty")) opt.dirty = parse_dirty(o.value("dirty", std::string(dirty_name(opt.dirty))));
        if (!given("section-overhead"))
            opt.section_overhead_cycles = o.value("section_overhead_cycles", opt.section_overhead_cycles);
        if (!given("cache")) {
            const std::string cache = o.value("cache", std::string("both"));
            opt.hot = cache != "cold";
            opt.cold = cache != "hot";
        }
        if (!given("sizes")) opt.sizes = o.value("sizes", std::vector<std::uint64_t>{});
        if (!given("max-bytes") && !given("quick"))
            opt.max_section_bytes = o.value("max_section_bytes", opt.max_section_bytes);
        if (!given("zmm-idle")) opt.zmm_idle_s = o.value("zmm_idle_s", 0.0);
        if (!given("no-thresholds")) opt.thresholds = o.value("thresholds", opt.thresholds);
        if (!given("threshold-dirty") && o.contains("threshold_dirty")) {
            opt.threshold_dirty.clear();
            for (const std::string& d : o["threshold_dirty"].get<std::vector<std::string>>())
                opt.threshold_dirty.push_back(d == "none" ? DirtyState::none : parse_dirty(d));
        }
        if (!given("time-budget")) opt.budget_s = o.value("time_budget_s", opt.budget_s);
        if (const auto loop = o.find("closed_loop"); loop != o.end() && !given("no-closed-loop")) {
            opt.closed_loop = loop->is_object() && opt.sizes.empty();
            if (loop->is_object() && !given("budget")) opt.loop_budget_s = loop->value("budget_s", opt.loop_budget_s);
            if (loop->is_object() && !given("min-freq"))
                opt.loop_min_freq_hz = loop->value("min_freq_hz", opt.loop_min_freq_hz);
        }
        SamplingRules& r = opt.sampling;
        if (!given("rounds")) r.rounds = o.value("rounds", r.rounds);
        if (!given("quick")) {
            opt.quick = o.value("quick", opt.quick);
            opt.points_per_doubling = o.value("points_per_doubling", opt.points_per_doubling);
            r.point_cap_s = o.value("point_cap_s", r.point_cap_s);
            r.target_rel_ci = o.value("target_rel_ci", r.target_rel_ci);
            r.target_rel_ci_long = o.value("target_rel_ci_long", r.target_rel_ci_long);
            r.target_rel_ci90 = o.value("target_rel_ci90", r.target_rel_ci90);
            r.min_samples = o.value("min_samples", r.min_samples);
            r.min_samples90 = o.value("min_samples90", r.min_samples90);
            r.tail_max_s = o.value("tail_max_s", r.tail_max_s);
            r.min_samples99 = o.value("min_samples99", r.min_samples99);
            r.target_rel_ci99 = o.value("target_rel_ci99", r.target_rel_ci99);
            r.max_wait_s = o.value("max_wait_s", r.max_wait_s);
            r.wait_share = o.value("wait_share", r.wait_share);
        }
    } catch (const std::exception& e) {  // a field of the wrong type, an unknown state or kernel
        throw UsageError(fmt::format("--resume {}: its options cannot be taken over ({}); give them on the command "
                                     "line, or start a new sweep",
                                     path, e.what()));
    }
}

// The file to continue: made on this machine with the same section options, or a UsageError.
SweepFile resume_file(const std::string& path, const nlohmann::json& probe, const SweepOptions& opt) {
    SweepFile file = read_sweep_file(path);
    if (file.cpu.value("brand", "") != probe.value("brand", "") || file.dirty != dirty_name(opt.dirty) ||
        file.options.value("section_overhead_cycles", std::uint64_t{0}) != opt.section_overhead_cycles)
        throw UsageError(
            fmt::format("--resume {}: made on '{}' with --dirty {} --section-overhead {}; resume it on the same "
                        "machine with the same options",
                        path, file.cpu.value("brand", "?"), file.dirty,
                        file.options.value("section_overhead_cycles", std::uint64_t{0})));
    spdlog::info("resuming {}: {} section and {} threshold points already measured", path, file.sections.size(),
                 file.thresholds.size());
    return file;
}

// The doctor's quick verdict, in a few lines: what it found that matters for this sweep.
void report_verdict(const DoctorReport& d) {
    spdlog::info("doctor (quick, {:.1f} s): this machine is {}{}", d.health.seconds, verdict_name(d.verdict),
                 d.verdict == Verdict::calm ? "" : "; `fputune doctor` says what to do about it");
    for (const Finding& f : d.findings)
        if (f.severity != Verdict::calm) spdlog::info("  {}: {}", f.check, f.what);
}

// The host's disturbances as they end: the first few in the log (every one is in the file).
class EventLog {
public:
    void operator()(const DisturbanceEvent& e) {
        if (e.kind == DisturbanceKind::preempted || ++events_ > 10) return;
        spdlog::info("host disturbance at {:.1f} s: {} for {:.3f} s ({}){}{}", e.start_s, disturbance_name(e.kind),
                     e.length_s, e.detail,
                     e.adopted ? "; it outlasted the wait and was taken as the new normal"
                               : "; waited out, its samples taken again",
                     events_ == 10 ? " (further ones: in the file)" : "");
    }

private:
    int events_ = 0;
};

// --sibling busy[:LOAD]: the co-runner on the CPU's SMT sibling (idle until the first busy round), or a
// UsageError when the option is garbage, the CPU has no sibling, or the sibling cannot be used.
// --neighbour busy[:LOAD]: the same on another CPU that is not the sibling (what other cores take: memory
// bandwidth, the L3), on any machine of two CPUs or more. Which option ran is `option` ("sibling" or
// "neighbour"), the key the file records it under.
std::unique_ptr<SiblingRunner> start_sibling(const po::variables_map& vm, const std::string& root,
                                             const SweepOptions& opt, const std::vector<int>& allowed,
                                             std::string& option) {
    if (vm.count("sibling") && vm.count("neighbour"))
        throw UsageError("--sibling and --neighbour: one co-runner at a time; give one of them");
    option = vm.count("sibling") ? "sibling" : vm.count("neighbour") ? "neighbour" : "";
    if (option.empty()) return nullptr;
    const std::string text = vm[option].as<std::string>();
    const std::optional<SiblingLoad> load = parse_sibling_option(text);
    if (!load) throw UsageError(fmt::format("--{} '{}': accepted: {}", option, text, kSiblingLoads));
    if (opt.sampling.rounds < 2)
        throw UsageError(fmt::format("--{} needs 2 rounds or more: quiet and busy rounds alternate (--rounds 4)",
                                     option));
    std::string why;
    const std::optional<int> cpu = option == "sibling" ? sibling_to_load(root, opt.cpu, why)
                                                       : neighbour_to_load(root, opt.cpu, allowed, why);
    if (!cpu && option == "sibling")
        throw UsageError(
            fmt::format("--sibling {}: {}; there is no sibling to load, so drop --sibling (every sweep "
                        "records the contention it meets), or pin with --cpu to a CPU that has one; "
                        "--neighbour {} loads another CPU",
                        text, why, text));
    if (!cpu) throw UsageError(fmt::format("--neighbour {}: {}; allow another CPU, or drop --neighbour", text, why));
    auto runner = std::make_unique<SiblingRunner>(*cpu, *load, opt.kernels);  // busy:same runs these
    for (int i = 0; i < 100 && !runner->pinned(); ++i) usleep(1000);
    if (!runner->pinned())
        throw UsageError(
            fmt::format("--{} {}: CPU {}, the {} of CPU {}, is not one this process may run on "
                        "(taskset, cgroup); allow it, or drop --{}",
                        option, text, *cpu, option, opt.cpu, option));
    spdlog::info("{}: CPU {} runs the '{}' load in rounds 2, 4, ...; rounds 1, 3, ... are quiet", option, *cpu,
                 sibling_load_name(*load));
    return runner;
}

// The memory's speed and the contention the sweep met, and with --sibling each kernel's stretch under the load,
// in a few lines.
void report_contention(const SweepFile& f, std::ostream& out) {
    if (const MemoryTrace& m = f.memory; m.probes)
        out << fmt::format("memory: a {} KiB read in no cache took {:.0f} TSC ticks at p50 ({:.0f} at p10, {:.0f} at "
                           "p90; {} probes): `verify` and `compare` set theirs against it\n",
                           m.bytes / 1024, m.p50, m.p10, m.p90, m.probes);
    const ContentionTrace& c = f.contention;
    if (!c.probes) return;
    out << fmt::format(
        "contention: throughput-bound code ran {:.2f}x its best at p50, {:.2f}x at p90, {:.2f}x at most; contended "
        "(>= {:.2f}x) in {:.0f} % of {} probes\n",
        c.p50, c.p90, c.max, c.contended_above, 100 * c.contended_share, c.probes);
    const std::string option = f.options.contains("sibling") ? "sibling" : "neighbour";
    if (!f.options.contains(option)) {
        // (With a load on purpose, half the rounds are contended by design.)
        if (const std::string note = busy_core_note(c); !note.empty()) out << note << "\n";
        return;
    }
    for (const auto& [key, st] : sibling_stretches(f))
        out << fmt::format("  {:<32} {:<4} {:.2f}x under the {}'s '{}' load ({} points)\n", key.first, key.second,
                           st.stretch, option, f.options[option].value("load", "?"), st.points);
}

// The first pass, in (1 - loop_share) of the time budget when the closed loop runs, then the loop in what is
// left. The file records the whole time budget.
SweepFile measure_sweep_and_loop(const SweepOptions& opt, const SweepInputs& in, const PoolHooks& hooks,
                                 const std::string& output) {
    const auto start = std::chrono::steady_clock::now();
    SweepOptions first = opt;
    if (opt.closed_loop) first.budget_s = opt.budget_s * (1 - opt.loop_share);
    SweepFile file = measure_sweep(first, in, hooks);
    file.options["time_budget_s"] = opt.budget_s;
    if (!opt.closed_loop || file.partial) return file;
    const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    try {
        // The loop's share is its own: a first pass that ran over (a loaded host) does not eat it.
        return close_loop(file, opt, in, hooks, std::max(opt.budget_s * opt.loop_share, opt.budget_s - spent), output);
    } catch (const std::exception& e) {  // the first pass could not be fitted: its file is still complete
        file.warnings.push_back(fmt::format("closed loop skipped: {}", e.what()));
        return file;
    }
}

}  // namespace

// The closing lines: what was written, how complete, and what the host did to it.
void print_summary(const SweepFile& file, const std::string& output) {
    std::uint64_t interrupted = 0;
    for (const auto& p : file.sections) interrupted += p.cycles.samples ? p.cycles.interrupted : p.ticks.interrupted;
    std::ostream& summary = is_stdout_path(output) ? std::cerr : std::cout;  // `-o -` keeps stdout pure JSON
    summary << fmt::format(
        "{} {}: {} kernels, {} section points, {} threshold points sampled in {} s ({} rounds, {}); {} samples hit by "
        "interruptions; "
        "{} impossible samples and {} in host disturbances measured again{}\n",
        file.partial ? "partial sweep written to" : "wrote", output, file.kernels.size(), file.sections.size(),
        file.thresholds.size(),
        // A quick sweep of one kernel samples in well under a second: "0 s" would read as nothing sampled.
        file.sampling.elapsed_s < 10 ? fmt::format("{:.1f}", file.sampling.elapsed_s)
                                     : fmt::format("{:.0f}", file.sampling.elapsed_s),
        file.sampling.rounds,
        file.partial ? std::string("stopped before its last round ended")
        : file.sampling.unsettled
            ? fmt::format("{} points UNSETTLED: their time ran out, see the warning", file.sampling.unsettled)
            : std::string("every point settled"),
        interrupted, file.sampling.rejected, file.sampling.retaken,
        file.partial ? fmt::format(" (continue with: fputune sweep --resume {} -o {})", output, output) : "");
    summary << closed_loop_summary(file);
    report_contention(file, summary);
}

// The options of `sweep`.
po::options_description sweep_description() {
    po::options_description desc("sweep options");
    desc.add_options()("kernel,k", po::value<std::vector<std::string>>()->composing(),
                       "kernels matching GLOB, or a kind: hash, cipher, raid, all (repeatable; default: all of ours)")(
        "output,o", po::value<std::string>()->default_value("fputune-sweep.json"), "sweep file to write (atomically)")(
        "csv", po::value<std::string>(), "also write the points as CSV to this file")(
        "dirty", po::value<std::string>()->default_value("ymm"), "user state dirtied before each request: xmm|ymm|zmm")(
        "section-overhead", po::value<std::uint64_t>()->default_value(0),
        "extra core cycles per section (begin/end cost; 2022 kernel: 45-56)")(
        "cache", po::value<std::string>()->default_value("both"), "hot|cold|both")(
        "sizes", po::value<std::string>(), "section sizes instead of the default geometric sweep (comma-separated)")(
        "max-bytes", po::value<std::string>()->default_value("1MiB"), "largest section of the default sweep")(
        "no-thresholds", "skip the SIMD-vs-scalar threshold sweep")(
        "quick", "10-30 s: to 256 KiB, 2 points per doubling, 2 rounds, fewer samples (p90 to ~3 %)")(
        "time-budget", po::value<double>(), "seconds for the whole sweep (default 150; --quick 25)")(
        "rounds", po::value<int>(), "rounds each point's samples are spread over (default 4; --quick 2)")(
        "zmm-idle", po::value<std::string>(),
        "also sweep the ZMM warm-up state: each AVX-512 kernel's first section after this long "
        "without vector code, e.g. 1ms (sizes to 256 KiB; each sample waits that long)")(
        "threshold-dirty", po::value<std::string>(),
        "dirty states for the threshold sweep: a list of xmm,ymm,zmm,none (none = user state already saved, no XSAVE) "
        "or 'all' (= xmm,ymm,zmm,none; default: --dirty)")(
        "resume", po::value<std::string>(),
        "continue a partial sweep file (written back to -o) with the options it records; options given here "
        "override them")(
        "cpu", po::value<int>(), "pin to this CPU (default: the last allowed)")(
        "host", po::value<std::string>(),
        "the machine's name to record in the file (fputune fleet: its inventory name); merges name it")(
        "sibling", po::value<std::string>(),
        "busy[:int|vec|mem|same]: run that load on the CPU's SMT sibling in every other round (the worst case a kernel "
        "meets with SMT on); refused where the CPU has no sibling")(
        "neighbour", po::value<std::string>(),
        "busy[:int|vec|mem|same]: the same on another CPU, not a sibling (what other cores take: memory bandwidth, "
        "the L3; busy:mem is the load that matters there)")(
        "budget", po::value<std::string>()->default_value("30us"),
        "the closed loop's question: the time budget per section whose limits it measures at their exact size")(
        "min-freq", po::value<std::string>()->default_value("1GHz"), "the closed loop's minimum core clock")(
        "no-closed-loop",
        "only the first pass: no constants measured at their exact size (off anyway with --sizes)")(
        "root", po::value<std::string>()->default_value("/"), "read /proc and /sys under this directory");
    return desc;
}

int run_sweep(const Args& args) {
    po::options_description desc = sweep_description();
    po::variables_map vm;
    if (!parse("sweep", "[-k GLOB]... [-o FILE] [--csv FILE] [--dirty ymm] [--cache both] [--quick] [--resume FILE]",
               desc, args, vm))
        return kExitOk;

    SweepOptions opt = sweep_options(vm);
    const std::string host = vm.count("host") ? vm["host"].as<std::string>() : "";
    if (vm.count("host") && (host.empty() || host.size() > 255 || printable(host, 255) != host))
        throw UsageError("--host '" + printable(host) + "': a machine's name, 1 to 255 printable characters");
    std::optional<SweepFile> resumed;
    if (vm.count("resume")) {
        const std::string path = vm["resume"].as<std::string>();
        options_from_file(opt, read_sweep_file(path).options, vm, path);
    }
    const std::string output = vm["output"].as<std::string>();
    check_writable(output);
    if (vm.count("csv")) check_writable(vm["csv"].as<std::string>());
    // -o may be the --resume file (written back), but nothing else may name one file twice.
    const std::string csv_path = vm.count("csv") ? vm["csv"].as<std::string>() : "";
    refuse_same_files({{"-o", output}, {"--csv", csv_path}}, {});
    refuse_same_files({{"--csv", csv_path}}, {{"--resume", vm.count("resume") ? vm["resume"].as<std::string>() : ""}});
    const std::vector<int> allowed = allowed_cpus();  // before pinning narrows them to one
    opt.cpu = pin_cpu(vm);
    const std::string root = vm["root"].as<std::string>();
    std::string co_runner;  // "sibling", "neighbour" or "" (none)
    std::unique_ptr<SiblingRunner> sibling = start_sibling(vm, root, opt, allowed, co_runner);

    SweepInputs in;
    in.cpu = probe_cpu();
    if (vm.count("resume")) {
        resumed = resume_file(vm["resume"].as<std::string>(), in.cpu, opt);
        in.resume = &*resumed;
    }
    // The machine is judged before it is trusted: the doctor's quick look, said and recorded.
    DoctorReport doctor = fputune::run_doctor(root, opt.cpu, 1.0);
    doctor.quick = true;
    report_verdict(doctor);
    in.doctor = doctor.to_json();
    in.calm = doctor.health.calm;

    spdlog::info(
        "sweep on {} (CPU {}), TSC {:.4f} GHz, core/TSC {:.3f}; dirty {}, cache {}, section overhead {} cycles, {} "
        "rounds{}",
        in.cpu.value("brand", "?"), opt.cpu, tsc_info().hz / 1e9, doctor.health.calm.core_per_tsc,
        dirty_name(opt.dirty), opt.to_json()["cache"].get<std::string>(), opt.section_overhead_cycles,
        opt.sampling.rounds, opt.quick ? ", quick" : "");
    // Until the file is written, these signals (a second Ctrl-C too) only ask the sweep to stop.
    const StopOnSignals signals;
    in.stop_reason = [&] { return signals.signal() ? std::string(signal_name(signals.signal())) : std::string(); };
    ProgressLog progress(isatty(STDERR_FILENO));
    EventLog events;
    PoolHooks hooks;
    hooks.stop = &signals.stop();
    hooks.progress = [&](const PoolProgress& p) {
        const std::size_t total = static_cast<std::size_t>(p.rounds) * p.points;  // steps: a point settled in a round
        const std::size_t done = (static_cast<std::size_t>(p.round) - 1) * p.points + p.settled;
        progress.update(std::min(done, total ? total - 1 : 0), total,
                        fmt::format("round {}/{}: {}/{} points settled", p.round, p.rounds, p.settled, p.points));
    };
    hooks.on_event = [&](const DisturbanceEvent& e) { events(e); };
    if (sibling) hooks.on_round = [&](int r) { sibling->set_busy(r % 2 == 1); };
    if (sibling) hooks.on_point = same_kernel_hook(*sibling, plan_sweep(opt, in.resume));  // busy:same: what runs now
    SweepFile file = measure_sweep_and_loop(opt, in, hooks, output);
    if (!host.empty()) file.host = host;
    progress.update(1, 1, "done");
    if (sibling) {
        sibling->set_busy(false);
        file.options[co_runner] = {
            {"cpu", sibling->cpu()}, {"load", sibling_load_name(sibling->load())}, {"busy_rounds", "odd"}};
    }
    for (const std::string& w : file.warnings) spdlog::warn("{}", w);

    write_sweep_file(output, file);
    if (vm.count("csv")) write_file_atomic(vm["csv"].as<std::string>(), sweep_csv(file));
    print_summary(file, output);
    return file.partial ? kExitPartial : kExitOk;
}

}  // namespace fputune::cli
