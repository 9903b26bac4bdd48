// SPDX-License-Identifier: MIT
// The fputune.sweep/1 file: what a sweep measured, on what machine, with what options.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace fputune {

namespace jsonc {
class Path;
}

inline constexpr const char* kSweepSchema = "fputune.sweep/1";

// Robust statistics of one measured point, in TSC ticks (timer overhead already subtracted).
struct PointStats {
    std::uint64_t samples = 0;
    double min = 0, p10 = 0, p50 = 0, p90 = 0, p99 = 0, p999 = 0, max = 0;
    std::uint64_t interrupted = 0;  // samples far above the typical time (an interrupt or VM exit hit them)
    double rel_ci50 = 0;  // half-width of the 95 % confidence interval of p50, relative to p50
    double p99_clean = 0;  // p99 of the samples not hit by an interruption (the section's own worst)
};

// The same statistics with every value divided by `by` (core cycles -> ticks at a reference ratio).
PointStats scaled(const PointStats& s, double by);

// One round's statistics of a point, in core cycles: the sweep takes each point's samples in rounds spread
// over the whole run, so the spread between rounds shows what the host's phases did to it.
struct RoundStats {
    std::uint64_t samples = 0;
    double p10 = 0, p50 = 0, p90 = 0, p99_clean = 0;
    std::uint64_t interrupted = 0;
    double contention = 0;  // the median contention level c (>= 1) of the round's samples; 0: unknown (older file)
    // The same round's quiet samples alone, those whose contention level was below kContendedAbove
    // (lib/contention_levels.hpp): how many, their p50, p90 and p99 of uninterrupted samples, and median level.
    // A round's median level says nothing of a contended minority, which sets its tail: on an AMD EPYC Zen 5 VM
    // (2026-12-03) every 10 s window's median level was 1.02-1.03 while 6-33 % of its samples were contended,
    // and the p90 of a sha256-avx section over all its samples was up to 1.42x that over the quiet ones.
    // quiet_samples == 0: unknown (an older file, or no quiet sample).
    std::uint64_t quiet_samples = 0;
    double quiet_p50 = 0, quiet_p90 = 0, quiet_p99_clean = 0, quiet_contention = 0;
    // And its contended samples (level at or above kContendedAbove): how many, their p50 and median level. With
    // the quiet ones they give the sensitivity fit two levels in a round whose median level did not move.
    std::uint64_t contended_samples = 0;
    double contended_p50 = 0, contended_contention = 0;
};

// The contention probe (a throughput-bound block of integer and vector work, lib/clock.hpp) timed at every
// calibration of a sweep: c = its time / its best time in the sweep, >= 1. What the core's other hardware
// thread (or, on a VM, another tenant's) took from throughput-bound code. probes == 0: unknown (an older file).
struct ContentionTrace {
    std::uint64_t probes = 0;
    double best_cycles = 0;  // the fastest probe, core cycles: c = 1
    double p10 = 0, p50 = 0, p90 = 0, max = 0;  // of c over the calibrations
    double contended_share = 0;  // share of calibrations with c >= contended_above
    double contended_above = 0;
};
// As a sweep file (and a bench file) states it: probes, best_cycles, level {p10, p50, p90, max},
// contended_share, contended_above, and `use`, in words, what c is there.
nlohmann::json contention_json(const ContentionTrace& c, std::string_view use);

// The memory probe (a read of `bytes` in no cache, lib/clock.hpp), in a block as each round began: how long
// the host's memory took while the sweep ran, in TSC ticks (time, not core cycles: DRAM does not run at the
// core's clock). Other tenants' traffic moves it; every cold section moves with it.
struct MemoryTrace {
    std::uint64_t probes = 0;  // 0: unknown (an older file)
    std::uint32_t bytes = 0;
    double p10 = 0, p50 = 0, p90 = 0;  // TSC ticks per probe
};

struct KernelInfo {
    std::string name, algorithm, isa, provider;
    std::uint32_t block_bytes = 0;
    bool needs_fpu = false;
    // A series of sections of a registry kernel (lib/sweep.hpp, docs/section-shapes.md), listed as a kernel of its own; every
    // field empty/0 for a kernel's primary series of the bulk shape, and in files from before series.
    std::string of = {};  // the registry kernel it is a series of ("" = `name` itself)
    std::string shape = {};  // "message" (XTS), "aad" (GCM), "stripe" (multi-source); "" = bulk
    std::uint32_t sources = 0;  // multi-source kernels: N sources per section (bytes are per source)
    std::uint32_t dest_count = 0, max_sources = 0;  // multi-source kernels: destinations, and the most sources it takes
    double idle_s = 0;  // > 0: the first section after this long without vector code (ZMM warm-up)
    // A series the sweep's closed loop measured only for a count of sources (raid6-avx2.x21): the count reads
    // it, no limit in bytes is given for it.
    bool count_only = false;
    const std::string& kernel() const { return of.empty() ? name : of; }
};

