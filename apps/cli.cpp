// SPDX-License-Identifier: MIT
// Shared option handling: --help everywhere, --disable / FPUTUNE_DISABLE, errors as UsageError.
#include "cli.hpp"

#include <sched.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>

#include <fmt/format.h>

#include "clock.hpp"
#include "cpu.hpp"
#include "sweep.hpp"
#include "cpu_lock.hpp"
#include "registry.hpp"

namespace fputune::cli {

std::string& current_command() {
    static std::string name;
    return name;
}

std::string& invocation() {
    static std::string line;
    return line;
}

const char* const kExitCodesHelp =
    "exit status: 0 ok; 1 a check failed (a constant over budget); 2 bad usage or bad input; 3 the machine or the\n"
    "file system failed us (a write error, no CPU to pin, a busy CPU, a timer that does not work); 4 a sweep was\n"
    "interrupted (SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGPIPE) and wrote a valid partial file (continue it with\n"
    "--resume). A run killed outright (SIGKILL) shows as 128 + the signal, e.g. 137.\n";

std::vector<std::string> kernel_patterns(const po::variables_map& vm) {
    return vm.count("kernel") ? vm["kernel"].as<std::vector<std::string>>() : std::vector<std::string>{};
}

std::vector<const Kernel*> selected_kernels(const po::variables_map& vm) {
    try {
        return select_kernels_or_kinds(kernel_patterns(vm));
    } catch (const std::invalid_argument& e) {
        throw UsageError(std::string(e.what()) + "; `fputune list` shows the kernels");
    }
}

int pin_cpu(const po::variables_map& vm) {
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
        throw SystemError(std::string("cannot read the CPUs this process may use: ") + std::strerror(errno));
    std::string allowed_list;
    for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &allowed)) allowed_list += fmt::format("{}{}", allowed_list.empty() ? "" : ",", c);
    const int cpu = vm.count("cpu") ? vm["cpu"].as<int>() : last_allowed_cpu();
    // Pinning to a CPU outside the mask would widen it (what taskset or a cgroup chose); refuse instead.
    if (cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &allowed))
        throw UsageError(fmt::format("--cpu {}: not one of the CPUs this process may use ({}); pick one of those", cpu,
                                     allowed_list));
    if (!pin_to_cpu(cpu)) throw SystemError(fmt::format("cannot pin to CPU {}: {}", cpu, std::strerror(errno)));
    static std::optional<CpuLock> lock;
    std::string holder;
    lock = CpuLock::try_acquire(cpu, invocation(), holder);
    if (!lock)
        throw SystemError(
            fmt::format("CPU {} is busy: another measuring run holds it ({}); two runs on one CPU measure each "
                        "other. Wait for it, or pick another CPU with --cpu (allowed: {})",
                        cpu, holder, allowed_list));
    return cpu;
}

bool parse(const std::string& command, const std::string& usage, po::options_description& desc, const Args& args,
           po::variables_map& vm, bool with_disable, const po::positional_options_description* positional) {
    po::options_description all;
    all.add_options()("help,h", "show this help");
    if (with_disable)
        all.add_options()(
            "disable", po::value<std::string>(),
            "mask CPU features, e.g. avx512f,sha (also FPUTUNE_DISABLE); kernels needing them become unavailable");
    all.add(desc);
    try {
        auto parser = po::command_line_parser(args).options(all);
        po::positional_options_description none;
        parser.positional(positional ? *positional : none);
        po::store(parser.run(), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        throw UsageError(std::string(e.what()) + " (see `fputune " + command + " --help`)");
    }
    if (vm.count("help")) {
        std::cout << "usage: fputune " << command << " " << usage << "\n\n" << all << "\n" << kExitCodesHelp;
        return false;
    }
    if (with_disable) {
        std::string list;
        if (const char* env = std::getenv("FPUTUNE_DISABLE")) list = env;
        if (vm.count("disable")) list += (list.empty() ? "" : ",") + vm["disable"].as<std::string>();
        set_disabled_features(parse_feature_list(list));  // std::invalid_argument: bad input, exit 2
    }
    return true;
}

}  // namespace fputune::cli
