// SPDX-License-Identifier: MIT
// What `recommend` and `check` are asked: the budget, the minimum frequency, and how to read the models.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "budget_question.hpp"
#include "enums.hpp"
#include "selection.hpp"

namespace fputune {

struct RecommendOptions {
    BudgetQuestion question;  // budget, frequency, margin, cache, quantile, contention
    Round round = Round::block;
    std::optional<Dirty> dirty;  // the user state for the thresholds; none given = each sweep's own
    Emit emit = Emit::conservative;  // which end of each limit's interval is the limit
    // The thresholds' state save is paid by one one-shot in this many (1: by every one, as the threshold
    // points were measured; `recommend` defaults to kTraceSaveEvery, see thresholds.hpp); --dirty none: by none.
    std::uint64_t save_every = 1;
    // Which variant the per-algorithm limit stands for (selection.hpp).
    PerAlgorithm per_algorithm = PerAlgorithm::slowest;
    std::string command_line;  // for the provenance
};
// Throws std::invalid_argument naming the option and how to mend it (the question with a budget required,
// --save-every; the values with a fixed set are enums, checked where they are parsed).
void validate(const RecommendOptions& o);

}  // namespace fputune
