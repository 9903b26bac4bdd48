// SPDX-License-Identifier: MIT
// The names of our #defines, in one place: formatted here for the header (recommend --header) and parsed
// back here for check, simulate --limits and verify. FPUTUNE_<STEM>_FPU_BYTES (a kernel's, a series', an
// algorithm's section limit), FPUTUNE_<ALGORITHM>_SIMD_MIN_BYTES (a threshold), and a multi-source kernel's
// count FPUTUNE_<KERNEL|ALGORITHM>_MAX_<DISKS|SOURCES>_4K. Reading, the FPUTUNE_ prefix is optional.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "model.hpp"

namespace fputune {

inline constexpr std::string_view kMacroPrefix = "FPUTUNE_";

// "sha256-avx2" -> "SHA256_AVX2": upper case, anything not a letter or digit -> '_'.
std::string macro_stem(const std::string& name);

// How Linux counts a multi-source call's buffers (linux-x86-sections.csv "count"): raid6 in disks (the N data
// disks + P + Q, as gen_syndrome(disks, ...) and md's raid_disks count them), xor in sources (xor_gen's src_cnt),
// a multi-message hash (sha256_finup_2x) in messages.
struct StripeUnit {
    std::string word = "sources";  // "disks" | "sources" | "messages"
    std::uint32_t extra = 0;  // count = sources + extra
    bool raid() const { return word != "messages"; }  // disks or sources of an md stripe
    std::string one() const { return word.substr(0, word.size() - 1); }  // "disk", "source", "message"
};
StripeUnit stripe_unit(const KernelInfo& k);

// The stem of a series' FPU_BYTES macro (lib/sweep.hpp series): its kernel's for a primary series
// (SHA256_AVX2, AES_256_XTS_VAES_AVX512), GCM's AAD (AES_256_GCM_VAES_AVX512_AAD), a multi-source series in
// Linux's count (RAID6_AVX512_10_DISKS: 8 data disks + P + Q; XOR_AVX512_8_SOURCES); a warm-up (.idle) series
// shares its warm series' stem. series_algorithm_stem: the same for the algorithm (AES_256_GCM_AAD, RAID6_10_DISKS).
std::string series_stem(const KernelInfo& k);
std::string series_algorithm_stem(const KernelInfo& k);
// A multi-source count's stem: "RAID6_AVX512_MAX_DISKS_4K" / "RAID6_MAX_DISKS_4K" (4K: stripe_bytes 4096).
std::string stripe_count_stem(const std::string& kernel_or_algorithm, const StripeUnit& unit,
                              std::uint64_t stripe_bytes = 4096);

// What a macro name says.
enum class MacroKind {
    fpu_bytes,  // <STEM>_FPU_BYTES: a section limit
    simd_min_bytes,  // <STEM>_SIMD_MIN_BYTES: a SIMD threshold
    other,  // anything else (a count's stem, an include guard): `stem` is the name without the prefix
};
struct MacroName {
    MacroKind kind = MacroKind::other;
    std::string stem;  // between the prefix and the suffix: "SHA256_AVX2"
    bool prefixed = true;  // began with FPUTUNE_
};
MacroName parse_macro_name(std::string_view name);
std::string format_macro_name(const MacroName& m);  // the inverse: format(parse(x)) == x
std::string fpu_bytes_macro(const std::string& stem);  // FPUTUNE_<stem>_FPU_BYTES
std::string variant_macro(const std::string& kernel);  // FPUTUNE_SHA256_AVX2_FPU_BYTES
std::string algorithm_macro(const std::string& algorithm);  // FPUTUNE_SHA256_FPU_BYTES
std::string threshold_macro(const std::string& algorithm);  // FPUTUNE_SHA256_SIMD_MIN_BYTES
std::string count_macro(const std::string& stem);  // FPUTUNE_<stem>: a multi-source count (stripe_count_stem)

// The count in a multi-source series' stem: "RAID6_AVX512_10_DISKS" with prefix "RAID6_AVX512_" and word
// "DISKS" -> 10; 0 when the stem is not of that form (or the count has more than 6 digits).
std::uint32_t stem_count(const std::string& stem, const std::string& prefix, const std::string& word);

}  // namespace fputune
