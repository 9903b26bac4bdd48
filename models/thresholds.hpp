// SPDX-License-Identifier: MIT
// SIMD thresholds: from what input length the SIMD path, state save included, beats the no-FPU one.
#pragma once

#include <vector>

#include "model.hpp"

namespace fputune {

// Thresholds from the threshold points (see SimdThreshold). Throws std::invalid_argument for a point
// whose dirty state is none of xmm, ymm, zmm or none.
std::vector<SimdThreshold> compute_thresholds(const SweepFile& sweep);

}  // namespace fputune
