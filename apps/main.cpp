// SPDX-License-Identifier: MIT
// fputune: measure SIMD crypto kernels and recommend kernel_fpu_begin/end chunk limits.
#include <cstring>
#include <exception>
#include <iostream>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "cli.hpp"
#include "probe.hpp"

using namespace fputune::cli;

namespace {

void usage(std::ostream& out) {
    out << "usage: fputune <command> [options]   (fputune <command> --help for its options)\n\n"
           "Measures SIMD hash/MAC kernels inside emulated kernel_fpu_begin()/end() sections and recommends\n"
           "how many bytes each may process per section for a time budget at a minimum CPU frequency.\n\ncommands:\n";
    for (const Command& c : commands()) out << fmt::format("  {:<10} {}\n", c.name, c.summary);
}

}  // namespace

int main(int argc, char** argv) {
    spdlog::set_pattern("%^%l%$: %v");
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "help")) {
        usage(std::cout);
        return argc < 2 ? kExitUsage : kExitOk;
    }
    if (!std::strcmp(argv[1], "--version")) {
        std::cout << "fputune " << fputune::tool_version() << " (" << fputune::tool_commit() << ")\n";
        return kExitOk;
    }
    const std::string name = argv[1];
    for (const Command& c : commands()) {
        if (name != c.name) continue;
        current_command() = name;
        try {
            return c.run(Args(argv + 2, argv + argc));
        } catch (const UsageError& e) {
            std::cerr << "fputune " << name << ": " << e.what() << "\n";
            return kExitUsage;
        } catch (const std::exception& e) {
            std::cerr << "fputune " << name << ": " << e.what() << "\n";
            return kExitUsage;
        }
    }
    std::string valid;
    for (const Command& c : commands()) valid += std::string(valid.empty() ? "" : ", ") + c.name;
    std::cerr << "fputune: unknown command '" << name << "'; valid commands: " << valid << "\n";
    return kExitUsage;
}
