// SPDX-License-Identifier: MIT
// `simulate`'s tables: Elliott 2022's columns (calls, cost, maxcycles, bpf), without and with limits.
#include "render_simulate.hpp"

#include <fmt/format.h>

#include "units.hpp"

namespace fputune {

namespace {

std::string verdict(const SimColumn& c) {
    if (!c.within_budget) return "-";
    return *c.within_budget ? "PASS" : "OVER";
}

// '*': beyond the sizes the bound line was fitted on (see the note under the table).
std::string longest_time(const SimColumn& c) {
    return c.longest_bytes ? format_duration(c.longest_s) + (c.extrapolated ? "*" : "") : "-";
}

std::string column_header(const std::string& tcol, const char* last) {
    return fmt::format("{:<24} {:>9} {:>10} {:>13} {:>15} {:>12} {:>12} {:>8} {:>5} {:>10}  {:<6}  {}\n", "kernel",
                       "requests", "calls", "cost", "inside", "maxcycles", tcol, "bpf", "KiB", "maxlen", "budget",
                       last);
}

std::string column_line(const SimRow& row, const SimColumn& c, const std::string& from) {
    const std::uint64_t bpf = c.limit_bytes.value_or(0);
    return fmt::format("{:<24} {:>9.0f} {:>10.0f} {:>13.0f} {:>15.0f} {:>12.0f} {:>12} {:>8} {:>5} {:>10}  {:<6}  {}\n",
                       row.kernel, c.requests, c.sections, c.cost_cycles, c.inside_cycles, c.longest_cycles,
                       longest_time(c), bpf, bpf / 1024, c.longest_bytes, verdict(c), from);
}

}  // namespace

// One machine's part: its save cost, the workload without and with the limits, and its notes.
std::string render_machine(const Simulation& s, const SimMachine& m, const std::string& tcol) {
    const SimulateOptions& o = s.options;
    const Workload& w = s.workload;
    std::string out;
    out += fmt::format(
        "\nmachine: {} ({} {}{}), core/TSC {:.3f}, state save + restore per request: {}\n", m.machine, m.kind,
        m.source, m.date.empty() ? "" : ", " + m.date, m.core_per_tsc,
        !m.save_known ? std::string("unknown")
        : w.kernel_thread
            ? fmt::format("none in kernel threads ({:.0f} + {:.0f} core cycles in a task, {} dirty)", m.save_cycles,
                          m.restore_cycles, m.dirty)
            : fmt::format("{:.0f} + {:.0f} core cycles ({} dirty)", m.save_cycles, m.restore_cycles, m.dirty));
    if (m.rows.empty()) {
        out += m.hidden_rows ? fmt::format("no kernel -k names is reached by the workload ({} other{} {})\n", m.hidden_rows,
                                           m.hidden_rows > 1 ? "s" : "", m.hidden_rows > 1 ? "are" : "is")
                             : "no kernel of this input is reached by the workload\n";
        for (const auto& n : m.notes) out += "note: " + n + "\n";
        return out;
    }
    out +=
        "\nwithout limits: the kernel as it is today (upstream's own chunks where it has them, see 'chunking'; bpf "
        "0 = none)\n";
    out += column_header(tcol, "chunking");
    for (const SimRow& row : m.rows) out += column_line(row, row.upstream, row.upstream.limit_from);
    const bool limited = !m.rows.empty() && m.rows.front().limited.has_value();
    if (limited) {
        out += "\nwith limits (" + s.limits_label + ")\n";
        out += column_header(tcol, "limit from");
        for (const SimRow& row : m.rows) out += column_line(row, *row.limited, row.limited->limit_from);
        out +=
            "\nwhat the limits change (throughput cost: total cycles, inside + cost, against no limit at all, "
            "today's chunks -> the limits)\n";
        out += fmt::format("{:<24} {:>27} {:>25} {:>23} {:>18}\n", "kernel", "maxcycles", tcol, "calls",
                           "throughput cost");
        for (const SimRow& row : m.rows) {
            const SimColumn &a = row.upstream, &b = *row.limited;
            out += fmt::format(
                "{:<24} {:>27} {:>25} {:>23} {:>18}\n", row.kernel,
                fmt::format("{:.0f} -> {:.0f}", a.longest_cycles, b.longest_cycles),
                fmt::format("{} -> {}", longest_time(a), longest_time(b)),
                fmt::format("{:.0f} -> {:.0f}", a.sections, b.sections),
                fmt::format("{:.1f} % -> {:.1f} %", 100 * row.upstream_cost, 100 * row.throughput_cost));
        }
    }
    out += "\n";
    std::string extrapolated;
    for (const SimRow& row : m.rows) {
        if (row.upstream.extrapolated || (row.limited && row.limited->extrapolated))
            extrapolated +=
                fmt::format("{}{} ({} B)", extrapolated.empty() ? "" : ", ", row.kernel, row.bound_fit_max_bytes);
        for (const auto& n : row.notes) out += fmt::format("note: {}: {}\n", row.kernel, n);
    }
    if (!extrapolated.empty())
        out += fmt::format(
            "note: * the longest section is beyond the sizes the {} line was fitted on (sections of at most ~50 us "
            "at the sweep's clock), so it is extrapolated: {}\n",
            name(o.question.quantile), extrapolated);
    for (const auto& n : m.notes) out += "note: " + n + "\n";
    return out;
}

std::string render_simulation(const Simulation& s) {
    const SimulateOptions& o = s.options;
    const Workload& w = s.workload;
    std::string out =
        fmt::format("fputune {} ({}) simulate: workload {}: {}{}\n", s.tool_version, s.tool_commit, w.name,
                    w.description, o.repeat > 1 ? fmt::format(", every count x {}", o.repeat) : "");
    out += "workload source: " + w.source + "\n";
    out += fmt::format(
        "minimum frequency {}, {} cache, longest section: upper 95 % line of the {} fit; totals: the p50 line{}\n",
        format_frequency(o.question.min_freq_hz), name(o.question.cache), name(o.question.quantile),
        o.question.budget_s > 0
            ? fmt::format("; budget {} per section (margin {}: judged against {})", format_duration(o.question.budget_s),
                          format_margin(o.question.margin), format_duration(o.question.budget_s / o.question.margin))
            : "");
    if (!s.limits_label.empty()) out += "limits: " + s.limits_label + "\n";
    if (o.pair_cycles > 0)
        out += fmt::format("begin/end cost outside each section: {:.0f} core cycles (--pair-cycles)\n", o.pair_cycles);
    const std::string tcol = "max@" + format_frequency(o.question.min_freq_hz);
    for (const SimMachine& m : s.machines) out += render_machine(s, m, tcol);
    if (!w.notes.empty() || !s.notes.empty()) out += "\n";
    for (const auto& n : w.notes) out += "note: " + n + "\n";
    for (const auto& n : s.notes) out += "note: " + n + "\n";
    out +=
        "\ncolumns: requests per kernel; calls = kernel_fpu_begin/end pairs (a hash's final() pads in a pair of its "
        "own); "
        "cost = core cycles of the user-state save + restore (once per request that takes the SIMD path, none in "
        "kernel "
        "threads) and of --pair-cycles per pair; inside = core cycles inside the sections (p50 line, the save left to "
        "cost); maxcycles = the longest section "
        "in core cycles (upper line, the save included, as `recommend` and `check` bound it); bpf = bytes per FPU "
        "section, "
        "KiB = bpf / 1024 rounded down, as Elliott 2022 prints them; maxlen = bytes in the longest section. Each section's "
        "fixed "
        "cost is the line's A, measured on a request's first section: it includes per-request setup (poly1305's key "
        "powers, "
        "say) that the kernel pays once, so the throughput cost of more sections is an upper bound\n";
    return out;
}

}  // namespace fputune
