// SPDX-License-Identifier: MIT
// The mac family table (no kernels yet).
#include "families.hpp"

namespace fputune {

std::span<const Kernel> mac_kernels() noexcept { return {}; }

}  // namespace fputune
