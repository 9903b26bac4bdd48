// SPDX-License-Identifier: MIT
// Reliability: writes that never destroy, readers that refuse instead of crash, signals,
// exit codes, the CPU lock, plausible options. Each TEST_CASE names the finding it guards against.
#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "atomic_file.hpp"
#include "check.hpp"
#include "cpu_lock.hpp"
#include "errors.hpp"
#include "json_checked.hpp"
#include "load.hpp"
#include "reference_csv.hpp"
#include "sweep_file.hpp"
#include "units.hpp"

using namespace fputune;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// One scratch folder per test case (removed at its end), so parallel ctest runs never share files.
struct Scratch {
    fs::path dir;
    Scratch() {
        static int n = 0;
        dir = fs::temp_directory_path() / ("fputune-reliab-" + std::to_string(getpid()) + "-" + std::to_string(++n));
        fs::create_directories(dir);
    }
    ~Scratch() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
    std::string operator/(const std::string& name) const { return (dir / name).string(); }
    std::string write(const std::string& name, const std::string& text) const {
        std::ofstream(dir / name, std::ios::binary) << text;
        return *this / name;
    }
};

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string fputune_binary() {
    return (fs::read_symlink("/proc/self/exe").parent_path() / ".." / "apps" / "fputune").lexically_normal().string();
}
std::string source_file(const std::string& rel) { return std::string(FPUTUNE_SOURCE_DIR) + "/" + rel; }
const std::string kZen5 = source_file("data/machines/zen5-turin-vm-2026-11-30.json");

// fputune run as a child process: stdout and stderr to files, its own CPU lock folder.
struct Child {
    pid_t pid = -1;
    std::string out, err;
};

Child spawn(const Scratch& s, const std::vector<std::string>& args, const std::string& tag = "run",
            const std::string& stdout_path = "", const std::vector<std::string>& prefix = {}) {
    Child c;
    c.out = stdout_path.empty() ? s / (tag + ".out") : stdout_path;
    c.err = s / (tag + ".err");
    const std::string lock_dir = s.dir.string();
    c.pid = fork();
    if (c.pid == 0) {
        setpgid(0, 0);  // a signal to the test's group does not reach it, and ours reach only it
        const int o = open(c.out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644),
                  e = open(c.err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (o < 0 || e < 0) _exit(127);
        dup2(o, 1);
        dup2(e, 2);
        setenv("FPUTUNE_LOCK_DIR", lock_dir.c_str(), 1);
        std::vector<std::string> all = prefix;
        all.push_back(fputune_binary());
        all.insert(all.end(), args.begin(), args.end());
        std::vector<char*> argv;
        for (auto& a : all) argv.push_back(a.data());
        argv.push_back(nullptr);
        execvp(argv[0], argv.data());
        _exit(127);
    }
    return c;
}

struct Exit {
    bool exited = false;  // false: killed by a signal (or timed out)
    int code = -1, signal = 0;
};

Exit wait_for(pid_t pid, double timeout_s = 180) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    int status = 0;
    for (;;) {
        const pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid) break;
        if (std::chrono::steady_clock::now() > end) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            FAIL_CHECK("timed out after " << timeout_s << " s");
            return {};
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    Exit e;
    e.exited = WIFEXITED(status);
    e.code = e.exited ? WEXITSTATUS(status) : -1;
    e.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    return e;
}

struct Run {
    Exit exit;
    std::string out, err;
};
Run run(const Scratch& s, const std::vector<std::string>& args, const std::string& stdout_path = "",
        const std::vector<std::string>& prefix = {}) {
    const Child c = spawn(s, args, "run", stdout_path, prefix);
    Run r;
    r.exit = wait_for(c.pid);
    r.out = stdout_path.empty() ? slurp(c.out) : "";
    r.err = slurp(c.err);
    return r;
}

// Waits until the child's stderr holds `text` (the sweep has started sampling), up to 120 s.
bool wait_for_text(const Child& c, const std::string& text) {
    for (int i = 0; i < 6000; ++i) {
        if (slurp(c.err).find(text) != std::string::npos) return true;
        int status = 0;
        if (waitpid(c.pid, &status, WNOHANG) == c.pid) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
}

std::size_t lines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

// A sweep long enough to be interrupted: one FPU kernel, hot cache, no thresholds.
std::vector<std::string> long_sweep(const std::string& out) {
    return {"sweep", "-k", "crc32c-pclmul", "--cache", "hot", "--no-thresholds", "--time-budget", "60", "-o", out};
}

}  // namespace

// ---- Safe writes, by file type -------------------------------------------------------------------

TEST_CASE("writes: a symlink is followed, its target replaced, the link kept (was: link replaced, target stale)",
          "[reliab][write]") {
    Scratch s;
    const std::string target = s.write("target.json", "old\n");
    fs::create_symlink("target.json", s / "link.json");
    write_file_atomic(s / "link.json", "new\n");
    CHECK(fs::is_symlink(s / "link.json"));
    CHECK(slurp(target) == "new\n");
    // A chain of links, and a dangling one: the end of the chain is written.
    fs::create_symlink("link.json", s / "link2.json");
    write_file_atomic(s / "link2.json", "newer\n");
    CHECK(fs::is_symlink(s / "link2.json"));
    CHECK(slurp(target) == "newer\n");
    fs::create_symlink("absent.json", s / "dangling.json");
    write_file_atomic(s / "dangling.json", "made\n");
    CHECK(fs::is_symlink(s / "dangling.json"));
    CHECK(slurp(s / "absent.json") == "made\n");
    // Through the CLI: `fit -o link` (and -o/--csv/--header use the same write).
    const Run r = run(s, {"fit", kZen5, "-o", s / "link.json"});
    CHECK(r.exit.code == 0);
    CHECK(fs::is_symlink(s / "link.json"));
    CHECK(json::parse(slurp(target))["schema"] == "fputune.model/2");
}

