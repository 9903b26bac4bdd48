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
#include <nlohmann/json.hpp>

#include "bench.hpp"
#include "cli.hpp"
#include "clock.hpp"
#include "cpu.hpp"
#include "probe.hpp"
#include "registry.hpp"
#include "units.hpp"

namespace fputune::cli {

int run_bench(const Args& args) {
    po::options_description desc("bench options");
    desc.add_options()("kernel,k", po::value<std::vector<std::string>>()->composing(),
                       "kernels matching GLOB, or a kind: hash, cipher, raid, all (repeatable; default all)")(
        "sizes", po::value<std::string>()->default_value("64,256,1KiB,4KiB,16KiB,64KiB"),
        "bytes per call, comma-separated (1 B .. 1 GiB)")("time", po::value<double>()->default_value(0.15, "0.15"),
                                                          "time cap per point in seconds")(
        "cpu", po::value<int>(), "pin to this CPU (default: the last allowed)")("json", "print JSON");
    po::variables_map vm;
    if (!parse("bench", "[-k GLOB]... [--sizes LIST] [--json] [--disable FEATURES]", desc, args, vm)) return kExitOk;
    std::vector<std::uint64_t> sizes;
    try {
        sizes = parse_size_list(vm["sizes"].as<std::string>(), 1ull << 30, "--sizes");
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    const double time_cap = vm["time"].as<double>();
    if (!(time_cap > 0 && time_cap <= 60))
        throw UsageError(fmt::format("--time {}: must be > 0 and <= 60 seconds", time_cap));
    const std::vector<const Kernel*> kernels = selected_kernels(vm);
    const int cpu = pin_cpu(vm);
    const bool json_out = vm.count("json") > 0;
    const bool tty = isatty(STDERR_FILENO);

    const TscInfo& tsc = tsc_info();
    const CoreRatio ratio = measure_core_per_tsc();
    const CpuIdentity id = cpu_identity();
    struct Row {
        const Kernel* k;
        BenchResult r;
    };
    std::vector<Row> rows;
    std::vector<std::string> skipped;
    std::size_t done = 0, total = 0;
    for (const Kernel* k : kernels)
        if (!missing_features(*k, usable_features())) total += sizes.size();
    for (const Kernel* k : kernels) {
        if (FeatureSet missing = missing_features(*k, usable_features())) {
            skipped.push_back(fmt::format("{}: unavailable ({} {})", k->name,
                                          (missing & detected_features()) ? "masked:" : "CPU lacks",
                                          feature_list_string(missing)));
            continue;
        }
        for (std::uint64_t size : sizes) {
            if (tty)
                std::cerr << fmt::format("\r[{}/{}] {} {}        ", ++done, total, k->name, format_size(size))
                          << std::flush;
            rows.push_back({k, bench_kernel(*k, size, time_cap)});
        }
    }
    if (tty) std::cerr << "\r" << std::string(60, ' ') << "\r";
    // The first peer of each algorithm is the yardstick for the ratio column.
    std::map<std::pair<std::string, std::uint64_t>, double> peer_cpb;
    for (const Row& row : rows)
        if (is_peer(*row.k))
            peer_cpb.emplace(std::pair{std::string(row.k->algorithm), row.r.bytes},
                             row.r.ticks_per_call.p50 / row.r.bytes);
    // With the linux provider: each variant of ours against the kernel's code of the same name + "-linux".
    std::map<std::pair<std::string, std::uint64_t>, double> linux_cpb;
    for (const Row& row : rows)
        if (std::string_view(row.k->provider).starts_with("linux "))
            linux_cpb.emplace(std::pair{std::string(row.k->name), row.r.bytes}, row.r.ticks_per_call.p50 / row.r.bytes);
    auto vs_linux = [&](const Row& row) -> std::optional<double> {
        auto it = linux_cpb.find({std::string(row.k->name) + "-linux", row.r.bytes});
        if (it == linux_cpb.end()) return std::nullopt;
        return row.r.ticks_per_call.p50 / row.r.bytes / it->second;
    };

    // What a call runs, per kind of kernel measured (bench.hpp).
    std::string method;
    for (const Row& row : rows)
        if (method.find(bench_call(*row.k)) == std::string::npos)
            method += (method.empty() ? "" : "; ") + bench_call(*row.k);
    if (method.empty()) method = "blocks()";
    const std::string context =
        fmt::format("{} ({}), CPU {} of {}; TSC {:.4f} GHz ({}); core/TSC {:.3f} (spread {:.1f}%); fputune {} ({})",
                    id.brand, id.vendor, cpu, id.logical_cpus, tsc.hz / 1e9, tsc.source, ratio.best,
                    100 * ratio.spread(), tool_version(), tool_commit());
    if (json_out) {
        nlohmann::json j;
        j["schema"] = "fputune.bench/1";
        j["context"] = {{"cpu_brand", id.brand},
                        {"cpu_vendor", id.vendor},
                        {"pinned_cpu", cpu},
                        {"tsc_hz", tsc.hz},
                        {"tsc_source", tsc.source},
                        {"core_per_tsc", ratio.best},
                        {"core_per_tsc_spread", ratio.spread()},
                        {"tool_version", tool_version()},
                        {"tool_commit", tool_commit()},
                        {"date", utc_now_iso8601()},
                        {"masked_features", feature_list_string(disabled_features() & detected_features())},
                        // OpenSSL's own capability mask, which puts the openssl peers on one path (README).
                        {"openssl_ia32cap", std::getenv("OPENSSL_ia32cap") ? std::getenv("OPENSSL_ia32cap") : ""},
                        {"time_cap_s", time_cap},
                        {"method", method + " on hot buffers, batches >= 20k ticks, median per call"}};
        j["results"] = nlohmann::json::array();
        for (const Row& row : rows) {
            const double cpb = row.r.ticks_per_call.p50 / row.r.bytes;
            auto it = peer_cpb.find({row.k->algorithm, row.r.bytes});
            j["results"].push_back(
                {{"kernel", row.k->name},
                 {"algorithm", row.k->algorithm},
                 {"provider", row.k->provider},
                 {"bytes", row.r.bytes},
                 {"size_bytes", row.r.size_bytes},
                 {"sources", row.r.sources ? nlohmann::json(row.r.sources) : nlohmann::json(nullptr)},
                 {"samples", row.r.ticks_per_call.samples},
                 {"ticks_p50", row.r.ticks_per_call.p50},
                 {"ticks_p10", row.r.ticks_per_call.p10},
                 {"ticks_p90", row.r.ticks_per_call.p90},
                 {"rel_ci50", row.r.ticks_per_call.rel_ci50},
                 {"tsc_cycles_per_byte", cpb},
                 {"core_cycles_per_byte", cpb * ratio.best},
                 {"gb_per_s", row.r.bytes / (row.r.ticks_per_call.p50 / tsc.hz) / 1e9},
                 {"vs_peer", it == peer_cpb.end() ? nlohmann::json(nullptr) : nlohmann::json(cpb / it->second)}});
            if (!linux_cpb.empty())
                j["results"].back()["vs_linux"] =
                    vs_linux(row) ? nlohmann::json(*vs_linux(row)) : nlohmann::json(nullptr);
        }
        j["skipped"] = skipped;
        std::cout << j.dump(1) << "\n";
        return kExitOk;
    }
    std::cout << "# " << context << "\n";
    std::cout << "# one section per call on hot buffers: " << method
              << "\n"
                 "# median per call of batches >= 20k ticks; +-% = 95% CI of the median;\n"
                 "# core c/B = TSC c/B x core/TSC; vs peer = TSC c/B / the algorithm's first peer's at the same size "
                 "(<1 = faster)\n";
    if (!linux_cpb.empty())
        std::cout << "# vs linux = TSC c/B / that of the kernel's own code of the same name, <name>-linux, at the same "
                     "size (<1 = ours faster)\n";
    if (std::any_of(rows.begin(), rows.end(), [](const Row& row) { return is_multisource(*row.k); }))
        std::cout << fmt::format(
            "# multi-source kernels (raid6, xor): one stripe() over {} sources of --sizes bytes each, shown as "
            "sources x size; c/B and GB/s count all the data it reads\n",
            kStripeSources[0]);
    std::cout << fmt::format("{:<24} {:>9} {:>10} {:>7} {:>9} {:>8} {:>8}", "kernel", "bytes", "TSC c/B", "+-%",
                             "core c/B", "GB/s", "vs peer")
              << (linux_cpb.empty() ? "" : fmt::format(" {:>8}", "vs linux")) << fmt::format(" {:>8}\n", "samples");
    std::string last_alg;
    for (const Row& row : rows) {
        if (!last_alg.empty() && last_alg != row.k->algorithm) std::cout << "\n";
        last_alg = row.k->algorithm;
        const double cpb = row.r.ticks_per_call.p50 / row.r.bytes;
        auto it = peer_cpb.find({row.k->algorithm, row.r.bytes});
        std::string vs = it == peer_cpb.end() ? "-" : fmt::format("{:.2f}", cpb / it->second);
        std::string unstable = row.r.ticks_per_call.rel_ci50 > 0.05 ? " unstable" : "";
        const std::string bytes =
            row.r.sources ? fmt::format("{}x{}", row.r.sources, row.r.size_bytes) : fmt::format("{}", row.r.bytes);
        std::cout << fmt::format("{:<24} {:>9} {:>10.3f} {:>7.1f} {:>9.3f} {:>8.2f} {:>8}", row.k->name, bytes, cpb,
                                 100 * row.r.ticks_per_call.rel_ci50, cpb * ratio.best,
                                 row.r.bytes / (row.r.ticks_per_call.p50 / tsc.hz) / 1e9, vs)
                  << (linux_cpb.empty()
                          ? ""
                          : fmt::format(" {:>8}", vs_linux(row) ? fmt::format("{:.2f}", *vs_linux(row)) : "-"))
                  << fmt::format(" {:>8}{}\n", row.r.ticks_per_call.samples, unstable);
    }
    for (const auto& s : skipped) std::cout << "# skipped " << s << "\n";
    return kExitOk;
}

}  // namespace fputune::cli
