// SPDX-License-Identifier: MIT
// A sweep's points in core cycles, the unit models are fitted in; a tick-only point is converted here, once.
#pragma once

#include "sweep_file.hpp"

namespace fputune {

// A point's statistics in core cycles: its per-sample `cycles` (each sample times the core/TSC ratio
// probed around it) when the sweep has them; else, for a sweep from before per-sample ratios, its
// ticks times the sweep's ratio, model_core_per_tsc() (the median probed ratio, else the start one).
PointStats point_cycles(const SweepFile& f, const PointStats& ticks, const PointStats& cycles);

}  // namespace fputune
