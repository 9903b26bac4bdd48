// SPDX-License-Identifier: MIT
// The subcommand table: a command exists here only once it is built.
#include "cli.hpp"

namespace fputune::cli {

const std::vector<Command>& commands() {
    static const std::vector<Command> table = {
        {"cpu", "what machine is speaking: features, TSC, core/TSC ratio, XSAVE costs", run_cpu},
        {"list", "kernels with algorithm, ISA, provider, block size, FPU use, availability", run_list},
        {"sweep", "measure sections (bytes per FPU section) and SIMD thresholds into a sweep file", run_sweep},
        {"bench", "throughput of every variant and its peers side by side (like openssl speed)", run_bench},
        {"fit", "fit cycles = A + B*bytes per kernel and cache state to a sweep (fputune.model/2)", run_fit},
        {"recommend",
         "largest FPU section per kernel for a time budget at a minimum frequency; --header writes #defines",
         run_recommend},
        {"check", "does each constant of a header meet the budget? exit 1 when one does not", run_check},
        {"doctor", "is this machine fit to measure on? verdict calm/noisy/unfit with advice (exit 1 when unfit)",
         run_doctor},
        {"verify", "measure each FPU_BYTES constant of a header on this machine: PASS/OVER, exit 1 when one is over",
         run_verify},
        {"simulate", "a workload's FPU sections per kernel (calls, cost, longest), without and with limits",
         run_simulate},
        {"report",
         "one self-contained HTML page: trade-off and threshold charts per algorithm, machines, limits, provenance",
         run_report},
        {"fleet", "sweep many machines through Ansible and merge them into one header (the binding host named)",
         run_fleet},
        {"compare", "change in cycles/byte and limits between two sweeps (or bench files), with significance",
         run_compare},
    };
    return table;
}

}  // namespace fputune::cli