// One point of the section sweep: one non-preemptible section of `bytes` in the kernel glue loop.
// ticks = the whole section as the kernel would hold the CPU: the user-state save (XSAVEC, paid by the
// first section of a request), the per-section overhead, and blocks() on `bytes`.
// request_ticks_p50 = the same plus the XRSTOR at "return to user space" (the throughput view).
struct SectionPoint {
    std::string kernel;
    std::string cache;  // "hot" | "cold"
    std::uint64_t bytes = 0;
    PointStats ticks;
    double request_ticks_p50 = 0;
    bool settled = true;  // false: cut short by Ctrl-C (kept, marked; --resume measures it again)
    // The same samples in core cycles: each one times the core/TSC ratio measured around it (within
    // ~0.3 ms), so the core clock moving mid-sweep (boost, host load) cancels. samples == 0: none
    // (a file from before per-sample ratios).
    PointStats cycles;
    std::vector<RoundStats> rounds;  // empty: a file from before rounds
    std::uint64_t rejected = 0;  // impossible samples (at or below the timer's floor), measured again
    std::uint64_t retaken = 0;  // samples dropped for a host disturbance, measured again
    std::uint32_t sources = 0;  // multi-source kernels: N sources of `bytes` each (0: one stream)
    // Rounds whose time ran out before the point met its sampling rule (sampler.hpp): its quantiles are
    // noisier than the rule asks, which widens the fit's band and the rounds' spread, i.e. the interval.
    std::uint64_t unsettled_rounds = 0;
    double contention = 0;  // the median contention level c of its samples; 0: unknown (older file)
};

// One point of the threshold sweep: the one-shot cost (init + final) of `bytes` on one kernel; for a
// kernel that needs the FPU the state save and restore for `dirty` are included.
struct ThresholdPoint {
    std::string kernel;
    std::string dirty;  // "xmm" | "ymm" | "zmm"; "none" for kernels that need no FPU
    std::uint64_t bytes = 0;
    PointStats ticks;
    PointStats cycles;  // as in SectionPoint
    std::uint64_t rejected = 0, retaken = 0;
    std::uint64_t unsettled_rounds = 0;  // as in SectionPoint
};

// The core/TSC ratio probed all through a sweep (a 20 000-add chain every ~0.3 ms of sampling).
struct RatioTrace {
    std::uint64_t probes = 0;
    double min = 0, p10 = 0, p50 = 0, p90 = 0, max = 0;
    std::uint64_t rejected = 0;  // probes that read low (interrupted inside) and were not used
};

// The timer's own overhead and step, probed beside the samples (every sample is corrected with the
// overhead measured around it, not with one value from the start).
struct TimerTrace {
    std::uint64_t calibrations = 0;  // 0: an older file, corrected with the start value only
    double overhead_min = 0, overhead_p50 = 0, overhead_p99 = 0, overhead_max = 0;
    double step_min = 0, step_p50 = 0, step_max = 0;
};

// A stretch in which the host disturbed the measurement, waited out; its samples were measured again.
struct DisturbanceRecord {
    std::string kind;  // timer_slow | clock_collapse | interrupt_storm | preempted | clock_step
    double start_s = 0;  // seconds since the sweep began
    double length_s = 0;
    std::uint64_t count = 1;  // neighbouring events of the kind merged into this one
    bool adopted = false;  // it outlasted its wait: its state was taken as the new normal
    std::string detail;
};

// How the samples were taken.
struct SamplingSummary {
    int rounds = 0;  // 0: an older file (one pass)
    std::uint64_t rejected = 0;  // impossible samples, measured again
    std::uint64_t retaken = 0;  // samples dropped for disturbances, measured again
    std::uint64_t disturbances = 0;  // events, before merging
    double waited_s = 0, elapsed_s = 0;
    std::uint64_t unsettled = 0;  // points (sections and thresholds) with unsettled rounds: 0 = the plan fit its budget
    // Each sample ran with the stack moved down by a random multiple of 16 bytes below this (0: not moved, and -1
    // unknown: an older file, which did not move it).
    std::int64_t stack_spread_bytes = -1;
};

// The buffer cold sections stream from, and how much of it 2 MiB pages back (the kernel's direct map has
// large pages; with 4 KiB pages every 4 KiB of a cold section would also pay a page walk).
struct ColdBuffer {
    std::uint64_t bytes = 0;  // 0: no cold point, or an older file
    std::int64_t huge_page_bytes = -1;  // -1: unknown (/proc/self/smaps unread, or an older file)
    // 1: what a cold section wrote was flushed to memory after its sample, untimed, so that no other section paid
    // its write-back; 0: not (a CPU without CLFLUSHOPT); -1: unknown (an older file: not flushed).
    int writes_flushed = -1;
};

