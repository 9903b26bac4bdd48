// SPDX-License-Identifier: MIT
// `fputune fleet INVENTORY`: sweeps on many machines through Ansible (share/fputune/fleet/fleet.yml, run by
// ansible-playbook), then the merge of what came back: recommend (the header names the host that binds each
// constant), report (every host overlaid), and compare between any two. docs/fleet.md says how to use it.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "errors.hpp"
#include "json_checked.hpp"
#include "provenance.hpp"
#include "sweep_file.hpp"
#include "text_lines.hpp"
#include "units.hpp"

extern char** environ;

namespace fputune::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct FleetOptions {
    std::string inventory, dir, budget, min_freq, playbook, package;
    int forks = 5;
    bool resume = false;
    std::vector<std::string> sweep_options;  // after `--`, for every host
};

// One host of the inventory: its name and its variables (group variables merged, as ansible-inventory gives).
struct FleetHost {
    std::string name;
    json vars;
};

// What one host gave back.
struct HostResult {
    std::string host;
    bool ok = false;
    std::string reason;  // why not
    std::string sweep_path;
    SweepFile sweep;
};

std::string find_program(const std::string& name) {
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        const fs::path candidate = fs::path(dir.empty() ? "." : dir) / name;
        if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    }
    return "";
}

// Runs argv with its standard output on out_fd and its standard error on err_fd; returns its exit status
// (128 + the signal when one killed it). SystemError when it cannot be started.
int run_program(const std::vector<std::string>& argv, int out_fd, int err_fd) {
    std::vector<char*> c_argv;
    for (const std::string& a : argv) c_argv.push_back(const_cast<char*>(a.c_str()));
    c_argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out_fd, STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, err_fd, STDERR_FILENO);
    pid_t pid = 0;
    const int rc = posix_spawnp(&pid, c_argv[0], &actions, nullptr, c_argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) throw SystemError(fmt::format("cannot run {}: {}", argv[0], std::strerror(rc)));
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) throw SystemError(fmt::format("waiting for {}: {}", argv[0], std::strerror(errno)));
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string read_all(std::FILE* f) {
    std::rewind(f);
    std::string text;
    char buf[65536];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
    return text;
}

// The last non-empty line of a program's error output: the one that says what went wrong.
std::string last_line(const std::string& text) {
    std::string last;
    std::stringstream lines(text);
    for (std::string line; std::getline(lines, line);)
        if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
    return printable(last, 300);
}

// A host name is a file name here (DIR/<host>.json): refused when a line of the inventory has none (it
// starts with a variable, which Ansible takes for a host called "ansible_host=...") or cannot name a file.
void check_host_name(const std::string& name, const std::string& inventory) {
    if (name.empty() || name.find('=') != std::string::npos)
        throw InputError(
            fmt::format("{}: a host entry without a name ('{}'): each host line starts with the host's "
                        "name, then its variables (name ansible_host=ADDRESS ...)",
                        inventory, printable(name)));
    if (name.find('/') != std::string::npos || name.front() == '.' || printable(name, 255) != name)
        throw InputError(fmt::format("{}: host '{}' cannot name its sweep file; use letters, digits, '.', '-', '_'",
                                     inventory, printable(name)));
}

// The hosts of the inventory, as ansible-inventory reads it (INI, YAML, a folder), with their variables.
std::vector<FleetHost> inventory_hosts(const std::string& ansible_inventory, const std::string& inventory) {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> out(std::tmpfile(), std::fclose), err(std::tmpfile(), std::fclose);
    if (!out || !err) throw SystemError(std::string("cannot create a temporary file: ") + std::strerror(errno));
    const int rc = run_program({ansible_inventory, "-i", inventory, "--list"}, fileno(out.get()), fileno(err.get()));
    const std::string errors = read_all(err.get());
    if (rc != 0 || errors.find("Unable to parse") != std::string::npos)
        throw InputError(fmt::format("{}: ansible-inventory cannot read it: {}", inventory, last_line(errors)));
    const json j = jsonc::parse(read_all(out.get()), "ansible-inventory --list");
    std::set<std::string> names;
    for (const auto& [group, body] : j.items())
        if (group != "_meta" && body.is_object() && body.contains("hosts") && body["hosts"].is_array())
            for (const json& h : body["hosts"])
                if (h.is_string()) names.insert(h.get<std::string>());
    const json hostvars = j.contains("_meta") ? j["_meta"].value("hostvars", json::object()) : json::object();
    for (const auto& [name, vars] : hostvars.items()) names.insert(name);
    if (names.empty()) throw InputError(inventory + ": no hosts; write one line per machine (see inventory.example)");
    std::vector<FleetHost> hosts;
    for (const std::string& name : names) {
        check_host_name(name, inventory);
        hosts.push_back({name, hostvars.contains(name) ? hostvars[name] : json::object()});
    }
    return hosts;
}

