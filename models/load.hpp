// SPDX-License-Identifier: MIT
// The models behind `recommend`, `check` and `fit`, from whatever file they were given.
#pragma once

#include <string>
#include <vector>

#include "contention.hpp"
#include "model.hpp"

namespace fputune {

// Any input by content: a sweep (fitted here), a model file, or a reference CSV (a UTF-8 byte order
// mark is skipped). Throws InputError naming the path and what is wrong. The bounds are stated at
// `contention` (restate_contention) where the file knows its kernels' sensitivities.
ModelFile load_models(const std::string& path, const std::vector<std::string>& kernel_globs = {},
                      const ContentionTarget& contention = {});
// The same for a file's text already read (`source` names it in messages).
ModelFile models_from_text(const std::string& text, const std::string& source,
                           const std::vector<std::string>& kernel_globs = {}, const ContentionTarget& contention = {});

}  // namespace fputune
