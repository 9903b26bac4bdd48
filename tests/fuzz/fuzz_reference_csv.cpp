// SPDX-License-Identifier: MIT
// Fuzz target: the reference CSV reader (models/reference_csv.cpp).
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"
#include "model_json.hpp"
#include "reference_csv.hpp"

using namespace fputune;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const ModelFile m = read_reference_csv(text, "fuzz.csv");
        fuzz::sane_model(m);
        for (const auto& cm : m.models) fuzz::expect(cm.p50.b > 0, "a reference point has a positive cost per byte");
    } catch (const InputError& e) {
        fuzz::refusal(e, "fuzz.csv");
    }
    return 0;
}
