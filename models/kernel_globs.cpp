// SPDX-License-Identifier: MIT
// Globs on kernel names, in the data only (the registry has its own, for kernels that can run here).
#include "kernel_globs.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "errors.hpp"

namespace fputune {

bool glob_match(const std::string& pattern, const std::string& name) {
    return fnmatch(pattern.c_str(), name.c_str(), 0) == 0;
}

std::string data_kernel_kind(const KernelInfo& k) {
    if (k.sources > 0 || k.shape == "stripe") return "raid";
    if (k.algorithm.rfind("aes-", 0) == 0 || k.algorithm.rfind("chacha", 0) == 0) return "cipher";
    return "hash";
}

bool kernel_selected(const std::string& pattern, const std::string& name, const KernelInfo* k) {
    if (glob_match(pattern, name)) return true;
    if (!k) return false;
    // A series of sections (an AAD part, N sources, the warm-up state) is also matched by its kernel's name.
    if (k->kernel() != name && glob_match(pattern, k->kernel())) return true;
    return pattern == "all" || pattern == k->algorithm || pattern == data_kernel_kind(*k);
}

bool selected_in(const std::vector<ModelFile>& sources, const std::vector<std::string>& globs, const std::string& name) {
    const KernelInfo* info = nullptr;
    for (const ModelFile& m : sources)
        if ((info = m.kernel(name))) break;
    return std::any_of(globs.begin(), globs.end(), [&](const std::string& g) { return kernel_selected(g, name, info); });
}

void filter_kernels(ModelFile& m, const std::vector<std::string>& globs) {
    if (globs.empty()) return;
    std::set<std::string> with_points;
    for (const auto& cm : m.models) with_points.insert(cm.kernel);
    // -k means what it means for sweep and list: a glob over kernel names, an algorithm (all its variants), a
    // kind (hash, cipher, raid) or all.
    auto matches = [&](const std::string& g, const std::string& name) { return kernel_selected(g, name, m.kernel(name)); };
    for (const auto& g : globs) {
        bool any =
            std::any_of(with_points.begin(), with_points.end(), [&](const std::string& k) { return matches(g, k); });
        if (!any) {
            std::string names;
            for (const auto& k : with_points) names += (names.empty() ? "" : ", ") + k;
            throw InputError(
                fmt::format("{}: no section points for kernel '{}' (a glob, an algorithm or a kind; kernels with points: {}); "
                            "sweep it with `fputune sweep -k '{}'` or pick one of those",
                            m.source, g, names.empty() ? "none" : names, g));
        }
    }
    auto unwanted = [&](const std::string& kernel) {
        return std::none_of(globs.begin(), globs.end(), [&](const std::string& g) { return matches(g, kernel); });
    };
    if (m.prior_models.empty()) m.prior_models = m.models;
    std::erase_if(m.models, [&](const CacheModel& cm) { return unwanted(cm.kernel); });
    std::erase_if(m.thresholds, [&](const SimdThreshold& t) { return unwanted(t.kernel); });
}

}  // namespace fputune
