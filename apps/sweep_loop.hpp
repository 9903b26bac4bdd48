// SPDX-License-Identifier: MIT
// `sweep`'s closed loop (docs/measuring.md, "Measure what you emit"): after the first pass, the sweep fits,
// solves the constants for its question (SweepOptions loop_budget_s at loop_min_freq_hz), and measures each at
// its exact size or count and around it; it refits and measures again where a constant moved, until every
// constant is measured where it is or the time is spent. models/closed_loop.hpp decides what; this measures.
#pragma once

#include <string>

#include "sampler.hpp"
#include "sweep.hpp"

namespace fputune::cli {

// The file of a finished first pass with the loop's points added and its record ("closed_loop") written.
// `seconds_left` is what the sweep's time budget leaves; `source` names the file in messages.
SweepFile close_loop(SweepFile file, const SweepOptions& opt, SweepInputs in, const PoolHooks& hooks,
                     double seconds_left, const std::string& source);

// One line on what the loop did ("" when the file has no loop record).
std::string closed_loop_summary(const SweepFile& f);

}  // namespace fputune::cli
