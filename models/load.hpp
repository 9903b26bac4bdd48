// SPDX-License-Identifier: MIT
// The models behind `recommend`, `check` and `fit`, from whatever file they were given.
#pragma once

#include <string>
#include <vector>

#include "model.hpp"

namespace fputune {

// Any input by content: a sweep (fitted here), a model file, or a reference CSV. Throws
// std::runtime_error naming the path and what is wrong.
ModelFile load_models(const std::string& path, const std::vector<std::string>& kernel_globs = {});

}  // namespace fputune
