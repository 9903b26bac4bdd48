// SPDX-License-Identifier: MIT
// The one candidate-selection pass: per kernel its cost model and whether it stands for its algorithm.
#include "select_models.hpp"

#include <set>

#include <fmt/format.h>

namespace fputune {

std::vector<const ModelChoice*> ModelSelection::of_source(const ModelFile& source) const {
    std::vector<const ModelChoice*> out;
    for (const ModelChoice& c : choices)
        if (c.source == &source) out.push_back(&c);
    return out;
}

const ModelChoice* ModelSelection::find(const ModelFile& source, const std::string& kernel) const {
    for (const ModelChoice& c : choices)
        if (c.source == &source && c.kernel->name == kernel) return &c;
    return nullptr;
}

ModelSelection select_models(std::span<const ModelFile> sources, const BudgetQuestion& q) {
    // Algorithms with a variant of ours that has section points in any input, either cache state.
    std::set<std::string> own_algorithms;
    for (const ModelFile& s : sources)
        for (const KernelInfo& k : s.kernels)
            if (k.needs_fpu && !is_peer(k) && (s.model(k.name, Cache::hot) || s.model(k.name, Cache::cold)))
                own_algorithms.insert(k.algorithm);
    ModelSelection out;
    for (const ModelFile& s : sources)
        for (const KernelInfo& k : s.kernels) {
            ModelChoice c{&s, &k, s.model(k.name, q.cache), q.cache, false, false};
            if (!c.model) {
                c.cache = other(q.cache);
                c.model = s.model(k.name, c.cache);
                c.fallback = true;
            }
            if (!c.model) continue;
            c.stands_for_algorithm = k.needs_fpu && (!is_peer(k) || !own_algorithms.count(k.algorithm));
            out.choices.push_back(c);
        }
    return out;
}

std::string fallback_note(const std::vector<std::string>& names, Cache asked) {
    if (names.empty()) return "";
    return fmt::format("no {}-cache points for {}: used {} cache", name(asked), fmt::join(names, ", "),
                       name(other(asked)));
}

}  // namespace fputune
