// SPDX-License-Identifier: MIT
// The date every file carries; version and commit are generated into version.cpp at build time.
#include "provenance.hpp"
#include "provenance_json.hpp"

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

nlohmann::json provenance_json(const std::string& schema, const std::string& version, const std::string& commit,
                               const std::optional<std::string>& date) {
    nlohmann::json j;
    j["schema"] = schema;
    j["tool"] = {{"name", "fputune"}, {"version", version}, {"commit", commit}};
    if (date) j["date"] = *date;
    return j;
}

nlohmann::json provenance_now(const std::string& schema) {
    return provenance_json(schema, tool_version(), tool_commit(), utc_now_iso8601());
}

}  // namespace fputune
