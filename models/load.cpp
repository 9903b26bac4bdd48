// SPDX-License-Identifier: MIT
// Every input `recommend`, `check` and `fit` take, told apart by content.
#include "load.hpp"

#include <stdexcept>

#include "atomic_file.hpp"
#include "fit_sweep.hpp"
#include "kernel_globs.hpp"
#include "model_json.hpp"
#include "reference_csv.hpp"

namespace fputune {

using nlohmann::json;

ModelFile load_models(const std::string& path, const std::vector<std::string>& kernel_globs) {
    const std::string text = read_file(path);
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && text[first] == '{') {
        json j;
        try {
            j = json::parse(text);
        } catch (const json::parse_error& e) {
            throw std::runtime_error(path + ": not valid JSON (truncated, or not a sweep/model file?): " + e.what());
        }
        if (!j.is_object() || !j.contains("schema") || !j["schema"].is_string())
            throw std::runtime_error(path + ": JSON without a \"schema\" field; expected a sweep (" + kSweepSchema + ") or model (" +
                                     kModelSchema + ") file");
        const std::string schema = j["schema"].get<std::string>();
        if (schema.rfind("fputune.sweep/", 0) == 0) return fit_sweep(sweep_from_json(j, path), path, kernel_globs);
        if (schema.rfind("fputune.model/", 0) == 0) {
            ModelFile m = model_from_json(j, path);
            filter_kernels(m, kernel_globs);
            return m;
        }
        throw std::runtime_error(path + ": schema '" + schema + "' is neither a sweep (" + kSweepSchema + ") nor a model (" +
                                 kModelSchema + ") file");
    }
    if (text.find(kReferenceCsvHeader) != std::string::npos) {
        ModelFile m = read_reference_csv(text, path);
        filter_kernels(m, kernel_globs);
        return m;
    }
    throw std::runtime_error(path + ": neither a sweep/model JSON file (with a \"schema\" field) nor a reference CSV with the header '" +
                             kReferenceCsvHeader + "'");
}

}  // namespace fputune
