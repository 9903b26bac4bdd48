// SPDX-License-Identifier: MIT
// The one table of every kernel variant, and selection by glob, algorithm and available features.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kernel.hpp"

namespace fputune {

// All kernels, family by family, best first within an algorithm, portable reference, then peers.
std::span<const Kernel* const> all_kernels();

bool is_peer(const Kernel& k) noexcept;  // provider neither "fputune" nor "linux <version>"

// Features in `required` that `usable` lacks (0 = available).
constexpr FeatureSet missing_features(const Kernel& k, FeatureSet usable) noexcept { return k.required & ~usable; }

// fnmatch-style glob ('*', '?', '[...]') on the kernel name; also matches an algorithm name exactly.
bool kernel_matches(const Kernel& k, std::string_view pattern);

// Kernels matching any of the patterns, in table order. Empty patterns = all kernels.
// Throws std::invalid_argument naming the pattern when one matches nothing.
std::vector<const Kernel*> select_kernels(const std::vector<std::string>& patterns);

// The portable reference of an algorithm: our first kernel that needs no feature and no FPU.
const Kernel* reference_kernel(std::string_view algorithm);

// The best available kernel of ours for an algorithm (first in table order whose features are usable).
const Kernel* best_kernel(std::string_view algorithm, FeatureSet usable);

std::vector<std::string> algorithms();  // in table order, each once

// The linux provider's tree, when this build has one: "linux <version>, layout <layout>" first, then one line
// per unit of the tree that was not built, with why ("<unit>: <path>: <why>"). Empty without the provider.
std::vector<std::string> linux_provider_notes();

}  // namespace fputune
