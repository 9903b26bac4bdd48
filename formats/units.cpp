// SPDX-License-Identifier: MIT
// Unit parsing: every mistake gets one message naming the value and what is accepted.
#include "units.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <charconv>
#include <stdexcept>

namespace fputune {

namespace {

// Splits "12.5KiB" into 12.5 and "KiB"; false when there is no leading number.
bool split_number(std::string_view text, double& value, std::string& unit) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
    std::size_t i = 0;
    while (i < text.size() &&
           (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.' || text[i] == '-' || text[i] == '+' ||
            ((text[i] == 'e' || text[i] == 'E') && i > 0 && i + 1 < text.size() &&
             (std::isdigit(static_cast<unsigned char>(text[i + 1])) || text[i + 1] == '-' || text[i + 1] == '+'))))
        ++i;
    if (i == 0) return false;
    std::string number(text.substr(0, i));
    char* end = nullptr;
    value = std::strtod(number.c_str(), &end);
    if (end != number.c_str() + number.size()) return false;
    unit = std::string(text.substr(i));
    while (!unit.empty() && std::isspace(static_cast<unsigned char>(unit.front()))) unit.erase(unit.begin());
    return true;
}

}  // namespace

std::uint64_t parse_size(std::string_view text, std::string_view option) {
    auto bad = [&](const std::string& why) {
        return std::invalid_argument(
            fmt::format("{}: bad size '{}' ({}); accepted: a positive whole number of bytes, "
                        "optionally with B, KiB/K/KB, MiB/M/MB or GiB/G (e.g. 64, 4KiB, 1MiB)",
                        option, text, why));
    };
    double value = 0;
    std::string unit;
    if (!split_number(text, value, unit)) throw bad("not a number");
    std::string u;
    for (char c : unit) u += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    double mult = 0;
    if (u.empty() || u == "b")
        mult = 1;
    else if (u == "k" || u == "kb" || u == "kib")
        mult = 1024.0;
    else if (u == "m" || u == "mb" || u == "mib")
        mult = 1024.0 * 1024;
    else if (u == "g" || u == "gb" || u == "gib")
        mult = 1024.0 * 1024 * 1024;
    else
        throw bad("unknown unit '" + unit + "'");
    if (!std::isfinite(value) || value <= 0) throw bad("must be greater than 0");
    double bytes = value * mult;
    if (bytes != std::floor(bytes)) throw bad("not a whole number of bytes");
    if (bytes > 1e18) throw bad("too large");
    return static_cast<std::uint64_t>(bytes);
}

std::vector<std::uint64_t> parse_size_list(std::string_view text, std::uint64_t max_bytes, std::string_view option) {
    std::vector<std::uint64_t> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t comma = text.find(',', start);
        std::string_view item =
            text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
        std::uint64_t v = parse_size(item, option);
        if (v > max_bytes)
            throw std::invalid_argument(
                fmt::format("{}: size '{}' is above the largest accepted, {}", option, item, format_size(max_bytes)));
        out.push_back(v);
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    return out;
}

double parse_duration_s(std::string_view text, std::string_view option) {
    auto bad = [&](const std::string& why) {
        return std::invalid_argument(
            fmt::format("{}: bad duration '{}' ({}); accepted: a number greater than 0 with a unit "
                        "ns, us (or µs), ms or s, e.g. 30us",
                        option, text, why));
    };
    double value = 0;
    std::string unit;
    if (!split_number(text, value, unit)) throw bad("not a number");
    if (!std::isfinite(value) || value <= 0) throw bad("must be greater than 0");
    double mult = 0;
    if (unit == "ns")
        mult = 1e-9;
    else if (unit == "us" || unit == "µs" || unit == "μs")
        mult = 1e-6;
    else if (unit == "ms")
        mult = 1e-3;
    else if (unit == "s")
        mult = 1;
    else if (unit.empty())
        throw bad("missing unit");
    else
        throw bad("unknown unit '" + unit + "'");
    if (!std::isfinite(value) || value <= 0) throw bad("must be greater than 0");
    if (!std::isfinite(value * mult)) throw bad("too large");
    if (!(value * mult > 0)) throw bad("too small to be told from 0");
    return value * mult;
}

