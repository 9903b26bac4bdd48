// SPDX-License-Identifier: MIT
// Shared by the tests that run the built fputune as a process (models, report, compare): a scratch
// folder per test process, files written into it, and the CLI run with its output captured.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "atomic_file.hpp"

namespace fputune::cli_test {

namespace fs = std::filesystem;

// One scratch folder per test process, removed at exit.
struct TempDir {
    fs::path path;
    TempDir() : path(fs::temp_directory_path() / ("fputune_cli_test_" + std::to_string(getpid()))) {
        fs::create_directories(path);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

inline fs::path temp_dir() {
    static const TempDir dir;
    return dir.path;
}

inline std::string write_temp(const std::string& name, const std::string& text) {
    const fs::path p = temp_dir() / name;
    std::ofstream(p) << text;
    return p.string();
}

inline std::string source_file(const std::string& rel) { return std::string(FPUTUNE_SOURCE_DIR) + "/" + rel; }

struct Run {
    int rc = -1;
    std::string out, err;
};

// The fputune built beside this test binary (build/apps/fputune for build/tests/...).
inline std::string fputune_binary() {
    return (fs::read_symlink("/proc/self/exe").parent_path() / ".." / "apps" / "fputune").lexically_normal().string();
}

// Runs `env_prefix fputune args` through the shell; stdout and stderr captured.
inline Run run_fputune(const std::string& args, const std::string& env_prefix = "") {
    const std::string out = (temp_dir() / "stdout").string(), err = (temp_dir() / "stderr").string();
    const std::string cmd =
        env_prefix + (env_prefix.empty() ? "" : " ") + fputune_binary() + " " + args + " >" + out + " 2>" + err;
    const int status = std::system(cmd.c_str());
    Run r;
    r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = read_file(out);
    r.err = read_file(err);
    return r;
}

// How often `needle` occurs in `text` (not overlapping).
inline std::size_t count(const std::string& text, const std::string& needle) {
    std::size_t n = 0;
    for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++n;
    return n;
}

}  // namespace fputune::cli_test