TEST_CASE("writes: a FIFO is written straight through and stays a FIFO (was: replaced by a file)", "[reliab][write]") {
    Scratch s;
    const std::string fifo = s / "fifo";
    REQUIRE(mkfifo(fifo.c_str(), 0644) == 0);
    std::string got;
    std::thread reader([&] { got = slurp(fifo); });
    write_file_atomic(fifo, "through the pipe\n");
    reader.join();
    CHECK(got == "through the pipe\n");
    struct stat st {};
    REQUIRE(lstat(fifo.c_str(), &st) == 0);
    CHECK(S_ISFIFO(st.st_mode));
    // A symlink to a FIFO: the same, the link stays.
    fs::create_symlink("fifo", s / "to-fifo");
    std::thread reader2([&] { got = slurp(fifo); });
    write_file_atomic(s / "to-fifo", "again\n");
    reader2.join();
    CHECK(got == "again\n");
    CHECK(fs::is_symlink(s / "to-fifo"));
}

TEST_CASE("writes: character devices are written through, never replaced (was: `-o /dev/full` replaced /dev/full)",
          "[reliab][write]") {
    Scratch s;
    // A link to /dev/null: the old write renamed a file over the link; now /dev/null takes the bytes.
    // (Only while /dev/null is what it should be: an old fputune run as root may have replaced it.)
    if (fs::is_character_file("/dev/null")) {
        fs::create_symlink("/dev/null", s / "null-link");
        write_file_atomic(s / "null-link", "discarded\n");
        CHECK(fs::is_symlink(s / "null-link"));
        CHECK(fs::is_character_file("/dev/null"));
    } else {
        WARN(
            "/dev/null is not a character device on this machine (replaced by a regular file): repair it with "
            "`mknod -m 666 /dev/null.new c 1 3 && mv /dev/null.new /dev/null`");
    }
    // Device nodes of our own (root only): a "null" takes the write, a "full" fails it with exit 3,
    // and both are still device nodes afterwards.
    const std::string null_dev = s / "null", full_dev = s / "full";
    if (mknod(null_dev.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0 ||
        mknod(full_dev.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0) {
        WARN("not root (or no CAP_MKNOD): device nodes of our own are not tested; the link to /dev/null was");
        return;
    }
    write_file_atomic(null_dev, "x\n");
    CHECK_THROWS_AS(write_file_atomic(full_dev, "x\n"), SystemError);
    CHECK_THROWS_WITH(write_file_atomic(full_dev, "x\n"), Catch::Contains("No space left"));
    const Run r = run(s, {"fit", kZen5, "-o", full_dev});
    CHECK(r.exit.code == 3);
    CHECK_THAT(r.err, Catch::Contains(full_dev) && Catch::Contains("No space left"));
    CHECK(run(s, {"fit", kZen5, "-o", null_dev}).exit.code == 0);
    struct stat st {};
    REQUIRE(lstat(null_dev.c_str(), &st) == 0);
    CHECK(S_ISCHR(st.st_mode));
    REQUIRE(lstat(full_dev.c_str(), &st) == 0);
    CHECK(S_ISCHR(st.st_mode));
}

TEST_CASE("writes: a socket, a folder and a block device are refused, and left alone", "[reliab][write]") {
    Scratch s;
    const std::string sock = s / "sock";
    const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    REQUIRE(fd >= 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", sock.c_str());
    REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    CHECK_THROWS_AS(write_file_atomic(sock, "x"), InputError);
    CHECK_THROWS_WITH(write_file_atomic(sock, "x"), Catch::Contains("socket"));
    CHECK(fs::is_socket(sock));
    close(fd);
    CHECK_THROWS_WITH(write_file_atomic(s.dir.string(), "x"), Catch::Contains("directory"));
    fs::create_symlink(s.dir, s / "dir-link");
    CHECK_THROWS_WITH(write_file_atomic(s / "dir-link", "x"), Catch::Contains("directory"));
    const std::string blk = s / "blk";
    if (mknod(blk.c_str(), S_IFBLK | 0600, makedev(7, 200)) == 0) {
        CHECK_THROWS_WITH(write_file_atomic(blk, "x"), Catch::Contains("block device"));
        CHECK(fs::is_block_file(blk));
    }
}

TEST_CASE("writes: '-' and /dev/stdout go to standard output (was: a file named '-', or a rename over /dev/stdout)",
          "[reliab][write]") {
    Scratch s;
    CHECK(is_stdout_path("-"));
    CHECK(is_stdout_path("/dev/stdout"));
    CHECK(is_stdout_path("/dev/fd/1"));
    CHECK_FALSE(is_stdout_path("/dev/fd/12"));
    CHECK_FALSE(is_stdout_path("out.json"));
    const std::string cwd = fs::current_path().string();
    fs::current_path(s.dir);
    const Run r = run(s, {"fit", kZen5, "-o", "-", "--json"});
    fs::current_path(cwd);
    CHECK(r.exit.code == 0);
    CHECK_FALSE(fs::exists(s / "-"));
    // The model file, then the --json copy: two documents, each complete.
    const std::string first = r.out.substr(0, r.out.find("\n}\n") + 3);
    CHECK(json::parse(first)["schema"] == "fputune.model/2");
    CHECK(r.out.size() > first.size());
}

TEST_CASE("writes: the temporary file cannot be squatted: a planted link or FIFO at the old name is not used",
          "[reliab][write]") {
    Scratch s;
    const std::string out = s / "out.json", victim = s.write("victim", "precious\n");
    // The old name was "<out>.tmp.<pid>", opened without O_EXCL|O_NOFOLLOW: root wrote through a
    // planted link into any file, and left the output path as that link.
    fs::create_symlink(victim, out + ".tmp." + std::to_string(getpid()));
    write_file_atomic(out, "result\n");
    CHECK(slurp(victim) == "precious\n");
    CHECK(fs::is_regular_file(fs::symlink_status(out)));
    CHECK(slurp(out) == "result\n");
    // A FIFO planted there (held open for reading so that the old code did not hang) is not used either.
    fs::remove(out + ".tmp." + std::to_string(getpid()));
    REQUIRE(mkfifo((out + ".tmp." + std::to_string(getpid())).c_str(), 0644) == 0);
    const int hold = open((out + ".tmp." + std::to_string(getpid())).c_str(), O_RDONLY | O_NONBLOCK);
    write_file_atomic(out, "again\n");
    close(hold);
    CHECK(fs::is_regular_file(fs::symlink_status(out)));
    CHECK(slurp(out) == "again\n");
    // Temporary names are unpredictable: none left behind, and two writes never reuse a name.
    for (const auto& e : fs::directory_iterator(s.dir))
        CHECK(e.path().filename().string().find("fputune-tmp") == std::string::npos);
}

TEST_CASE("writes: stale temporary files of a killed writer are removed by the next write, live ones kept",
          "[reliab][write]") {
    Scratch s;
    const std::string out = s / "sweep.json";
    const pid_t dead = fork();
    if (dead == 0) _exit(0);
    waitpid(dead, nullptr, 0);
    const std::string stale =
        s.write(".sweep.json.fputune-tmp." + std::to_string(dead) + ".0123456789abcdef", std::string(400000, 'x'));
    const std::string live =
        s.write(".sweep.json.fputune-tmp." + std::to_string(getpid()) + ".0123456789abcdef", "in progress");
    const std::string other =
        s.write(".other.json.fputune-tmp." + std::to_string(dead) + ".0123456789abcdef", "not ours");
    write_file_atomic(out, "{}\n");
    CHECK_FALSE(fs::exists(stale));
    CHECK(fs::exists(live));
    CHECK(fs::exists(other));
    CHECK(remove_stale_temporaries(s / "other.json") == 1);
}

TEST_CASE("writes: an output that is also an input is refused before anything is written", "[reliab][write]") {
    Scratch s;
    const std::string in = s.write("s.json", slurp(kZen5));
    fs::create_symlink("s.json", s / "alias.json");
    CHECK_THROWS_AS(refuse_same_files({{"--header", in}}, {{"--from", in}}), InputError);
    CHECK_THROWS_WITH(refuse_same_files({{"--header", s / "alias.json"}}, {{"--from", in}}),
                      Catch::Contains("--header") && Catch::Contains("--from") && Catch::Contains("also the input"));
    CHECK_THROWS_WITH(refuse_same_files({{"-o", s / "new.json"}, {"--csv", s / "new.json"}}, {}),
                      Catch::Contains("same file"));
    CHECK_NOTHROW(refuse_same_files({{"-o", s / "a.json"}, {"--csv", s / "b.csv"}}, {{"--from", in}}));
    if (fs::is_character_file("/dev/zero"))
        CHECK_NOTHROW(refuse_same_files({{"-o", "/dev/zero"}, {"--csv", "/dev/zero"}}, {}));
    CHECK_NOTHROW(refuse_same_files({{"-o", in}}, {{"", ""}}));
    // `sweep -o s.json --csv s.json`: refused at once, exit 2, nothing measured, s.json intact.
    const std::string before = slurp(in);
    const Run r = run(s, {"sweep", "-k", "crc32c-pclmul", "-o", in, "--csv", in});
    CHECK(r.exit.code == 2);
    CHECK_THAT(r.err, Catch::Contains("same file"));
    CHECK(lines(r.err) == 1);
    CHECK(slurp(in) == before);
}

TEST_CASE("writes: a failed write of standard output is exit 3 (was: exit 0 with 0 bytes)", "[reliab][write][exit]") {
    Scratch s;
    const Run r = run(s, {"list"}, "/dev/full");
    CHECK(r.exit.code == 3);
    CHECK_THAT(r.err, Catch::Contains("standard output"));
    const Run ok = run(s, {"list"});
    CHECK(ok.exit.code == 0);
}

TEST_CASE("reads: a missing file, a folder, a huge device are refused with the path named", "[reliab][read]") {
    Scratch s;
    CHECK_THROWS_AS(read_file(s / "absent.json"), InputError);
    CHECK_THROWS_WITH(read_file(s.dir.string()), Catch::Contains("directory"));
    CHECK_THROWS_WITH(read_file("/dev/zero"), Catch::Contains("/dev/zero") && Catch::Contains("MiB"));
}

TEST_CASE("reads: a compressed file is named as such, with the command that decompresses it", "[reliab][read]") {
    Scratch s;
    auto put = [&](const std::string& name, std::string_view bytes) { return s.write(name, std::string(bytes)); };
    const std::string xz = put("sweep.json.xz", std::string_view("\xFD" "7zXZ\0\0\x04\xE6\xD6\xB4\x46", 12));
    CHECK_THROWS_WITH(read_file(xz), Catch::Contains("compressed (xz)") &&
                                         Catch::Contains("xz -dk '" + xz + "', then give '" + s / "sweep.json" + "'"));
    // No suffix to take off: to standard output, into a file of the user's naming.
    const std::string gz = put("sweep", "\x1F\x8B\x08\x00");
    CHECK_THROWS_WITH(read_file(gz), Catch::Contains("compressed (gzip)") && Catch::Contains("gzip -dc '" + gz + "' > FILE"));
    CHECK_THROWS_WITH(read_file(put("h.zst", "\x28\xB5\x2F\xFD\x04")), Catch::Contains("compressed (zstd)"));
    CHECK_THROWS_WITH(read_file(put("h.bz2", std::string_view("BZh91AY&SY\0", 11))), Catch::Contains("compressed (bzip2)"));
    // Text that merely begins as bzip2's magic does, and JSON, are read as they are.
    CHECK(read_file(put("bzh.csv", "BZh,bytes\n")) == "BZh,bytes\n");
    CHECK(read_file(put("a.json", "{}")) == "{}");
    // Through a command: one line, exit 2.
    const Run r = run(s, {"recommend", "--from", xz, "--budget", "30us"});
    CHECK(r.exit.code == 2);
    CHECK_THAT(r.err, Catch::Contains("compressed (xz)"));
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
}

// ---- Exit codes ----------------------------------------------------------------------------------

TEST_CASE("exit codes: 0 ok, 2 usage, 3 system, every --help says so", "[reliab][exit]") {
    Scratch s;
    CHECK(run(s, {"--help"}).exit.code == 0);
    CHECK(run(s, {"nonsense"}).exit.code == 2);
    CHECK(run(s, {"list", "--bogus"}).exit.code == 2);
    CHECK(run(s, {"fit", s / "absent.json"}).exit.code == 2);
    CHECK(run(s, {"fit", kZen5, "-o", "/nonexistent-dir/x.json"}).exit.code == 2);
    for (const char* cmd : {"cpu", "list", "bench", "sweep", "fit", "recommend", "check"}) {
        const Run r = run(s, {cmd, "--help"});
        INFO(cmd);
        CHECK(r.exit.code == 0);
        CHECK_THAT(r.out, Catch::Contains("exit status: 0 ok; 1 a check failed") && Catch::Contains("3 the machine") &&
                              Catch::Contains("4 a sweep was"));
    }
    CHECK_THAT(run(s, {"--help"}).out, Catch::Contains("exit status"));
}

// ---- Signals -------------------------------------------------------------------------------------

TEST_CASE("signals: SIGHUP, SIGUSR1, SIGPIPE, SIGTERM and SIGINT each leave a valid partial file, exit 4",
          "[reliab][signals]") {
    Scratch s;
    // Exit 130 meant both "partial file written" and "killed"; SIGHUP (an SSH disconnect), SIGUSR1
    // and SIGPIPE killed the sweep without writing anything.
    for (const int sig : {SIGHUP, SIGUSR1, SIGPIPE, SIGTERM, SIGINT}) {
        INFO("signal " << sig);
        const std::string out = s / ("partial-" + std::to_string(sig) + ".json");
        const Child c = spawn(s, long_sweep(out), "sig" + std::to_string(sig));
        REQUIRE(wait_for_text(c, "info: ["));
        kill(c.pid, sig);
        const Exit e = wait_for(c.pid);
        CHECK(e.exited);
        CHECK(e.code == 4);
        REQUIRE(fs::exists(out));
        const SweepFile f = read_sweep_file(out);
        CHECK(f.partial);
        CHECK_THAT(f.warnings.back(), Catch::Contains("interrupted"));
    }
}

TEST_CASE("signals: Ctrl-C pressed again and again while the partial file is written still leaves it",
          "[reliab][signals]") {
    Scratch s;
    const std::string out = s / "partial.json";
    const Child c = spawn(s, long_sweep(out));
    REQUIRE(wait_for_text(c, "info: ["));
    // The old code restored SIGINT's default right after sampling stopped: a second Ctrl-C then killed
    // it before (or while) the file was written.
    Exit e;
    for (int i = 0; i < 5000; ++i) {
        if (kill(c.pid, SIGINT) != 0) break;
        int status = 0;
        if (waitpid(c.pid, &status, WNOHANG) == c.pid) {
            e.exited = WIFEXITED(status);
            e.code = e.exited ? WEXITSTATUS(status) : -1;
            e.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    INFO("signal " << e.signal);
    CHECK(e.exited);
    CHECK(e.code == 4);
    REQUIRE(fs::exists(out));
    CHECK(read_sweep_file(out).partial);
}

TEST_CASE("resume: the merged file drops the interrupted warning and lists every kernel swept into it",
          "[reliab][signals]") {
    Scratch s;
    const std::string out = s / "sweep.json";
    const Child c = spawn(s, long_sweep(out), "first");
    REQUIRE(wait_for_text(c, "info: ["));
    kill(c.pid, SIGINT);
    REQUIRE(wait_for(c.pid).code == 4);
    REQUIRE(read_sweep_file(out).partial);
    const Run r = run(s, {"sweep", "--resume", out, "-o", out, "-k", "crc32c-pclmul", "-k", "crc32-pclmul", "--cache",
                          "hot", "--no-thresholds", "--sizes", "64,256", "--time-budget", "3"});
    INFO(r.err);
    REQUIRE(r.exit.code == 0);
    const SweepFile f = read_sweep_file(out);
    CHECK_FALSE(f.partial);
    for (const auto& w : f.warnings) CHECK_THAT(w, !Catch::Contains("interrupted"));
    CHECK(f.options["kernels"] == json::array({"crc32c-pclmul", "crc32-pclmul"}));
}

// ---- Concurrency and CPUs ------------------------------------------------------------------------

TEST_CASE("CPU lock: a second measuring run on one CPU is refused, naming the first one's PID", "[reliab][cpu]") {
    Scratch s;
    setenv("FPUTUNE_LOCK_DIR", s.dir.string().c_str(), 1);
    cpu_set_t set;
    REQUIRE(sched_getaffinity(0, sizeof set, &set) == 0);
    int cpu = -1;
    for (int c = CPU_SETSIZE - 1; c >= 0 && cpu < 0; --c)
        if (CPU_ISSET(c, &set)) cpu = c;
    std::string holder;
    auto lock = CpuLock::try_acquire(cpu, "fputune_tests holding the lock", holder);
    REQUIRE(lock);
    std::string second;
    CHECK_FALSE(CpuLock::try_acquire(cpu, "another", second));  // a second descriptor, even in one process
    CHECK_THAT(second, Catch::Contains("PID " + std::to_string(getpid())));
    const Run r = run(s, {"cpu", "--cpu", std::to_string(cpu)});
    CHECK(r.exit.code == 3);
    CHECK_THAT(r.err, Catch::Contains("busy") && Catch::Contains("PID " + std::to_string(getpid())));
    CHECK(lines(r.err) == 1);
    lock.reset();
    CHECK(run(s, {"cpu", "--cpu", std::to_string(cpu)}).exit.code == 0);
    unsetenv("FPUTUNE_LOCK_DIR");
}

TEST_CASE("cpu: a --cpu outside the allowed mask is refused (was: taskset -c 0 ... --cpu 1 widened the mask)",
          "[reliab][cpu]") {
    Scratch s;
    cpu_set_t set;
    REQUIRE(sched_getaffinity(0, sizeof set, &set) == 0);
    std::vector<int> allowed;
    for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &set)) allowed.push_back(c);
    CHECK(run(s, {"cpu", "--cpu", "100000"}).exit.code == 2);  // beyond cpu_set_t: was a write out of bounds
    CHECK(run(s, {"cpu", "--cpu", "-1"}).exit.code == 2);
    if (allowed.size() < 2 || std::system("command -v taskset >/dev/null") != 0) {
        WARN("needs two allowed CPUs and taskset");
        return;
    }
    const Run r =
        run(s, {"cpu", "--cpu", std::to_string(allowed[1])}, "", {"taskset", "-c", std::to_string(allowed[0])});
    CHECK(r.exit.code == 2);
    CHECK_THAT(r.err, Catch::Contains("--cpu " + std::to_string(allowed[1])) &&
                          Catch::Contains("may use (" + std::to_string(allowed[0]) + ")"));
}

// ---- Progress off a terminal ---------------------------------------------------------------------

TEST_CASE("progress off a terminal: a line every 10 s or 10 % of the work, not one per step", "[reliab][progress]") {
    Scratch s;
    // About 300 lines per sweep was too many for a CI log: one per group of threshold points (22 in
    // these 3 s), one a second for the sections.
    const Run r = run(s, {"sweep", "-k", "crc*", "--time-budget", "6", "--cache", "hot", "-o", s / "p.json"});
    REQUIRE(r.exit.code == 0);
    std::size_t progress = 0;
    std::istringstream in(r.err);
    for (std::string line; std::getline(in, line);) progress += line.rfind("info: [", 0) == 0;
    INFO(r.err);
    CHECK(progress >= 1);
    CHECK(progress <= 11);
}

// ---- Plausibility at the boundary ----------------------------------------------------------------

TEST_CASE("units: implausible budgets and frequencies are refused, saying why, tiny values never print as 0",
          "[reliab][units]") {
    CHECK_NOTHROW(check_plausible_budget(30e-6));
    CHECK_NOTHROW(check_plausible_min_freq(1e9));
    CHECK_THROWS_WITH(check_plausible_budget(1e-300), Catch::Contains("--budget") && Catch::Contains("--force"));
    CHECK_THROWS_WITH(check_plausible_budget(30), Catch::Contains("30us, not 30s"));
    CHECK_THROWS_WITH(check_plausible_min_freq(1),
                      Catch::Contains("--min-freq 1 Hz") && Catch::Contains("1 MHz .. 10 GHz"));
    CHECK_THROWS(check_plausible_min_freq(20e9));
    CHECK(format_duration(1e-300) != "0 ns");
    CHECK(format_frequency(1e-9) != "0 Hz");
    CHECK(format_duration(std::nan("")) == "unknown");
    CHECK(format_duration(INFINITY) == "unbounded");
    CHECK(format_frequency(std::nan("")) == "unknown");
    CHECK_THROWS_WITH(parse_frequency_hz("1e308GHz"), Catch::Contains("too large"));
    CHECK_THROWS_WITH(parse_duration_s("1e-320ns"), Catch::Contains("too small"));
}

// ---- The sweep file reader -----------------------------------------------------------------------

namespace {

json good_sweep() {
    json j = {{"schema", "fputune.sweep/1"},
              {"tool", {{"name", "fputune"}, {"version", "t"}, {"commit", "t"}}},
              {"date", "2026-01-01T00:00:00Z"},
              {"cpu", {{"brand", "Test CPU"}}},
              {"options", json::object()},
              {"clock", {{"tsc_hz", 2e9}, {"core_per_tsc", 1.5}}},
              {"dirty", "ymm"},
              {"partial", false},
              {"warnings", json::array()},
              {"kernels",
               {{{"name", "fake-avx2"},
                 {"algorithm", "fake"},
                 {"isa", "avx2"},
                 {"provider", "fputune"},
                 {"block_bytes", 64},
                 {"needs_fpu", true}}}},
              {"sections", json::array()},
              {"thresholds", json::array()}};
    for (std::uint64_t n = 64; n <= 8192; n *= 2) {
        const double p50 = 1000 + 2.0 * static_cast<double>(n);
        j["sections"].push_back({{"kernel", "fake-avx2"},
                                 {"cache", "hot"},
                                 {"bytes", n},
                                 {"ticks",
                                  {{"samples", 100},
                                   {"min", p50 * 0.9},
                                   {"p10", p50 * 0.95},
                                   {"p50", p50},
                                   {"p90", p50 * 1.05},
                                   {"p99", p50 * 1.1},
                                   {"p999", p50 * 1.2},
                                   {"max", p50 * 2},
                                   {"interrupted", 0},
                                   {"rel_ci50", 0.01},
                                   {"p99_clean", p50 * 1.1}}}});
    }
    return j;
}

std::string refusal(const json& j) {
    try {
        sweep_from_json(j, "s.json");
    } catch (const InputError& e) {
        return e.what();
    }
    return "(accepted)";
}

}  // namespace

TEST_CASE("sweep reader: numbers out of their field's range are refused, naming the file and the field",
          "[reliab][read]") {
    REQUIRE(sweep_from_json(good_sweep(), "s.json").sections.size() == 8);
    struct Case {
        std::string pointer;
        json value;
        std::string says;
    };
    // Each was converted with a wrap or undefined behaviour: a block_bytes of 2^32 became 0 or 1.
    const std::vector<Case> cases = {
        {"/kernels/0/block_bytes", 4294967296.0, "kernels[0].block_bytes: 4294967296"},
        {"/kernels/0/block_bytes", 4294967296ull, "kernels[0].block_bytes"},
        {"/kernels/0/block_bytes", -1, "kernels[0].block_bytes: -1 is below"},
        {"/kernels/0/block_bytes", 1e300, "kernels[0].block_bytes"},
        {"/kernels/0/block_bytes", 0, "kernels[0].block_bytes"},
        {"/kernels/0/block_bytes", 64.5, "not a whole number"},
        {"/kernels/0/block_bytes", "64", "not a number"},
        {"/sections/3/bytes", 1e12, "sections[3].bytes"},  // a 742 GiB limit came out of 1e12-byte points
        {"/sections/3/bytes", -1, "sections[3].bytes"},
        {"/sections/3/bytes", 1e300, "sections[3].bytes"},
        {"/sections/3/cache", "warm", "sections[3].cache 'warm' is not one of hot, cold"},
        {"/sections/3/kernel", "other", "'other' is not in the file's \"kernels\" list"},
        {"/clock/tsc_hz", 0, "clock.tsc_hz"},
        {"/clock/core_per_tsc", 1e-300, "clock.core_per_tsc"},
        {"/clock/core_per_tsc", "x", "clock.core_per_tsc"},
        {"/kernels/0/name", "a b", "kernels[0].name"},
        {"/kernels/0/name", std::string(100, 'a'), "kernels[0].name"},
        {"/dirty", "avx", "dirty"},
        {"/partial", 1, "partial"},
        {"/cpu", 5, "cpu"},
        {"/sections", json::object(), "sections"},
    };
    for (const auto& c : cases) {
        json j = good_sweep();
        j[json::json_pointer(c.pointer)] = c.value;
        const std::string why = refusal(j);
        INFO(c.pointer << " = " << c.value.dump());
        CHECK_THAT(why, Catch::StartsWith("s.json: malformed sweep file: ") && Catch::Contains(c.says));
        CHECK(why.find('\n') == std::string::npos);
    }
    json twice = good_sweep();
    twice["kernels"].push_back(twice["kernels"][0]);
    CHECK_THAT(refusal(twice), Catch::Contains("listed twice"));
}

TEST_CASE("sweep reader: a point with negative, zero, NaN, infinite or missing statistics is skipped and named",
          "[reliab][read]") {
    // A sweep once had 468 of 4816 points with a negative p50 and the whole file was refused.
    struct Case {
        std::string stat;
        json value;  // null: removed (NaN and inf are written as null by JSON writers)
        std::string says;
    };
    const std::vector<Case> cases = {{"p50", -3.0, "-3.0 is not > 0"}, {"p50", 0, "0 is not > 0"},
                                     {"p50", nullptr, "missing"},      {"p90", -1, "not > 0"},
                                     {"max", nullptr, "missing"},      {"samples", 0, "samples"},
                                     {"samples", -5, "samples"},       {"interrupted", 200, "interrupted"}};
    for (const auto& c : cases) {
        INFO(c.stat << " = " << c.value.dump());
        json j = good_sweep();
        if (c.value.is_null())
            j["sections"][2]["ticks"].erase(c.stat);
        else
            j["sections"][2]["ticks"][c.stat] = c.value;
        const SweepFile f = sweep_from_json(j, "s.json");
        CHECK(f.sections.size() == 7);
        REQUIRE(f.notes.size() == 1);
        CHECK_THAT(f.notes[0], Catch::Contains("fake-avx2: 1 point skipped") && Catch::Contains("256 B hot") &&
                                   Catch::Contains("sections[2].ticks." + c.stat) && Catch::Contains(c.says));
    }
    // The same in the cycles block; and a text "NaN" where a number belongs.
    json j = good_sweep();
    j["sections"][5]["cycles"] = j["sections"][5]["ticks"];
    j["sections"][5]["cycles"]["p90"] = "NaN";
    CHECK_THAT(sweep_from_json(j, "s.json").notes.at(0),
               Catch::Contains("sections[5].cycles.p90: \"NaN\" is not a number"));
    // Many broken points: one line per kernel, the first three named.
    j = good_sweep();
    for (auto& p : j["sections"]) p["ticks"]["p50"] = -1;
    const SweepFile all = sweep_from_json(j, "s.json");
    CHECK(all.sections.empty());
    REQUIRE(all.notes.size() == 1);
    CHECK_THAT(all.notes[0], Catch::Contains("8 points skipped") && Catch::Contains("and 5 more"));
}

TEST_CASE("sweep reader: 1e999, a byte order mark and deep nesting get one line naming the file", "[reliab][read]") {
    Scratch s;
    std::string text = good_sweep().dump();
    const std::string big = s.write("big.json", text.substr(0, text.size() - 1) + ",\"extra\":1e999}");
    CHECK_THROWS_WITH(read_sweep_file(big), Catch::StartsWith(big));  // the old message lacked the file
    const std::string bom = s.write("bom.json", "\xEF\xBB\xBF" + text);
    CHECK(read_sweep_file(bom).sections.size() == 8);
    const std::string deep = s.write("deep.json", std::string(100000, '[') + std::string(100000, ']'));
    CHECK_THROWS_WITH(read_sweep_file(deep), Catch::StartsWith(deep) && Catch::Contains("deeper"));
    const std::string nested =
        s.write("nested.json",
                text.substr(0, text.size() - 1) + ",\"cpu\":" + std::string(1000, '[') + std::string(1000, ']') + "}");
    CHECK_THROWS_WITH(read_sweep_file(nested), Catch::Contains("deeper"));
    CHECK_THROWS_WITH(read_sweep_file(s.write("long.json", "{\"schema\":\"" + std::string(100000, 'x') + "\"}")),
                      Catch::Contains("not a schema name"));
}

TEST_CASE("json_checked: integers by type, with the path in the message", "[reliab][read]") {
    using namespace jsonc;
    const Path at = Path("a")[3] / "b";
    CHECK(at.str() == "a[3].b");
    CHECK(integer<std::uint32_t>(json(4096.0), at) == 4096);
    CHECK(integer<std::uint32_t>(json(4294967295ull), at) == 4294967295u);
    CHECK_THROWS_WITH(integer<std::uint32_t>(json(4294967296ull), at),
                      Catch::StartsWith("a[3].b: 4294967296 is above"));
    CHECK_THROWS_WITH(integer<std::uint64_t>(json(1e300), at), Catch::Contains("above"));
    CHECK_THROWS_WITH(integer<std::uint64_t>(json(-1), at), Catch::Contains("-1 is below 0"));
    CHECK(integer<std::int32_t>(json(-5), at) == -5);
    CHECK_THROWS(integer<std::int32_t>(json(-5000000000LL), at));
    CHECK_THROWS_WITH(positive(json(0.0), at), Catch::Contains("not > 0"));
    CHECK_THROWS_WITH(real(json("x"), at), Catch::Contains("not a number"));
    CHECK_THROWS_WITH(string(json(std::string("\xff\xfe")), at, 1), Catch::Contains("2 bytes"));
}

// ---- The models' readers: reference CSV, model inputs, headers -----------------------------------

namespace {

const std::string kElliott = source_file("data/reference/elliott-2022-4k-cycles.csv");

std::string csv(const std::string& rows, const std::string& comment = "# Intel Test Lake at 2 GHz") {
    return comment + "\nalgorithm,bytes,cycles_per_op\n" + rows;
}

}  // namespace

TEST_CASE("readers: a 40 000-character line is refused in one line (was: std::regex overflowed the stack, exit 139)",
          "[reliab][read]") {
    Scratch s;
    const std::string long_comment =
        s.write("long.csv", "# " + std::string(40000, 'x') + "\n" + csv("sha256-avx2,4096,21179\n"));
    Run r = run(s, {"recommend", "--from", long_comment, "--budget", "30us"});
    CHECK(r.exit.code == 2);
    CHECK_THAT(r.err, Catch::Contains("long.csv:1: a line of 40002 bytes"));
    CHECK(lines(r.err) == 1);
    const std::string header =
        s.write("long.h", "/* " + std::string(40000, 'x') + " */\n#define FPUTUNE_SHA256_FPU_BYTES 4096\n");
    r = run(s, {"check", header, "--from", kElliott, "--budget", "30us"});
    CHECK(r.exit.code == 2);
    CHECK(lines(r.err) == 1);
    // Long lines below the bound are fine, in either reader.
    const std::string ok =
        s.write("ok.h", "/* " + std::string(10000, 'x') + " */\n#define FPUTUNE_SHA256_FPU_BYTES 4096\n");
    CHECK(run(s, {"check", ok, "--from", kElliott, "--budget", "30us"}).exit.code == 0);
}

TEST_CASE("reference CSV: names, numbers and repeats are checked, the machine is read without std::regex",
          "[reliab][read]") {
    const ModelFile m = read_reference_csv(csv("sha256-avx2,4096,21179\ncrc32c,4096,695\n"), "t.csv");
    CHECK(m.machine == "Intel Test Lake");
    CHECK(m.models.size() == 2);
    CHECK(read_reference_csv(csv("sha1-avx2,4096,8825\n", "# measured on AMD EPYC 9005, 2024"), "t.csv").machine ==
          "AMD EPYC 9005");
    CHECK(read_reference_csv(csv("sha1-avx2,4096,8825\n", "# machine: my box (lab 3)"), "t.csv").machine ==
          "my box (lab 3)");
    CHECK(read_reference_csv(csv("sha1-avx2,4096,8825\n", "# nothing said"), "t.csv").machine == "machine of t.csv");
    CHECK(read_reference_csv("\xEF\xBB\xBF" + csv("sha1-avx2,4096,8825\n"), "t.csv").models.size() ==
          1);  // a byte order mark
    struct Case {
        std::string rows, says;
    };
    const std::vector<Case> cases = {
        {"sha256-avx2,4096,inf\n", "cycles_per_op 'inf'"},  // printed "takes inf s"
        {"sha256-avx2,4096,nan\n", "cycles_per_op 'nan'"},
        {"sha256-avx2,4096,1e999\n", "cycles_per_op"},
        {"sha256-avx2,4096,-5\n", "cycles_per_op '-5'"},
        {"sha256-avx2,0,100\n", "bytes '0'"},
        {"sha256-avx2,4096.5,100\n", "bytes '4096.5'"},
        {"sha256-avx2,99999999999999999999,100\n", "bytes"},
        {"sha256-avx2,1e12,100\n", "bytes '1e12'"},
        {"sha\xff\xfe-avx2,4096,100\n", "kernel name"},  // failed the JSON output only after the header was written
        {"sha 256,4096,100\n", "kernel name"},
        {"sha256-avx2,4096,100\nsha256-avx2,4096,200\n", "a repeated kernel 'sha256-avx2'"},
        {"sha256-avx2,4096\n", "2 fields"},
    };
    for (const auto& c : cases) {
        INFO(c.rows);
        try {
            read_reference_csv(csv(c.rows), "t.csv");
            FAIL_CHECK("accepted");
        } catch (const InputError& e) {
            CHECK_THAT(e.what(), Catch::StartsWith("t.csv:") && Catch::Contains(c.says));
            CHECK(std::string(e.what()).find('\xff') == std::string::npos);
        }
    }
}

TEST_CASE("inputs: a byte order mark is accepted, 1e999 is refused naming the file", "[reliab][read]") {
    Scratch s;
    const std::string bom = s.write("bom.json", "\xEF\xBB\xBF" + good_sweep().dump());
    CHECK(load_models(bom).models.size() == 1);
    const std::string bom_csv = s.write("bom.csv", "\xEF\xBB\xBF" + csv("sha256-avx2,4096,21179\n"));
    CHECK(load_models(bom_csv).models.size() == 1);
    std::string text = good_sweep().dump();
    const std::string big = s.write("big.json", text.substr(0, text.size() - 1) + ",\"x\":1e999}");
    const Run r = run(s, {"recommend", "--from", big, "--budget", "30us"});
    CHECK(r.exit.code == 2);
    CHECK_THAT(r.err, Catch::Contains(big) && Catch::Contains("1e999"));
}

TEST_CASE("check reads C as C: comments, #if 0, duplicates, 0, octal and 2^64", "[reliab][check]") {
    std::vector<std::string> skipped;
    auto parse = [&](const std::string& text) {
        skipped.clear();
        return parse_header_constants(text, skipped, "h.h");
    };
    // Inside comments (block, line, spanning lines) and #if 0: not definitions.
    auto c = parse(
        "/* #define FPUTUNE_A_FPU_BYTES 1 */\n// #define FPUTUNE_B_FPU_BYTES 2\n/*\n#define FPUTUNE_C_FPU_BYTES 3\n*/\n"
        "#if 0\n#define FPUTUNE_D_FPU_BYTES 4\n#else\n#define FPUTUNE_E_FPU_BYTES 5\n#endif\n"
        "#ifndef GUARD\n#define GUARD\n#define FPUTUNE_F_FPU_BYTES (0x1000U) /* 4 KiB */\n#endif\n"
        "#define FPUTUNE_G_FPU_BYTES \\\n  8192UL\n#define S \"#define FPUTUNE_H_FPU_BYTES 1\"\n");
    REQUIRE(c.size() == 3);
    CHECK(c[0].name == "FPUTUNE_E_FPU_BYTES");
    CHECK(c[0].line == 9);
    CHECK(c[1].value == 4096);
    CHECK(c[2].name == "FPUTUNE_G_FPU_BYTES");
    CHECK(c[2].value == 8192);
    CHECK_THAT(skipped.at(0), Catch::Contains("FPUTUNE_D_FPU_BYTES (line 7): inside #if 0"));
    // The same value twice is judged once; two values are refused, naming both lines.
    c = parse("#define FPUTUNE_X_FPU_BYTES 4096\n#define FPUTUNE_X_FPU_BYTES 4096U\n");
    CHECK(c.size() == 1);
    CHECK_THROWS_WITH(parse("#define FPUTUNE_X_FPU_BYTES 4096\n\n#define FPUTUNE_X_FPU_BYTES 8192\n"),
                      Catch::StartsWith("h.h:3: FPUTUNE_X_FPU_BYTES is defined twice, 4096 at line 1 and 8192 here"));
    CHECK(parse("#define FPUTUNE_X_FPU_BYTES 4096\n#undef FPUTUNE_X_FPU_BYTES\n#define FPUTUNE_X_FPU_BYTES 8192\n")
              .at(0)
              .value == 8192);
    CHECK_THROWS_WITH(parse("#define FPUTUNE_X_FPU_BYTES 0\n"), Catch::Contains("h.h:1") && Catch::Contains("is 0"));
    CHECK_THROWS_WITH(parse("#define FPUTUNE_X_FPU_BYTES 09\n"),
                      Catch::Contains("octal") && Catch::Contains("not octal digits"));
    CHECK_THROWS_WITH(parse("#define FPUTUNE_X_FPU_BYTES 010\n"), Catch::Contains("octal (8)"));
    CHECK_THROWS_WITH(parse("#define FPUTUNE_X_FPU_BYTES 18446744073709551616\n"),
                      Catch::Contains("does not fit in 64 bits"));
    CHECK_THROWS_WITH(parse("#if 1\n#define A 1\n"), Catch::Contains("h.h:1: #if without #endif"));
    CHECK_THROWS_WITH(parse("#endif\n"), Catch::Contains("without #if"));
    CHECK_THROWS_WITH(parse("/* never closed\n#define FPUTUNE_X_FPU_BYTES 1\n"), Catch::Contains("never ends"));
    CHECK(parse("#define OTHER 0\n#define MASK 0777\n").size() == 1);  // not limits: noted, not refused
}

TEST_CASE("check on the CLI: refusals are one line, exit 2 (was: 0 passed, 09 read as 0, 'stoull' as the message)",
          "[reliab][check]") {
    Scratch s;
    for (const std::string value : {"0", "09", "18446744073709551616"}) {
        const std::string h = s.write("h.h", "#define FPUTUNE_SHA256_FPU_BYTES " + value + "\n");
        const Run r = run(s, {"check", h, "--from", kElliott, "--budget", "30us"});
        INFO(value << ": " << r.err);
        CHECK(r.exit.code == 2);
        CHECK(lines(r.err) == 1);
        CHECK_THAT(r.err, Catch::Contains(h + ":1:") && !Catch::Contains("stoull"));
    }
    // A definition under #if 0 is not judged: 1 MiB would be OVER.
    const std::string h = s.write(
        "if0.h", "#if 0\n#define FPUTUNE_SHA256_FPU_BYTES 1048576\n#endif\n#define FPUTUNE_SHA256_FPU_BYTES 4096\n");
    const Run r = run(s, {"check", h, "--from", kElliott, "--budget", "30us"});
    CHECK(r.exit.code == 0);
    CHECK_THAT(r.out, Catch::Contains("4096") && Catch::Contains("inside #if 0"));
}

TEST_CASE("recommend: two kernels spelling one macro are refused before the header is written", "[reliab][write]") {
    Scratch s;
    const std::string a = s.write("a.csv", csv("sha256-avx2,4096,21179\n"));
    const std::string b = s.write("b.csv", csv("sha256.avx2,4096,42000\n", "# AMD Other Box, 2025"));
    const std::string h = s / "limits.h";
    const Run r = run(s, {"recommend", "--from", a, b, "--budget", "30us", "--header", h});
    CHECK(r.exit.code == 2);
    CHECK_THAT(r.err, Catch::Contains("FPUTUNE_SHA256_AVX2_FPU_BYTES twice") && Catch::Contains("'sha256-avx2'") &&
                          Catch::Contains("'sha256.avx2'"));
    CHECK_FALSE(fs::exists(h));
}

TEST_CASE("recommend and fit: an output that is also an input is refused, the input intact (was: destroyed, exit 0)",
          "[reliab][write]") {
    Scratch s;
    const std::string in = s.write("s.json", slurp(kZen5));
    const std::string before = slurp(in);
    Run r = run(s, {"recommend", "--from", in, "--budget", "30us", "--header", in});
    CHECK(r.exit.code == 2);
    CHECK_THAT(r.err, Catch::Contains("--header") && Catch::Contains("also the input --from"));
    CHECK(slurp(in) == before);
    r = run(s, {"fit", in, "-o", in});
    CHECK(r.exit.code == 2);
    CHECK(slurp(in) == before);
}

TEST_CASE("recommend: implausible budgets and frequencies need --force (was: shown as '0 Hz' / '0 ns', exit 0)",
          "[reliab][units]") {
    Scratch s;
    for (const auto& args : std::vector<std::vector<std::string>>{{"--min-freq", "1e-9GHz", "--budget", "30us"},
                                                                  {"--budget", "50ns"},
                                                                  {"--budget", "2s"},
                                                                  {"--min-freq", "20GHz", "--budget", "30us"}}) {
        std::vector<std::string> cmd = {"recommend", "--from", kElliott};
        cmd.insert(cmd.end(), args.begin(), args.end());
        const Run r = run(s, cmd);
        INFO(args[0] << " " << args[1]);
        CHECK(r.exit.code == 2);
        CHECK_THAT(r.err, Catch::Contains(args[0]) && Catch::Contains("--force"));
        cmd.push_back("--force");
        const Run forced = run(s, cmd);
        CHECK(forced.exit.code == 0);
        CHECK_THAT(forced.out, !Catch::Contains(" 0 Hz") && !Catch::Contains(" 0 ns") && !Catch::Contains("nan"));
    }
    // Beyond what the solver computes with at all, --force does not help: 1e-300 s was shown as "0 ns".
    const Run r = run(s, {"recommend", "--from", kElliott, "--budget", "1e-300s", "--force"});
    CHECK(r.exit.code == 2);
    CHECK_THAT(r.err, Catch::Contains("1 ps .. 1e6 s"));
    // --budget 1e12s and --min-freq 1e300Hz made the block-by-block walk run about 10^18 steps (a hang):
    // refused even with --force; the largest values the solver takes finish at once.
    CHECK(run(s, {"recommend", "--from", kElliott, "--budget", "1e12s", "--force"}).exit.code == 2);
    CHECK_THAT(run(s, {"recommend", "--from", kElliott, "--budget", "30us", "--min-freq", "1e300Hz", "--force"}).err,
               Catch::Contains("1 Hz .. 1 THz"));
    CHECK(run(s, {"recommend", "--from", kElliott, "--budget", "1e6s", "--min-freq", "1000GHz", "--force"}).exit.code ==
          0);
}
