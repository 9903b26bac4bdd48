// SPDX-License-Identifier: MIT
// `check`: do the constants of a header (ours or hand-written) meet a time budget on the measured machines?
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "recommend.hpp"

namespace fputune {

struct HeaderConstant {
    std::string name;
    std::uint64_t value = 0;
    int line = 0;
};

// Every `#define NAME VALUE` with an integer value (decimal or hex, optional U/L suffixes, optional
// parentheses), read as C reads it: comments and string literals skipped, line splices joined,
// definitions under #if 0 (or another branch known not to be taken) ignored, #undef honoured. Other
// defines are listed in `skipped` as "NAME (line N): why". A limit (a name ending in _FPU_BYTES or
// _SIMD_MIN_BYTES) of 0, written with a leading 0 (octal in C) or beyond 64 bits, and any macro
// defined twice with different values, are refused: InputError "source:line: ...". Lines are at most
// kMaxHeaderLineBytes long.
inline constexpr std::size_t kMaxHeaderLineBytes = 16384;
std::vector<HeaderConstant> parse_header_constants(const std::string& text, std::vector<std::string>& skipped,
                                                   const std::string& source = "header");

struct CheckResult {
    HeaderConstant constant;
    std::string target;  // the kernel or algorithm it limits
    bool is_algorithm = false;
    std::string kernel, machine;  // where the predicted time is longest
    Cache cache = Cache::cold;
    double time_s = 0;
    bool pass = false;
    std::string note;
};

struct CheckReport {
    std::vector<CheckResult> results;
    std::vector<std::string> notes;
    bool all_pass() const;
};

// Maps FPUTUNE_<KERNEL>_FPU_BYTES and FPUTUNE_<ALGORITHM>_FPU_BYTES (the FPUTUNE_ prefix optional) to the
// kernels of the sources and predicts each section at the minimum frequency; an algorithm constant is
// judged on its slowest variant and machine (--per-algorithm selected: on the variant the kernel selects
// on each machine, see selection.hpp). Throws InputError when no constant maps to a kernel.
CheckReport check_header(const std::string& text, const std::string& source, const std::vector<ModelFile>& sources,
                         const RecommendOptions& options);

}  // namespace fputune
