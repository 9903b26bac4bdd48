// SPDX-License-Identifier: MIT
// `fputune simulate`: a workload's FPU sections per kernel, without and with limits, from the models.
#include <sys/utsname.h>

#include <filesystem>
#include <algorithm>
#include <fstream>
#include <iostream>
#include <optional>

#include <fmt/format.h>

#include "atomic_file.hpp"
#include "budget_options.hpp"
#include "cli.hpp"
#include "kernel_globs.hpp"
#include "render_simulate.hpp"
#include "simulate.hpp"
#include "simulation_json.hpp"
#include "units.hpp"
#include "upstream.hpp"

namespace fputune::cli {

namespace {

namespace fs = std::filesystem;

std::string modules_dir() {
    struct utsname u {};
    return std::string("/lib/modules/") + (uname(&u) == 0 ? u.release : "$(uname -r)");
}

// The bytes each module's signature check hashes: the uncompressed image (see module_hashed_bytes).
std::vector<std::uint64_t> module_sizes_in(const std::string& dir, std::string& from) {
    std::vector<std::uint64_t> sizes;
    std::size_t compressed = 0, unknown = 0;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (!it->is_regular_file(ec) || !is_module_file(it->path().filename().string())) continue;
        const std::uint64_t file_bytes = it->file_size(ec);
        if (ec) break;
        std::ifstream in(it->path(), std::ios::binary);
        std::string head(64, '\0'),
            tail(static_cast<std::size_t>(std::min<std::uint64_t>(file_bytes, 64 * 1024)), '\0');
        in.read(head.data(), static_cast<std::streamsize>(head.size()));
        head.resize(static_cast<std::size_t>(in.gcount()));
        in.clear();
        in.seekg(static_cast<std::streamoff>(file_bytes - tail.size()));
        in.read(tail.data(), static_cast<std::streamsize>(tail.size()));
        if (!in) throw SystemError("cannot read module " + it->path().string());
        const std::string name = it->path().filename().string();
        std::uint64_t bytes = module_hashed_bytes(name, head, tail, file_bytes);
        if (name.size() > 3 && name.substr(name.size() - 3) != ".ko") ++compressed;
        if (bytes == 0) {
            ++unknown;
            bytes = file_bytes;
        }
        sizes.push_back(bytes);
    }
    if (ec) throw UsageError(fmt::format("--modules {}: {}", dir, ec.message()));
    if (sizes.empty())
        throw UsageError(fmt::format(
            "--modules {}: no module files (*.ko, *.ko.gz, *.ko.xz, *.ko.zst) in it; give a folder that has "
            "them, a file of sizes (one per line) or a list like 48186713,1MiB",
            dir));
    from = fmt::format(
        "{} ({} files{})", dir, sizes.size(),
        compressed
            ? fmt::format(
                  ", {} compressed, counted uncompressed{}", compressed,
                  unknown ? fmt::format(" except {} whose format does not say (counted as stored)", unknown) : "")
            : "");
    return sizes;
}

Workload module_signing(const po::variables_map& vm) {
    std::string where = vm.count("modules") ? vm["modules"].as<std::string>() : modules_dir();
    std::string from;
    std::vector<std::uint64_t> sizes;
    std::error_code ec;
    if (fs::is_directory(where, ec)) {
        sizes = module_sizes_in(where, from);
    } else if (fs::exists(where, ec)) {
        try {
            sizes = parse_module_sizes(read_file(where), where);
        } catch (const std::invalid_argument& e) {
            throw UsageError(e.what());
        }
        from = where;
    } else if (vm.count("modules")) {
        try {
            sizes = parse_module_sizes(where, "--modules");
        } catch (const std::invalid_argument&) {
            throw UsageError(fmt::format(
                "--modules {}: no such folder or file, and not a list of sizes (e.g. 48186713,1MiB)", where));
        }
        from = "--modules " + where;
    } else {
        throw UsageError(fmt::format(
            "module-signing: this machine has no modules ({} does not exist); give their sizes with --modules: "
            "a folder of *.ko*, a file of sizes (one per line, e.g. `find /lib/modules/$(uname -r) -name '*.ko' "
            "-printf '%s\\n'` where they are) or a list like 48186713,1MiB",
            where));
    }
    return module_signing_workload(sizes, from);
}

Workload load_workload(const po::variables_map& vm) {
    if (!vm.count("workload"))
        throw UsageError(
            "--workload is required: bigbuf, module-signing, dm-crypt, wireguard, or a CSV file of kernel,bytes,count "
            "requests");
    const std::string w = vm["workload"].as<std::string>();
    if (vm.count("modules") && w != "module-signing") throw UsageError("--modules: only for --workload module-signing");
    if (w == "bigbuf") return bigbuf_workload();
    if (w == "dm-crypt") return dm_crypt_workload();
    if (w == "wireguard") return wireguard_workload();
    if (w == "module-signing") return module_signing(vm);
    std::error_code ec;
    if (!fs::is_regular_file(w, ec))
        throw UsageError(fmt::format(
            "--workload {}: unknown workload; expected bigbuf, module-signing, dm-crypt, wireguard, or a CSV "
            "file of kernel,bytes,count requests",
            w));
    try {
        return workload_from_csv(read_file(w), w);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
}

}  // namespace

namespace {

// The options as given (UsageError naming the one that is wrong).
SimulateOptions simulate_options(const po::variables_map& vm, const Args& args) {
    SimulateOptions o;
    try {
        o.question.min_freq_hz = parse_frequency_hz(vm["min-freq"].as<std::string>(), "--min-freq");
        if (vm.count("budget")) o.question.budget_s = parse_duration_s(vm["budget"].as<std::string>(), "--budget");
        o.question.margin = margin_option(vm["margin"].as<std::string>());
        o.question.cache = cache_option(vm["cache"].as<std::string>());
        o.question.quantile = quantile_option(vm["quantile"].as<std::string>());
        o.pair_cycles = vm["pair-cycles"].as<double>();
        o.repeat = vm["repeat"].as<std::uint64_t>();
        if (vm.count("linux")) o.linux_version = resolve_linux_version(vm["linux"].as<std::string>());
        o.command_line = command_line_of("simulate", args);
        validate(o);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    return o;
}

// -k chooses what is shown, never what the answer is computed from (as recommend): the limits are recommended and
// the workload simulated on every kernel of the inputs, then the rows of the kernels -k names are kept.
void keep_shown(Simulation& s, const std::vector<ModelFile>& sources, const std::vector<std::string>& globs) {
    if (globs.empty()) return;
    for (std::size_t i = 0; i < s.machines.size() && i < sources.size(); ++i) {
        SimMachine& m = s.machines[i];
        const std::size_t before = m.rows.size();
        std::erase_if(m.rows, [&](const SimRow& row) {
            const KernelInfo* info = sources[i].kernel(row.kernel);
            return std::none_of(globs.begin(), globs.end(),
                                [&](const std::string& g) { return kernel_selected(g, row.kernel, info); });
        });
        m.hidden_rows = before - m.rows.size();
    }
}

// Every input, whatever -k names; a -k that names nothing in a file is one line, exit 2.
std::vector<ModelFile> every_source(const po::variables_map& vm, const std::vector<std::string>& globs) {
    reject_version_as_glob(globs);
    po::variables_map every = vm;
    every.erase("kernel");
    std::vector<ModelFile> sources = load_sources(every);
    for (const ModelFile& m : sources) {
        ModelFile named = m;
        filter_kernels(named, globs);
    }
    return sources;
}

}  // namespace

int run_simulate(const Args& args) {
    po::options_description desc("simulate options");
    desc.add_options()(
        "from", po::value<std::vector<std::string>>()->multitoken()->composing(),
        "sweep files, model files or reference CSVs (default fputune-sweep.json); one table per machine")(
        "workload", po::value<std::string>(),
        "bigbuf (10 x 1 MiB per kernel), module-signing (the modules hashed with sha256/sha512), dm-crypt "
        "(AES-256-XTS on 4 KiB sectors), wireguard (ChaCha20-Poly1305 on a packet mix), or a CSV file of "
        "kernel,bytes,count requests")(
        "limits", po::value<std::string>(),
        "a header of FPUTUNE_<KERNEL|ALGORITHM>_FPU_BYTES limits (from `recommend --header`, or by hand)")(
        "budget", po::value<std::string>(),
        "longest acceptable FPU section, e.g. 30us: judges every longest section; without --limits, the limits "
        "`recommend` gives")("min-freq", po::value<std::string>()->default_value("1GHz"),
                             "lowest core frequency to plan for (Hz, kHz, MHz, GHz)")(
        "margin", po::value<std::string>()->default_value("1.0"),
        "safety factor >= 1: sections are judged against budget / margin")(
        "cache", po::value<std::string>()->default_value("cold"), "cold | hot: which sweep points to use")(
        "quantile", po::value<std::string>()->default_value("p99"),
        "p99 | p90: the cost line that bounds the longest section")(
        "modules", po::value<std::string>(),
        "module-signing: a folder of modules (default /lib/modules/$(uname -r)), a file of sizes (one per line) or a "
        "list of sizes")(
        "pair-cycles", po::value<double>()->default_value(0),
        "begin/end cost per section outside it, core cycles, added to cost (Elliott 2022 measured 45-56 on Cascade Lake)")(
        "repeat", po::value<std::uint64_t>()->default_value(1),
        "multiply every request count (Elliott 2022's tcrypt made 1000 x 1 MiB)")(
        "kernel,k", po::value<std::vector<std::string>>()->composing(), "show only these kernels: a glob, an algorithm (all its variants), a kind (hash, cipher, raid) or all "
        "(repeatable); the limits and the workload's totals are computed from every kernel of the inputs")(
        "linux", po::value<std::string>(), linux_option_help().c_str())("json", "print JSON (fputune.simulation/1)");
    po::variables_map vm;
    if (!parse("simulate",
               "--workload bigbuf|module-signing|dm-crypt|wireguard|FILE.csv [--from FILE...] [--limits limits.h | "
               "--budget 30us] "
               "[--min-freq 1GHz] [--margin 1.0] [--cache cold|hot] [--modules DIR|FILE|SIZES] [--pair-cycles N] "
               "[--repeat N] "
               "[-k GLOB]... [--linux VERSION] [--json]",
               desc, args, vm, false))
        return kExitOk;
    const SimulateOptions o = simulate_options(vm, args);
    const Workload workload = load_workload(vm);
    std::optional<SimLimits> limits;
    if (vm.count("limits")) {
        const std::string path = vm["limits"].as<std::string>();
        try {
            limits = limits_from_header(read_file(path), path);
        } catch (const std::invalid_argument& e) {
            throw UsageError(e.what());
        }
    }
    const std::vector<std::string> globs = kernel_patterns(vm);
    const std::vector<ModelFile> sources = every_source(vm, globs);
    if (!limits && o.question.budget_s > 0) {
        RecommendOptions r;
        r.question = o.question;
        r.linux_version = o.linux_version;
        r.command_line = o.command_line;
        limits = limits_from_recommendation(recommend(sources, r));
    }
    Simulation s;
    try {
        s = simulate(sources, workload, limits ? &*limits : nullptr, o);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    keep_shown(s, sources, globs);
    if (vm.count("json"))
        std::cout << to_json(s).dump(1) << "\n";
    else
        std::cout << render_simulation(s);
    return kExitOk;
}

}  // namespace fputune::cli
