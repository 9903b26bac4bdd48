// SPDX-License-Identifier: MIT
// `fputune doctor`: is this machine fit to measure on, and what would make it calmer?
#include <iostream>

#include <fmt/format.h>

#include "cli.hpp"
#include "doctor.hpp"
#include "probe.hpp"
#include "provenance_json.hpp"

namespace fputune::cli {

int run_doctor(const Args& args) {
    po::options_description desc("doctor options");
    desc.add_options()("json", "print the report as JSON")(
        "cpu", po::value<int>(), "the CPU to judge, pinned (default: the last allowed, as sweep)")(
        "seconds", po::value<double>()->default_value(5),
        "how long to watch the timer, the core clock and the interruptions")(
        "root", po::value<std::string>()->default_value("/"),
        "read /proc and /sys under this directory (a copy of another machine's, or a test tree)");
    po::variables_map vm;
    if (!parse("doctor", "[--json] [--cpu N] [--seconds 5]   (exit 0 calm or noisy, 1 unfit)", desc, args, vm))
        return kExitOk;
    const double seconds = vm["seconds"].as<double>();
    if (!(seconds > 0 && seconds <= 600)) throw UsageError("--seconds: > 0 and at most 600");
    const int cpu = pin_cpu(vm);
    const DoctorReport r = fputune::run_doctor(vm["root"].as<std::string>(), cpu, seconds);
    if (vm.count("json")) {
        nlohmann::json j = r.to_json();
        j.update(provenance_now("fputune.doctor/1"));
        j["machine"] = probe_cpu().value("brand", "?");
        std::cout << j.dump(1) << "\n";
        return r.verdict == Verdict::unfit ? kExitCheckFailed : kExitOk;
    }
    const SystemFacts& f = r.facts;
    const TimerHealth& h = r.health;
    std::cout << fmt::format("fputune {} ({}) doctor: CPU {} watched for {:.1f} s\n\n", tool_version(), tool_commit(),
                             cpu, h.seconds);
    std::string verdict = verdict_name(r.verdict);
    for (char& ch : verdict) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    std::cout << "verdict: " << verdict
              << (r.verdict == Verdict::calm ? " (numbers measured here can be trusted as they are)\n"
                  : r.verdict == Verdict::noisy
                      ? " (numbers measured here hold for this machine as it is now; see below what moves them)\n"
                      : " (numbers measured here cannot be trusted)\n");
    for (const Finding& x : r.findings) {
        std::cout << fmt::format("\n  {:<6} {:<14} {}\n",
                                 x.severity == Verdict::calm ? "note" : verdict_name(x.severity), x.check, x.what);
        if (!x.advice.empty()) std::cout << fmt::format("  {:<6} {:<14} -> {}\n", "", "", x.advice);
    }
    std::cout << fmt::format(
        "\ntimer      empty section {:.0f} ticks (p99 {:.0f}, max {:.0f}), step {:.0f} (max {:.0f}), slow in {:.1f} % "
        "of calibrations\n",
        h.overhead_p50, h.overhead_p99, h.overhead_max, h.step_p50, h.step_max, 100 * h.slow_share);
    std::cout << fmt::format("core/TSC   {:.3f} (p10..p90 {:.2f} % apart), {:.1f} % of the probes interrupted\n",
                             h.ratio_p50, 100 * h.ratio_spread, 100 * h.probes_rejected_share);
    std::cout << fmt::format(
        "stalls     {:.2f} per ms (median {:.0f} us, longest {:.0f} us), {:.2f} % of the time lost ({:.2f} % to other "
        "tasks "
        "on this CPU)\n",
        h.stalls_per_ms, h.stall_p50_us, h.stall_max_us, 100 * h.lost_share, 100 * h.descheduled_share);
    if (h.contention.probes)
        std::cout << fmt::format(
            "contention {:.2f}x of its best at p50, {:.2f}x at p90, {:.2f}x at most; contended (>= {:.2f}x) in {:.1f} % "
            "of {} probes, {:.2f} s at a stretch\n",
            h.contention.p50, h.contention.p90, h.contention.max, h.contention.contended_above,
            100 * h.contention.contended_share, h.contention.probes, h.contended_longest_s);
    std::cout << fmt::format("system     {} online CPU(s){}; governor {}; boost {}; clocksource {}; transparent huge "
                             "pages {}\n",
                             f.online.size(),
                             f.hypervisor ? ", under a hypervisor" : "",
                             f.governor.empty() ? "none (no cpufreq)" : f.governor,
                             f.boost < 0 ? "unknown"
                             : f.boost   ? "on"
                                         : "off",
                             f.clocksource.empty() ? "?" : f.clocksource,
                             f.transparent_hugepage.empty() ? "?" : f.transparent_hugepage);
    return r.verdict == Verdict::unfit ? kExitCheckFailed : kExitOk;
}

}  // namespace fputune::cli
