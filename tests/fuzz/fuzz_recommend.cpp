// SPDX-License-Identifier: MIT
// Fuzz target: recommend on any input it reads (sweep, model or reference CSV), with the options taken
// from the first bytes: the budget solver, the merge, the table, the JSON and the header.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "fuzz_common.hpp"
#include "header.hpp"
#include "load.hpp"
#include "recommend.hpp"
#include "recommendation_json.hpp"
#include "render.hpp"

using namespace fputune;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 4) return 0;
    // Byte 0: rounding, cache, quantile; byte 1: the budget (10 ns .. 10^6 s, log scale: --force reaches
    // it too); byte 2: the minimum frequency (1 Hz .. 10^12 Hz); byte 3: the margin (1 .. 3.55).
    RecommendOptions o;
    o.round = data[0] % 3 == 0 ? Round::block : data[0] % 3 == 1 ? Round::kib : Round::pow2;
    o.question.cache = data[0] & 4 ? Cache::hot : Cache::cold;
    o.question.quantile = data[0] & 8 ? Quantile::p90 : Quantile::p99;
    o.question.budget_s = std::pow(10.0, -8 + 14.0 * data[1] / 255);
    o.question.min_freq_hz = std::pow(10.0, 12.0 * data[2] / 255);
    o.question.margin = 1 + data[3] / 100.0;
    const std::string text(reinterpret_cast<const char*>(data + 4), size - 4);
    try {
        const std::vector<ModelFile> sources = {models_from_text(text, "fuzz.in")};
        const Recommendation r = recommend(sources, o);
        for (const auto& row : r.variants) {
            const VariantResult& v = row.bound;
            fuzz::expect(std::isfinite(v.one_block_s) && std::isfinite(v.unrounded_bytes),
                         "finite times and sizes for " + v.kernel);
            if (v.fits) {
                fuzz::expect(std::isfinite(v.time_s) && v.time_s <= effective_budget_s(o.question) * (1 + 1e-9),
                             "a limit fits the budget: " + v.kernel);
                fuzz::expect(v.bytes % v.block_bytes == 0, "a limit is whole blocks: " + v.kernel);
            }
        }
        fuzz::no_nan(render_table(r), "recommend's table", text);
        (void)to_json(r).dump();  // strict UTF-8
        fuzz::no_nan(render_header(r, "limits.h"), "the header", text);
    } catch (const InputError& e) {
        fuzz::refusal(e, "fuzz.in");
    }
    return 0;
}
