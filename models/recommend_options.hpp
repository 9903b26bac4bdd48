// SPDX-License-Identifier: MIT
// What `recommend` and `check` are asked: the budget, the minimum frequency, and how to read the models.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "enums.hpp"
#include "selection.hpp"

namespace fputune {

struct RecommendOptions {
    double budget_s = 0;
    double min_freq_hz = 1e9;
    double margin = 1.0;  // >= 1: the predicted time must fit budget / margin
    Round round = Round::block;
    Cache cache = Cache::cold;  // falls back to the other, with a note, when missing
    std::optional<Dirty> dirty;  // the user state for the thresholds; none given = each sweep's own
    Quantile quantile = Quantile::p99;  // which cost line bounds a section (p99 = of uninterrupted samples)
    Emit emit = Emit::conservative;  // which end of each limit's interval is the limit
    // The thresholds' state save is paid by one one-shot in this many (1: by every one, as the threshold
    // points were measured; `recommend` defaults to kTraceSaveEvery, see thresholds.hpp); --dirty none: by none.
    std::uint64_t save_every = 1;
    // Which variant the per-algorithm limit stands for (selection.hpp).
    PerAlgorithm per_algorithm = PerAlgorithm::slowest;
    // The kernel version whose upstream sections are judged (upstream.hpp: "6.12", "6.15", "7.1"); "" = the newest.
    std::string linux_version;
    std::string command_line;  // for the provenance
};
// What the solver computes with at all (--force reaches beyond the plausible range of units.hpp,
// not beyond this): budgets of 1 ps .. 1e6 s, minimum frequencies of 1 Hz .. 1 THz.
inline constexpr double kMinComputableBudgetS = 1e-12, kMaxComputableBudgetS = 1e6;
inline constexpr double kMinComputableFreqHz = 1, kMaxComputableFreqHz = 1e12;
// Throws std::invalid_argument naming the option and how to mend it (budget, frequency, margin: the
// values with a fixed set are enums, checked where they are parsed).
void validate(const RecommendOptions& o);
double effective_budget_s(const RecommendOptions& o);
std::string format_margin(double margin);  // "1.0", "1.25"

}  // namespace fputune
