// SPDX-License-Identifier: MIT
// Collects everything `fputune cpu` reports into one JSON object.
#include "probe.hpp"

#include "clock.hpp"
#include "cpu.hpp"
#include "fpu.hpp"

namespace fputune {

nlohmann::json probe_cpu() {
    using nlohmann::json;
    json j;
    CpuIdentity id = cpu_identity();
    j["vendor"] = id.vendor;
    j["brand"] = id.brand;
    j["family"] = id.family;
    j["model"] = id.model;
    j["stepping"] = id.stepping;
    j["microcode"] = id.microcode;
    j["kernel_release"] = id.kernel_release;
    j["logical_cpus"] = id.logical_cpus;
    j["hypervisor"] = id.hypervisor;
    json features = json::array();
    for (Feature f : all_features()) {
        const bool detected = detected_features() & feature_bit(f);
        const bool masked = disabled_features() & feature_bit(f);
        features.push_back({{"name", feature_name(f)},
                            {"detected", detected},
                            {"masked", masked && detected},
                            {"usable", detected && !masked}});
    }
    j["features"] = features;
    j["xcr0"] = xgetbv0();
    const TscInfo& t = tsc_info();
    j["tsc"] = {{"hz", t.hz},
                {"source", t.source},
                {"calibrated_hz", t.calibrated_hz},
                {"invariant", t.invariant},
                {"overhead_ticks", t.overhead_ticks},
                {"granularity_ticks", t.granularity_ticks}};
    CoreRatio r = measure_core_per_tsc();
    j["core_per_tsc"] = {{"value", r.best},
                         {"median", r.median},
                         {"min", r.min},
                         {"max", r.max},
                         {"repeats", r.repeats},
                         {"spread", r.spread()},
                         {"method",
                          "dependent register add chain, 1 M adds per repeat; value = fastest repeat, spread = (value "
                          "- median) / value"}};
    const XsaveLayout& l = xsave_layout();
    json comps = json::array();
    for (const auto& c : l.components)
        comps.push_back(
            {{"index", c.index}, {"name", c.name}, {"bytes", c.size_bytes}, {"standard_offset", c.standard_offset}});
    json costs = json::array();
    for (const auto& c : measure_xsave_costs())
        costs.push_back({{"dirty", dirty_name(c.dirty)},
                         {"save_ticks", c.save_ticks},
                         {"restore_ticks", c.restore_ticks},
                         {"pair_ticks", c.pair_ticks},
                         {"pair_ns", c.pair_ticks / t.hz * 1e9}});
    j["xsave"] = {{"instruction", l.instruction()},
                  {"standard_bytes", l.standard_bytes},
                  {"compacted_bytes", l.compacted_bytes},
                  {"components", comps},
                  {"costs", costs}};
    return j;
}

}  // namespace fputune
