// SPDX-License-Identifier: MIT
// Shared option handling: --help everywhere, --disable / FPUTUNE_DISABLE, errors as UsageError.
#include "cli.hpp"

#include <cstdlib>
#include <iostream>

#include "clock.hpp"
#include "cpu.hpp"
#include "registry.hpp"

namespace fputune::cli {

std::string& current_command() {
    static std::string name;
    return name;
}

std::vector<std::string> kernel_patterns(const po::variables_map& vm) {
    return vm.count("kernel") ? vm["kernel"].as<std::vector<std::string>>() : std::vector<std::string>{};
}

std::vector<const Kernel*> selected_kernels(const po::variables_map& vm) {
    try {
        return select_kernels(kernel_patterns(vm));
    } catch (const std::invalid_argument& e) {
        throw UsageError(std::string(e.what()) + "; `fputune list` shows the kernels");
    }
}

int pin_cpu(const po::variables_map& vm) {
    const int cpu = vm.count("cpu") ? vm["cpu"].as<int>() : last_allowed_cpu();
    if (!pin_to_cpu(cpu)) throw UsageError("--cpu " + std::to_string(cpu) + ": cannot pin to that CPU (not allowed or not online)");
    return cpu;
}

bool parse(const std::string& command, const std::string& usage, po::options_description& desc, const Args& args,
           po::variables_map& vm, bool with_disable, const po::positional_options_description* positional) {
    po::options_description all;
    all.add_options()("help,h", "show this help");
    if (with_disable)
        all.add_options()("disable", po::value<std::string>(),
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
        std::cout << "usage: fputune " << command << " " << usage << "\n\n" << all << "\n";
        return false;
    }
    if (with_disable) {
        std::string list;
        if (const char* env = std::getenv("FPUTUNE_DISABLE")) list = env;
        if (vm.count("disable")) list += (list.empty() ? "" : ",") + vm["disable"].as<std::string>();
        try {
            set_disabled_features(parse_feature_list(list));
        } catch (const std::invalid_argument& e) {
            throw UsageError(e.what());
        }
    }
    return true;
}

}  // namespace fputune::cli