struct SweepFile {
    std::string schema = kSweepSchema;
    std::string tool_version, tool_commit;
    std::string date;  // ISO 8601 UTC
    std::string host;  // the machine's name as its fleet knows it (sweep --host; "" = not given)
    nlohmann::json cpu;  // the full `fputune cpu --json` probe
    nlohmann::json options;  // the options the sweep ran with
    double tsc_hz = 0;
    double core_per_tsc = 0;  // measured at the start
    double core_per_tsc_end = 0;  // and at the end (a change is a warning)
    RatioTrace ratio_trace;  // probed between samples (probes == 0: an older file without it)
    ContentionTrace contention;  // probed beside it (probes == 0: unknown, an older file)
    MemoryTrace memory;  // probed beside it (probes == 0: unknown, an older file)
    // The sweep's closed loop (models/closed_loop.hpp closed_loop_json): the question its constants were
    // measured for, and each constant's check at its exact size. null: none (an older file, --no-closed-loop).
    nlohmann::json closed_loop;
    TimerTrace timer_trace;
    SamplingSummary sampling;
    std::vector<DisturbanceRecord> disturbances;
    nlohmann::json doctor;  // the quick `fputune doctor` verdict taken before the sweep (null: none)
    ColdBuffer cold_buffer;
    double section_overhead_ticks = 0;  // per-section overhead added in every section (emulation + --section-overhead)
    std::string dirty = "ymm";  // user state dirtied for the section sweep
    bool partial = false;  // interrupted (Ctrl-C) before every point was measured
    std::vector<std::string> warnings;
    std::vector<KernelInfo> kernels;
    std::vector<SectionPoint> sections;
    std::vector<ThresholdPoint> thresholds;
    // What the reader skipped (points with missing, non-finite or non-positive statistics), one line
    // per kernel naming the points; not written back.
    std::vector<std::string> notes;
    std::map<std::string, std::size_t> skipped_points;  // per kernel: how many points the reader skipped
};

// What models fit: ticks at one reference ratio (model_core_per_tsc), so that ticks x ratio = core
// cycles. With per-sample cycles the reference is the sweep's median probed ratio and the statistics
// are the cycles divided by it; an older file gives its raw ticks and its start ratio.
double model_core_per_tsc(const SweepFile& f);
PointStats model_ticks(const SweepFile& f, const PointStats& ticks, const PointStats& cycles);

// Points whose statistics are not physically possible (a quantile <= 0, NaN or infinite, in ticks or
// cycles), as "kernel bytes B cache": a sweep never writes one.
std::vector<std::string> impossible_points(const SweepFile& f);
bool possible_point(const PointStats& ticks, const PointStats& cycles);  // cycles.samples == 0: ticks only

// The closed loop's record (SweepFile::closed_loop) in one line: "closed loop for 30.0 us at 1 GHz: 58 of 60 constants measured at their exact size,
// 57 as predicted" ("" for none), and the settled share of the points near them and why it stopped with `full`.
std::string closed_loop_brief(const nlohmann::json& record, bool full = false);

nlohmann::json to_json(const SweepFile& f);
// A series' fields of a kernel entry ("of", "shape", "sources", "idle_s"), only those that are set.
void write_series_fields(nlohmann::json& j, const KernelInfo& k);
// A "kernels" entry of a sweep or model file: name, algorithm, isa, provider, block_bytes, needs_fpu and the
// series' fields.
nlohmann::json kernel_entry_json(const KernelInfo& k);
// Reads them back into `info` (all optional; checked like every field, errors name `at`).
void read_series_fields(const nlohmann::json& k, const jsonc::Path& at, KernelInfo& info);
// Validates schema (name and version), required fields, types and ranges (formats/json_checked.hpp).
// Throws InputError with a message that names `source` (the file), the field and what is wrong, e.g.
// "sweep.json: schema 'fputune.sweep/2' is newer than this fputune understands (fputune.sweep/1);
// update fputune" ("sweep.json (host b): ..." for a file that names its host). A point whose statistics are
// missing, not finite, or not positive where the models need them (p50, and p90 for sections; samples) is
// skipped and named in `notes` instead.
SweepFile sweep_from_json(const nlohmann::json& j, const std::string& source);
SweepFile read_sweep_file(const std::string& path);  // parse errors (truncated file) name the path
void write_sweep_file(const std::string& path, const SweepFile& f);  // atomic

}  // namespace fputune
