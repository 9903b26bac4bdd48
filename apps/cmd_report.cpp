// SPDX-License-Identifier: MIT
// `fputune report`: one self-contained HTML page with the trade-off and threshold charts of every
// algorithm, the machines, the limits and where every input came from.
#include <filesystem>
#include <iostream>

#include <fmt/format.h>

#include "atomic_file.hpp"
#include "budget_options.hpp"
#include "cli.hpp"
#include "report.hpp"

namespace fputune::cli {

namespace {

// The --workload values (default bigbuf; none: no simulation).
std::vector<Workload> report_workloads(const po::variables_map& vm) {
    std::vector<Workload> workloads;
    for (const auto& w :
         vm.count("workload") ? vm["workload"].as<std::vector<std::string>>() : std::vector<std::string>{"bigbuf"}) {
        if (w == "none") continue;
        if (w == "bigbuf")
            workloads.push_back(bigbuf_workload());
        else if (w == "dm-crypt")
            workloads.push_back(dm_crypt_workload());
        else if (w == "wireguard")
            workloads.push_back(wireguard_workload());
        else if (w == "module-signing")
            throw UsageError(
                "--workload module-signing: needs this machine's module sizes, which a report of other machines' "
                "sweeps "
                "should not mix in; run `fputune simulate --workload module-signing`");
        else if (std::filesystem::is_regular_file(w)) {
            try {
                workloads.push_back(workload_from_csv(read_file(w), w));
            } catch (const std::invalid_argument& e) {
                throw UsageError(e.what());
            }
        } else {
            throw UsageError(
                "--workload " + w +
                ": expected bigbuf, dm-crypt, wireguard, none, or a CSV file of kernel,bytes,count requests");
        }
    }
    return workloads;
}

}  // namespace

int run_report(const Args& args) {
    po::options_description desc("report options");
    add_budget_options(desc);
    desc.add_options()("round", po::value<std::string>()->default_value("block"),
                       "block | kib | pow2: how limits are rounded down")(
        "output,o", po::value<std::string>()->default_value("report.html"), "the HTML file to write (atomically)")(
        "workload", po::value<std::vector<std::string>>()->composing(),
        "simulate a workload with the limits and without (as `fputune simulate`): bigbuf (the default), dm-crypt, "
        "wireguard, "
        "a CSV of kernel,bytes,count requests, or none (repeatable)");
    po::variables_map vm;
    if (!parse("report",
               "[--from FILE...] --budget 30us [--min-freq 1GHz] [--margin 1.0] [--round block|kib|pow2] [--cache "
               "cold|hot] "
               "[--quantile p99|p90] [--dirty xmm|ymm|zmm] [--contention quiet|observed|FACTOR] [-k GLOB]... [--workload "
               "bigbuf|dm-crypt|wireguard|FILE.csv|none]... "
               "[-o report.html]\n\n"
               "One HTML file (inline SVG drawn by gnuplot; no script, no network) with, per algorithm, the trade-off "
               "chart of each "
               "variant and the threshold chart, the machines and their FPU save/restore costs, the limits, and every "
               "input's "
               "provenance. Several --from files are overlaid and the machine that binds each limit is named.\n"
               "Exit 0 written, 2 bad input, 3 gnuplot missing or failing (nothing is written then)",
               desc, args, vm, false))
        return kExitOk;
    const RecommendOptions o = budget_options(vm, "report", args);
    const std::string out = vm["output"].as<std::string>();
    check_writable(out);
    const std::string gnuplot = find_gnuplot();  // first: nothing is read or written without it (exit 3)
    std::vector<ReportInput> inputs;
    const ContentionTarget contention = contention_option(vm);  // as recommend: the limits at this contention
    for (const auto& f : from_paths(vm)) inputs.push_back(load_report_input(f, kernel_patterns(vm), contention));
    const std::vector<Workload> workloads = report_workloads(vm);
    ReportData d;
    try {
        d = build_report(std::move(inputs), o, workloads);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    std::map<std::string, Chart> charts = report_charts(d);
    render_charts(charts, gnuplot);
    write_file_atomic(out, report_html(d, charts, {command_line_of("report", args), utc_now_iso8601()}));
    std::size_t tradeoffs = 0, thresholds = 0;
    for (const auto& [key, c] : charts) tradeoffs += c.kind == "tradeoff", thresholds += c.kind == "threshold";
    std::cout << fmt::format(
        "wrote {}: {} algorithm{}, {} trade-off and {} threshold charts, {} machine{}{}\n", out, d.algorithms.size(),
        d.algorithms.size() == 1 ? "" : "s", tradeoffs, thresholds, d.inputs.size(), d.inputs.size() == 1 ? "" : "s",
        d.notes.empty()
            ? ""
            : fmt::format("; {} note{} on what it cannot show", d.notes.size(), d.notes.size() == 1 ? "" : "s"));
    for (const auto& n : d.notes) std::cout << "note: " << n << "\n";
    return kExitOk;
}

}  // namespace fputune::cli
