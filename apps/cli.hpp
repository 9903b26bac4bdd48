// SPDX-License-Identifier: MIT
// What every subcommand shares: the command table, option parsing with one clear error, exit codes.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "errors.hpp"
#include "kernel.hpp"

namespace fputune::cli {

namespace po = boost::program_options;

// Exit codes, one meaning each (printed by every --help, see kExitCodesHelp):
inline constexpr int kExitOk = 0;
inline constexpr int kExitCheckFailed = 1;  // a check failed: a constant over budget, a regression
inline constexpr int kExitUsage = 2;  // bad usage or bad input (InputError, UsageError)
inline constexpr int kExitSystem = 3;  // the machine or the file system failed us (SystemError)
inline constexpr int kExitPartial = 4;  // a sweep was interrupted by a signal and wrote a valid partial file
extern const char* const kExitCodesHelp;

// Thrown for bad usage; main prints "fputune <cmd>: <message>" and exits 2 (as for any InputError).
struct UsageError : InputError {
    using InputError::InputError;
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
// Pins to --cpu N (default: the last allowed CPU) and takes that CPU's lock for the rest of the run
// (lib/cpu_lock.hpp), so that two measuring runs never share a CPU; returns the CPU. UsageError for
// a CPU outside the allowed mask; SystemError when pinning fails or another run holds the CPU.
int pin_cpu(const po::variables_map& vm);

// `fputune <command>`: the name used in messages; and the whole command line (for lock files).
std::string& current_command();
std::string& invocation();

// Subcommands (one file each).
int run_cpu(const Args& args);
int run_list(const Args& args);
int run_bench(const Args& args);
int run_sweep(const Args& args);
int run_fit(const Args& args);
int run_recommend(const Args& args);
int run_check(const Args& args);
int run_doctor(const Args& args);
int run_verify(const Args& args);
int run_simulate(const Args& args);
int run_report(const Args& args);
int run_compare(const Args& args);
int run_fleet(const Args& args);

}  // namespace fputune::cli
