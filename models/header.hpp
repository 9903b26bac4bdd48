// SPDX-License-Identifier: MIT
// The generated C header: kernel-style #defines of the recommended limits, with their provenance.
#pragma once

#include <string>

#include "recommend.hpp"

namespace fputune {

// "sha256-avx2" -> "SHA256_AVX2": upper case, anything not a letter or digit -> '_'.
std::string macro_stem(const std::string& name);
std::string variant_macro(const std::string& kernel);        // FPUTUNE_SHA256_AVX2_FPU_BYTES
std::string algorithm_macro(const std::string& algorithm);   // FPUTUNE_SHA256_FPU_BYTES
std::string threshold_macro(const std::string& algorithm);   // FPUTUNE_SHA256_SIMD_MIN_BYTES

// The header text; `path` names the include guard (limits.h -> _FPUTUNE_LIMITS_H). Throws InputError,
// before anything is written, when two kernels or algorithms would define one macro.
std::string render_header(const Recommendation& r, const std::string& path);

}  // namespace fputune
