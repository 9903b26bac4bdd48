// SPDX-License-Identifier: MIT
// The fputune.simulation/1 file (`simulate --json`).
#pragma once

#include <nlohmann/json.hpp>

#include "simulate.hpp"

namespace fputune {

inline constexpr const char* kSimulationSchema = "fputune.simulation/1";

nlohmann::json to_json(const Simulation& s);

}  // namespace fputune
