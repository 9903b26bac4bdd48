// SPDX-License-Identifier: MIT
// The date every file carries; version and commit are generated into version.cpp at build time.
#include "provenance.hpp"

#include <ctime>

namespace fputune {

std::string utc_now_iso8601() {
    std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

}  // namespace fputune
