// SPDX-License-Identifier: MIT
// Reading JSON files that other machines wrote: every field range-checked before it is converted.
//
// A number is refused, with the field's path in the message ("sections[12].bytes: 1e+300 is above
// 1073741824"), when it is not finite, does not fit the field's type, or is not positive where it
// must be; it is never converted with a wrap or undefined behaviour (1e300, -1 or 4294967296 into an
// unsigned field). Used by the sweep file reader; new fields use the same helpers.
#pragma once

#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "errors.hpp"
#include "text_lines.hpp"

namespace fputune::jsonc {

using nlohmann::json;

// A field that is missing, of the wrong type or out of range. The message starts with its path.
struct FieldError : InputError {
    using InputError::InputError;
};

// Where a value sits in its file, for messages: "sections[12].ticks.p50".
class Path {
public:
    Path() = default;
    explicit Path(std::string s) : s_(std::move(s)) {}
    Path operator/(std::string_view key) const {
        return Path(s_.empty() ? std::string(key) : s_ + "." + std::string(key));
    }
    Path operator[](std::size_t i) const { return Path(fmt::format("{}[{}]", s_, i)); }
    const std::string& str() const { return s_; }

private:
    std::string s_;
};

// The value as the message quotes it: short, and printable whatever it holds.
inline std::string quote(const json& v) {
    std::string s = v.dump(-1, ' ', true, json::error_handler_t::replace);
    if (s.size() > 40) s = s.substr(0, 37) + "...";
    return s;
}

// What a reader expects of a file's "schema" field, for check_schema().
struct SchemaSpec {
    std::string_view family;  // "fputune.sweep/"
    std::string_view current;  // the schema this fputune writes: "fputune.sweep/1"
    int newest;  // the highest version it reads
    std::string_view file;  // "sweep file", in "not an fputune sweep file"
    std::string_view not_a;  // "a sweep", in "... is not a sweep"
    std::string_view expected;  // "expected schema " or "expected ", before `current` when the field is missing
    std::string_view writer;  // "fputune sweep"
};

// The file's schema version, or an InputError "<source>: ..." that says what was expected.
inline int check_schema(const json& j, const std::string& source, const SchemaSpec& s) {
    auto fail = [&](const std::string& why) { return InputError(source + ": " + why); };
    const std::string current(s.current);
    if (!j.is_object() || !j.contains("schema") || !j["schema"].is_string())
        throw fail(fmt::format("not an fputune {} (no \"schema\" field); {}{}, as written by `{}`", s.file, s.expected,
                               current, s.writer));
    const std::string schema = j["schema"].get<std::string>();
    if (schema.size() > 64)
        throw fail("\"schema\" is " + quote(j["schema"]) + ", not a schema name (expected " + current + ")");
    if (schema.rfind(s.family, 0) != 0)
        throw fail(fmt::format("schema '{}' is not {} (expected {})", printable(schema), s.not_a, current));
    const std::string digits = schema.substr(s.family.size());
    if (digits.empty() || digits.size() > 4 || digits.find_first_not_of("0123456789") != std::string::npos)
        throw fail("schema '" + printable(schema) + "' has no version number (expected " + current + ")");
    const int version = std::stoi(digits);
    if (version > s.newest)
        throw fail("schema '" + printable(schema) + "' is newer than this fputune understands (" + current +
                   "); update fputune");
    if (version < 1)
        throw fail("schema '" + printable(schema) + "' is not a version this fputune reads (" + current + ")");
    return version;
}

[[noreturn]] inline void fail(const Path& at, const std::string& why) {
    throw FieldError(fmt::format("{}: {}", at.str().empty() ? "(top level)" : at.str(), why));
}

// Parses a whole file's text. Syntax errors, numbers beyond double (1e999) and nesting deeper than
// max_depth (which would make printing it recurse without bound) become one InputError naming `source`.
// A UTF-8 byte order mark is skipped.
inline json parse(std::string_view text, const std::string& source, int max_depth = 64) {
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    try {
        return json::parse(text, [max_depth](int depth, json::parse_event_t, json&) {
            if (depth > max_depth) throw InputError(fmt::format("nested deeper than {} levels", max_depth));
            return true;
        });
    } catch (const json::parse_error& e) {
        throw InputError(fmt::format("{}: not valid JSON (truncated, or not an fputune file?): {}", source, e.what()));
    } catch (const json::exception& e) {
        throw InputError(fmt::format("{}: not valid JSON: {}", source, e.what()));
    } catch (const InputError& e) {
        throw InputError(fmt::format("{}: not an fputune file: {}", source, e.what()));
    }
}

// The member `key` of the object `obj`: FieldError when obj is not an object or has no such member.
inline const json& member(const json& obj, std::string_view key, const Path& at) {
    if (!obj.is_object()) fail(at, fmt::format("{} is not an object", quote(obj)));
    const auto it = obj.find(key);
    if (it == obj.end()) fail(at / key, "missing");
    return *it;
}
// nullptr when absent or null.
inline const json* optional_member(const json& obj, std::string_view key, const Path& at) {
    if (!obj.is_object()) fail(at, fmt::format("{} is not an object", quote(obj)));
    const auto it = obj.find(key);
    return it == obj.end() || it->is_null() ? nullptr : &*it;
}

inline const json& object(const json& v, const Path& at) {
    if (!v.is_object()) fail(at, fmt::format("{} is not an object", quote(v)));
    return v;
}
inline const json& array(const json& v, const Path& at) {
    if (!v.is_array()) fail(at, fmt::format("{} is not an array", quote(v)));
    return v;
}

// A finite number within [lo, hi].
inline double real(const json& v, const Path& at, double lo = -std::numeric_limits<double>::max(),
                   double hi = std::numeric_limits<double>::max()) {
    if (!v.is_number()) fail(at, fmt::format("{} is not a number", quote(v)));
    const double d = v.get<double>();
    if (!std::isfinite(d)) fail(at, fmt::format("{} is not finite", quote(v)));
    if (d < lo) fail(at, fmt::format("{} is below {}", quote(v), lo));
    if (d > hi) fail(at, fmt::format("{} is above {}", quote(v), hi));
    return d;
}
// A finite number > 0 (and <= hi).
inline double positive(const json& v, const Path& at, double hi = std::numeric_limits<double>::max()) {
    const double d = real(v, at, -std::numeric_limits<double>::max(), hi);
    if (!(d > 0)) fail(at, fmt::format("{} is not > 0", quote(v)));
    return d;
}

// A whole number within [lo, hi] and the type T: 4096 and 4096.0 are accepted; -1, 1.5, 1e300 and
// 4294967296 (for a 32-bit field) are not.
template <std::integral T>
T integer(const json& v, const Path& at, T lo = std::numeric_limits<T>::min(), T hi = std::numeric_limits<T>::max()) {
    auto check_u = [&](std::uint64_t u) {
        if (u > static_cast<std::uint64_t>(hi)) fail(at, fmt::format("{} is above {}", u, hi));
        if (lo > 0 && u < static_cast<std::uint64_t>(lo)) fail(at, fmt::format("{} is below {}", u, lo));
        return static_cast<T>(u);
    };
    if (v.is_number_unsigned()) return check_u(v.get<std::uint64_t>());
    if (v.is_number_integer()) {
        const std::int64_t i = v.get<std::int64_t>();
        if (i >= 0) return check_u(static_cast<std::uint64_t>(i));
        if (std::is_unsigned_v<T> || i < static_cast<std::int64_t>(lo)) fail(at, fmt::format("{} is below {}", i, lo));
        return static_cast<T>(i);
    }
    if (v.is_number_float()) {
        const double d = v.get<double>();
        if (!std::isfinite(d)) fail(at, fmt::format("{} is not finite", quote(v)));
        if (d != std::floor(d)) fail(at, fmt::format("{} is not a whole number", quote(v)));
        // Compare in double before converting: beyond the type's range the conversion is undefined.
        if (d < static_cast<double>(lo)) fail(at, fmt::format("{} is below {}", quote(v), lo));
        if (d > static_cast<double>(hi) || d >= 9007199254740992.0)
            fail(at, fmt::format("{} is above {}", quote(v), hi));
        return static_cast<T>(d);
    }
    fail(at, fmt::format("{} is not a number", quote(v)));
}

inline std::string string(const json& v, const Path& at, std::size_t max_bytes = 4096) {
    if (!v.is_string()) fail(at, fmt::format("{} is not a string", quote(v)));
    const auto& s = v.get_ref<const std::string&>();
    if (s.size() > max_bytes) fail(at, fmt::format("a string of {} bytes, more than {}", s.size(), max_bytes));
    return s;
}

inline bool boolean(const json& v, const Path& at) {
    if (!v.is_boolean()) fail(at, fmt::format("{} is not true or false", quote(v)));
    return v.get<bool>();
}

// A name as kernels, algorithms and ISAs are spelt: 1..64 of letters, digits, '.', '_', '+', '-'
// (it becomes part of a C macro and of table columns).
inline std::string name(const json& v, const Path& at) {
    if (!v.is_string() || !is_plain_name(v.get_ref<const std::string&>()))
        fail(at, fmt::format("{} is not a name (1 to 64 letters, digits, '.', '_', '+' or '-')", quote(v)));
    return v.get<std::string>();
}

// A provider: a name, or a name and a version after one space ("linux 6.12.117": the kernel's own code
// built from a tree, kernels/linux).
inline std::string provider(const json& v, const Path& at) {
    const std::string s = string(v, at, 64);
    constexpr std::string_view kNameChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-";
    const std::size_t space = s.find(' ');
    const bool ok = !s.empty() && space != 0 && space + 1 != s.size() &&
                    s.find_first_not_of(kNameChars, space == std::string::npos ? 0 : space + 1) == std::string::npos &&
                    s.substr(0, space).find_first_not_of(kNameChars) == std::string::npos;
    if (!ok)
        fail(at, fmt::format("{} is not a provider (a name of letters, digits, '.', '_', '+' or '-', "
                             "and maybe a version after one space)",
                             quote(v)));
    return s;
}

// One of `allowed`.
inline std::string one_of(const json& v, const Path& at, std::initializer_list<std::string_view> allowed) {
    const std::string s = string(v, at, 64);
    std::string list;
    for (auto a : allowed) {
        if (s == a) return s;
        list += fmt::format("{}{}", list.empty() ? "" : ", ", a);
    }
    throw FieldError(fmt::format("{} '{}' is not one of {}", at.str(), printable(s), list));
}

// The member when present (and not null), else `fallback`; `read` checks it.
template <typename Read>
auto member_or(const json& obj, std::string_view key, const Path& at,
               decltype(std::declval<Read>()(json(), Path())) fallback, Read read) {
    const json* v = optional_member(obj, key, at);
    return v ? read(*v, at / key) : fallback;
}

}  // namespace fputune::jsonc
