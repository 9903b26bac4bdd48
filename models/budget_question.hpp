// SPDX-License-Identifier: MIT
// The question every budget command answers (recommend, check, simulate, compare, report, verify): how long
// may a section last, at what clock, with what headroom, read off which cache state, cost line and contention.
#pragma once

#include <string>

#include "enums.hpp"

namespace fputune {

// `contention` (models/contention.hpp): "as-measured" takes the samples as the sweep measured them,
// whatever ran beside; the default, "quiet", states every bound at contention level 1 (what the code costs
// with the core's other thread idle) where the sweep recorded contention, or at the level its calmest tenth met
// where it was hardly ever quiet (quiet_level, docs/contention.md).
inline constexpr const char* kContentionAsMeasured = "as-measured";
inline constexpr const char* kContentionDefault = "quiet";

struct BudgetQuestion {
    double budget_s = 0;  // the longest acceptable section; 0 = none asked (simulate: nothing is judged)
    double min_freq_hz = 1e9;  // the lowest core clock the budget must hold at
    double margin = 1.0;  // >= 1: the predicted time must fit budget / margin
    Cache cache = Cache::cold;  // which sweep points; the other state, with a note, where a kernel lacks these
    Quantile quantile = Quantile::p99;  // which cost line bounds a section (p99 = of uninterrupted samples)
    std::string contention = kContentionDefault;  // what ran on the core beside the sections
};

// What the solver computes with at all (--force reaches beyond the plausible range of units.hpp,
// not beyond this): budgets of 1 ps .. 1e6 s, minimum frequencies of 1 Hz .. 1 THz.
inline constexpr double kMinComputableBudgetS = 1e-12, kMaxComputableBudgetS = 1e6;
inline constexpr double kMinComputableFreqHz = 1, kMaxComputableFreqHz = 1e12;

// Throws std::invalid_argument naming the option and how to mend it. `budget_required`: a budget of 0
// (none asked) is refused too.
void validate(const BudgetQuestion& q, bool budget_required = true);
// What a section must fit: budget / margin.
double effective_budget_s(const BudgetQuestion& q);
std::string format_margin(double margin);  // "1.0", "1.25"

}  // namespace fputune
