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
    if (o.round != "block" && o.round != "kib" && o.round != "pow2")
        throw std::invalid_argument("--round " + o.round + ": expected block, kib or pow2");
    if (o.cache != "cold" && o.cache != "hot") throw std::invalid_argument("--cache " + o.cache + ": expected cold or hot");
    if (o.quantile != "p90" && o.quantile != "p99")
        throw std::invalid_argument("--quantile " + o.quantile + ": expected p90 or p99 (of uninterrupted samples)");
    if (!o.dirty.empty() && o.dirty != "xmm" && o.dirty != "ymm" && o.dirty != "zmm" && o.dirty != "none")
        throw std::invalid_argument("--dirty " + o.dirty + ": expected xmm, ymm, zmm or none (thresholds with the user state already saved)");
}

double effective_budget_s(const RecommendOptions& o) { return o.budget_s / o.margin; }

std::string format_margin(double margin) {
    return margin == std::floor(margin) ? fmt::format("{:.1f}", margin) : fmt::format("{:g}", margin);
}

}  // namespace fputune
