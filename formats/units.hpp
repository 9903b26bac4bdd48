// SPDX-License-Identifier: MIT
// Parsing and printing of quantities with units: sizes (64, 1KiB, 4k), durations (30us), frequencies (1GHz).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fputune {

// Bytes: a positive integer with optional suffix B, K/KB/KiB, M/MB/MiB, G/GiB (all binary: 1KiB = 1K = 1024).
// Throws std::invalid_argument with a message that names the value and what is accepted.
std::uint64_t parse_size(std::string_view text, std::string_view option = "--sizes");
// A comma-separated list of sizes, each in 1 .. max_bytes.
std::vector<std::uint64_t> parse_size_list(std::string_view text, std::uint64_t max_bytes,
                                           std::string_view option = "--sizes");

// Seconds from "30us", "30µs", "0.5ms", "20000ns", "1s" (a unit is required; must be > 0 and finite).
double parse_duration_s(std::string_view text, std::string_view option = "--budget");
// Hertz from "1GHz", "2200MHz", "2.2e9Hz" (a unit is required; must be > 0 and finite).
double parse_frequency_hz(std::string_view text, std::string_view option = "--min-freq");

// What a budget and a minimum frequency can sensibly be: a kernel section of 100 ns .. 1 s, a core
// clock of 1 MHz .. 10 GHz. Outside that a value is a typo (1e-9GHz, 30s for 30us) far more often than
// a plan, and the limits it gives are nonsense (0 B, or more than any sweep measured).
inline constexpr double kMinPlausibleBudgetS = 100e-9, kMaxPlausibleBudgetS = 1;
inline constexpr double kMinPlausibleFreqHz = 1e6, kMaxPlausibleFreqHz = 10e9;
// Throw std::invalid_argument naming the value, the range, and that --force accepts it anyway.
void check_plausible_budget(double seconds, std::string_view option = "--budget");
void check_plausible_min_freq(double hz, std::string_view option = "--min-freq");

// Never "nan" or "inf": a value that is not finite prints as "unknown" or "unbounded".
std::string format_size(std::uint64_t bytes);  // "64", "1 KiB", "12.5 KiB", "1 MiB"
std::string format_duration(double seconds);  // "29.6 us", "1.20 ms", "0.5 ns"
std::string format_frequency(double hz);  // "1 GHz", "2.2 GHz"

}  // namespace fputune