// The directory of this program (/usr/bin for the package; build/apps in a build tree).
fs::path program_dir() {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : self.parent_path();
}

// The playbook: --playbook, else the one installed beside this program (share/fputune/fleet/fleet.yml,
// which the build tree also holds).
std::string find_playbook(const FleetOptions& o) {
    if (!o.playbook.empty()) {
        if (!fs::is_regular_file(o.playbook)) throw InputError("--playbook " + o.playbook + ": no such file");
        return fs::absolute(o.playbook).string();
    }
    const fs::path installed = program_dir() / ".." / "share" / "fputune" / "fleet" / "fleet.yml";
    if (!fs::is_regular_file(installed))
        throw InputError(fmt::format("no fleet playbook at {} (an incomplete install?); give one with --playbook",
                                     installed.lexically_normal().string()));
    return fs::canonical(installed).string();
}

// The package the hosts install when their inventory names none: --package, else the one `make deb` wrote
// (build/ of the current folder, the current folder, or beside a build tree's program); "" when none.
std::string find_package(const FleetOptions& o) {
    if (!o.package.empty()) {
        if (!fs::is_regular_file(o.package)) throw InputError("--package " + o.package + ": no such file");
        return fs::absolute(o.package).string();
    }
    const std::string name = fmt::format("fputune_{}_amd64.deb", tool_version());
    for (const fs::path& candidate : {fs::path("build") / name, fs::path(name), program_dir() / ".." / name})
        if (fs::is_regular_file(candidate)) return fs::canonical(candidate).string();
    return "";
}

std::string var_string(const json& vars, const char* key) {
    return vars.contains(key) && vars[key].is_string() ? vars[key].get<std::string>() : "";
}

// Every host that installs a package has one to install, by a known method: checked before anything runs.
void check_install_methods(const std::vector<FleetHost>& hosts, const std::string& package) {
    for (const FleetHost& h : hosts) {
        const std::string method = h.vars.contains("fputune_install") ? var_string(h.vars, "fputune_install") : "apt";
        if (method != "apt" && method != "extract" && method != "none")
            throw InputError(
                fmt::format("host {}: fputune_install '{}': accepted: apt, extract, none", h.name, printable(method)));
        if (method != "none" && package.empty() && var_string(h.vars, "fputune_package").empty())
            throw InputError(fmt::format(
                "host {}: no package to install: run `make deb` (build/fputune_{}_amd64.deb), or give --package "
                "FILE.deb, or fputune_package (or fputune_install=none) in the inventory",
                h.name, tool_version()));
    }
}

fs::path host_file(const FleetOptions& o, const std::string& host, const char* suffix) {
    return fs::path(o.dir) / (host + suffix);
}

// Runs the playbook on `hosts` (by --limit, from a file so that no name is read as a pattern); its output,
// Ansible's progress, goes to standard error: standard output carries the fleet's results.
int run_playbook(const FleetOptions& o, const std::string& ansible_playbook, const std::vector<FleetHost>& hosts,
                 const std::string& package) {
    const fs::path limit = fs::path(o.dir) / ".fleet-hosts";
    {
        std::ofstream list(limit);
        for (const FleetHost& h : hosts) list << h.name << "\n";
        if (!list) throw SystemError("cannot write " + limit.string());
    }
    const json extra = {{"fputune_fleet_dir", fs::absolute(o.dir).lexically_normal().string()},
                        {"fputune_default_package", package},
                        {"fputune_controller_cwd", fs::current_path().string()},
                        {"fputune_fleet_sweep_options", o.sweep_options}};
    std::string limit_file = "@";  // ansible-playbook --limit @FILE: the hosts listed in FILE
    limit_file += limit.string();
    const int rc = run_program({ansible_playbook, "-i", o.inventory, find_playbook(o), "--forks",
                                std::to_string(o.forks), "--limit", limit_file, "-e", extra.dump()},
                               STDERR_FILENO, STDERR_FILENO);
    fs::remove(limit);
    return rc;
}

// What one host left in DIR: its sweep (read in full: a file from another fputune is refused here, naming
// the host), else the reason the playbook recorded, else what the playbook's exit says.
HostResult host_result(const FleetOptions& o, const std::string& host, int playbook_rc) {
    HostResult r;
    r.host = host;
    const fs::path sweep = host_file(o, host, ".json"), failed = host_file(o, host, ".failed");
    if (fs::is_regular_file(sweep)) {
        r.ok = true;
        r.sweep_path = sweep.string();
        r.sweep = read_sweep_file(r.sweep_path);
        if (r.sweep.host.empty()) r.sweep.host = host;
    } else if (fs::is_regular_file(failed)) {
        std::ifstream in(failed);
        std::stringstream text;
        text << in.rdbuf();
        r.reason = last_line(text.str());
    } else {
        r.reason = fmt::format("no result: ansible-playbook exited with {} before this host finished (see its output)",
                               playbook_rc);
    }
    return r;
}

