// SPDX-License-Identifier: MIT
// Fuzz target: the sweep file reader (formats/sweep_file.cpp) and the fit of what it accepts.
#include <cstdint>
#include <string>

#include "fit_sweep.hpp"
#include "fuzz_common.hpp"
#include "json_checked.hpp"
#include "model_json.hpp"
#include "render.hpp"
#include "sweep_file.hpp"

using namespace fputune;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    SweepFile f;
    try {
        f = sweep_from_json(jsonc::parse(text, "fuzz.json"), "fuzz.json");
    } catch (const InputError& e) {
        fuzz::refusal(e, "fuzz.json");
        return 0;
    }
    for (const auto& p : f.sections)
        fuzz::expect(std::isfinite(p.ticks.p50) && p.ticks.p50 > 0 && std::isfinite(p.ticks.p90) && p.ticks.p90 > 0 &&
                         p.bytes >= 1,
                     "an accepted section point has positive, finite p50 and p90");
    // Written back, it reads the same.
    const SweepFile again = sweep_from_json(nlohmann::json::parse(to_json(f).dump()), "again.json");
    fuzz::expect(again.sections.size() == f.sections.size() && again.thresholds.size() == f.thresholds.size(),
                 "a round trip keeps every point");
    try {
        const ModelFile m = fit_sweep(f, "fuzz.json");
        fuzz::sane_model(m);
        fuzz::no_nan(render_fit(m), "fit's table", text);
    } catch (const InputError& e) {
        fuzz::refusal(e, "fuzz.json");
    }
    return 0;
}
