// SPDX-License-Identifier: MIT
// `check`: do the constants of a header (ours or hand-written) meet a time budget on the measured machines?
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "header_constants.hpp"  // parse_header_constants
#include "recommend.hpp"

namespace fputune {

struct CheckResult {
    HeaderConstant constant;
    std::string target;  // the kernel or algorithm it limits
    bool is_algorithm = false;
    std::string kernel, machine;  // where the predicted time is longest
    Cache cache = Cache::cold;
    double time_s = 0;
    bool pass = false;
    std::string note;
    // The contention level c its time is judged at (0: as measured, no sensitivity known), and whether the
    // header stated it (a ` *   contention KERNEL CACHE c=...` line; else --contention's level).
    double contention_level = 0;
    bool contention_from_header = false;
};

struct CheckReport {
    std::vector<CheckResult> results;
    std::vector<std::string> notes;
    std::size_t header_levels = 0;  // models moved to the level the header states for them
    bool all_pass() const;
};

// Maps FPUTUNE_<KERNEL>_FPU_BYTES and FPUTUNE_<ALGORITHM>_FPU_BYTES (the FPUTUNE_ prefix optional) to the
// kernels of the sources and predicts each section at the minimum frequency; an algorithm constant is
// judged on its slowest variant and machine (--per-algorithm selected: on the variant the kernel selects
// on each machine, see selection.hpp). Each variant is judged at the contention level the header's comment
// states for it (parse_header_contention, as `verify`), with the sweep's own sensitivity; a variant it states
// none for at the level the sources were loaded at (--contention). Throws InputError when no constant maps
// to a kernel.
CheckReport check_header(const std::string& text, const std::string& source, const std::vector<ModelFile>& sources,
                         const RecommendOptions& options);

// -k chooses what is shown, never what is judged: keeps the results of the kernels the globs name (an algorithm's
// constant where any of its variants is named). Nothing when there are no globs.
void keep_shown(CheckReport& report, const std::vector<ModelFile>& sources, const std::vector<std::string>& globs);

}  // namespace fputune
