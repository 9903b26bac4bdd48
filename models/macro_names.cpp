// SPDX-License-Identifier: MIT
// Our macro names, formatted and parsed by the same rules.
#include "macro_names.hpp"

#include <cctype>

#include <fmt/format.h>

#include "upstream.hpp"

namespace fputune {

namespace {

constexpr std::string_view kFpuBytesSuffix = "_FPU_BYTES", kSimdMinSuffix = "_SIMD_MIN_BYTES";

std::string without_idle(const std::string& name) {
    const std::string suffix = ".idle";
    return name.size() > suffix.size() && name.ends_with(suffix) ? name.substr(0, name.size() - suffix.size()) : name;
}

std::string stripe_suffix(const KernelInfo& k) {
    const StripeUnit unit = stripe_unit(k);
    return fmt::format("_{}_{}", k.sources + unit.extra, macro_stem(unit.word));
}

}  // namespace

std::string macro_stem(const std::string& name) {
    std::string s;
    for (char c : name)
        s += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::toupper(static_cast<unsigned char>(c)))
                                                         : '_';
    return s;
}

StripeUnit stripe_unit(const KernelInfo& k) {
    const UpstreamLimit* u = find_upstream_limit(k.algorithm, "", k.kernel());
    if (!u) u = find_upstream_limit(k.algorithm.substr(0, k.algorithm.find(".x")));
    if (u && u->count == "disks") return {"disks", k.dest_count};
    // A multi-message hash (sha256_finup_2x): its sources are whole messages, each with its own digest.
    if (u && u->shape != "stripe") return {"messages", 0};
    return {"sources", 0};
}

std::string series_stem(const KernelInfo& k) {
    if (k.sources) return macro_stem(k.kernel()) + stripe_suffix(k);
    return macro_stem(without_idle(k.name));
}

std::string series_algorithm_stem(const KernelInfo& k) {
    if (k.sources) return macro_stem(k.algorithm.substr(0, k.algorithm.find(".x"))) + stripe_suffix(k);
    return macro_stem(k.algorithm);
}

std::string stripe_count_stem(const std::string& kernel_or_algorithm, const StripeUnit& unit,
                              std::uint64_t stripe_bytes) {
    const std::string size =
        stripe_bytes % 1024 == 0 ? fmt::format("{}K", stripe_bytes / 1024) : fmt::format("{}", stripe_bytes);
    return macro_stem(kernel_or_algorithm) + "_MAX_" + macro_stem(unit.word) + "_" + size;
}

MacroName parse_macro_name(std::string_view name) {
    MacroName m;
    m.prefixed = name.starts_with(kMacroPrefix);
    if (m.prefixed) name.remove_prefix(kMacroPrefix.size());
    for (const auto& [suffix, kind] : {std::pair{kFpuBytesSuffix, MacroKind::fpu_bytes},
                                       std::pair{kSimdMinSuffix, MacroKind::simd_min_bytes}})
        if (name.size() > suffix.size() && name.ends_with(suffix)) {
            m.kind = kind;
            m.stem = std::string(name.substr(0, name.size() - suffix.size()));
            return m;
        }
    m.stem = std::string(name);
    return m;
}

std::string format_macro_name(const MacroName& m) {
    const std::string_view suffix = m.kind == MacroKind::fpu_bytes        ? kFpuBytesSuffix
                                    : m.kind == MacroKind::simd_min_bytes ? kSimdMinSuffix
                                                                          : std::string_view();
    return (m.prefixed ? std::string(kMacroPrefix) : std::string()) + m.stem + std::string(suffix);
}

std::string fpu_bytes_macro(const std::string& stem) { return format_macro_name({MacroKind::fpu_bytes, stem}); }
std::string variant_macro(const std::string& kernel) { return fpu_bytes_macro(macro_stem(kernel)); }
std::string algorithm_macro(const std::string& algorithm) { return fpu_bytes_macro(macro_stem(algorithm)); }
std::string threshold_macro(const std::string& algorithm) {
    return format_macro_name({MacroKind::simd_min_bytes, macro_stem(algorithm)});
}

std::string count_macro(const std::string& stem) { return format_macro_name({MacroKind::other, stem}); }

std::uint32_t stem_count(const std::string& stem, const std::string& prefix, const std::string& word) {
    if (stem.size() <= prefix.size() + word.size() + 1 || !stem.starts_with(prefix) || !stem.ends_with("_" + word))
        return 0;
    const std::string digits = stem.substr(prefix.size(), stem.size() - prefix.size() - word.size() - 1);
    if (digits.empty() || digits.size() > 6 || digits.find_first_not_of("0123456789") != std::string::npos) return 0;
    return static_cast<std::uint32_t>(std::stoul(digits));
}

}  // namespace fputune
