// SPDX-License-Identifier: MIT
// Which variant an algorithm's constant stands for (--per-algorithm): the one the kernel selects on a
// CPU, mirroring its glue code's own choice from the CPU features, or the slowest of all.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace fputune {

enum class PerAlgorithm {
    slowest,  // the smallest limit over every variant: the slowest one stands in for older CPUs
    selected,  // the variant the kernel runs on each swept CPU, then the smallest over the CPUs
};
std::string_view name(PerAlgorithm p) noexcept;
std::optional<PerAlgorithm> parse_per_algorithm(std::string_view text) noexcept;

// One row of the kernel's choice for an algorithm, best first: our variant and the CPU features the
// kernel checks before it enables it (fputune's feature names, as `fputune cpu` records them).
struct KernelChoice {
    std::string variant;
    std::vector<std::string> features;
};
struct KernelSelection {
    std::string algorithm;
    std::vector<KernelChoice> order;  // best first; the first whose features are all usable is selected
    std::string source;  // the upstream glue it mirrors
    std::string note;  // what it does not mirror (a model check, a variant we lack)
};
// The table (written from arch/x86/crypto/*_glue.c of Linux 6.12 and, for the CRCs, the lib/crc/x86
// glue that data/reference/linux-x86-limits.csv describes); nullptr for an algorithm it has no row for.
const KernelSelection* kernel_selection(const std::string& algorithm);
const std::vector<KernelSelection>& kernel_selections();

// The variant the kernel selects for `algorithm` on the CPU of a sweep's probe (its "features", usable
// = detected, enabled by XCR0 and not masked; "family"/"model" for the kernel's model checks), among
// `have` (the variants with results). Empty when there is no table row, no feature list, or none of
// `have` qualifies; `why` then says which.
std::optional<std::string> selected_variant(const std::string& algorithm, const nlohmann::json& cpu,
                                            const std::vector<std::string>& have, std::string* why = nullptr);

// The no-FPU variant the kernel itself runs for `algorithm` below its SIMD threshold (or where the FPU
// is not usable), where we have more than one no-FPU variant: crc32c's one crc32q chain (crc32c-sse42),
// not our three-chain crc32c-sse42-3stream. nullptr where the best of our no-FPU variants stands for it.
const char* kernel_no_fpu_variant(std::string_view algorithm) noexcept;

}  // namespace fputune
