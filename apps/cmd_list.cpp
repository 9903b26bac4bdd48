// SPDX-License-Identifier: MIT
// `fputune list`: every kernel in the registry and whether this machine can run it.
#include <algorithm>
#include <cstring>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "cpu.hpp"
#include "registry.hpp"
#include "sweep.hpp"

namespace fputune::cli {

int run_list(const Args& args) {
    po::options_description desc("list options");
    desc.add_options()("kernel,k", po::value<std::vector<std::string>>()->composing(),
                       "only kernels matching GLOB, or a kind: hash, cipher, raid, all (repeatable)")("json",
                                                                                                      "print JSON");
    po::variables_map vm;
    if (!parse("list", "[-k GLOB]... [--json] [--disable FEATURES]", desc, args, vm)) return kExitOk;
    const std::vector<const Kernel*> kernels = selected_kernels(vm);
    const FeatureSet usable = usable_features();
    auto status = [&](const Kernel& k) -> std::string {
        FeatureSet missing = missing_features(k, usable);
        if (!missing) return "yes";
        FeatureSet masked = missing & detected_features();
        if (masked) return "no: masked by --disable (" + feature_list_string(masked) + ")";
        return "no: CPU lacks " + feature_list_string(missing);
    };
    if (vm.count("json")) {
        nlohmann::json j = nlohmann::json::array();
        for (const Kernel* k : kernels)
            j.push_back({{"name", k->name},
                         {"algorithm", k->algorithm},
                         {"isa", k->isa},
                         {"provider", k->provider},
                         {"block_bytes", k->block_bytes},
                         {"needs_fpu", k->needs_fpu},
                         {"requires", feature_list_string(k->required)},
                         {"available", missing_features(*k, usable) == 0},
                         {"section", section_summary(*k)},
                         {"status", status(*k)}});
        std::cout << j.dump(1) << "\n";
        return kExitOk;
    }
    std::size_t provider_width = 9;  // "linux 6.12.117" is longer than the peers' names
    for (const Kernel* k : kernels) provider_width = std::max(provider_width, std::strlen(k->provider));
    std::cout << fmt::format("{:<24} {:<11} {:<15} {:<{}} {:>6} {:<4} {:<15} {}\n", "kernel", "algorithm", "isa",
                             "provider", provider_width, "block", "fpu", "section", "available");
    for (const Kernel* k : kernels)
        std::cout << fmt::format("{:<24} {:<11} {:<15} {:<{}} {:>6} {:<4} {:<15} {}\n", k->name, k->algorithm, k->isa,
                                 k->provider, provider_width, k->block_bytes, k->needs_fpu ? "yes" : "no",
                                 section_summary(*k), status(*k));
    // The kernel tree's units that did not build (kernels/linux): said where the *-linux variants are listed.
    if (const std::vector<std::string> notes = linux_provider_notes();
        notes.size() > 1 && (!vm.count("kernel") || std::any_of(kernels.begin(), kernels.end(), [](const Kernel* k) {
                                 return std::strncmp(k->provider, "linux ", 6) == 0;
                             }))) {
        std::cout << fmt::format("\n{}: {} units of the tree not built:\n", notes.front(), notes.size() - 1);
        for (std::size_t i = 1; i < notes.size(); ++i) std::cout << "  " << notes[i] << "\n";
    }
    if (disabled_features())
        std::cout << fmt::format("\nmasked features: {}\n",
                                 feature_list_string(disabled_features() & detected_features()));
    return kExitOk;
}

}  // namespace fputune::cli