std::string doctor_verdict(const SweepFile& s) {
    return s.doctor.is_object() && s.doctor.contains("verdict") && s.doctor["verdict"].is_string()
               ? s.doctor["verdict"].get<std::string>()
               : "not judged";
}

void print_summary(const FleetOptions& o, const std::vector<HostResult>& results, double seconds) {
    std::size_t ok = 0, width = 4;
    for (const HostResult& r : results) ok += r.ok, width = std::max(width, r.host.size());
    std::cout << fmt::format("fleet {}: {} host{}, {} swept, {} failed{}\n", o.inventory, results.size(),
                             results.size() == 1 ? "" : "s", ok, results.size() - ok,
                             seconds > 0 ? fmt::format(" (ansible-playbook {:.0f} s)", seconds) : " (all resumed)");
    for (const HostResult& r : results) {
        if (!r.ok) {
            std::cout << fmt::format("  {:<{}}  FAILED  {}\n", r.host, width, r.reason);
            continue;
        }
        const SweepFile& s = r.sweep;
        std::string version = "fputune " + s.tool_version + " (" + s.tool_commit + ")";
        if (s.tool_version != tool_version()) version += fmt::format(", not this {}", tool_version());
        const std::string brand = var_string(s.cpu, "brand"), linux = var_string(s.cpu, "kernel_release");
        std::cout << fmt::format("  {:<{}}  ok      {}, Linux {}, doctor {}, {}: {}\n", r.host, width,
                                 brand.empty() ? "unknown CPU" : printable(brand, 80),
                                 linux.empty() ? "?" : printable(linux), doctor_verdict(s), printable(version, 120),
                                 r.sweep_path);
    }
}

// The merge: recommend (its table names the binding host; the header lists every input), report, and how to
// compare two hosts.
int merge(const FleetOptions& o, const std::vector<HostResult>& results) {
    std::vector<std::string> from;
    for (const HostResult& r : results)
        if (r.ok) from.push_back(r.sweep_path);
    const std::string header = (fs::path(o.dir) / "limits.h").string(),
                      page = (fs::path(o.dir) / "report.html").string();
    Args common = {"--budget", o.budget, "--min-freq", o.min_freq, "--from"};
    common.insert(common.end(), from.begin(), from.end());
    std::cout << "\n";
    Args recommend_args = common;
    recommend_args.insert(recommend_args.end(), {"--header", header});
    const int rc = run_recommend(recommend_args);
    if (rc != kExitOk) return rc;
    Args report_args = common;
    report_args.insert(report_args.end(), {"-o", page});
    std::cout.flush();
    if (const int report_rc = run_report(report_args); report_rc != kExitOk) return report_rc;
    if (from.size() >= 2) std::cout << fmt::format("compare two hosts: fputune compare {} {}\n", from[0], from[1]);
    return kExitOk;
}

FleetOptions fleet_options(const po::variables_map& vm, std::vector<std::string> after_dashes) {
    FleetOptions o;
    if (!vm.count("inventory")) throw UsageError("an inventory is required: fputune fleet INVENTORY (see --help)");
    o.inventory = vm["inventory"].as<std::string>();
    o.dir = vm["output"].as<std::string>();
    o.budget = vm["budget"].as<std::string>();
    o.min_freq = vm["min-freq"].as<std::string>();
    // Checked now, as recommend will, rather than after the sweeps (invalid_argument: one line, exit 2).
    check_plausible_budget(parse_duration_s(o.budget, "--budget"), "--budget");
    check_plausible_min_freq(parse_frequency_hz(o.min_freq, "--min-freq"), "--min-freq");
    o.forks = vm["forks"].as<int>();
    if (o.forks < 1 || o.forks > 1000) throw UsageError("--forks: 1 (one host at a time) to 1000");
    o.resume = vm.count("resume");
    if (vm.count("playbook")) o.playbook = vm["playbook"].as<std::string>();
    if (vm.count("package")) o.package = vm["package"].as<std::string>();
    o.sweep_options = std::move(after_dashes);
    for (const std::string& s : o.sweep_options)
        if (s == "-o" || s.starts_with("--output") || s == "--host" || s.starts_with("--host="))
            throw UsageError("-- " + s + ": the fleet names each host's sweep file itself; leave it out");
    return o;
}

