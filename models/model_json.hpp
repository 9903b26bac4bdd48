// SPDX-License-Identifier: MIT
// The fputune.model/2 file: a ModelFile as JSON and back (and /1, in ticks, read and converted).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "model.hpp"

namespace fputune {

nlohmann::json to_json(const ModelFile& m);
// Throws std::runtime_error naming `source` and what is wrong (schema, version, fields).
ModelFile model_from_json(const nlohmann::json& j, const std::string& source);

}  // namespace fputune
