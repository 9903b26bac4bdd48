// SPDX-License-Identifier: MIT
// SIMD thresholds: from what input length the SIMD path, state save included, beats the no-FPU one.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "model.hpp"

namespace fputune {

// The default of `--save-every`: Dave Hansen's laptop trace (shared/reference/published-2024-2026.csv)
// counted 26 user-state saves against 5010 kernel_fpu_begin() calls (4192 XTS, 818 crc32c): one in 193.
inline constexpr std::uint64_t kTraceSaveEvery = 193;
// save_every for "no one-shot pays the save" (the state was saved earlier in the same syscall).
inline constexpr std::uint64_t kSaveNever = 0;

// Thresholds from the threshold points (see SimdThreshold), each with its curve and its save cost:
// the dirty state's points minus the same kernel's "none" points (median over the lengths) when the
// sweep has both, else the sweep's XSAVE probe of that state. Throws std::invalid_argument for a point
// whose dirty state is none of xmm, ymm, zmm or none.
std::vector<SimdThreshold> compute_thresholds(const SweepFile& sweep);

// The threshold with the state save paid by one one-shot in `save_every` (kSaveNever: by none), read
// again from its curve with the SIMD cost simd(n) - save_cycles * (1 - 1 / save_every). One of dirty
// none, or without a curve (a model file from before curves were kept), comes back unchanged.
SimdThreshold amortised(const SimdThreshold& t, std::uint64_t save_every);

// What a threshold is made of: straight lines through its curve from 64 B (or one block) on, the
// SIMD one without its save. The break-even of the lines, (setup + save / save_every) / gap, explains
// the threshold read from the curve; it is not a second threshold.
struct ThresholdParts {
    double save_cycles = 0;  // the dirty state's save + restore, as one one-shot pays it
    double setup_cycles = 0;  // the SIMD one-shot's fixed cost over the no-FPU one's, save left out
    double gap_cycles_per_byte = 0;  // no-FPU cost per byte minus SIMD cost per byte (> 0: SIMD is faster)
    std::uint64_t save_every = 1;
    double break_even_bytes = 0;  // infinite when the gap is not positive
};
// Empty for a threshold without a curve, or with fewer than two lengths to fit.
std::optional<ThresholdParts> threshold_parts(const SimdThreshold& t);

}  // namespace fputune
