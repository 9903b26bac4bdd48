// SPDX-License-Identifier: MIT
// The registry: concatenates the family tables once and answers selection queries over them.
#include "registry.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "families.hpp"

namespace fputune {

std::span<const Kernel* const> all_kernels() {
    static const std::vector<const Kernel*> table = [] {
        std::vector<const Kernel*> t;
        std::vector<std::span<const Kernel>> families = {sha_kernels(), crc_kernels(),    mac_kernels(),
                                                         aes_kernels(), chacha_kernels(), raid_kernels()};
#ifdef FPUTUNE_WITH_LINUX
        families.push_back(linux_kernels());
#endif
        for (auto family : families)
            for (const Kernel& k : family) t.push_back(&k);
        return t;
    }();
    return table;
}

std::vector<std::string> linux_provider_notes() {
    std::vector<std::string> out;
#ifdef FPUTUNE_WITH_LINUX
    const std::span<const Kernel> linux = linux_kernels();
    out.push_back(std::string(linux.empty() ? "linux" : linux.front().provider) + ", layout " + linux_layout());
    for (const char* line : linux_skipped_units()) out.emplace_back(line);
#endif
    return out;
}

// The kernel's own code ("linux <version>") is measured like ours, not only compared against.
bool is_peer(const Kernel& k) noexcept {
    return std::strcmp(k.provider, "fputune") != 0 && std::strncmp(k.provider, "linux ", 6) != 0;
}

bool kernel_matches(const Kernel& k, std::string_view pattern) {
    std::string p(pattern);
    return fnmatch(p.c_str(), k.name, 0) == 0 || p == k.algorithm;
}

std::vector<const Kernel*> select_kernels(const std::vector<std::string>& patterns) {
    auto table = all_kernels();
    if (patterns.empty()) return {table.begin(), table.end()};
    for (const auto& p : patterns)
        if (std::none_of(table.begin(), table.end(), [&](const Kernel* k) { return kernel_matches(*k, p); }))
            throw std::invalid_argument("kernel pattern '" + p + "' matches no kernel");
    std::vector<const Kernel*> out;
    for (const Kernel* k : table)
        if (std::any_of(patterns.begin(), patterns.end(), [&](const std::string& p) { return kernel_matches(*k, p); }))
            out.push_back(k);
    return out;
}

const Kernel* reference_kernel(std::string_view algorithm) {
    for (const Kernel* k : all_kernels())
        if (algorithm == k->algorithm && !is_peer(*k) && k->required == 0 && !k->needs_fpu) return k;
    return nullptr;
}

const Kernel* best_kernel(std::string_view algorithm, FeatureSet usable) {
    for (const Kernel* k : all_kernels())
        if (algorithm == k->algorithm && !is_peer(*k) && missing_features(*k, usable) == 0) return k;
    return nullptr;
}

std::vector<std::string> algorithms() {
    std::vector<std::string> out;
    for (const Kernel* k : all_kernels())
        if (std::find(out.begin(), out.end(), k->algorithm) == out.end()) out.emplace_back(k->algorithm);
    return out;
}

}  // namespace fputune
