// SPDX-License-Identifier: MIT
// Fuzz target: the header reader of `check` (models/check.cpp), judged against a fixed reference model.
#include <cstdint>
#include <string>

#include "check.hpp"
#include "fuzz_common.hpp"
#include "reference_csv.hpp"
#include "render.hpp"

using namespace fputune;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::vector<ModelFile> sources = {read_reference_csv(
        "# Intel Test Lake at 2 "
        "GHz\nalgorithm,bytes,cycles_per_op\ncrc32c,4096,695\nsha256-avx2,4096,21179\nsha512-avx2,4096,14584\n",
        "reference.csv")};
    const std::string text(reinterpret_cast<const char*>(data), size);
    RecommendOptions o;
    o.question.budget_s = 30e-6;
    try {
        std::vector<std::string> skipped;
        for (const auto& c : parse_header_constants(text, skipped, "fuzz.h"))
            fuzz::expect(c.line >= 1, "a constant has a line");
        const CheckReport report = check_header(text, "fuzz.h", sources, o);
        for (const auto& r : report.results) {
            fuzz::expect(r.constant.value > 0, "a judged limit is > 0");
            fuzz::expect(std::isfinite(r.time_s), "a judged limit's time is finite");
        }
        fuzz::no_nan(render_check(report, "fuzz.h", sources, o), "check's table", text);
    } catch (const InputError& e) {
        fuzz::refusal(e, "fuzz.h");
    }
    return 0;
}
