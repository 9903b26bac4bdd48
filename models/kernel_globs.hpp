// SPDX-License-Identifier: MIT
// Choosing kernels by name: fnmatch globs (`-k 'sha256-*'`) on the kernels of a model file.
#pragma once

#include <string>
#include <vector>

#include "model.hpp"

namespace fputune {

// fnmatch-style glob ('*', '?', '[...]') on a kernel name.
bool glob_match(const std::string& pattern, const std::string& name);

// Keeps the models and thresholds of kernels matching any glob (all when there is none); a glob that
// matches no kernel with section points is an error that names the kernels there are.
void filter_kernels(ModelFile& m, const std::vector<std::string>& globs);

}  // namespace fputune