// The folder the hosts' files are fetched into; one that cannot be made or written is bad input.
void make_output_dir(const std::string& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec || ::access(dir.c_str(), W_OK) != 0)
        throw InputError(fmt::format("-o {}: cannot make or write this folder ({}); pick one you can write", dir,
                                     ec ? ec.message() : std::strerror(errno)));
}

std::vector<FleetHost> hosts_to_run(const FleetOptions& o, const std::vector<FleetHost>& hosts) {
    std::vector<FleetHost> run;
    for (const FleetHost& h : hosts) {
        if (o.resume && fs::is_regular_file(host_file(o, h.name, ".json"))) continue;
        // A fresh run of a host replaces what an earlier one left.
        for (const char* suffix : {".json", ".failed", ".doctor.json"}) fs::remove(host_file(o, h.name, suffix));
        run.push_back(h);
    }
    return run;
}

}  // namespace

int run_fleet(const Args& args) {
    // Everything after `--` is for each host's sweep.
    const auto dashes = std::find(args.begin(), args.end(), "--");
    const Args own(args.begin(), dashes);
    std::vector<std::string> after(dashes == args.end() ? dashes : dashes + 1, args.end());
    po::options_description desc("fleet options");
    desc.add_options()("inventory", po::value<std::string>(), "the Ansible inventory (INI or YAML)")(
        "output,o", po::value<std::string>()->default_value("fleet"),
        "folder for the hosts' files (<host>.json, <host>.doctor.json, <host>.failed), limits.h and report.html")(
        "budget", po::value<std::string>()->default_value("30us"), "time budget per FPU section (recommend)")(
        "min-freq", po::value<std::string>()->default_value("1GHz"), "minimum CPU frequency (recommend)")(
        "forks", po::value<int>()->default_value(5), "hosts swept at once (1: one host at a time)")(
        "resume", "run only the hosts whose sweep is not in the folder yet, then merge all")(
        "package", po::value<std::string>(), "the .deb to install (default: build/fputune_<version>_amd64.deb)")(
        "playbook", po::value<std::string>(), "the playbook (default: the fleet.yml installed with fputune)");
    po::positional_options_description positional;
    positional.add("inventory", 1);
    po::variables_map vm;
    if (!parse("fleet",
               "INVENTORY [--budget 30us] [--min-freq 1GHz] [-o DIR] [--forks N] [--resume] [--package FILE.deb] "
               "[-- sweep options]\n\n"
               "Runs share/fputune/fleet/fleet.yml with ansible-playbook: on each host of the inventory, install\n"
               "fputune, doctor --json, sweep (with the inventory's fputune_cpu, fputune_kernels, ... and the options\n"
               "after --), and fetch DIR/<host>.json. Then merges them: recommend --header DIR/limits.h (naming the\n"
               "host that binds each limit), report -o DIR/report.html. A host that fails is listed with its reason\n"
               "and the merge uses the rest (exit 3 when one failed). docs/fleet.md describes the inventory.",
               desc, own, vm, false, &positional))
        return kExitOk;
    FleetOptions o = fleet_options(vm, std::move(after));
    if (!fs::exists(o.inventory))
        throw InputError(o.inventory + ": no such inventory; start from share/fputune/fleet/inventory.example");
    const std::string ansible_playbook = find_program("ansible-playbook"),
                      ansible_inventory = find_program("ansible-inventory");
    if (ansible_playbook.empty() || ansible_inventory.empty())
        throw InputError(
            "ansible-playbook is not installed: install Debian's ansible-core (apt-get install ansible-core)");
    const std::vector<FleetHost> hosts = inventory_hosts(ansible_inventory, o.inventory);
    make_output_dir(o.dir);
    const std::vector<FleetHost> run = hosts_to_run(o, hosts);
    int playbook_rc = 0;
    double seconds = 0;
    if (!run.empty()) {
        const std::string package = find_package(o);
        check_install_methods(run, package);
        const auto start = std::chrono::steady_clock::now();
        playbook_rc = run_playbook(o, ansible_playbook, run, package);
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    std::vector<HostResult> results;
    for (const FleetHost& h : hosts) results.push_back(host_result(o, h.name, playbook_rc));
    print_summary(o, results, seconds);
    const std::size_t ok = std::count_if(results.begin(), results.end(), [](const HostResult& r) { return r.ok; });
    if (ok == 0) throw SystemError("no host gave a sweep (the reasons above); nothing to merge");
    if (const int rc = merge(o, results); rc != kExitOk) return rc;
    if (ok < results.size()) {
        std::cout << fmt::format("fleet: merged {} of {} hosts; rerun the failed ones with --resume\n", ok,
                                 results.size());
        return kExitSystem;
    }
    return kExitOk;
}

}  // namespace fputune::cli
