// SPDX-License-Identifier: MIT
// The fputune.simulation/1 file (`simulate --json`).
#include "simulation_json.hpp"

namespace fputune {

using nlohmann::json;

namespace {

json column_json(const SimColumn& c) {
    return {{"limit_bytes", c.limit_bytes ? json(*c.limit_bytes) : json(nullptr)},
            {"limit_from", c.limit_from},
            {"simd_min_bytes", c.simd_min_bytes},
            {"requests", c.requests},
            {"simd_requests", c.simd_requests},
            {"calls", c.sections},
            {"bytes", c.bytes},
            {"inside_cycles", c.inside_cycles},
            {"cost_cycles", c.cost_cycles},
            {"longest_bytes", c.longest_bytes},
            {"longest_cycles", c.longest_cycles},
            {"longest_s", c.longest_s},
            {"longest_extrapolated", c.extrapolated},
            {"within_budget", c.within_budget ? json(*c.within_budget) : json(nullptr)}};
}

}  // namespace

json to_json(const Simulation& s) {
    const SimulateOptions& o = s.options;
    json j;
    j["schema"] = kSimulationSchema;
    j["tool"] = {{"name", "fputune"}, {"version", s.tool_version}, {"commit", s.tool_commit}};
    j["date"] = s.date;
    j["workload"] = {{"name", s.workload.name},
                     {"description", s.workload.description},
                     {"source", s.workload.source},
                     {"kernel_thread", s.workload.kernel_thread},
                     {"notes", s.workload.notes}};
    j["workload"]["requests"] = json::array();
    for (const auto& r : s.workload.requests)
        j["workload"]["requests"].push_back({{"target", r.target}, {"bytes", r.bytes}, {"count", r.count}});
    j["inputs"] = {{"min_freq_hz", o.question.min_freq_hz},
                   {"budget_s", o.question.budget_s > 0 ? json(o.question.budget_s) : json(nullptr)},
                   {"margin", o.question.margin},
                   {"cache", std::string(name(o.question.cache))},
                   {"quantile", std::string(name(o.question.quantile))},
                   {"pair_cycles", o.pair_cycles},
                   {"repeat", o.repeat},
                   {"limits", s.limits_label.empty() ? json(nullptr) : json(s.limits_label)},
                   {"command", o.command_line}};
    j["machines"] = json::array();
    for (const SimMachine& m : s.machines) {
        json jm = {{"machine", m.machine},
                   {"source", m.source},
                   {"kind", m.kind},
                   {"date", m.date},
                   {"dirty", m.dirty},
                   {"core_per_tsc", m.core_per_tsc},
                   {"save_cycles", m.save_known ? json(m.save_cycles) : json(nullptr)},
                   {"restore_cycles", m.save_known ? json(m.restore_cycles) : json(nullptr)},
                   {"notes", m.notes}};
        jm["kernels"] = json::array();
        for (const SimRow& row : m.rows) {
            json r = {{"kernel", row.kernel},
                      {"algorithm", row.algorithm},
                      {"cache", std::string(name(row.cache))},
                      {"block_bytes", row.block_bytes},
                      {"own_final_section", row.own_final_section},
                      {"without_limits", column_json(row.upstream)},
                      {"notes", row.notes}};
            r["with_limits"] = row.limited ? column_json(*row.limited) : json(nullptr);
            r["throughput_cost"] = row.limited ? json(row.throughput_cost) : json(nullptr);
            jm["kernels"].push_back(r);
        }
        j["machines"].push_back(jm);
    }
    j["notes"] = s.notes;
    return j;
}

}  // namespace fputune
