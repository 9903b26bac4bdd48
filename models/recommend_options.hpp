// SPDX-License-Identifier: MIT
// What `recommend` and `check` are asked: the budget, the minimum frequency, and how to read the models.
#pragma once

#include <string>

namespace fputune {

struct RecommendOptions {
    double budget_s = 0;
    double min_freq_hz = 1e9;
    double margin = 1.0;          // >= 1: the predicted time must fit budget / margin
    std::string round = "block";  // block | kib | pow2
    std::string cache = "cold";   // cold | hot (falls back to the other, with a note, when missing)
    std::string dirty;            // xmm | ymm | zmm for the thresholds; "" = each sweep's own
    std::string quantile = "p99"; // p99 | p90: which cost line bounds a section (p99 = of uninterrupted samples)
    std::string command_line;     // for the provenance
};
// Throws std::invalid_argument naming the option and how to mend it.
void validate(const RecommendOptions& o);
double effective_budget_s(const RecommendOptions& o);
std::string format_margin(double margin);  // "1.0", "1.25"

}  // namespace fputune
