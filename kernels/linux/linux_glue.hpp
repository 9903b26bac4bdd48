// SPDX-License-Identifier: MIT
// Inside the linux provider: each family file appends the variants whose asm built (linux_config.h).
// Baseline flags everywhere here: the only ISA code is the kernel's asm, reached after the registry's check.
#pragma once

#include <vector>

#include "kernel.hpp"
#include "linux_asm.hpp"

namespace fputune::linux_glue {

inline constexpr const char* kProvider = FPUTUNE_LINUX_PROVIDER;  // "linux <version from the tree's Makefile>"

void add_sha(std::vector<Kernel>& out);
void add_crc(std::vector<Kernel>& out);
void add_mac(std::vector<Kernel>& out);

}  // namespace fputune::linux_glue
