// SPDX-License-Identifier: MIT
// One table of spellings per enum, read both ways.
#include "enums.hpp"

#include <array>
#include <cstddef>

namespace fputune {

namespace {

// Spellings in enumerator order.
constexpr std::array<std::string_view, 3> kRoundNames = {"block", "kib", "pow2"};
constexpr std::array<std::string_view, 2> kCacheNames = {"hot", "cold"};
constexpr std::array<std::string_view, 2> kQuantileNames = {"p90", "p99"};
constexpr std::array<std::string_view, 3> kThresholdKindNames = {"bytes", "always", "never"};
constexpr std::array<std::string_view, 4> kDirtyNames = {"none", "xmm", "ymm", "zmm"};
constexpr std::array<std::string_view, 2> kEmitNames = {"conservative", "central"};

template <typename E, std::size_t N>
std::optional<E> parse(const std::array<std::string_view, N>& names, std::string_view text) noexcept {
    for (std::size_t i = 0; i < N; ++i)
        if (names[i] == text) return static_cast<E>(i);
    return std::nullopt;
}

}  // namespace

std::string_view name(Round v) noexcept { return kRoundNames[static_cast<std::size_t>(v)]; }
std::string_view name(Cache v) noexcept { return kCacheNames[static_cast<std::size_t>(v)]; }
std::string_view name(Quantile v) noexcept { return kQuantileNames[static_cast<std::size_t>(v)]; }
std::string_view name(ThresholdKind v) noexcept { return kThresholdKindNames[static_cast<std::size_t>(v)]; }
std::string_view name(Dirty v) noexcept { return kDirtyNames[static_cast<std::size_t>(v)]; }
std::string_view name(Emit v) noexcept { return kEmitNames[static_cast<std::size_t>(v)]; }

std::optional<Round> parse_round(std::string_view text) noexcept { return parse<Round>(kRoundNames, text); }
std::optional<Cache> parse_cache(std::string_view text) noexcept { return parse<Cache>(kCacheNames, text); }
std::optional<Quantile> parse_quantile(std::string_view text) noexcept { return parse<Quantile>(kQuantileNames, text); }
std::optional<ThresholdKind> parse_threshold_kind(std::string_view text) noexcept {
    return parse<ThresholdKind>(kThresholdKindNames, text);
}
std::optional<Dirty> parse_dirty_state(std::string_view text) noexcept { return parse<Dirty>(kDirtyNames, text); }
std::optional<Emit> parse_emit(std::string_view text) noexcept { return parse<Emit>(kEmitNames, text); }

Cache other(Cache v) noexcept { return v == Cache::hot ? Cache::cold : Cache::hot; }

}  // namespace fputune
