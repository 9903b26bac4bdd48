// SPDX-License-Identifier: MIT
// The CLI tests' scaffolding: a scratch folder of the suite's own, files put into it, and the fputune next to
// the test binary (build/apps/fputune) run with its output captured.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fputune_test {

struct CliResult {
    int rc = -1;
    std::string out, err;
};

struct CliScratch {
    std::string suite;  // names the folder: tests of several suites run side by side

    std::filesystem::path path() const {
        return std::filesystem::temp_directory_path() / ("fputune-" + suite + "-" + std::to_string(getpid()));
    }
    std::filesystem::path dir() const {
        const std::filesystem::path d = path();
        std::filesystem::create_directories(d);
        return d;
    }
    // The folder goes with the process: ctest runs each test case as a process of its own, and the contention
    // suite writes a 10 MB sweep into each (a whole run left ~3 GB in /tmp).
    ~CliScratch() {
        std::error_code ec;
        const std::filesystem::path tmp = std::filesystem::temp_directory_path(ec);
        if (!ec) std::filesystem::remove_all(tmp / ("fputune-" + suite + "-" + std::to_string(getpid())), ec);
    }

    std::string put(const std::string& rel, const std::string& text) const {
        const std::filesystem::path p = dir() / rel;
        std::filesystem::create_directories(p.parent_path());
        std::ofstream(p) << text;
        return p.string();
    }

    static std::string slurp(const std::filesystem::path& p) {
        std::ifstream in(p);
        std::stringstream ss;
        ss << in.rdbuf();
        return ss.str();
    }

    // A lock folder of our own: tests running beside this one pin measuring runs to the same CPU.
    // `launcher`: a command that runs fputune (e.g. "taskset -c 0"), the environment passed through it.
    CliResult run(const std::string& args, const std::string& launcher = "") const {
        const std::string bin = (std::filesystem::read_symlink("/proc/self/exe").parent_path() / ".." / "apps" /
                                 "fputune")
                                    .lexically_normal()
                                    .string();
        const std::filesystem::path out = dir() / "out", err = dir() / "err";
        const std::string env = "FPUTUNE_LOCK_DIR=" + dir().string() + " ";
        const std::string cmd = env + (launcher.empty() ? "" : launcher + " ") + bin + " " + args;
        const int status = std::system((cmd + " >" + out.string() + " 2>" + err.string()).c_str());
        return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
    }
};

}  // namespace fputune_test
