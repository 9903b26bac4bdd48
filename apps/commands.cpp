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
    };
    return table;
}

}  // namespace fputune::cli
