// SPDX-License-Identifier: MIT
// The sha family table (no kernels yet).
#include "families.hpp"

namespace fputune {

std::span<const Kernel> sha_kernels() noexcept { return {}; }

}  // namespace fputune
