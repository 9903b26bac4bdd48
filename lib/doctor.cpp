// SPDX-License-Identifier: MIT
// The doctor's readings of /proc and /sys, its timer measurement, and the rules of its verdict.
#include "doctor.hpp"

#include <time.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "clock.hpp"
#include "contention_levels.hpp"
#include "sampler.hpp"

namespace fputune {

namespace {

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    if (!in) return {};
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string first_line(const std::string& path) {
    std::string s = slurp(path);
    if (auto nl = s.find('\n'); nl != std::string::npos) s.resize(nl);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.pop_back();
    return s;
}

bool exists(const std::string& path) { return std::ifstream(path).good(); }

// "0-3,8,10-11" -> {0,1,2,3,8,10,11}
std::vector<int> parse_cpu_list(const std::string& text) {
    std::vector<int> out;
    std::stringstream ss(text);
    for (std::string item; std::getline(ss, item, ',');) {
        item.erase(std::remove_if(item.begin(), item.end(),
                                  [](char c) { return std::isspace(static_cast<unsigned char>(c)); }),
                   item.end());
        if (item.empty()) continue;
        try {
            const auto dash = item.find('-');
            const int lo = std::stoi(item.substr(0, dash));
            const int hi = dash == std::string::npos ? lo : std::stoi(item.substr(dash + 1));
            for (int c = lo; c <= hi && c - lo < 4096; ++c) out.push_back(c);
        } catch (const std::exception&) {}
    }
    return out;
}

// The value of `key=` on the kernel command line ("" when absent).
std::string cmdline_value(const std::string& cmdline, const std::string& key) {
    std::stringstream ss(cmdline);
    for (std::string w; ss >> w;) {
        if (w == "--") break;
        if (w.rfind(key + "=", 0) == 0) return w.substr(key.size() + 1);
    }
    return {};
}

double clock_s(clockid_t id) {
    timespec ts{};
    clock_gettime(id, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}
double monotonic_s() { return clock_s(CLOCK_MONOTONIC); }

bool contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// The cpuinfo flags of the first processor.
std::vector<std::string> cpu_flags(const std::string& root) {
    std::stringstream in(slurp(root + "/proc/cpuinfo"));
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("flags", 0) != 0) continue;
        std::stringstream words(line.substr(line.find(':') == std::string::npos ? line.size() : line.find(':') + 1));
        std::vector<std::string> flags;
        for (std::string w; words >> w;) flags.push_back(w);
        return flags;
    }
    return {};
}

}  // namespace

const char* verdict_name(Verdict v) noexcept {
    switch (v) {
        case Verdict::calm: return "calm";
        case Verdict::noisy: return "noisy";
        case Verdict::unfit: return "unfit";
    }
    return "?";
}

SystemSnapshot read_snapshot(const std::string& root) {
    SystemSnapshot s;
    s.at_s = monotonic_s();
    std::stringstream stat(slurp(root + "/proc/stat"));
    for (std::string line; std::getline(stat, line);) {
        if (line.rfind("cpu", 0) != 0 || line.size() < 4 || !std::isdigit(static_cast<unsigned char>(line[3])))
            continue;
        std::stringstream ws(line.substr(3));
        int cpu = 0;
        ws >> cpu;
        // user nice system idle iowait irq softirq steal (guest time is already in user)
        std::uint64_t v[8] = {};
        for (auto& x : v) ws >> x;
        SystemSnapshot::Jiffies j;
        j.busy = v[0] + v[1] + v[2] + v[5] + v[6];
        j.steal = v[7];
        j.total = j.busy + v[3] + v[4] + v[7];
        s.cpu_jiffies[cpu] = j;
    }
    std::stringstream irq(slurp(root + "/proc/interrupts"));
    std::vector<int> columns;
    for (std::string line; std::getline(irq, line);) {
        std::stringstream ws(line);
        if (columns.empty()) {
            for (std::string w; ws >> w;)
                if (w.rfind("CPU", 0) == 0) columns.push_back(std::atoi(w.c_str() + 3));
            continue;
        }
        std::string label;
        ws >> label;
        const bool device = !label.empty() && std::isdigit(static_cast<unsigned char>(label[0]));
        SystemSnapshot::DeviceIrq irq_line;
        for (int c : columns) {
            std::uint64_t n = 0;
            if (!(ws >> n)) break;
            s.interrupts[c] += n;
            if (device && n) irq_line.per_cpu[c] = n;
        }
        if (!device) continue;
        std::string name;
        for (std::string w; ws >> w;) name = w;  // the last word names the device
        irq_line.name = label.substr(0, label.size() - (label.back() == ':')) + " " + name;
        s.device_irqs.push_back(std::move(irq_line));
    }
    return s;
}

