// SPDX-License-Identifier: MIT
// fputune: measure SIMD crypto kernels and recommend kernel_fpu_begin/end chunk limits.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iostream>
#include <new>
#include <system_error>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
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
    out << "\n" << kExitCodesHelp;
}

// Runs the command and turns each kind of failure into its exit code, with one line on stderr.
int run_command(const Command& c, const std::string& name, const Args& args) {
    auto say = [&](const char* what) { std::cerr << "fputune " << name << ": " << what << "\n"; };
    try {
        return c.run(args);
    } catch (const fputune::InputError& e) {  // UsageError too
        say(e.what());
        return kExitUsage;
    } catch (const std::invalid_argument& e) {  // a value the library refused (units, features, options)
        say(e.what());
        return kExitUsage;
    } catch (const nlohmann::json::exception& e) {  // a file that slipped past its reader's checks: still input
        say(e.what());
        return kExitUsage;
    } catch (const fputune::SystemError& e) {
        say(e.what());
        return kExitSystem;
    } catch (const std::bad_alloc&) {
        say("out of memory");
        return kExitSystem;
    } catch (const std::system_error& e) {  // filesystem_error and ios failures among them
        say(e.what());
        return kExitSystem;
    } catch (const std::exception& e) {  // none is thrown on purpose: a bug of ours, not the user's input
        say((std::string("internal error (please report it): ") + e.what()).c_str());
        return kExitSystem;
    }
}

// Output lost on a full disk or a closed pipe must not pass as success: 0, or why it was lost.
std::string stdout_error() {
    std::cout.flush();
    errno = 0;
    if (std::fflush(stdout) != 0) return std::strerror(errno ? errno : EIO);
    if (std::ferror(stdout) || !std::cout.good()) return "a write failed";
    return "";
}

}  // namespace

int main(int argc, char** argv) {
    // Logs and progress go to stderr: stdout carries results only (a table, JSON, `-o -`).
    spdlog::set_default_logger(spdlog::stderr_color_mt("fputune"));
    spdlog::set_pattern("%^%l%$: %v");
    for (int i = 0; i < argc; ++i) invocation() += fmt::format("{}{}", i ? " " : "", argv[i]);
    int rc = kExitOk;
    std::string name = "fputune";
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "help")) {
        usage(std::cout);
        rc = argc < 2 ? kExitUsage : kExitOk;
    } else if (!std::strcmp(argv[1], "--version")) {
        std::cout << "fputune " << fputune::tool_version() << " (" << fputune::tool_commit() << ")\n";
    } else {
        name = argv[1];
        const Command* command = nullptr;
        for (const Command& c : commands())
            if (name == c.name) command = &c;
        if (!command) {
            std::string valid;
            for (const Command& c : commands()) valid += std::string(valid.empty() ? "" : ", ") + c.name;
            std::cerr << "fputune: unknown command '" << name << "'; valid commands: " << valid << "\n";
            return kExitUsage;
        }
        current_command() = name;
        rc = run_command(*command, name, Args(argv + 2, argv + argc));
        name = "fputune " + name;
    }
    // A partial sweep keeps its own code: its file is written, and a hang-up may have taken stdout with it.
    if (rc != kExitPartial) {
        if (const std::string why = stdout_error(); !why.empty()) {
            std::cerr << name << ": cannot write standard output: " << why << "\n";
            return kExitSystem;
        }
    }
    return rc;
}
