// SPDX-License-Identifier: MIT
// The fputune.recommendation/1 file (`recommend --json`).
#pragma once

#include <nlohmann/json.hpp>

#include "recommend.hpp"

namespace fputune {

inline constexpr const char* kRecommendationSchema = "fputune.recommendation/1";

nlohmann::json to_json(const Recommendation& r);

}  // namespace fputune
