// SPDX-License-Identifier: MIT
// Which series of the inputs answer a budget question, and on which cost model: the one policy that
// recommend, check, simulate, compare and report share (the cache fallback, and which algorithms have
// variants of our own so that a peer stands for its algorithm only where they have none).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "budget_question.hpp"
#include "model.hpp"

namespace fputune {

struct ModelChoice {
    const ModelFile* source = nullptr;
    const KernelInfo* kernel = nullptr;
    const CacheModel* model = nullptr;  // of the asked cache state, else of the other one
    Cache cache = Cache::cold;  // model's state
    bool fallback = false;  // cache is not the asked one: the kernel has no points of that state
    // A limit of its algorithm stands on it: a kernel that needs the FPU, ours, or a peer whose algorithm
    // has no variant of ours with section points in any input (a peer beside ours is compared, not limited).
    bool stands_for_algorithm = false;
};

struct ModelSelection {
    std::vector<ModelChoice> choices;  // every kernel with section points: source order, then kernel order
    // The choices of one input (its address in the sources).
    std::vector<const ModelChoice*> of_source(const ModelFile& source) const;
    // The choice of a kernel on one input; nullptr when it has no section points there.
    const ModelChoice* find(const ModelFile& source, const std::string& kernel) const;
};

// Every kernel of every source with section points, on the question's cache state where it has it.
// (A std::vector<ModelFile> converts; one file: std::span(&file, 1).)
ModelSelection select_models(std::span<const ModelFile> sources, const BudgetQuestion& question);

// "no cold-cache points for a, b: used hot cache"; "" when `names` is empty.
std::string fallback_note(const std::vector<std::string>& names, Cache asked);

}  // namespace fputune
