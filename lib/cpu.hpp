// SPDX-License-Identifier: MIT
// What machine is speaking: CPUID/XGETBV feature detection, --disable masks, and identification.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernel.hpp"

namespace fputune {

struct CpuId {
    std::uint32_t eax, ebx, ecx, edx;
};
CpuId cpuid(std::uint32_t leaf, std::uint32_t subleaf = 0) noexcept;
std::uint64_t xgetbv0() noexcept;  // XCR0; 0 when the OS has not enabled XSAVE

// Features the CPU has AND the OS enabled (detected once and cached).
FeatureSet detected_features() noexcept;

// Parse a --disable list ("avx512f,sha" or "avx512"); aliases: avx512 = avx512f, shani = sha,
// sse4.2/sse42, clmul = pclmul. Throws std::invalid_argument listing the valid names on an unknown one.
FeatureSet parse_feature_list(const std::string& list);

// Masking a feature masks what depends on it (no avx2 without avx, no avx512vl without avx512f, ...).
FeatureSet close_mask(FeatureSet masked) noexcept;

// The process-wide mask: set from --disable and the FPUTUNE_DISABLE environment variable.
void set_disabled_features(FeatureSet masked) noexcept;
FeatureSet disabled_features() noexcept;
// detected_features() minus the closed mask: what kernels may use.
FeatureSet usable_features() noexcept;

std::vector<Feature> all_features();
std::string feature_list_string(FeatureSet set);  // "avx2 sha vaes"

struct CpuIdentity {
    std::string vendor, brand;
    unsigned family = 0, model = 0, stepping = 0;
    std::string microcode;  // from /proc/cpuinfo, "" when not readable
    std::string kernel_release;  // uname -r
    unsigned logical_cpus = 0;  // online
    bool hypervisor = false;
};
CpuIdentity cpu_identity();

}  // namespace fputune
