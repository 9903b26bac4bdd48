// SPDX-License-Identifier: MIT
// The head every JSON document we write starts with, written in one place: "schema", "tool" (name,
// version, commit) and, where the document has one, "date".
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "provenance.hpp"

namespace fputune {

// {"schema": schema, "tool": {"name": "fputune", "version": .., "commit": ..}, "date": date}; no "date" when
// the document has none (nullopt).
nlohmann::json provenance_json(const std::string& schema, const std::string& version, const std::string& commit,
                               const std::optional<std::string>& date);
// The same for this tool, now.
nlohmann::json provenance_now(const std::string& schema);

}  // namespace fputune
