// SPDX-License-Identifier: MIT
// Reads the integer constants of a C header as the preprocessor would: every `#define NAME EXPR` whose
// EXPR is an integer constant expression (c_constant.hpp), and every #if/#ifdef/#ifndef/#elif/#else whose
// condition the file alone cannot decide (CONFIG_X, an include guard) taken as alternatives: each branch
// is read on its own, so a name defined once in each is not "defined twice".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fputune {

struct HeaderConstant {
    std::string name;
    std::uint64_t value = 0;
    int line = 0;
    std::string branch;  // "" outside undecided conditionals; else which: "#ifdef CONFIG_X (line 3)"
};

// Ours: FPUTUNE_<...>, or a name ending in _FPU_BYTES or _SIMD_MIN_BYTES (the prefix is optional).
bool is_named_constant(std::string_view name);

// The constants, in the order of the file. Comments and string literals are skipped, line splices joined,
// definitions in a branch known not to be taken (#if 0, #else of #if 1) ignored, #undef honoured. Other
// defines are listed in `skipped` as "NAME (line N): why". Refused with InputError "source:line: ...":
// a named constant (is_named_constant) whose value cannot be evaluated; a limit (a name ending in
// _FPU_BYTES or _SIMD_MIN_BYTES) of 0 or less, beyond 64 bits, or written with a leading 0 (octal in C);
// any macro defined twice with different values where both can be in force. Lines are at most
// kMaxHeaderLineBytes long.
inline constexpr std::size_t kMaxHeaderLineBytes = 16384;
std::vector<HeaderConstant> parse_header_constants(const std::string& text, std::vector<std::string>& skipped,
                                                   const std::string& source = "header");

}  // namespace fputune
