// SPDX-License-Identifier: MIT
// The generated C header: kernel-style #defines of the recommended limits, with their provenance.
#pragma once

#include <string>

#include "macro_names.hpp"  // the macro names it writes
#include "recommend.hpp"

namespace fputune {

// The header text; `path` names the include guard (limits.h -> _FPUTUNE_LIMITS_H). Throws InputError,
// before anything is written, when two kernels or algorithms would define one macro.
std::string render_header(const Recommendation& r, const std::string& path);

}  // namespace fputune
