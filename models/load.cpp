// SPDX-License-Identifier: MIT
// Every input `recommend`, `check` and `fit` take, told apart by content.
#include "load.hpp"

#include <stdexcept>

#include "atomic_file.hpp"
#include "errors.hpp"
#include "fit_sweep.hpp"
#include "json_checked.hpp"
#include "kernel_globs.hpp"
#include "model_json.hpp"
#include "reference_csv.hpp"
#include "text_lines.hpp"

namespace fputune {

using nlohmann::json;

namespace {

// The file's models as it states them.
ModelFile models_from_source(const std::string& text, const std::string& path,
                             const std::vector<std::string>& kernel_globs, bool as_measured) {
    const std::string_view body = without_bom(text);
    const auto first = body.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && body[first] == '{') {
        const json j = jsonc::parse(body, path);
        if (!j.is_object() || !j.contains("schema") || !j["schema"].is_string())
            throw InputError(path + ": JSON without a \"schema\" field; expected a sweep (" + kSweepSchema +
                             ") or model (" + kModelSchema + ") file");
        const std::string& schema = j["schema"].get_ref<const std::string&>();
        if (schema.rfind("fputune.sweep/", 0) == 0)
            return fit_sweep(sweep_from_json(j, path), path, kernel_globs, as_measured);
        if (schema.rfind("fputune.model/", 0) == 0) {
            ModelFile m = model_from_json(j, path);
            filter_kernels(m, kernel_globs);
            return m;
        }
        throw InputError(path + ": schema '" + printable(schema) + "' is neither a sweep (" + kSweepSchema +
                         ") nor a model (" + kModelSchema + ") file");
    }
    if (body.find(kReferenceCsvHeader) != std::string::npos) {
        ModelFile m = read_reference_csv(text, path);
        filter_kernels(m, kernel_globs);
        return m;
    }
    throw InputError(
        path + ": neither a sweep/model JSON file (with a \"schema\" field) nor a reference CSV with the header '" +
        kReferenceCsvHeader + "'");
}

}  // namespace

ModelFile load_models(const std::string& path, const std::vector<std::string>& kernel_globs,
                      const ContentionTarget& contention) {
    return models_from_text(read_file(path), path, kernel_globs, contention);
}

ModelFile models_from_text(const std::string& text, const std::string& path,
                           const std::vector<std::string>& kernel_globs, const ContentionTarget& contention) {
    ModelFile m = models_from_source(text, path, kernel_globs, contention.kind == ContentionTarget::Kind::as_measured);
    restate_contention(m, contention);
    return m;
}

}  // namespace fputune
