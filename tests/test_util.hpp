// SPDX-License-Identifier: MIT
// What the kernel tests share: hex, deterministic random bytes, a kernel's output one-shot or cut into
// sections as the glue loop cuts it, and the registration of one test case per kernel.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "cpu.hpp"
#include "kernel.hpp"
#include "registry.hpp"

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
    for (std::size_t i = 0; i + 1 < h.size(); i += 2)
        v.push_back(static_cast<std::uint8_t>(std::stoul(h.substr(i, 2), nullptr, 16)));
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

// The glue loop's view of a request: init, then one section (run_section: blocks(), or a cipher's crypt())
// of each size in sections_blocks (whole blocks), then final() on the rest (whole blocks and a tail). A
// cipher's output is every section's destination, then final's; one that steals from the last whole block
// (final_min_bytes) gets that block back from the sections when the message has a partial one.
inline std::string sectioned_hex(const Kernel& k, const std::vector<std::uint8_t>& key, const std::uint8_t* data,
                                 std::size_t len, std::vector<std::size_t> sections_blocks) {
    alignas(kCtxAlign) std::uint8_t ctx[kMaxCtxBytes];
    const std::size_t b = k.block_bytes;
    if (len % b && k.final_min_bytes) {
        std::size_t covered = 0;
        for (std::size_t nb : sections_blocks) covered += nb * b;
        for (auto it = sections_blocks.rbegin(); it != sections_blocks.rend() && len - covered < k.final_min_bytes;
             ++it)
            for (; *it && len - covered < k.final_min_bytes; --*it) covered -= b;
    }
    k.init(ctx, key.empty() ? nullptr : key.data());
    std::vector<std::uint8_t> out(k.out_bytes + (is_cipher(k) ? len : 0));
    std::size_t off = 0;
    for (std::size_t nb : sections_blocks) {
        run_section(k, ctx, data + off, is_cipher(k) ? out.data() + off : nullptr, nb);
        off += nb * b;
    }
    k.final(ctx, data + off, len - off, is_cipher(k) ? out.data() + off : out.data());
    return to_hex(out);
}

// Random sections of a request of nblocks whole blocks, as the glue loop makes them with any FPU limit:
// each of 0..max_blocks blocks (empty ones included). With stop_one_in > 0 the loop stops early with that
// odds before each section, leaving whole blocks to final().
inline std::vector<std::size_t> random_sections(std::size_t nblocks, std::mt19937_64& rng, std::size_t max_blocks,
                                                unsigned stop_one_in = 0) {
    std::vector<std::size_t> sections;
    while (nblocks && !(stop_one_in && rng() % stop_one_in == 0)) {
        const std::size_t n = rng() % ((nblocks < max_blocks ? nblocks : max_blocks) + 1);
        sections.push_back(n);
        nblocks -= n;
    }
    return sections;
}

// What the tests may run: the usable features, less those FPUTUNE_DISABLE masks (as the CLI's --disable),
// so that every fallback is tested on one machine: FPUTUNE_DISABLE=avx512f ctest.
inline FeatureSet test_usable_features() {
    static const FeatureSet masked = [] {
        const char* env = std::getenv("FPUTUNE_DISABLE");
        return env && *env ? close_mask(parse_feature_list(env)) : FeatureSet{0};
    }();
    return usable_features() & ~masked;
}

// Runs body(k) as one Catch2 test case per kernel that `which` accepts, named "<kernel>: <what>" and
// tagged [<kernel>][<algorithm>] plus `tags`: `ctest -R '^poly1305-avx2:'` or `fputune_tests
// '[poly1305-avx2]'` runs one kernel alone, and every failure names its kernel. A kernel the CPU lacks,
// or FPUTUNE_DISABLE masks, is skipped visibly: the test prints "SKIPPED: <kernel> ..." and nothing else,
// which ctest reports as skipped (SKIP_REGULAR_EXPRESSION in tests/CMakeLists.txt).
class PerKernel {
public:
    using Body = void (*)(const Kernel&);
    using Which = bool (*)(const Kernel&);
    PerKernel(const char* what, const char* tags, Which which, Body body) {
        for (const Kernel* k : all_kernels()) {
            if (!which(*k)) continue;
            // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on chains of string operator+.
            std::string name = k->name, all_tags = "[";
            name.append(": ").append(what);
            all_tags.append(k->name).append("][").append(k->algorithm).append("]").append(tags);
            Catch::AutoReg(new Invoker(k, body), Catch::SourceLineInfo(__FILE__, static_cast<std::size_t>(__LINE__)),
                           Catch::StringRef(), Catch::NameAndTags{name, all_tags});
        }
    }
    static bool all(const Kernel&) { return true; }
    static bool ours(const Kernel& k) { return !is_peer(k); }

private:
    struct Invoker : Catch::ITestInvoker {
        const Kernel* k;
        Body body;
        Invoker(const Kernel* kernel, Body b) : k(kernel), body(b) {}
        void invoke() const override {
            if (const FeatureSet missing = missing_features(*k, test_usable_features())) {
                const bool masked = (missing & ~usable_features()) == 0;
                WARN("SKIPPED: " << k->name << " needs " << feature_list_string(missing)
                                 << (masked ? ", masked by FPUTUNE_DISABLE" : ", which this CPU lacks"));
                return;
            }
            body(*k);
        }
    };
};

}  // namespace fputune::test
