// SPDX-License-Identifier: MIT
// `fputune doctor`: is this machine fit to measure on? What a careful benchmarker checks first (pyperf
// system show, Google Benchmark's CPU-scaling warning, rtla): the system's settings from /sys and /proc,
// and the timer, core clock and interruptions as measured. A verdict with concrete advice.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "disturbance.hpp"
#include "sweep_file.hpp"

namespace fputune {

// One reading of /proc and /sys under `root` ("/" normally; tests pass a synthetic tree).
struct SystemSnapshot {
    struct Jiffies {
        std::uint64_t busy = 0, steal = 0, total = 0;
    };
    std::map<int, Jiffies> cpu_jiffies;  // from /proc/stat
    std::map<int, std::uint64_t> interrupts;  // cpu -> every interrupt so far (/proc/interrupts)
    struct DeviceIrq {
        std::string name;  // "36 virtio1-req.0": its number and the last word of its line
        std::map<int, std::uint64_t> per_cpu;  // cpu -> how often it fired there so far
    };
    std::vector<DeviceIrq> device_irqs;  // the numbered lines of /proc/interrupts
    double at_s = 0;  // CLOCK_MONOTONIC when read
};

struct SystemFacts {
    int cpu = 0;  // the CPU the measurement runs on
    std::vector<int> online;  // online CPUs
    bool hypervisor = false;  // cpuinfo flag or /sys/hypervisor
    std::string hypervisor_type;  // /sys/hypervisor/type, when there
    std::vector<int> siblings;  // SMT siblings of `cpu` (itself excluded)
    std::map<int, double> busy;  // share of time each CPU was busy between two snapshots (absent: unknown)
    std::map<int, double> steal;  // share of time the hypervisor gave each CPU to someone else
    std::string governor;  // cpufreq scaling governor of `cpu` ("" = no cpufreq)
    int boost = -1;  // turbo/boost: 1 on, 0 off, -1 unknown
    std::vector<int> isolated, nohz_full, rcu_nocbs;
    std::map<int, double> irq_per_s;  // interrupts per second on each CPU (absent: unknown)
    std::vector<std::string> device_irqs;  // device interrupts routed to `cpu` ("36 virtio1-req.0")
    std::string clocksource;
    std::vector<std::string> clocksources;
    bool constant_tsc = false, nonstop_tsc = false;
    // Transparent huge pages, the mode selected in /sys/kernel/mm/transparent_hugepage/enabled ("" = unknown):
    // "never" leaves the sweep's cold buffer on 4 KiB pages.
    std::string transparent_hugepage;
};

SystemSnapshot read_snapshot(const std::string& root);
// The SMT siblings of `cpu` (itself excluded), from root/sys/devices/system/cpu/cpuN/topology/
// thread_siblings_list ("0,4", "0-1"); empty when it has none or the file is missing.
std::vector<int> smt_siblings(const std::string& root, int cpu);
// The settings under root, and the rates between two snapshots (b later than a; a == b: rates unknown).
SystemFacts read_system_facts(const std::string& root, int cpu, const SystemSnapshot& a, const SystemSnapshot& b);

// The timer, the core clock and the host's interruptions, measured on the calling thread.
struct TimerHealth {
    double seconds = 0;
    double overhead_p50 = 0, overhead_p99 = 0, overhead_max = 0;  // empty timed section, ticks
    double step_p50 = 0, step_max = 0;  // smallest step of back-to-back reads, ticks
    double slow_share = 0;  // share of calibrations with the timer slow (overhead or step jumped)
    double ratio_p50 = 0, ratio_spread = 0;  // core/TSC: median, and (p90 - p10) / p50 of accepted probes
    double probes_rejected_share = 0;  // ratio probes that read low (interrupted)
    double stalls_per_ms = 0;  // gaps of > 2 us in a spinning loop
    double stall_p50_us = 0, stall_max_us = 0;
    double lost_share = 0;  // share of spinning time lost to them (the host's and the scheduler's)
    double descheduled_share = 0;  // share of the time the scheduler ran other tasks on this CPU instead
    // The contention probe at every calibration (contention_levels.hpp): how often, and by how much, another
    // thread on the core slowed throughput-bound code. probes == 0: not measured.
    ContentionTrace contention;
    double contended_longest_s = 0;  // the longest contended stretch (consecutive contended calibrations)
    MemoryTrace memory;  // the memory probe (clock.hpp probe_memory_ticks), a block of 256 as it ends
    Calibration calm;  // the calm levels, to seed a sweep's monitor
};
TimerHealth measure_timer_health(double seconds);

enum class Verdict { calm, noisy, unfit };
const char* verdict_name(Verdict v) noexcept;

struct Finding {
    Verdict severity;
    std::string check;  // short name: "hypervisor", "smt", "governor", ...
    std::string what;  // what was found, with the figure
    std::string advice;  // what to do about it (empty: nothing)
};

struct DoctorReport {
    Verdict verdict = Verdict::calm;
    std::vector<Finding> findings;  // the worst first
    SystemFacts facts;
    TimerHealth health;
    bool quick = false;
    nlohmann::json to_json() const;
};

// The verdict: unfit when a number measured here cannot be trusted at all (the TSC is not a constant
// clock, the sibling thread or the interruptions take much of the CPU, the timer is mostly slow); noisy
// when it can, with care (a VM, no isolation, frequency scaling, a busy neighbour); calm otherwise.
DoctorReport diagnose(const SystemFacts& facts, const TimerHealth& health);

// Reads the system and measures the timer for `seconds` on `cpu` (the caller pins), then diagnoses.
DoctorReport run_doctor(const std::string& root, int cpu, double seconds);

}  // namespace fputune
