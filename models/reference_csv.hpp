// SPDX-License-Identifier: MIT
// Published measurements (data/reference/*.csv) read as a model file.
#pragma once

#include <string>

#include "model.hpp"

namespace fputune {

inline constexpr const char* kReferenceCsvHeader = "algorithm,bytes,cycles_per_op";

// A reference table "algorithm,bytes,cycles_per_op" (one point per kernel, cycles per op, TSC = core):
// A = 0, B = cycles / bytes; the machine is named from the comment lines ("Intel Cascade Lake ...").
ModelFile read_reference_csv(const std::string& text, const std::string& source);

}  // namespace fputune
