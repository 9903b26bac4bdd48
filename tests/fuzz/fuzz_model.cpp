// SPDX-License-Identifier: MIT
// Fuzz target: the model file reader (models/model_json.cpp).
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"
#include "json_checked.hpp"
#include "model_json.hpp"
#include "render.hpp"

using namespace fputune;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    ModelFile m;
    try {
        m = model_from_json(jsonc::parse(text, "fuzz.json"), "fuzz.json");
    } catch (const InputError& e) {
        fuzz::refusal(e, "fuzz.json");
        return 0;
    }
    fuzz::sane_model(m);
    fuzz::no_nan(render_fit(m), "fit's table of a model file", text);
    return 0;
}
