// SPDX-License-Identifier: MIT
// Choosing kernels by name: fnmatch globs (`-k 'sha256-*'`) on the kernels of a model file.
#pragma once

#include <string>
#include <vector>

#include "model.hpp"

namespace fputune {

// fnmatch-style glob ('*', '?', '[...]') on a kernel name.
bool glob_match(const std::string& pattern, const std::string& name);

// What a kernel of a data file is, as the registry's kinds: "raid" (multi-source), "cipher" (AES, ChaCha20),
// "hash" (every other one: hashes, MACs, CRCs).
std::string data_kernel_kind(const KernelInfo& k);

// Whether `-k pattern` selects the kernel (or series) `name` of a data file: a glob on its name or its kernel's
// name, its algorithm ("sha256": every variant), its kind ("hash", "cipher", "raid") or "all"; as sweep and list.
bool kernel_selected(const std::string& pattern, const std::string& name, const KernelInfo* k);

// Whether any of `globs` selects the kernel `name` of any of the files (kernel_selected on its first listing).
bool selected_in(const std::vector<ModelFile>& sources, const std::vector<std::string>& globs, const std::string& name);

// Keeps the models and thresholds of kernels matching any glob (all when there is none); a glob that
// matches no kernel with section points is an error that names the kernels there are.
void filter_kernels(ModelFile& m, const std::vector<std::string>& globs);

}  // namespace fputune
