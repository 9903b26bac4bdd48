// SPDX-License-Identifier: MIT
// Checks the options once, with a message that names the option and says how to mend it.
#include "recommend_options.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "upstream.hpp"

namespace fputune {

void validate(const RecommendOptions& o) {
    if (!(o.budget_s > 0) || !std::isfinite(o.budget_s))
        throw std::invalid_argument("--budget: must be a duration greater than 0, e.g. 30us");
    if (!(o.min_freq_hz > 0) || !std::isfinite(o.min_freq_hz))
        throw std::invalid_argument("--min-freq: must be a frequency greater than 0, e.g. 1GHz");
    // Even with --force: beyond these the arithmetic stops meaning anything (times of 1e13 cycles at
    // 1e-300 Hz are not finite).
    if (o.budget_s < kMinComputableBudgetS || o.budget_s > kMaxComputableBudgetS)
        throw std::invalid_argument(
            fmt::format("--budget: {} s is outside 1 ps .. 1e6 s, where fputune computes at all", o.budget_s));
    if (o.min_freq_hz < kMinComputableFreqHz || o.min_freq_hz > kMaxComputableFreqHz)
        throw std::invalid_argument(
            fmt::format("--min-freq: {} Hz is outside 1 Hz .. 1 THz, where fputune computes at all", o.min_freq_hz));
    if (o.save_every < 1 || o.save_every > 1000000000)
        throw std::invalid_argument(
            fmt::format("--save-every {}: must be 1 .. 1e9 (1 = every one-shot pays the state save, "
                        "193 = one in 193 as in a laptop trace; --dirty none = none pays)",
                        o.save_every));
    if (!o.linux_version.empty()) resolve_linux_version(o.linux_version);  // throws naming the known versions
    if (!(o.margin >= 1) || !std::isfinite(o.margin) || o.margin > 1e6)
        throw std::invalid_argument(
            fmt::format("--margin {}: must be at least 1 (the limit fits budget / margin: 1 = no "
                        "headroom, 1.5 = 50 % headroom; at most 1e6)",
                        o.margin));
}

double effective_budget_s(const RecommendOptions& o) { return o.budget_s / o.margin; }

std::string format_margin(double margin) {
    return margin == std::floor(margin) ? fmt::format("{:.1f}", margin) : fmt::format("{:g}", margin);
}

}  // namespace fputune
