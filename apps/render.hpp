// SPDX-License-Identifier: MIT
// What `recommend`, `check` and `fit` print: plain-text tables of models' results (no parsing, no I/O).
#pragma once

#include <string>
#include <vector>

#include "check.hpp"
#include "model_file.hpp"
#include "recommend.hpp"

namespace fputune {

// How `recommend`'s table is shown: verbose keeps every fit-shape note on its variant's line (else one line per
// algorithm); other_policy, the same recommendation under the other --per-algorithm policy, shown beside it.
struct RecommendView {
    bool verbose = false;
    const Recommendation* other_policy = nullptr;
};

// `recommend`'s table: per algorithm first (the constants to paste), then per variant, what bound each limit,
// and the notes.
std::string render_table(const Recommendation& r, const RecommendView& view = {});

// `check`'s table: each constant of `source`, its predicted time, PASS or OVER, and a summary line.
std::string render_check(const CheckReport& report, const std::string& source, const std::vector<ModelFile>& sources,
                         const RecommendOptions& options);

// `check --upstream`: upstream's own sections (linux-x86-limits.csv, linux-x86-sections.csv) judged by the
// recommendation's lines, per algorithm PASS or OVER, and the multi-source kernels' counts; `over` = how many OVER.
std::string render_upstream(const Recommendation& r, std::size_t& over);

// One constant of a header as `verify` measured it: the bound statistic in seconds at the minimum frequency.
// PASS: within the budget; MARGINAL: over it, by less than the samples can tell from noise; OVER: over it beyond
// that (Holm over every section, 5 % family-wise), or not measured at all; CONTENDED: over it, but judged only on
// rounds a neighbour shared (models/fit_sweep.hpp judged_on_shared_rounds), which cannot tell the constant from it.
enum class VerifyVerdict { pass, marginal, over, contended };
const char* verdict_label(VerifyVerdict v);  // "PASS", "MARGINAL", "OVER", "CONTENDED"
const char* verdict_key(VerifyVerdict v);  // the JSON's: "pass", "marginal", "over", "contended"
struct VerifyRow {
    std::string constant, kernel;
    double bound_s = 0;
    VerifyVerdict verdict = VerifyVerdict::over;
};

// `verify`'s last line: "N of M OVER, K MARGINAL, worst +X % (CONSTANT, kernel)" (", J CONTENDED" after MARGINAL
// where any is), and what to do when one is not PASS.
std::string render_verify_summary(const std::vector<VerifyRow>& rows, double budget_s);

// `fit`'s table: every line of every kernel and cache state, the thresholds and the notes.
std::string render_fit(const ModelFile& m);

}  // namespace fputune