std::vector<int> smt_siblings(const std::string& root, int cpu) {
    std::vector<int> out;
    const std::string list = fmt::format("{}/sys/devices/system/cpu/cpu{}/topology/thread_siblings_list", root, cpu);
    for (int s : parse_cpu_list(first_line(list)))
        if (s != cpu && std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
    return out;
}

SystemFacts read_system_facts(const std::string& root, int cpu, const SystemSnapshot& a, const SystemSnapshot& b) {
    SystemFacts f;
    f.cpu = cpu;
    const std::string sys = root + "/sys/devices/system/cpu";
    f.online = parse_cpu_list(first_line(sys + "/online"));
    const std::vector<std::string> flags = cpu_flags(root);
    auto has_flag = [&](const char* name) { return std::find(flags.begin(), flags.end(), name) != flags.end(); };
    f.hypervisor_type = first_line(root + "/sys/hypervisor/type");
    f.hypervisor = has_flag("hypervisor") || !f.hypervisor_type.empty();
    f.constant_tsc = has_flag("constant_tsc");
    f.nonstop_tsc = has_flag("nonstop_tsc");
    const std::string cpu_dir = fmt::format("{}/cpu{}", sys, cpu);
    f.siblings = smt_siblings(root, cpu);
    f.governor = first_line(cpu_dir + "/cpufreq/scaling_governor");
    if (exists(sys + "/intel_pstate/no_turbo"))
        f.boost = first_line(sys + "/intel_pstate/no_turbo") == "1" ? 0 : 1;
    else if (exists(sys + "/cpufreq/boost"))
        f.boost = first_line(sys + "/cpufreq/boost") == "1" ? 1 : 0;
    const std::string cmdline = first_line(root + "/proc/cmdline");
    f.isolated = parse_cpu_list(first_line(sys + "/isolated"));
    if (f.isolated.empty()) {
        std::string iso =
            cmdline_value(cmdline, "isolcpus");  // "domain,managed_irq,2-3": the CPU list is the last field
        if (auto comma = iso.find_last_of(',');
            comma != std::string::npos && !std::isdigit(static_cast<unsigned char>(iso[0])))
            iso = iso.substr(comma + 1);
        f.isolated = parse_cpu_list(iso);
    }
    f.nohz_full = parse_cpu_list(first_line(sys + "/nohz_full"));
    if (f.nohz_full.empty()) f.nohz_full = parse_cpu_list(cmdline_value(cmdline, "nohz_full"));
    f.rcu_nocbs = parse_cpu_list(cmdline_value(cmdline, "rcu_nocbs"));
    const std::string cs = root + "/sys/devices/system/clocksource/clocksource0";
    // "always [madvise] never": the bracketed word is the mode.
    const std::string thp = first_line(root + "/sys/kernel/mm/transparent_hugepage/enabled");
    if (const auto open = thp.find('['), close = thp.find(']'); open != std::string::npos && close > open)
        f.transparent_hugepage = thp.substr(open + 1, close - open - 1);
    f.clocksource = first_line(cs + "/current_clocksource");
    std::stringstream avail(first_line(cs + "/available_clocksource"));
    for (std::string w; avail >> w;) f.clocksources.push_back(w);
    // Rates between the snapshots.
    const double dt = b.at_s - a.at_s;
    for (const auto& [c, jb] : b.cpu_jiffies) {
        auto it = a.cpu_jiffies.find(c);
        if (it == a.cpu_jiffies.end() || jb.total <= it->second.total) continue;
        const double total = static_cast<double>(jb.total - it->second.total);
        f.busy[c] = static_cast<double>(jb.busy - it->second.busy) / total;
        f.steal[c] = static_cast<double>(jb.steal - it->second.steal) / total;
    }
    if (dt > 0)
        for (const auto& [c, n] : b.interrupts)
            if (auto it = a.interrupts.find(c); it != a.interrupts.end() && n >= it->second)
                f.irq_per_s[c] = static_cast<double>(n - it->second) / dt;
    // Device interrupts that fired on the CPU (numbered lines of /proc/interrupts), busiest first.
    std::vector<std::pair<std::uint64_t, std::string>> devices;
    for (const SystemSnapshot::DeviceIrq& d : b.device_irqs)
        if (auto it = d.per_cpu.find(cpu); it != d.per_cpu.end()) devices.emplace_back(it->second, d.name);
    std::sort(devices.rbegin(), devices.rend());
    for (std::size_t i = 0; i < devices.size() && i < 5; ++i) f.device_irqs.push_back(devices[i].second);
    return f;
}

namespace {

// The longest run of consecutive contended probes, from the first one's time to the last one's.
double longest_contended_s(const std::vector<double>& probes, const std::vector<std::uint64_t>& at, double hz) {
    const double best = best_probe_cycles(probes);
    double longest = 0;
    std::size_t start = 0;
    bool in = false;
    for (std::size_t i = 0; i < probes.size(); ++i) {
        const bool contended = contention_level(probes[i], best) >= kContendedAbove;
        if (contended && !in) start = i;
        in = contended;
        if (in) longest = std::max(longest, static_cast<double>(at[i] - at[start]) / hz);
    }
    return longest;
}

}  // namespace

TimerHealth measure_timer_health(double seconds) {
    TimerHealth h;
    const double hz = tsc_info().hz;
    const Calibration start = calm_level(16);
    DisturbanceMonitor monitor(hz);
    monitor.seed(start);
    std::vector<double> overhead, step, ratio, stalls_us, contention;
    std::vector<std::uint64_t> contention_at;
    std::uint64_t probes = 0, rejected = 0, slow = 0, calibrations = 0;
    double spun = 0, lost = 0;
    const double wall0 = monotonic_s(), cpu0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
    const std::uint64_t t_start = tsc_begin(), span = static_cast<std::uint64_t>(seconds * hz);
    const auto gap = static_cast<std::uint64_t>(2e-6 * hz), spin = static_cast<std::uint64_t>(0.75e-3 * hz);
    Calibration before = start;
    for (std::uint64_t now = t_start; now >= t_start && now - t_start < span; now = tsc_begin()) {  // (or a step)
        const Calibration c = calibrate_now(monitor.probe_floor());
        ++calibrations;
        probes += static_cast<std::uint64_t>(c.probes_rejected) + (c.core_per_tsc > 0 ? 1 : 0);
        rejected += static_cast<std::uint64_t>(c.probes_rejected);
        overhead.push_back(c.overhead_ticks);
        step.push_back(c.step_ticks);
        if (c.core_per_tsc > 0) ratio.push_back(c.core_per_tsc);
        if (c.contention_cycles > 0) {
            contention.push_back(c.contention_cycles);
            contention_at.push_back(c.tsc);
        }
        if (monitor.judge_calibration(c) == DisturbanceKind::timer_slow) {
            ++slow;
        } else if (c.core_per_tsc > 0) {
            monitor.observe(before, c, {});  // learns the calm levels
            before = c;
        }
        // Spin and watch for the host taking the CPU (a gap between two reads).
        std::uint64_t s0 = __rdtsc(), prev = s0;
        while (prev - s0 < spin) {
            const std::uint64_t t = __rdtsc();
            if (t < prev) break;  // the TSC stepped back (a restore): no stall of 2^64 ticks
            if (t - prev > gap) {
                stalls_us.push_back(static_cast<double>(t - prev) / hz * 1e6);
                lost += static_cast<double>(t - prev);
            }
            prev = t;
        }
        spun += static_cast<double>(prev - s0);
    }
    auto q = [](std::vector<double> v, double f) {
        if (v.empty()) return 0.0;
        std::sort(v.begin(), v.end());
        return v[static_cast<std::size_t>(f * static_cast<double>(v.size() - 1))];
    };
    h.seconds = tsc_seconds(t_start, tsc_begin(), hz);
    // The thread's own CPU time against the wall: what the scheduler gave to other tasks (a hypervisor's
    // stalls are invisible here: the guest counts them as ours).
    const double wall = monotonic_s() - wall0, ran = clock_s(CLOCK_THREAD_CPUTIME_ID) - cpu0;
    h.descheduled_share = wall > 0 ? std::clamp(1 - ran / wall, 0.0, 1.0) : 0;
    h.overhead_p50 = q(overhead, 0.5);
    h.overhead_p99 = q(overhead, 0.99);
    h.overhead_max = q(overhead, 1);
    h.step_p50 = q(step, 0.5);
    h.step_max = q(step, 1);
    h.slow_share = calibrations ? static_cast<double>(slow) / static_cast<double>(calibrations) : 0;
    h.ratio_p50 = q(ratio, 0.5);
    h.ratio_spread = h.ratio_p50 > 0 ? (q(ratio, 0.9) - q(ratio, 0.1)) / h.ratio_p50 : 0;
    h.probes_rejected_share = probes ? static_cast<double>(rejected) / static_cast<double>(probes) : 0;
    h.stalls_per_ms = spun > 0 ? static_cast<double>(stalls_us.size()) / (spun / hz * 1e3) : 0;
    h.stall_p50_us = q(stalls_us, 0.5);
    h.stall_max_us = q(stalls_us, 1);
    h.lost_share = spun > 0 ? lost / spun : 0;
    h.contention = summarise_contention(contention);
    h.memory = summarise_memory(probe_memory_block(2 * kMemoryBlockProbes));
    h.contended_longest_s = longest_contended_s(contention, contention_at, hz);
    h.calm.overhead_ticks = monitor.overhead_level() > 0 ? monitor.overhead_level() : start.overhead_ticks;
    h.calm.step_ticks = monitor.step_level() > 0 ? monitor.step_level() : start.step_ticks;
    h.calm.core_per_tsc = monitor.ratio_level() > 0 ? monitor.ratio_level() : start.core_per_tsc;
    h.calm.tsc = tsc_end();
    return h;
}

namespace {

// What the host's memory took: other tenants' traffic moves every cold section with it (lib/clock.hpp).
void add_memory_finding(DoctorReport& r, const TimerHealth& h) {
    const MemoryTrace& m = h.memory;
    if (!m.probes) return;
    const double ns = 1e9 / tsc_info().hz;
    r.findings.push_back(
        {Verdict::calm, "memory",
         fmt::format("a {} KiB read in no cache took {:.0f} ns at p50 ({:.0f} at p10, {:.0f} at p90; {} probes)",
                     m.bytes / 1024, m.p50 * ns, m.p10 * ns, m.p90 * ns, m.probes),
         "cold sections move with it: a sweep records it, and verify and compare set theirs against the sweep's"});
}

// The core's other hardware thread: how often, and by how much, it slowed the contention probe.
void add_contention_finding(DoctorReport& r, const SystemFacts& f, const TimerHealth& h) {
    const ContentionTrace& c = h.contention;
    if (!c.probes) return;
    const std::string what = fmt::format(
        "throughput-bound code ran up to {:.2f}x slower than its best (p90 {:.2f}x) and was contended (>= {:.2f}x) "
        "in {:.0f} % of {} probes, for {:.2f} s at a stretch: {}",
        c.max, c.p90, c.contended_above, 100 * c.contended_share, c.probes, h.contended_longest_s,
        f.siblings.empty() ? "another tenant on this core's other hardware thread (this CPU shows no sibling)"
                           : "the core's other hardware thread was busy");
    if (c.contended_share > 0.02)
        r.findings.push_back(
            {Verdict::noisy, "contention", what,
             "a section's length depends on it: sweep records it per point and round (\"contention\"), and "
             "recommend --contention quiet|observed|FACTOR states which contention its limits assume"});
    else
        r.findings.push_back({Verdict::calm, "contention",
                              fmt::format("throughput-bound code held its speed (p90 {:.2f}x of its best, contended "
                                          "in {:.1f} % of {} probes)",
                                          c.p90, 100 * c.contended_share, c.probes),
                              ""});
}

// The findings so far, and a better CPU to pin (online, not this one, with the fewest interrupts; -1: none).
struct Diagnosis {
    DoctorReport& r;
    int better = -1;
    double better_irq = 0;
    void add(Verdict v, const std::string& check, const std::string& what, const std::string& advice) {
        r.findings.push_back({v, check, what, advice});
    }
};

// The clock itself: an invariant TSC the kernel trusts, read without a trap.
void clock_findings(const SystemFacts& f, const TimerHealth& h, Diagnosis& d) {
    // The clock itself.
    if (!f.constant_tsc || !f.nonstop_tsc)
        d.add(Verdict::unfit, "tsc",
            fmt::format("the TSC is not invariant (cpuinfo lacks {}): its ticks are not time when the core clock or "
                        "C-state changes",
                        !f.constant_tsc ? "constant_tsc" : "nonstop_tsc"),
            "measure on a CPU with an invariant TSC (constant_tsc and nonstop_tsc); under a hypervisor, expose them to "
            "the guest");
    const bool tsc_trusted = f.clocksource == "tsc" || f.clocksource == "kvm-clock" ||
                             std::find(f.clocksources.begin(), f.clocksources.end(), "tsc") != f.clocksources.end();
    if (!f.clocksource.empty() && !tsc_trusted)
        d.add(Verdict::unfit, "clocksource",
            fmt::format("the kernel uses the '{}' clocksource and does not offer 'tsc': it judged the TSC unstable",
                        f.clocksource),
            "look for 'tsc: Marking TSC unstable' in dmesg; measure on another machine");
    if (h.slow_share > 0.5)
        d.add(Verdict::unfit, "timer",
            fmt::format("the timer was slow (trapped) in {:.0f} % of {:.1f} s: empty section up to {:.0f} ticks, step "
                        "up to {:.0f}",
                        100 * h.slow_share, h.seconds, h.overhead_max, h.step_max),
            "the hypervisor traps RDTSC: disable TSC scaling/offsetting tricks or measure on bare metal");
    else if (h.slow_share > 0.01 || h.overhead_p99 > 3 * h.overhead_p50 + 2 * h.step_p50)
        d.add(Verdict::noisy, "timer",
            fmt::format("the timer's own cost moves: empty section {:.0f} ticks typically, {:.0f} at p99, {:.0f} at "
                        "most; step {:.0f}..{:.0f}; "
                        "slow in {:.1f} % of calibrations",
                        h.overhead_p50, h.overhead_p99, h.overhead_max, h.step_p50, h.step_max, 100 * h.slow_share),
            "fputune corrects each sample with the timer probed beside it and waits slow stretches out; nothing to "
            "set");
}

// Memory and what else runs: huge pages, this CPU's run queue, the host, SMT siblings, other CPUs.
void load_findings(const SystemFacts& f, const TimerHealth& h, Diagnosis& d) {
    const int cpu = f.cpu;
    const int better = d.better;
    // Memory: cold sections stream from a buffer on 2 MiB pages, as the kernel's direct map.
    if (f.transparent_hugepage == "never")
        d.add(Verdict::noisy, "huge pages",
            "transparent huge pages are off: cold sections would pay a page walk every 4 KiB that the kernel's "
            "direct map does not (their limits come out low)",
            "as root: echo madvise > /sys/kernel/mm/transparent_hugepage/enabled");

    // Other tasks on this very CPU.
    if (h.descheduled_share > 0.05)
        d.add(h.descheduled_share > 0.2 ? Verdict::unfit : Verdict::noisy, "run queue",
            fmt::format("other tasks ran on CPU {} for {:.0f} % of the time: fputune waits for the CPU in the middle "
                        "of its samples",
                        cpu, 100 * h.descheduled_share),
            better >= 0 ? fmt::format("stop that load, or pin to CPU {} (--cpu {})", better, better)
                        : "stop that load (or run it elsewhere: taskset), or measure under a lock: flock -x "
                          "/tmp/fputune-cpu.lock fputune sweep");
    // The host and the neighbours (what the scheduler took is counted above).
    const double host_lost = std::max(0.0, h.lost_share - h.descheduled_share);
    if (host_lost > 0.2 || h.stalls_per_ms > 10)
        d.add(Verdict::unfit, "interruptions",
            fmt::format("the CPU was taken away {:.1f} times per ms ({:.0f} % of the time, median {:.0f} us, longest "
                        "{:.0f} us)",
                        h.stalls_per_ms, 100 * host_lost, h.stall_p50_us, h.stall_max_us),
            better >= 0
                ? fmt::format("pin to CPU {} (--cpu {}) and stop other load; on a VM, ask for dedicated host cores",
                              better, better)
                : "stop other load; on a VM, ask for dedicated host cores");
    else if (h.stalls_per_ms > 0.2)
        d.add(Verdict::noisy, "interruptions",
            fmt::format("the CPU was taken away {:.2f} times per ms ({:.1f} % of the time, median {:.0f} us, longest "
                        "{:.0f} us): samples hit "
                        "by them are counted apart, but they set every raw p99",
                        h.stalls_per_ms, 100 * host_lost, h.stall_p50_us, h.stall_max_us),
            f.hypervisor
                ? "the host's own work (VM exits, timers, other tenants): only dedicated host cores remove it"
                : fmt::format(
                      "isolate CPU {0} (boot with isolcpus={0} nohz_full={0} rcu_nocbs={0}) and pin with --cpu {0}",
                      cpu));
    if (f.hypervisor)
        d.add(Verdict::noisy, "hypervisor",
            fmt::format("a virtual machine{}: the host can take the CPU at any time, and its other tenants share the "
                        "core and caches; limits "
                        "measured here describe this VM",
                        f.hypervisor_type.empty() ? "" : " (" + f.hypervisor_type + ")"),
            "for constants to ship, measure on bare metal (or on host cores dedicated to this VM), at different times, "
            "and merge "
            "the sweeps with `recommend --from`");
    for (int s : f.siblings) {
        if (!f.busy.count(s)) continue;
        const double b = f.busy.at(s);
        if (b > 0.1)
            d.add(b > 0.5 ? Verdict::unfit : Verdict::noisy, "smt",
                fmt::format("CPU {}, the SMT sibling of CPU {}, was busy {:.0f} % of the time: it shares the core's "
                            "execution units",
                            s, cpu, 100 * b),
                fmt::format("stop its load, or take it offline as root: echo 0 > /sys/devices/system/cpu/cpu{}/online",
                            s));
    }
    for (const auto& [c, b] : f.busy) {
        if (c == cpu || contains(f.siblings, c) || b < 0.5) continue;
        d.add(Verdict::noisy, "load",
            fmt::format(
                "CPU {} was busy {:.0f} % of the time: other load shares the memory bandwidth and last-level cache{}",
                c, 100 * b, f.hypervisor ? ", and perhaps a host core" : ""),
            "measure while nothing else runs (e.g. build first, or take a lock: flock -x /tmp/fputune-cpu.lock fputune "
            "sweep)");
    }
    if (f.steal.count(cpu) && f.steal.at(cpu) > 0.02)
        d.add(f.steal.at(cpu) > 0.2 ? Verdict::unfit : Verdict::noisy, "steal",
            fmt::format("the hypervisor gave {:.0f} % of CPU {}'s time to others (steal)", 100 * f.steal.at(cpu), cpu),
            "ask for dedicated host cores, or measure at a quieter time");
}

// The core clock: governor, boost, and how much the core/TSC ratio moved.
void core_clock_findings(const SystemFacts& f, const TimerHealth& h, Diagnosis& d) {
    const int cpu = f.cpu;
    // The core clock.
    if (!f.governor.empty() && f.governor != "performance")
        d.add(Verdict::noisy, "governor",
            fmt::format("cpufreq governor '{}' on CPU {}: the core clock follows the load", f.governor, cpu),
            fmt::format("as root: echo performance > /sys/devices/system/cpu/cpu{}/cpufreq/scaling_governor (or "
                        "cpupower frequency-set -g performance)",
                        cpu));
    if (f.boost == 1)
        d.add(Verdict::noisy, "boost",
            "turbo/boost is on: the core clock moves with load and temperature within milliseconds",
            "as root: echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo (Intel) or echo 0 > "
            "/sys/devices/system/cpu/cpufreq/boost");
    if (h.ratio_spread > 0.03 || h.probes_rejected_share > 0.05)
        d.add(Verdict::noisy, "core clock",
            fmt::format("core/TSC {:.3f}, p10..p90 {:.1f} % apart; {:.1f} % of the probes were interrupted",
                        h.ratio_p50, 100 * h.ratio_spread, 100 * h.probes_rejected_share),
            "fputune converts every sample with the ratio probed beside it; a fixed frequency (governor, no boost) "
            "makes it hold still");
}

// Isolation and interrupts on the CPU.
void isolation_findings(const SystemFacts& f, const TimerHealth& h, Diagnosis& d) {
    const int cpu = f.cpu;
    const int better = d.better;
    const double better_irq = d.better_irq;
    // Isolation and interrupts on the CPU.
    add_contention_finding(d.r, f, h);
    add_memory_finding(d.r, h);

    const double irq = f.irq_per_s.count(cpu) ? f.irq_per_s.at(cpu) : -1;
    if (irq > 2000)
        d.add(Verdict::noisy, "irq",
            fmt::format("{:.0f} interrupts per second on CPU {}{}", irq, cpu,
                        f.device_irqs.empty() ? "" : fmt::format(" (devices: {})", fmt::join(f.device_irqs, ", "))),
            better >= 0 ? fmt::format("pin to CPU {} (--cpu {}), which takes {:.0f} per second, or move the devices' "
                                      "interrupts as root: "
                                      "echo {} > /proc/irq/N/smp_affinity_list",
                                      better, better, better_irq, better)
                        : "move device interrupts to another CPU as root: echo M > /proc/irq/N/smp_affinity_list (and "
                          "stop irqbalance)");
    const bool isolated = contains(f.isolated, cpu), tickless = contains(f.nohz_full, cpu),
               nocb = contains(f.rcu_nocbs, cpu);
    if (!isolated || !tickless || !nocb) {
        std::vector<std::string> missing;
        if (!isolated) missing.push_back(fmt::format("isolcpus={}", cpu));
        if (!tickless) missing.push_back(fmt::format("nohz_full={}", cpu));
        if (!nocb) missing.push_back(fmt::format("rcu_nocbs={}", cpu));
        d.add(Verdict::calm, "isolation",
            fmt::format(
                "CPU {} is not set apart ({} missing): the scheduler, the timer tick and RCU callbacks run on it", cpu,
                fmt::join(missing, " ")),
            fmt::format("for the quietest runs boot with {} and pin with --cpu {}", fmt::join(missing, " "), cpu));
    }
    if (f.device_irqs.size() && irq <= 2000 && irq >= 0)
        d.add(Verdict::calm, "irq",
            fmt::format("{:.0f} interrupts per second on CPU {} (devices: {})", irq, cpu,
                        fmt::join(f.device_irqs, ", ")),
            better >= 0 ? fmt::format("CPU {} takes fewer ({:.0f} per second): --cpu {}", better, better_irq, better)
                        : "");
}

}  // namespace

DoctorReport diagnose(const SystemFacts& f, const TimerHealth& h) {
    DoctorReport r;
    r.facts = f;
    r.health = h;
    Diagnosis d{r};
    const int cpu = f.cpu;
    // A better CPU to pin: online, not this one, with idle SMT siblings and the fewest interrupts.
    d.better_irq = f.irq_per_s.count(cpu) ? f.irq_per_s.at(cpu) : 0;
    for (int c : f.online) {
        if (c == cpu || !f.irq_per_s.count(c)) continue;
        if (f.irq_per_s.at(c) < 0.5 * d.better_irq) {
            d.better = c;
            d.better_irq = f.irq_per_s.at(c);
        }
    }
    clock_findings(f, h, d);
    load_findings(f, h, d);
    core_clock_findings(f, h, d);
    isolation_findings(f, h, d);
    std::stable_sort(r.findings.begin(), r.findings.end(),
                     [](const Finding& a, const Finding& b) { return a.severity > b.severity; });
    for (const Finding& x : r.findings) r.verdict = std::max(r.verdict, x.severity);
    return r;
}

DoctorReport run_doctor(const std::string& root, int cpu, double seconds) {
    const SystemSnapshot a = read_snapshot(root);
    const TimerHealth h = measure_timer_health(seconds);
    const SystemSnapshot b = read_snapshot(root);
    return diagnose(read_system_facts(root, cpu, a, b), h);
}

nlohmann::json DoctorReport::to_json() const {
    nlohmann::json findings_json = nlohmann::json::array();
    for (const Finding& x : findings)
        findings_json.push_back(
            {{"severity", verdict_name(x.severity)}, {"check", x.check}, {"what", x.what}, {"advice", x.advice}});
    const SystemFacts& f = facts;
    const TimerHealth& h = health;
    auto rates = [](const std::map<int, double>& m) {
        nlohmann::json j = nlohmann::json::object();
        for (const auto& [c, v] : m) j[std::to_string(c)] = v;
        return j;
    };
    return {{"verdict", verdict_name(verdict)},
            {"quick", quick},
            {"findings", findings_json},
            {"system",
             {{"cpu", f.cpu},
              {"online", f.online},
              {"hypervisor", f.hypervisor},
              {"hypervisor_type", f.hypervisor_type},
              {"smt_siblings", f.siblings},
              {"busy", rates(f.busy)},
              {"steal", rates(f.steal)},
              {"governor", f.governor},
              {"boost", f.boost},
              {"isolated", f.isolated},
              {"nohz_full", f.nohz_full},
              {"rcu_nocbs", f.rcu_nocbs},
              {"irq_per_s", rates(f.irq_per_s)},
              {"device_irqs", f.device_irqs},
              {"clocksource", f.clocksource},
              {"constant_tsc", f.constant_tsc},
              {"nonstop_tsc", f.nonstop_tsc},
              {"transparent_hugepage", f.transparent_hugepage}}},
            {"timer",
             {{"seconds", h.seconds},
              {"overhead_ticks_p50", h.overhead_p50},
              {"overhead_ticks_p99", h.overhead_p99},
              {"overhead_ticks_max", h.overhead_max},
              {"step_ticks_p50", h.step_p50},
              {"step_ticks_max", h.step_max},
              {"slow_share", h.slow_share},
              {"core_per_tsc_p50", h.ratio_p50},
              {"core_per_tsc_spread", h.ratio_spread},
              {"probes_rejected_share", h.probes_rejected_share},
              {"stalls_per_ms", h.stalls_per_ms},
              {"stall_p50_us", h.stall_p50_us},
              {"stall_max_us", h.stall_max_us},
              {"lost_share", h.lost_share},
              {"descheduled_share", h.descheduled_share}}},
            {"contention",
             {{"probes", h.contention.probes},
              {"best_cycles", h.contention.best_cycles},
              {"level_p10", h.contention.p10},
              {"level_p50", h.contention.p50},
              {"level_p90", h.contention.p90},
              {"level_max", h.contention.max},
              {"contended_share", h.contention.contended_share},
              {"contended_above", h.contention.contended_above},
              {"contended_longest_s", h.contended_longest_s}}}};
}

}  // namespace fputune
