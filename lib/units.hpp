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
std::vector<std::uint64_t> parse_size_list(std::string_view text, std::uint64_t max_bytes, std::string_view option = "--sizes");

// Seconds from "30us", "30µs", "0.5ms", "20000ns", "1s" (a unit is required; must be > 0 and finite).
double parse_duration_s(std::string_view text, std::string_view option = "--budget");
// Hertz from "1GHz", "2200MHz", "2.2e9Hz" (a unit is required; must be > 0 and finite).
double parse_frequency_hz(std::string_view text, std::string_view option = "--min-freq");

std::string format_size(std::uint64_t bytes);   // "64", "1 KiB", "12.5 KiB", "1 MiB"
std::string format_duration(double seconds);    // "29.6 us", "1.20 ms"
std::string format_frequency(double hz);        // "1 GHz", "2.2 GHz"

}  // namespace fputune
