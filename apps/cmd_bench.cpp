// SPDX-License-Identifier: MIT
// `fputune bench`: every kernel variant and its peers side by side, like `openssl speed`.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <map>
#include <optional>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "bench.hpp"
#include "contention_levels.hpp"
#include "cli.hpp"
#include "clock.hpp"
#include "cpu.hpp"
#include "probe.hpp"
#include "registry.hpp"
#include "units.hpp"

namespace fputune::cli {

namespace {

struct BenchRow {
    const Kernel* k;
    std::uint64_t asked = 0;  // the size --sizes gave: the group it ran in (its algorithm at that size)
    BenchResult r;
};

// Every selected kernel the CPU can run at every size, the others listed with why not. The kernels of one
// algorithm at one size (its variants, its peers, the kernel's own code) are measured side by side
// (bench_group), so a phase of the host falls on all of them and their ratios are taken round by round; the
// rows come back in the order of `kernels`, then sizes.
std::vector<BenchRow> measure_rows(const std::vector<const Kernel*>& kernels, const std::vector<std::uint64_t>& sizes,
                                   double time_cap, std::vector<std::string>& skipped,
                                   std::vector<double>& contention_probes, std::vector<double>& turn_ratios) {
    const bool tty = isatty(STDERR_FILENO);
    std::vector<const Kernel*> runnable;
    for (const Kernel* k : kernels) {
        if (FeatureSet missing = missing_features(*k, usable_features())) {
            skipped.push_back(fmt::format("{}: unavailable ({} {})", k->name,
                                          (missing & detected_features()) ? "masked:" : "CPU lacks",
                                          feature_list_string(missing)));
            continue;
        }
        runnable.push_back(k);
    }
    // Groups in order of first appearance.
    std::vector<std::pair<std::pair<std::string, std::uint64_t>, std::vector<std::size_t>>> groups;
    std::vector<BenchRow> rows;
    for (const Kernel* k : runnable) {
        // Sizes that round to the same whole blocks of this kernel are one point, not two rows of one kernel and
        // bytes: it runs at the size asked for nearest its bytes (the smaller of two as near), so that a kernel of
        // larger blocks meets the others where their bytes are alike.
        std::map<std::uint64_t, std::uint64_t> nearest;  // bytes per call -> the size it runs at
        for (std::uint64_t size : sizes) {
            const std::uint64_t bytes = bench_size_bytes(*k, size);
            const auto distance = [bytes](std::uint64_t s) { return s > bytes ? s - bytes : bytes - s; };
            const auto [at, fresh] = nearest.emplace(bytes, size);
            if (!fresh && (distance(size) < distance(at->second) ||
                           (distance(size) == distance(at->second) && size < at->second)))
                at->second = size;
        }
        for (std::uint64_t size : sizes) {
            const std::uint64_t runs_at = nearest.at(bench_size_bytes(*k, size));
            if (runs_at != size) {
                skipped.push_back(fmt::format("{} at {}: the same {} B per call as at {} (whole {} B blocks)", k->name,
                                              format_size(size), bench_size_bytes(*k, size), format_size(runs_at),
                                              k->block_bytes));
                continue;
            }
            const std::pair<std::string, std::uint64_t> key{k->algorithm, size};
            auto g = std::find_if(groups.begin(), groups.end(), [&](const auto& e) { return e.first == key; });
            if (g == groups.end()) g = groups.insert(groups.end(), {key, {}});
            g->second.push_back(rows.size());
            rows.push_back({k, size, {}});
        }
    }
    std::size_t done = 0;
    for (std::size_t gi = 0; gi < groups.size(); ++gi) {
        const auto& [key, members] = groups[gi];
        std::vector<BenchPoint> points;
        for (std::size_t i : members) points.push_back({rows[i].k, key.second});
        if (tty)
            std::cerr << fmt::format("\r[{}/{}] {} {}: {} kernels side by side        ", done + members.size(),
                                     rows.size(), key.first, format_size(key.second), members.size())
                      << std::flush;
        const std::vector<BenchResult> results = bench_group(points, time_cap);
        for (std::size_t j = 0; j < members.size(); ++j) rows[members[j]].r = results[j];
        if (!results.empty()) {
            contention_probes.insert(contention_probes.end(), results[0].round_contention_cycles.begin(),
                                     results[0].round_contention_cycles.end());
            for (double r : results[0].round_core_per_tsc)
                if (r > 0) turn_ratios.push_back(r);
        }
        done += members.size();
    }
    if (tty) std::cerr << "\r" << std::string(70, ' ') << "\r";
    return rows;
}

// The ratio columns: against the first peer of each algorithm, and with the linux provider against the kernel's
// code of the same name + "-linux", both in the same group (the same size asked for), round by round
// (paired_ratio: they were measured side by side; rounds of two groups are not paired).
struct Yardsticks {
    std::map<std::pair<std::string, std::uint64_t>, const BenchRow*> peer, linux_code;
    explicit Yardsticks(const std::vector<BenchRow>& rows) {
        for (const BenchRow& row : rows) {
            if (is_peer(*row.k)) peer.emplace(std::pair{std::string(row.k->algorithm), row.asked}, &row);
            if (std::string_view(row.k->provider).starts_with("linux "))
                linux_code.emplace(std::pair{std::string(row.k->name), row.asked}, &row);
        }
    }
    std::optional<double> vs_peer(const BenchRow& row) const {
        auto it = peer.find({row.k->algorithm, row.asked});
        if (it == peer.end()) return std::nullopt;
        return paired_ratio(row.r, it->second->r);
    }
    std::optional<double> vs_linux(const BenchRow& row) const {
        auto it = linux_code.find({std::string(row.k->name) + "-linux", row.asked});
        if (it == linux_code.end()) return std::nullopt;
        return paired_ratio(row.r, it->second->r);
    }
    bool any_linux() const { return !linux_code.empty(); }
};

// What machine spoke, and how the figures were taken.
struct BenchContext {
    TscInfo tsc;
    CoreRatio ratio;
    CpuIdentity id;
    int cpu = -1;
    double time_cap = 0;
    std::string method;  // what a call runs, per kind of kernel measured (bench.hpp)
    std::vector<std::string> peers_added;  // measured beside the kernels -k selected (add_peers)
    // The contention probe as each turn began, against its best in this run (lib/contention_levels.hpp).
    ContentionTrace contention;
    // The core/TSC ratio as each turn began (the accepted probes), sorted.
    std::vector<double> turn_ratios;
    double turn_ratio(double q) const {
        return turn_ratios.empty() ? 0 : turn_ratios[static_cast<std::size_t>(q * (turn_ratios.size() - 1) + 0.5)];
    }
    // A row's core cycles per byte: its turns' ticks each times that turn's ratio (the host moves the core clock
    // within seconds), or with too few ratios the run's.
    double core_cpb(const BenchRow& row) const {
        const auto cycles = core_cycles_per_call(row.r);
        return (cycles ? *cycles : row.r.ticks_per_call.p50 * ratio.best) / static_cast<double>(row.r.bytes);
    }
    // A row's level: the median over the turns of its group (none where no probe was known).
    std::optional<double> level(const BenchRow& row) const {
        const double c = median_contention(row.r.round_contention_cycles, contention.best_cycles);
        return c >= 1 ? std::optional<double>(c) : std::nullopt;
    }
};

// The yardstick of each algorithm -k selected a kernel of but no peer of: its first peer this CPU runs (the one
// vs peer divides by), added to `kernels` in the registry's order. Their names.
std::vector<std::string> add_peers(std::vector<const Kernel*>& kernels) {
    std::vector<std::string> added;
    for (const Kernel* k : all_kernels()) {
        if (!is_peer(*k) || missing_features(*k, usable_features())) continue;
        const auto of_algorithm = [&](const Kernel* x) { return std::string_view(x->algorithm) == k->algorithm; };
        const bool wanted = std::any_of(kernels.begin(), kernels.end(), of_algorithm);
        const bool has_peer = std::any_of(kernels.begin(), kernels.end(),
                                          [&](const Kernel* x) { return of_algorithm(x) && is_peer(*x); });
        if (!wanted || has_peer) continue;
        kernels.push_back(k);
        added.push_back(k->name);
    }
    if (added.empty()) return added;
    std::vector<const Kernel*> ordered;
    for (const Kernel* k : all_kernels())
        if (std::find(kernels.begin(), kernels.end(), k) != kernels.end()) ordered.push_back(k);
    kernels = std::move(ordered);
    return added;
}

nlohmann::json opt_json(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

void print_json(const std::vector<BenchRow>& rows, const std::vector<std::string>& skipped, const Yardsticks& y,
                const BenchContext& c) {
    nlohmann::json j;
    j["schema"] = "fputune.bench/1";
    j["context"] = {
        {"cpu_brand", c.id.brand},
        {"cpu_vendor", c.id.vendor},
        {"pinned_cpu", c.cpu},
        {"tsc_hz", c.tsc.hz},
        {"tsc_source", c.tsc.source},
        {"core_per_tsc", c.ratio.best},
        {"core_per_tsc_spread", c.ratio.spread()},
        {"core_per_tsc_turns",
         {{"turns", c.turn_ratios.size()},
          {"use",
           "the ratio as each turn began; a result's core_cycles_per_byte is its turns' ticks each times "
           "that turn's ratio"},
          {"p10", c.turn_ratio(0.1)},
          {"p50", c.turn_ratio(0.5)},
          {"p90", c.turn_ratio(0.9)},
          {"min", c.turn_ratio(0)},
          {"max", c.turn_ratio(1)}}},
        {"tool_version", tool_version()},
        {"tool_commit", tool_commit()},
        {"date", utc_now_iso8601()},
        {"masked_features", feature_list_string(disabled_features() & detected_features())},
        // OpenSSL's own capability mask, which puts the openssl peers on one path (README).
        {"openssl_ia32cap", std::getenv("OPENSSL_ia32cap") ? std::getenv("OPENSSL_ia32cap") : ""},
        {"time_cap_s", c.time_cap},
        {"peers_added", c.peers_added},
        {"contention", contention_json(c.contention,
                                       "c = the contention probe's time as each turn began / its best "
                                       "in this run; each result's contention is the median c of its "
                                       "turns")},
        {"method", c.method + " on hot buffers, batches >= 20k ticks, median per call; the kernels of an algorithm "
                              "at a size side by side, one batch of each in turn; vs_peer and vs_linux the "
                              "median of the ratio within each turn"}};
    j["results"] = nlohmann::json::array();
    for (const BenchRow& row : rows) {
        const double cpb = row.r.ticks_per_call.p50 / row.r.bytes;
        j["results"].push_back({{"kernel", row.k->name},
                                {"algorithm", row.k->algorithm},
                                {"provider", row.k->provider},
                                {"bytes", row.r.bytes},
                                {"size_bytes", row.r.size_bytes},
                                {"sources", row.r.sources ? nlohmann::json(row.r.sources) : nlohmann::json(nullptr)},
                                {"samples", row.r.ticks_per_call.samples},
                                {"contention", opt_json(c.level(row))},
                                {"ticks_p50", row.r.ticks_per_call.p50},
                                {"ticks_p10", row.r.ticks_per_call.p10},
                                {"ticks_p90", row.r.ticks_per_call.p90},
                                {"rel_ci50", row.r.ticks_per_call.rel_ci50},
                                {"tsc_cycles_per_byte", cpb},
                                {"core_cycles_per_byte", c.core_cpb(row)},
                                {"gb_per_s", row.r.bytes / (row.r.ticks_per_call.p50 / c.tsc.hz) / 1e9},
                                {"vs_peer", opt_json(y.vs_peer(row))}});
        if (y.any_linux()) j["results"].back()["vs_linux"] = opt_json(y.vs_linux(row));
    }
    j["skipped"] = skipped;
    std::cout << j.dump(1) << "\n";
}

void print_text_head(const std::vector<BenchRow>& rows, const Yardsticks& y, const BenchContext& c) {
    std::cout << "# "
              << fmt::format("{} ({}), CPU {} of {}; TSC {:.4f} GHz ({}); core/TSC {:.3f} (spread {:.1f}%); fputune {} ({})",
                             c.id.brand, c.id.vendor, c.cpu, c.id.logical_cpus, c.tsc.hz / 1e9, c.tsc.source,
                             c.ratio.best, 100 * c.ratio.spread(), tool_version(), tool_commit())
              << "\n";
    std::cout << "# one section per call on hot buffers: " << c.method
              << "\n"
                 "# median per call of batches >= 20k ticks; +-% = 95% CI of the median; the kernels of an algorithm "
                 "at a size\n"
                 "# run side by side, one batch of each in turn, so a phase of the host falls on all of them;\n"
                 "# core c/B = the median over its turns of TSC cycles x that turn's core/TSC, per byte; vs peer = TSC "
                 "c/B / the\n"
                 "# algorithm's first peer's at the same size, the median of that ratio within each turn (<1 = "
                 "faster)\n";
    if (!c.turn_ratios.empty())
        std::cout << fmt::format(
            "# core/TSC as the turns began: {:.3f} at p50, {:.3f}-{:.3f} p10-p90, {:.3f}-{:.3f} in all ({} turns; the "
            "host moves the core clock)\n",
            c.turn_ratio(0.5), c.turn_ratio(0.1), c.turn_ratio(0.9), c.turn_ratio(0), c.turn_ratio(1),
            c.turn_ratios.size());
    if (!c.peers_added.empty())
        std::cout << "# peers measured beside the kernels -k selected, the yardsticks of vs peer (--no-peers: none): "
                  << fmt::format("{}", fmt::join(c.peers_added, ", ")) << "\n";
    if (c.contention.probes)
        std::cout << fmt::format(
            "# contention: throughput-bound code ran {:.2f}x its best at p50, {:.2f}x at p90, {:.2f}x at most, "
            "contended (>= {:.2f}x) in {:.0f} % of {} turns (c: a row's median; what else ran on the core)\n",
            c.contention.p50, c.contention.p90, c.contention.max, c.contention.contended_above,
            100 * c.contention.contended_share, c.contention.probes);
    if (y.any_linux())
        std::cout << "# vs linux = TSC c/B / that of the kernel's own code of the same name, <name>-linux, at the same "
                     "size, turn by turn (<1 = ours faster)\n";
    if (std::any_of(rows.begin(), rows.end(), [](const BenchRow& row) { return is_multisource(*row.k); }))
        std::cout << fmt::format(
            "# multi-source kernels (raid6, xor): one stripe() over {} sources of --sizes bytes each, shown as "
            "sources x size; c/B and GB/s count all the data it reads\n",
            kStripeSources[0]);
    std::cout << fmt::format("{:<24} {:>9} {:>10} {:>7} {:>9} {:>8} {:>8}", "kernel", "bytes", "TSC c/B", "+-%",
                             "core c/B", "GB/s", "vs peer")
              << (!y.any_linux() ? "" : fmt::format(" {:>8}", "vs linux"))
              << fmt::format(" {:>5} {:>8}\n", "c", "samples");
}

void print_text(const std::vector<BenchRow>& rows, const std::vector<std::string>& skipped, const Yardsticks& y,
                const BenchContext& c) {
    print_text_head(rows, y, c);
    auto ratio = [](const std::optional<double>& v) { return v ? fmt::format("{:.2f}", *v) : std::string("-"); };
    std::string last_alg;
    for (const BenchRow& row : rows) {
        if (!last_alg.empty() && last_alg != row.k->algorithm) std::cout << "\n";
        last_alg = row.k->algorithm;
        const double cpb = row.r.ticks_per_call.p50 / row.r.bytes;
        std::string unstable = row.r.ticks_per_call.rel_ci50 > 0.05 ? " unstable" : "";
        const std::string bytes =
            row.r.sources ? fmt::format("{}x{}", row.r.sources, row.r.size_bytes) : fmt::format("{}", row.r.bytes);
        std::cout << fmt::format("{:<24} {:>9} {:>10.3f} {:>7.1f} {:>9.3f} {:>8.2f} {:>8}", row.k->name, bytes, cpb,
                                 100 * row.r.ticks_per_call.rel_ci50, c.core_cpb(row),
                                 row.r.bytes / (row.r.ticks_per_call.p50 / c.tsc.hz) / 1e9, ratio(y.vs_peer(row)))
                  << (!y.any_linux() ? "" : fmt::format(" {:>8}", ratio(y.vs_linux(row))))
                  << fmt::format(" {:>5} {:>8}{}\n", ratio(c.level(row)), row.r.ticks_per_call.samples, unstable);
    }
    for (const auto& s : skipped) std::cout << "# skipped " << s << "\n";
}

}  // namespace

int run_bench(const Args& args) {
    po::options_description desc("bench options");
    desc.add_options()("kernel,k", po::value<std::vector<std::string>>()->composing(),
                       "kernels matching GLOB, or a kind: hash, cipher, raid, all (repeatable; default all)")(
        "sizes", po::value<std::string>()->default_value("64,256,1KiB,4KiB,16KiB,64KiB"),
        "bytes per call, comma-separated (1 B .. 1 GiB)")("time", po::value<double>()->default_value(0.15, "0.15"),
                                                          "time cap per point in seconds")(
        "cpu", po::value<int>(), "pin to this CPU (default: the last allowed)")(
        "no-peers", "with -k: only the kernels it selects (else each one's peer is measured beside it, for vs peer)")(
        "json", "print JSON");
    po::variables_map vm;
    if (!parse("bench", "[-k GLOB]... [--no-peers] [--sizes LIST] [--json] [--disable FEATURES]", desc, args, vm))
        return kExitOk;
    std::vector<std::uint64_t> sizes;
    try {
        sizes = parse_size_list(vm["sizes"].as<std::string>(), 1ull << 30, "--sizes");
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    BenchContext c;
    c.time_cap = vm["time"].as<double>();
    if (!(c.time_cap > 0 && c.time_cap <= 60))
        throw UsageError(fmt::format("--time {}: must be > 0 and <= 60 seconds", c.time_cap));
    std::vector<const Kernel*> kernels = selected_kernels(vm);
    if (vm.count("kernel") && !vm.count("no-peers")) c.peers_added = add_peers(kernels);
    c.cpu = pin_cpu(vm);
    c.tsc = tsc_info();
    c.ratio = measure_core_per_tsc();
    c.id = cpu_identity();
    std::vector<std::string> skipped;
    std::vector<double> probes;
    const std::vector<BenchRow> rows = measure_rows(kernels, sizes, c.time_cap, skipped, probes, c.turn_ratios);
    std::sort(c.turn_ratios.begin(), c.turn_ratios.end());
    c.contention = summarise_contention(probes);
    const Yardsticks y(rows);
    for (const BenchRow& row : rows)
        if (c.method.find(bench_call(*row.k)) == std::string::npos)
            c.method += (c.method.empty() ? "" : "; ") + bench_call(*row.k);
    if (c.method.empty()) c.method = "blocks()";
    if (vm.count("json"))
        print_json(rows, skipped, y, c);
    else
        print_text(rows, skipped, y, c);
    return kExitOk;
}

}  // namespace fputune::cli
