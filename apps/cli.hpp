// SPDX-License-Identifier: MIT
// What every subcommand shares: the command table, option parsing with one clear error, exit codes.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "kernel.hpp"

namespace fputune::cli {

namespace po = boost::program_options;

// Exit codes: 0 ok, 1 a check failed (e.g. `check` found a constant over budget), 2 bad input.
inline constexpr int kExitOk = 0, kExitCheckFailed = 1, kExitUsage = 2;

// Thrown for bad input; main prints "fputune <cmd>: <message>" and exits 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

using Args = std::vector<std::string>;

struct Command {
    const char* name;
    const char* summary;
    int (*run)(const Args& args);
};
const std::vector<Command>& commands();

// Parses args against desc (plus --help and, with_disable, --disable FEATURE[,...] and FPUTUNE_DISABLE).
// Prints help and returns false when --help was given. Throws UsageError on any mistake.
bool parse(const std::string& command, const std::string& usage, po::options_description& desc, const Args& args,
           po::variables_map& vm, bool with_disable = true,
           const po::positional_options_description* positional = nullptr);

// The kernels the -k GLOB options select (all when none); a glob that matches nothing is a UsageError.
std::vector<const Kernel*> selected_kernels(const po::variables_map& vm);
std::vector<std::string> kernel_patterns(const po::variables_map& vm);
// Pins to --cpu N (default: the last allowed CPU) and returns it; UsageError when it cannot.
int pin_cpu(const po::variables_map& vm);

// `fputune <command>`: the name used in messages.
std::string& current_command();

// Subcommands (one file each).
int run_cpu(const Args& args);
int run_list(const Args& args);
int run_bench(const Args& args);
int run_sweep(const Args& args);
int run_fit(const Args& args);
int run_recommend(const Args& args);
int run_check(const Args& args);
int run_report(const Args& args);
int run_compare(const Args& args);

}  // namespace fputune::cli
