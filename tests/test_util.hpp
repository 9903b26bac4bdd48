// SPDX-License-Identifier: MIT
// Small helpers shared by the tests: hex, deterministic random bytes, a kernel's one-shot output.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "kernel.hpp"

namespace fputune::test {

inline std::string to_hex(const std::uint8_t* p, std::size_t n) {
    static const char* digits = "0123456789abcdef";
    std::string s;
    for (std::size_t i = 0; i < n; ++i) {
        s += digits[p[i] >> 4];
        s += digits[p[i] & 15];
    }
    return s;
}
inline std::string to_hex(const std::vector<std::uint8_t>& v) { return to_hex(v.data(), v.size()); }

inline std::vector<std::uint8_t> from_hex(const std::string& h) {
    std::vector<std::uint8_t> v;
    for (std::size_t i = 0; i + 1 < h.size(); i += 2) v.push_back(static_cast<std::uint8_t>(std::stoul(h.substr(i, 2), nullptr, 16)));
    return v;
}

inline std::vector<std::uint8_t> random_bytes(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<std::uint8_t> v(n);
    for (auto& b : v) b = static_cast<std::uint8_t>(rng());
    return v;
}

// One-shot output of a kernel as hex (key may be empty for unkeyed kernels); a cipher's is its output
// and tag.
inline std::string digest_hex(const Kernel& k, const std::vector<std::uint8_t>& key, const std::uint8_t* data,
                              std::size_t len) {
    std::vector<std::uint8_t> out(k.out_bytes + (is_cipher(k) ? len : 0));
    kernel_digest(k, key.empty() ? nullptr : key.data(), data, len, out.data());
    return to_hex(out);
}

}  // namespace fputune::test
