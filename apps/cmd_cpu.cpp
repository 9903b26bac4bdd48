// SPDX-License-Identifier: MIT
// `fputune cpu`: what machine is speaking — printed as a table, or the probe's JSON.
#include <iostream>

#include <fmt/format.h>

#include "cli.hpp"
#include "clock.hpp"
#include "probe.hpp"

namespace fputune::cli {

int run_cpu(const Args& args) {
    po::options_description desc("cpu options");
    desc.add_options()("json", "print the probe as JSON")(
        "cpu", po::value<int>(), "pin to this CPU while measuring (default: the last allowed)");
    po::variables_map vm;
    if (!parse("cpu", "[--json] [--cpu N] [--disable FEATURES]", desc, args, vm)) return kExitOk;
    const int cpu = pin_cpu(vm);
    const nlohmann::json j = probe_cpu();
    if (vm.count("json")) {
        std::cout << j.dump(1) << "\n";
        return kExitOk;
    }
    std::cout << fmt::format("fputune {} ({}), measured on CPU {}\n\n", tool_version(), tool_commit(), cpu);
    std::cout << fmt::format("{:<16} {}\n", "vendor", j["vendor"].get<std::string>());
    std::cout << fmt::format("{:<16} {}\n", "brand", j["brand"].get<std::string>());
    std::cout << fmt::format("{:<16} family {:#x} model {:#x} stepping {}\n", "signature", j["family"].get<unsigned>(),
                             j["model"].get<unsigned>(), j["stepping"].get<unsigned>());
    std::cout << fmt::format(
        "{:<16} {}\n", "microcode",
        j["microcode"].get<std::string>().empty() ? "not readable" : j["microcode"].get<std::string>());
    std::cout << fmt::format("{:<16} {}\n", "kernel", j["kernel_release"].get<std::string>());
    std::cout << fmt::format("{:<16} {}{}\n", "logical cpus", j["logical_cpus"].get<unsigned>(),
                             j["hypervisor"].get<bool>() ? " (under a hypervisor)" : "");
    std::cout << "\nfeatures (CPUID and enabled by the OS in XCR0; masked = --disable / FPUTUNE_DISABLE)\n";
    int col = 0;
    for (const auto& f : j["features"]) {
        std::string state = f["masked"].get<bool>() ? "masked" : f["detected"].get<bool>() ? "yes" : "no";
        std::cout << fmt::format("  {:<11} {:<7}", f["name"].get<std::string>(), state);
        if (++col % 4 == 0) std::cout << "\n";
    }
    if (col % 4) std::cout << "\n";
    const auto& t = j["tsc"];
    std::cout << "\nTSC\n";
    std::cout << fmt::format("  frequency      {:.4f} GHz ({})\n", t["hz"].get<double>() / 1e9,
                             t["source"].get<std::string>());
    std::cout << fmt::format("  calibrated     {:.4f} GHz against CLOCK_MONOTONIC_RAW\n",
                             t["calibrated_hz"].get<double>() / 1e9);
    std::cout << fmt::format("  invariant      {}\n", t["invariant"].get<bool>() ? "yes" : "no");
    std::cout << fmt::format(
        "  empty section  {:.0f} ticks (lfence;rdtsc .. rdtscp;lfence, median of 2001; subtracted)\n",
        t["overhead_ticks"].get<double>());
    std::cout << fmt::format("  granularity    {:.0f} ticks (smallest step between two reads)\n",
                             t["granularity_ticks"].get<double>());
    const auto& r = j["core_per_tsc"];
    std::cout << fmt::format(
        "\ncore/TSC ratio   {:.3f} core cycles per tick (median {:.3f}, min {:.3f}, spread {:.1f}% over {} repeats; "
        "{})\n",
        r["value"].get<double>(), r["median"].get<double>(), r["min"].get<double>(), 100 * r["spread"].get<double>(),
        r["repeats"].get<int>(), r["method"].get<std::string>());
    const auto& x = j["xsave"];
    std::cout << fmt::format("\nXSAVE (emulated kernel_fpu_begin user-state save: {} + xrstor; XCR0 {:#x})\n",
                             x["instruction"].get<std::string>(), j["xcr0"].get<std::uint64_t>());
    std::cout << fmt::format("  area           {} bytes standard, {} bytes compacted\n",
                             x["standard_bytes"].get<unsigned>(), x["compacted_bytes"].get<unsigned>());
    for (const auto& c : x["components"])
        std::cout << fmt::format("  component {:>2}   {:<18} {:>5} bytes\n", c["index"].get<unsigned>(),
                                 c["name"].get<std::string>(), c["bytes"].get<unsigned>());
    std::cout << fmt::format("  {:<6} {:>12} {:>14} {:>16} {:>10}\n", "dirty", "save ticks", "restore ticks",
                             "save+restore", "ns");
    for (const auto& c : x["costs"])
        std::cout << fmt::format("  {:<6} {:>12.0f} {:>14.0f} {:>16.0f} {:>10.1f}\n", c["dirty"].get<std::string>(),
                                 c["save_ticks"].get<double>(), c["restore_ticks"].get<double>(),
                                 c["pair_ticks"].get<double>(), c["pair_ns"].get<double>());
    std::cout << "  (medians; save and restore timed singly, the pair in batches of 32; one TSC tick = "
              << fmt::format("{:.3f}", 1e9 / t["hz"].get<double>()) << " ns)\n";
    return kExitOk;
}

}  // namespace fputune::cli
