// SPDX-License-Identifier: MIT
// The generated C header: kernel-style #defines of the recommended limits, with their provenance.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "macro_names.hpp"  // the macro names it writes
#include "recommend.hpp"

namespace fputune {

// The header text; `path` names the include guard (limits.h -> _FPUTUNE_LIMITS_H). Throws InputError,
// before anything is written, when two kernels or algorithms would define one macro.
std::string render_header(const Recommendation& r, const std::string& path);

// The sweep's memory probe as the header's comment states it, one line per machine that recorded one:
//  *                memory probe: a 8 KiB read in no cache took 825.4 ns (2146 TSC ticks) at the sweep's median
// `verify` sets the probe it runs against it: cold sections move with it (lib/clock.hpp probe_memory_ticks).
std::string header_memory_line(double p50_ticks, std::uint32_t bytes, double tsc_hz);
// The ns of the header's memory probe line when it has exactly one (one machine); nullopt otherwise.
std::optional<double> parse_header_memory_ns(const std::string& text);

}  // namespace fputune
