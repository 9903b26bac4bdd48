// SPDX-License-Identifier: MIT
// `simulate`: a workload's FPU sections per kernel from the fitted models, as Elliott 2022's table has them
// (calls, cost, maxcycles, bpf), without limits (upstream's behaviour) and with limits. The table as
// data; apps/render_simulate.hpp prints it, simulation_json.hpp writes it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model_file.hpp"
#include "recommend.hpp"
#include "workload.hpp"

namespace fputune {

// One section limit and where it came from ("FPUTUNE_SHA256_FPU_BYTES (line 12)").
struct SimLimit {
    std::uint64_t bytes = 0;
    std::string from;
};

// Limits by macro stem (macro_stem of a kernel or an algorithm: "SHA256_AVX2", "SHA256"); a kernel's
// own constant wins over its algorithm's.
struct SimLimits {
    std::string label;  // what the table calls them: the header's path, or the recommendation
    std::map<std::string, SimLimit> by_stem;
    std::vector<std::string> notes;
};

// The FPUTUNE_<KERNEL|ALGORITHM>_FPU_BYTES constants of a header (models/check.hpp's parser; the
// FPUTUNE_ prefix is optional, as for `check`). Throws std::invalid_argument when there is none, or one is 0.
SimLimits limits_from_header(const std::string& text, const std::string& source);
// Every variant's recommended limit (one block where no size fits, with a note).
SimLimits limits_from_recommendation(const Recommendation& r);

struct SimulateOptions {
    // budget_s > 0: every longest section is judged against budget / margin; quantile: the bound line
    // of the longest section (as recommend and check).
    BudgetQuestion question;
    double pair_cycles = 0;  // begin/end cost per section outside the timed section, core cycles
    std::uint64_t repeat = 1;  // every request count is multiplied by this
    // The Linux version whose sections make the "today" column (upstream.hpp: "6.12", "6.15", "7.1"); "" = newest.
    std::string linux_version;
    std::string command_line;
};
// Throws std::invalid_argument naming the option (the question with or without a budget; cache and
// quantile are enums, checked where parsed).
void validate(const SimulateOptions& o);

// One kernel under one set of limits: totals from the p50 line, the longest section from the bound line.
struct SimColumn {
    std::optional<std::uint64_t> limit_bytes;  // empty: no limit (one section per update and per final)
    std::string limit_from;  // "none (upstream)", "upstream lib/crypto/x86/poly1305.h", a constant
    std::uint64_t simd_min_bytes = 0;  // upstream's threshold: shorter requests take the no-FPU path
    double requests = 0, simd_requests = 0;
    double sections = 0;  // kernel_fpu_begin/end pairs ("calls")
    double bytes = 0;  // processed inside sections (whole blocks, padding included)
    double inside_cycles = 0;  // p50 time inside sections, the state save not counted (it is in cost)
    double cost_cycles = 0;  // state save + restore once per SIMD request, + pair_cycles per section
    std::uint64_t longest_bytes = 0;  // the longest section (maxlen)
    double longest_cycles = 0;  // its bound (upper line, state save included), core cycles
    double longest_s = 0;  // at the minimum frequency
    bool extrapolated = false;  // longest_bytes is beyond the sizes the bound line was fitted on
    std::optional<bool> within_budget;
    double total_cycles() const { return inside_cycles + cost_cycles; }
};

struct SimRow {
    std::string kernel, algorithm;
    Cache cache = Cache::cold;
    std::uint32_t block_bytes = 0;
    bool own_final_section = false;  // a Merkle-Damgard hash: final's padding block(s) in a section of their own
    std::uint64_t bound_fit_max_bytes = 0;  // the longest section the bound line was fitted on
    SimColumn upstream;  // what the kernel does today (its own chunks where it has them)
    std::optional<SimColumn> limited;
    // Against no limit (one section per request, upstream's SIMD threshold kept): never negative, as a limit
    // only adds sections. throughput_cost: with the limits; upstream_cost: upstream's own chunks.
    double throughput_cost = 0, upstream_cost = 0;
    std::vector<std::string> notes;
};

struct SimMachine {
    std::string machine, source, kind, date, dirty;  // dirty: "" when the source does not say
    double core_per_tsc = 1;
    bool save_known = false;  // the model carries the probe's XSAVE costs
    double save_cycles = 0, restore_cycles = 0;  // per request, core cycles
    std::vector<SimRow> rows;
    std::size_t hidden_rows = 0;  // kernels the workload reaches that -k leaves out of the table
    std::vector<std::string> notes;
};

struct Simulation {
    Workload workload;
    SimulateOptions options;
    std::string limits_label;  // empty: no limits given
    std::string tool_version, tool_commit, date;
    std::vector<SimMachine> machines;
    std::vector<std::string> notes;
};

// Every FPU kernel of every source that a request of `w` reaches (a peer when a request names it, or
// when its algorithm has no kernel of ours, as `recommend`), per machine. Throws std::invalid_argument
// when a CSV row names a kernel or algorithm in none of the sources, when no kernel is reached at all,
// or when no constant of `limits` names a kernel.
Simulation simulate(const std::vector<ModelFile>& sources, const Workload& w, const SimLimits* limits,
                    const SimulateOptions& o);

}  // namespace fputune
