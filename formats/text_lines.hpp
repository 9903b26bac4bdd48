// SPDX-License-Identifier: MIT
// Text files other machines wrote (reference CSVs, headers), cut into bounded lines without std::regex.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "errors.hpp"

namespace fputune {

// The text after a UTF-8 byte order mark, if it starts with one.
inline std::string_view without_bom(std::string_view text) {
    return text.substr(0, 3) == "\xEF\xBB\xBF" ? text.substr(3) : text;
}

// The lines of `text` ('\n'; a trailing '\r' dropped), after a byte order mark. A line longer than
// max_bytes is refused with InputError "source:N: a line of B bytes, more than M": no reader walks an
// unbounded line (a 40 000-character line once overflowed the stack of std::regex).
inline std::vector<std::string_view> text_lines(std::string_view text, const std::string& source,
                                                std::size_t max_bytes = 4096) {
    text = without_bom(text);
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const auto nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.size() > max_bytes)
            throw InputError(fmt::format("{}:{}: a line of {} bytes, more than {}; not a file fputune reads", source,
                                         lines.size() + 1, line.size(), max_bytes));
        lines.push_back(line);
    }
    return lines;
}

inline std::string_view trim(std::string_view s) {
    const auto b = s.find_first_not_of(" \t\r\n\f\v");
    if (b == std::string_view::npos) return {};
    return s.substr(b, s.find_last_not_of(" \t\r\n\f\v") - b + 1);
}

// A name as kernels, algorithms and ISAs are spelt: 1..64 of letters, digits, '.', '_', '+', '-'.
// Names become parts of C macros, table columns and JSON: nothing else (no spaces, no bytes that are
// not ASCII) may pass.
inline bool is_plain_name(std::string_view s) {
    return !s.empty() && s.size() <= 64 &&
           s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-") ==
               std::string_view::npos;
}

// Printable ASCII for a message: other bytes as \xNN, at most `max` characters.
inline std::string printable(std::string_view s, std::size_t max = 60) {
    std::string out;
    for (char c : s.substr(0, max)) {
        const auto u = static_cast<unsigned char>(c);
        out += u >= 0x20 && u < 0x7f ? std::string(1, c) : fmt::format("\\x{:02x}", u);
    }
    if (s.size() > max) out += "...";
    return out;
}

}  // namespace fputune
