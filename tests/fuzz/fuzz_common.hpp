// SPDX-License-Identifier: MIT
// What every fuzz target checks beyond "no crash": a refusal is one line naming the input; whatever a
// reader accepts is finite, writes back as valid JSON (strict UTF-8) and prints no NaN or infinity.
#pragma once

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "errors.hpp"
#include "model.hpp"
#include "model_json.hpp"

namespace fputune::fuzz {

[[noreturn]] inline void broken(const std::string& what) {
    std::fprintf(stderr, "fuzz invariant broken: %s\n", what.c_str());
    std::abort();
}
inline void expect(bool ok, const std::string& what) {
    if (!ok) broken(what);
}

// A refusal: one line that names the input (every reader prefixes its source).
inline void refusal(const std::exception& e, std::string_view source) {
    const std::string_view m = e.what();
    expect(!m.empty() && m.find('\n') == std::string_view::npos, "a refusal is one line: " + std::string(m));
    expect(m.find(source) != std::string_view::npos, "a refusal names the input: " + std::string(m));
}

// "nan" or "inf" as a word of its own (what printf and fmt make of a value that is not finite).
inline bool has_word(std::string_view text, std::string_view word) {
    for (std::size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
        const bool before = at > 0 && std::isalnum(static_cast<unsigned char>(text[at - 1]));
        const bool after =
            at + word.size() < text.size() && std::isalnum(static_cast<unsigned char>(text[at + word.size()]));
        if (!before && !after) return true;
    }
    return false;
}

// Text meant for a person prints no "nan" or "inf" where a number belongs. The input's own words
// (a kernel named "inf", a date "2026-11-inf") are echoed as given, so a word the input holds is not
// held against the output.
inline void no_nan(const std::string& text, const std::string& where, std::string_view input) {
    for (std::string_view bad : {"nan", "inf"})
        if (has_word(text, bad) && !has_word(input, bad)) {
            const auto at = text.find(bad);
            broken(where + " prints '" + std::string(bad) + "': " + text.substr(at > 60 ? at - 60 : 0, 120));
        }
}

inline void finite_line(const LineFit& f, const std::string& what) {
    for (double v : {f.a, f.b, f.a_lo, f.a_hi, f.b_lo, f.b_hi, f.r2, f.max_rel_residual})
        expect(std::isfinite(v), what + ": a line with a value that is not finite");
}

inline void sane_model(const ModelFile& m) {
    expect(std::isfinite(m.core_per_tsc) && m.core_per_tsc > 0, "core_per_tsc finite and > 0");
    for (const auto& k : m.kernels) expect(k.block_bytes >= 1, "block_bytes >= 1 for " + k.name);
    for (const auto& cm : m.models) {
        finite_line(cm.p50, cm.kernel + " p50");
        finite_line(cm.p90, cm.kernel + " p90");
        finite_line(cm.p99, cm.kernel + " p99");
    }
    // Whatever was accepted writes back as JSON (strict UTF-8).
    (void)to_json(m).dump();
}

}  // namespace fputune::fuzz
