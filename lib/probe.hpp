// SPDX-License-Identifier: MIT
// The machine probe (`fputune cpu`), as JSON: written into every sweep so a reader knows who spoke.
#pragma once

#include <nlohmann/json.hpp>

#include "provenance.hpp"  // tool_version(), tool_commit(), utc_now_iso8601(): formerly declared here

namespace fputune {

// Identity, features (detected, masked, usable), TSC, core/TSC ratio, XSAVE layout and costs.
// Takes ~0.2 s (calibrations and timing loops).
nlohmann::json probe_cpu();

}  // namespace fputune
