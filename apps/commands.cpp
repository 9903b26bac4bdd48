// SPDX-License-Identifier: MIT
// The subcommand table: a command exists here only once it is built.
#include "cli.hpp"

namespace fputune::cli {

const std::vector<Command>& commands() {
    static const std::vector<Command> table = {
        {"cpu", "what machine is speaking: features, TSC, core/TSC ratio, XSAVE costs", run_cpu},
        {"list", "kernels with algorithm, ISA, provider, block size, FPU use, availability", run_list},
    };
    return table;
}

}  // namespace fputune::cli
