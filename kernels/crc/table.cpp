// SPDX-License-Identifier: MIT
// The crc family table (no kernels yet).
#include "families.hpp"

namespace fputune {

std::span<const Kernel> crc_kernels() noexcept { return {}; }

}  // namespace fputune
