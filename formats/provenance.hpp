// SPDX-License-Identifier: MIT
// Who wrote a file and when: the tool's version and commit, and the current UTC time.
#pragma once

#include <string>

namespace fputune {

const char* tool_version() noexcept;  // generated at build time (version.cmake)
const char* tool_commit() noexcept;
std::string utc_now_iso8601();

}  // namespace fputune
