// SPDX-License-Identifier: MIT
// What `recommend`, `check` and `fit` print: plain-text tables of models' results (no parsing, no I/O).
#pragma once

#include <string>
#include <vector>

#include "check.hpp"
#include "model_file.hpp"
#include "recommend.hpp"

namespace fputune {

// `recommend`'s table: per variant, per algorithm, what bound each limit, and the notes.
std::string render_table(const Recommendation& r);

// `check`'s table: each constant of `source`, its predicted time, PASS or OVER, and a summary line.
std::string render_check(const CheckReport& report, const std::string& source, const std::vector<ModelFile>& sources,
                         const RecommendOptions& options);

// `check --upstream`: upstream's own sections (linux-x86-limits.csv, linux-x86-sections.csv) judged by the
// recommendation's lines, per algorithm PASS or OVER, and the multi-source kernels' counts; `over` = how many OVER.
std::string render_upstream(const Recommendation& r, std::size_t& over);

// `fit`'s table: every line of every kernel and cache state, the thresholds and the notes.
std::string render_fit(const ModelFile& m);

}  // namespace fputune
