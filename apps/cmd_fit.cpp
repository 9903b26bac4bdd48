// SPDX-License-Identifier: MIT
// `fputune fit`: straight lines through a sweep's section costs, per kernel and cache state.
#include <iostream>

#include <fmt/format.h>

#include "atomic_file.hpp"
#include "cli.hpp"
#include "model_file.hpp"

namespace fputune::cli {

int run_fit(const Args& args) {
    po::options_description desc("fit options");
    desc.add_options()("input", po::value<std::string>()->default_value("fputune-sweep.json"), "sweep file (or model file) to fit")(
        "output,o", po::value<std::string>(), "write the fputune.model/1 file here (atomically)")(
        "kernel,k", po::value<std::vector<std::string>>()->composing(), "only kernels matching GLOB (repeatable)")(
        "json", "print the model JSON instead of the table");
    po::positional_options_description pos;
    pos.add("input", 1);
    po::variables_map vm;
    if (!parse("fit", "[FILE] [-o model.json] [-k GLOB]... [--json]", desc, args, vm, false, &pos)) return kExitOk;
    const std::string input = vm["input"].as<std::string>();
    std::vector<std::string> globs;
    if (vm.count("kernel")) globs = vm["kernel"].as<std::vector<std::string>>();
    if (vm.count("output")) check_writable(vm["output"].as<std::string>());
    const ModelFile m = load_models(input, globs);
    const std::string text = to_json(m).dump(1) + "\n";
    if (vm.count("output")) write_file_atomic(vm["output"].as<std::string>(), text);
    if (vm.count("json")) {
        std::cout << text;
        return kExitOk;
    }
    std::cout << fmt::format("fputune {} ({}) fit: {} ({}, {}), core/TSC {:.3f}, TSC {:.3f} GHz, weighted least squares "
                             "(weights 1/y^2, Huber), 95 % intervals\n\n",
                             m.tool_version, m.tool_commit, m.machine, m.source, m.sweep_date.empty() ? m.source_kind : m.sweep_date,
                             m.core_per_tsc, m.tsc_hz / 1e9);
    std::cout << fmt::format("{:<22} {:<5} {:<4} {:>20} {:>24} {:>8} {:>8} {:>7}  {}\n", "kernel", "cache", "q", "A ticks",
                             "B ticks/byte", "cyc/B", "R^2", "max res", "note");
    for (const auto& cm : m.models) {
        for (const auto& [q, f] : {std::pair{"p50", &cm.p50}, std::pair{"p90", &cm.p90}, std::pair{"p99", &cm.p99}}) {
            std::cout << fmt::format("{:<22} {:<5} {:<4} {:>20} {:>24} {:>8.3f} {:>8.5f} {:>6.1f}%  {}\n", cm.kernel, cm.cache, q,
                                     fmt::format("{:.0f} ± {:.0f}", f->a, (f->a_hi - f->a_lo) / 2),
                                     fmt::format("{:.4f} ± {:.4f}", f->b, (f->b_hi - f->b_lo) / 2), f->b * m.core_per_tsc, f->r2,
                                     100 * f->max_rel_residual, f->note);
        }
    }
    std::cout << fmt::format("\nA: fixed cost per section (state save and per-section overhead included); B: cost per byte; "
                             "cyc/B: core cycles per byte (B x core/TSC); p99: of uninterrupted samples; p90 and p99 are fitted on sections "
                             "of at most {:.0f} us; a line is flagged when a point is more than {:.0f}% off it\n",
                             kBoundFitMaxSeconds * 1e6, 100 * kMaxRelResidualForLine);
    for (const auto& t : m.thresholds)
        std::cout << fmt::format("threshold {} ({} dirty) vs {}: {}\n", t.kernel, t.dirty, t.scalar_kernels,
                                 t.kind == "bytes" ? fmt::format("{} B", t.bytes)
                                 : t.kind == "always" ? fmt::format("always ({} B)", t.bytes)
                                                      : fmt::format("never (measured {}..{} B)", t.measured_from, t.measured_to));
    for (const auto& n : m.notes) std::cout << "note: " << n << "\n";
    if (vm.count("output")) std::cout << "wrote " << vm["output"].as<std::string>() << "\n";
    return kExitOk;
}

}  // namespace fputune::cli
