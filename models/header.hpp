// SPDX-License-Identifier: MIT
// The generated C header: kernel-style #defines of the recommended limits, with their provenance.
#pragma once

#include <string>

#include "recommend.hpp"

namespace fputune {

// "sha256-avx2" -> "SHA256_AVX2": upper case, anything not a letter or digit -> '_'.
std::string macro_stem(const std::string& name);
std::string variant_macro(const std::string& kernel);  // FPUTUNE_SHA256_AVX2_FPU_BYTES
std::string algorithm_macro(const std::string& algorithm);  // FPUTUNE_SHA256_FPU_BYTES
std::string threshold_macro(const std::string& algorithm);  // FPUTUNE_SHA256_SIMD_MIN_BYTES

// The stem of a series' FPU_BYTES macro (lib/sweep.hpp series): its kernel's for a primary series
// (SHA256_AVX2, AES_256_XTS_VAES_AVX512), GCM's AAD (AES_256_GCM_VAES_AVX512_AAD), a multi-source series in
// Linux's count (RAID6_AVX512_10_DISKS: 8 data disks + P + Q; XOR_AVX512_8_SOURCES); a warm-up (.idle) series
// shares its warm series' stem. series_algorithm_stem: the same for the algorithm (AES_256_GCM_AAD, RAID6_10_DISKS).
std::string series_stem(const KernelInfo& k);
std::string series_algorithm_stem(const KernelInfo& k);

// The header text; `path` names the include guard (limits.h -> _FPUTUNE_LIMITS_H). Throws InputError,
// before anything is written, when two kernels or algorithms would define one macro.
std::string render_header(const Recommendation& r, const std::string& path);

}  // namespace fputune
