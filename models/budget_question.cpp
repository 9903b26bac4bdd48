// SPDX-License-Identifier: MIT
// Checks the question once, with a message that names the option and says how to mend it.
#include "budget_question.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "contention.hpp"

namespace fputune {

void validate(const BudgetQuestion& q, bool budget_required) {
    if (!std::isfinite(q.budget_s) || q.budget_s < 0 || (budget_required && !(q.budget_s > 0)))
        throw std::invalid_argument("--budget: must be a duration greater than 0, e.g. 30us");
    if (!(q.min_freq_hz > 0) || !std::isfinite(q.min_freq_hz))
        throw std::invalid_argument("--min-freq: must be a frequency greater than 0, e.g. 1GHz");
    // Even with --force: beyond these the arithmetic stops meaning anything (times of 1e13 cycles at
    // 1e-300 Hz are not finite).
    if (q.budget_s > 0 && (q.budget_s < kMinComputableBudgetS || q.budget_s > kMaxComputableBudgetS))
        throw std::invalid_argument(
            fmt::format("--budget: {} s is outside 1 ps .. 1e6 s, where fputune computes at all", q.budget_s));
    if (q.min_freq_hz < kMinComputableFreqHz || q.min_freq_hz > kMaxComputableFreqHz)
        throw std::invalid_argument(
            fmt::format("--min-freq: {} Hz is outside 1 Hz .. 1 THz, where fputune computes at all", q.min_freq_hz));
    if (!(q.margin >= 1) || !std::isfinite(q.margin) || q.margin > 1e6)
        throw std::invalid_argument(
            fmt::format("--margin {}: must be at least 1 (the limit fits budget / margin: 1 = no "
                        "headroom, 1.5 = 50 % headroom; at most 1e6)",
                        q.margin));
    if (!parse_contention_target(q.contention))
        throw std::invalid_argument(fmt::format("--contention '{}': expected {}", q.contention, kContentionChoices));
}

double effective_budget_s(const BudgetQuestion& q) { return q.budget_s / q.margin; }

std::string format_margin(double margin) {
    return margin == std::floor(margin) ? fmt::format("{:.1f}", margin) : fmt::format("{:g}", margin);
}

}  // namespace fputune