double parse_frequency_hz(std::string_view text, std::string_view option) {
    auto bad = [&](const std::string& why) {
        return std::invalid_argument(
            fmt::format("{}: bad frequency '{}' ({}); accepted: a number greater than 0 with a unit "
                        "Hz, kHz, MHz or GHz, e.g. 1GHz",
                        option, text, why));
    };
    double value = 0;
    std::string unit;
    if (!split_number(text, value, unit)) throw bad("not a number");
    if (!std::isfinite(value) || value <= 0) throw bad("must be greater than 0");
    std::string u;
    for (char c : unit) u += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    double mult = 0;
    if (u == "hz")
        mult = 1;
    else if (u == "khz")
        mult = 1e3;
    else if (u == "mhz")
        mult = 1e6;
    else if (u == "ghz")
        mult = 1e9;
    else if (u.empty())
        throw bad("missing unit");
    else
        throw bad("unknown unit '" + unit + "'");
    if (!std::isfinite(value) || value <= 0) throw bad("must be greater than 0");
    if (!std::isfinite(value * mult)) throw bad("too large");
    if (!(value * mult > 0)) throw bad("too small to be told from 0");
    return value * mult;
}

std::string format_size(std::uint64_t bytes) {
    auto trim = [](std::string s) {
        if (s.find('.') != std::string::npos) {
            while (s.back() == '0') s.pop_back();
            if (s.back() == '.') s.pop_back();
        }
        return s;
    };
    if (bytes >= 1024ull * 1024 * 1024) return trim(fmt::format("{:.1f}", bytes / (1024.0 * 1024 * 1024))) + " GiB";
    if (bytes >= 1024 * 1024) return trim(fmt::format("{:.1f}", bytes / (1024.0 * 1024))) + " MiB";
    if (bytes >= 1024) return trim(fmt::format("{:.1f}", bytes / 1024.0)) + " KiB";
    return fmt::format("{} B", bytes);
}

void check_plausible_budget(double seconds, std::string_view option) {
    if (seconds >= kMinPlausibleBudgetS && seconds <= kMaxPlausibleBudgetS) return;
    throw std::invalid_argument(
        fmt::format("{} {}: outside {} .. {}, where a kernel FPU section can sensibly be bounded; "
                    "check the unit (30us, not 30s), or add --force to use it anyway",
                    option, format_duration(seconds), format_duration(kMinPlausibleBudgetS),
                    format_duration(kMaxPlausibleBudgetS)));
}

void check_plausible_min_freq(double hz, std::string_view option) {
    if (hz >= kMinPlausibleFreqHz && hz <= kMaxPlausibleFreqHz) return;
    throw std::invalid_argument(fmt::format(
        "{} {}: outside {} .. {}, the core clocks CPUs run at; check the unit (1GHz, "
        "not 1Hz), or add --force to use it anyway",
        option, format_frequency(hz), format_frequency(kMinPlausibleFreqHz), format_frequency(kMaxPlausibleFreqHz)));
}

namespace {
const char* not_finite(double v) { return std::isnan(v) ? "unknown" : "unbounded"; }
}  // namespace

std::string format_duration(double s) {
    if (!std::isfinite(s)) return not_finite(s);
    if (s != 0 && std::abs(s) < 1e-9) return fmt::format("{:.3g} ns", s * 1e9);
    if (s < 1e-6) return fmt::format("{:.0f} ns", s * 1e9);
    if (s < 1e-3) return fmt::format("{:.1f} us", s * 1e6);
    if (s < 1) return fmt::format("{:.2f} ms", s * 1e3);
    return fmt::format("{:.2f} s", s);
}

std::string format_frequency(double hz) {
    if (!std::isfinite(hz)) return not_finite(hz);
    if (hz != 0 && std::abs(hz) < 1) return fmt::format("{:.3g} Hz", hz);
    auto trim = [](std::string s) {
        while (s.find('.') != std::string::npos && (s.back() == '0' || s.back() == '.')) {
            bool dot = s.back() == '.';
            s.pop_back();
            if (dot) break;
        }
        return s;
    };
    if (hz >= 1e9) return trim(fmt::format("{:.3f}", hz / 1e9)) + " GHz";
    if (hz >= 1e6) return trim(fmt::format("{:.3f}", hz / 1e6)) + " MHz";
    if (hz >= 1e3) return trim(fmt::format("{:.3f}", hz / 1e3)) + " kHz";
    return trim(fmt::format("{:.3f}", hz)) + " Hz";
}

}  // namespace fputune
