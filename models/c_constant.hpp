// SPDX-License-Identifier: MIT
// The integer constant expressions kernel headers write in #define and #if: literals (decimal, hex, octal;
// U/L suffixes), + - * / % << >> & | ^ ~ ! and the comparisons, && || ?:, parentheses, defined(X), and
// identifiers: macros of the same file (through `lookup`) and linux/sizes.h's SZ_1 .. SZ_1G (and beyond).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace fputune {

struct CValue {
    bool known = false;  // false: `why` says what could not be evaluated
    std::int64_t value = 0;  // meaningful when known
    bool overflow = false;  // a literal or a result beyond 64 bits
    bool octal = false;  // a literal written with a leading 0 (C reads it in base 8)
    std::string why;
};

// What an identifier stands for: its value (itself evaluated), or nullopt when the file does not define it.
// `defined` asks whether the file defines it (nullopt: cannot tell, e.g. CONFIG_X from elsewhere).
struct CNames {
    std::function<CValue(std::string_view)> value;
    std::function<std::optional<bool>(std::string_view)> defined;
};

// linux/sizes.h: SZ_<n>, SZ_<n>K, SZ_<n>M, SZ_<n>G, SZ_<n>T for n a power of two below 1024.
std::optional<std::uint64_t> linux_size_macro(std::string_view name);

// Evaluates `expr`; never throws, never recurses more than kMaxCExprDepth levels.
inline constexpr int kMaxCExprDepth = 64;
CValue evaluate_c_constant(std::string_view expr, const CNames& names);

}  // namespace fputune
