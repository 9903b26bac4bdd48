// SPDX-License-Identifier: MIT
// Contention as a user meets it: `sweep --sibling` refused without a sibling, `recommend --contention`
// garbage refused, a sweep file with a garbage contention field refused, one without contention read.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

namespace {

fs::path scratch() {
    const fs::path d = fs::temp_directory_path() / ("fputune-contention-cli-" + std::to_string(getpid()));
    fs::create_directories(d);
    return d;
}

std::string put(const std::string& rel, const std::string& text) {
    const fs::path p = scratch() / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
}

std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

struct Result {
    int rc = -1;
    std::string out, err;
};

Result fputune(const std::string& args) {
    const std::string bin =
        (fs::read_symlink("/proc/self/exe").parent_path() / ".." / "apps" / "fputune").lexically_normal().string();
    const fs::path out = scratch() / "out", err = scratch() / "err";
    const std::string env = "FPUTUNE_LOCK_DIR=" + scratch().string() + " ";
    const int status = std::system((env + bin + " " + args + " >" + out.string() + " 2>" + err.string()).c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
}

// A /sys tree in which CPU 0 and 1 are SMT siblings or not.
std::string topology(const std::string& name, bool siblings) {
    const std::string root = (scratch() / name).string();
    for (int c = 0; c < 2; ++c)
        put(name + "/sys/devices/system/cpu/cpu" + std::to_string(c) + "/topology/thread_siblings_list",
            siblings ? "0-1\n" : std::to_string(c) + "\n");
    return root;
}

void check_one_line(const Result& r, const std::string& says) {
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.rc == 2);
    CHECK_THAT(r.err, Catch::Contains(says));
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
}

}  // namespace

TEST_CASE("CLI sweep --sibling: refused without a sibling, or with a load that does not exist", "[contention][cli]") {
    const std::string alone = topology("alone", false), pair = topology("pair", true);
    const std::string out = " -o " + (scratch() / "s.json").string() + " -k sha256-generic --cpu 0 --root ";
    check_one_line(fputune("sweep --sibling busy" + out + alone), "CPU 0 has no SMT sibling");
    check_one_line(fputune("sweep --sibling busy:int" + out + alone), "drop --sibling");
    check_one_line(fputune("sweep --sibling busy:gpu" + out + pair), "accepted: busy, busy:int, busy:vec, busy:mem");
    check_one_line(fputune("sweep --sibling idle" + out + pair), "--sibling 'idle'");
    check_one_line(fputune("sweep --sibling busy --rounds 1" + out + pair), "needs 2 rounds");
}
