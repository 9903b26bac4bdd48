// SPDX-License-Identifier: MIT
// Checks the options once, with a message that names the option and says how to mend it.
#include "recommend_options.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace fputune {

void validate(const RecommendOptions& o) {
    if (!(o.budget_s > 0) || !std::isfinite(o.budget_s))
        throw std::invalid_argument("--budget: must be a duration greater than 0, e.g. 30us");
    if (!(o.min_freq_hz > 0) || !std::isfinite(o.min_freq_hz))
        throw std::invalid_argument("--min-freq: must be a frequency greater than 0, e.g. 1GHz");
    if (!(o.margin >= 1) || !std::isfinite(o.margin))
        throw std::invalid_argument(fmt::format("--margin {}: must be at least 1 (the limit fits budget / margin: 1 = no "
                                                "headroom, 1.5 = 50 % headroom)", o.margin));
}

double effective_budget_s(const RecommendOptions& o) { return o.budget_s / o.margin; }

std::string format_margin(double margin) {
    return margin == std::floor(margin) ? fmt::format("{:.1f}", margin) : fmt::format("{:g}", margin);
}

}  // namespace fputune
