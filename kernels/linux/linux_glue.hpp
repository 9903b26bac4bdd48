// SPDX-License-Identifier: MIT
// Inside the linux provider: each family file appends the variants whose asm built (linux_config.h), each
// built by kernel<Glue>() (glue.hpp) from a row named <algorithm>-<isa>-linux. Baseline flags everywhere
// here: the only ISA code is the kernel's asm, reached after the registry's CPU check.
#pragma once

#include <vector>

#include "glue.hpp"
#include "linux_asm.hpp"

namespace fputune::linux_glue {

inline constexpr const char* kProvider = FPUTUNE_LINUX_PROVIDER;  // "linux <version from the tree's Makefile>"

consteval Variant linux_variant(const char* name, const char* isa, FeatureSet required, bool needs_fpu = true) {
    return Variant{.name = name, .isa = isa, .provider = kProvider, .required = required, .needs_fpu = needs_fpu};
}

void add_sha(std::vector<Kernel>& out);
void add_crc(std::vector<Kernel>& out);
void add_mac(std::vector<Kernel>& out);
void add_chacha(std::vector<Kernel>& out);
void add_aes(std::vector<Kernel>& out);
void add_gcm_vaes_avx2(std::vector<Kernel>& out);  // linux_gcm_vaes_avx2.cpp: the 6.19 VAES-AVX2 GCM

}  // namespace fputune::linux_glue
