// SPDX-License-Identifier: MIT
// The fixed sets of values models work with, as enums: each has name() (its spelling on the command
// line and in files) and parse_…() (nullopt for anything else; callers say what was wrong, and where).
#pragma once

#include <optional>
#include <string_view>

namespace fputune {

// How a limit is rounded down: whole blocks, whole KiB (and blocks), or a power of two (of whole blocks).
enum class Round { block, kib, pow2 };
// Which section points a model is fitted to: data resident in cache, or streamed from memory.
enum class Cache { hot, cold };
// Which cost line bounds a section: p90, or p99 of the samples not hit by an interruption.
enum class Quantile { p90, p99 };
// Where a SIMD threshold lies: from `bytes` on, at every length measured, or at none of them.
enum class ThresholdKind { bytes, always, never };
// User state dirty when a section or a one-shot call begins (a threshold's cost includes saving it):
// none (already saved earlier in the syscall, or no FPU needed), xmm, ymm or zmm. The same states as
// lib/fpu's DirtyState, which belongs to the measurement library that models do not link.
enum class Dirty { none, xmm, ymm, zmm };
// Which end of a limit's interval recommend emits: the conservative (low) end, or the central estimate.
enum class Emit { conservative, central };

std::string_view name(Round v) noexcept;
std::string_view name(Cache v) noexcept;
std::string_view name(Quantile v) noexcept;
std::string_view name(ThresholdKind v) noexcept;
std::string_view name(Dirty v) noexcept;
std::string_view name(Emit v) noexcept;

std::optional<Round> parse_round(std::string_view text) noexcept;
std::optional<Cache> parse_cache(std::string_view text) noexcept;
std::optional<Quantile> parse_quantile(std::string_view text) noexcept;
std::optional<ThresholdKind> parse_threshold_kind(std::string_view text) noexcept;
std::optional<Dirty> parse_dirty_state(std::string_view text) noexcept;
std::optional<Emit> parse_emit(std::string_view text) noexcept;

// The other cache state: the fallback when a kernel has no points in the one asked for.
Cache other(Cache v) noexcept;

}  // namespace fputune
