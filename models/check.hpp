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
