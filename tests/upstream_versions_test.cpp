// SPDX-License-Identifier: MIT
// Upstream per kernel version: the compiled-in tables (one row per algorithm and version, each with its source),
// the shapes that changed from 6.12 to 7.1, and `check --upstream --linux` as a user runs it on the Zen 3 sweep.
#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>

#include <catch2/catch.hpp>

#include "cli_test_util.hpp"
#include "upstream.hpp"

using namespace fputune;
using namespace fputune::cli_test;

namespace {

// The lines of `text` that start with `prefix` (a table row by its first column), joined.
std::string rows_of(const std::string& text, const std::string& prefix) {
    std::string out;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        const std::string line = text.substr(at, end - at);
        if (line.rfind(prefix, 0) == 0) out += line + "\n";
        at = end + 1;
    }
    return out;
}

// The row of `algorithm` in `check --upstream` and the indented line under it that cites its source.
std::string upstream_row(const std::string& text, const std::string& algorithm) {
    const std::size_t at = text.find("\n" + algorithm + " ");
    if (at == std::string::npos) return "";
    const std::size_t end = text.find('\n', text.find('\n', at + 1) + 1);
    return text.substr(at + 1, end - at - 1);
}

}  // namespace

TEST_CASE("upstream versions: the data knows 6.12, 6.15 and 7.1, one row per algorithm and version, each cited",
          "[models][upstream]") {
    CHECK(upstream_versions() == std::vector<std::string>{"6.12", "6.15", "7.1"});
    CHECK(newest_upstream_version() == "7.1");
    CHECK(resolve_linux_version("") == "7.1");
    CHECK(resolve_linux_version("6.12") == "6.12");
    for (const char* bad : {"7.0", "6", "6.12.1", "linux", "v7.1", " 7.1"})
        CHECK_THROWS_WITH(resolve_linux_version(bad), Catch::Contains("knows Linux 6.12, 6.15, 7.1"));
    CHECK(linux_at_least("7.1", "6.15"));
    CHECK_FALSE(linux_at_least("6.12", "6.15"));
    std::map<std::pair<std::string, std::string>, int> rows;  // (algorithm or fputune name, version) -> rows
    for (const UpstreamLimit& u : upstream_limits()) {
        INFO(u.algorithm);
        CHECK_FALSE(u.linux_versions.empty());
        CHECK_FALSE(u.source.empty());
        CHECK_FALSE(u.evidence.empty());
        for (const auto& v : u.linux_versions) {
            if (u.fputune.empty()) ++rows[{u.algorithm, v}];
            for (const auto& n : u.fputune) ++rows[{n, v}];
        }
    }
    for (const auto& [key, n] : rows) {
        INFO(key.first << " in " << key.second);
        CHECK(n == 1);
    }
}

TEST_CASE("upstream versions: GHASH capped in 7.1, XTS uncapped from 6.15, CRCs from 16 B, the new variants",
          "[models][upstream]") {
    CHECK_FALSE(find_upstream_limit("ghash", "6.12")->fpu_chunk_bytes);
    CHECK_FALSE(find_upstream_limit("ghash", "6.15")->fpu_chunk_bytes);
    CHECK(find_upstream_limit("ghash", "7.1")->fpu_chunk_bytes == 4096u);
    CHECK(find_upstream_limit("ghash")->evidence.find("<20260319061723.1140720-15-ebiggers@kernel.org>") !=
          std::string::npos);
    CHECK(find_upstream_limit("aes-256-xts", "6.12")->fpu_chunk_bytes == 4096u);
    for (const char* v : {"6.15", "7.1"}) {
        const UpstreamLimit* xts = find_upstream_limit("aes-256-xts", v);
        CHECK_FALSE(xts->fpu_chunk_bytes);
        CHECK(xts->judged_at_bytes == 4096u);
    }
    CHECK(find_upstream_limit("crc32", "6.12")->simd_min_len == "80");
    CHECK(find_upstream_limit("crc32", "6.15")->simd_min_len == "16");
    CHECK(find_upstream_limit("crct10dif", "7.1")->simd_min_len == "16");
    CHECK_FALSE(find_upstream_limit("crc64", "6.12"));  // no x86 SIMD CRC64 in 6.12
    CHECK(find_upstream_limit("crc64", "6.15")->simd_min_len == "16");
    for (const char* v : {"6.12", "6.15", "7.1"}) CHECK(find_upstream_limit("crc32c", v)->simd_min_len == "512");
    // A kernel's own row wins over its algorithm's: GCM VAES-AVX2 from 6.19, sha256_finup_2x.
    CHECK(find_upstream_limit("aes-256-gcm", "6.12", "aes-256-gcm-vaes-avx2")->absent());
    CHECK(find_upstream_limit("aes-256-gcm", "7.1", "aes-256-gcm-vaes-avx2")->fpu_chunk_bytes == 4096u);
    CHECK_FALSE(find_upstream_limit("aes-256-gcm", "6.12", "aes-256-gcm-aesni-avx")->absent());
    const UpstreamLimit* finup = find_upstream_limit("sha256", "7.1", "sha256-shani-2x");
    CHECK(finup->judged_at_bytes == 65536u);
    CHECK(find_upstream_limit("sha256.x2", "7.1", "sha256-shani-2x.x2") == finup);  // its series, per message
    CHECK(find_upstream_limit("sha256", "6.15", "sha256-shani-2x")->absent());
    CHECK(find_upstream_limit("sha256", "7.1", "sha256-avx2")->algorithm == "sha256");
    // NHPoly1305 chunked at 4 KiB by the 6.12 glue; xor's 6.12 sections of at most 4 sources.
    CHECK(find_upstream_limit("nhpoly1305", "6.12")->fpu_chunk_bytes == 4096u);
    CHECK(find_upstream_limit("xor.x8", "6.12")->sources_per_section == 4u);
    CHECK_FALSE(find_upstream_limit("xor.x8", "7.1")->sources_per_section);
    CHECK(softirq_tail_note("6.12").empty());
    CHECK(softirq_tail_note("6.15").find("kernel_fpu_end()") != std::string::npos);
}

TEST_CASE("CLI check --upstream --linux: 6.12 and 7.1 differ where the shapes do, each row naming its source",
          "[models][upstream][cli]") {
    const std::string zen3 = FPUTUNE_ZEN3_SWEEP;
    const std::string common = " --from " + zen3 + " --budget 30us --min-freq 1GHz";
    const Run old_kernel = run_fputune("check --upstream --linux 6.12" + common);
    const Run new_kernel = run_fputune("check --upstream --linux 7.1" + common);
    const Run default_kernel = run_fputune("check --upstream" + common);
    INFO(old_kernel.out << old_kernel.err << new_kernel.out << new_kernel.err);
    CHECK(old_kernel.rc == 1);  // GCM's AAD is OVER in every version
    CHECK(new_kernel.rc == 1);
    CHECK(default_kernel.out.find("Linux 7.1's x86 glue") != std::string::npos);
    // GHASH: no cap in 6.12 (unbounded), 4096 B in 7.1.
    const std::string ghash_old = upstream_row(old_kernel.out, "ghash"),
                      ghash_new = upstream_row(new_kernel.out, "ghash");
    CHECK(ghash_old.find("unbounded") != std::string::npos);
    CHECK(ghash_new.find("4096 B") != std::string::npos);
    CHECK(ghash_old.find("Linux 6.12: arch/x86/crypto/ghash-clmulni-intel_glue.c") != std::string::npos);
    CHECK(ghash_new.find("Linux 7.1: lib/crypto/x86/gf128hash.h; Biggers 2026") != std::string::npos);
    // XTS: the page cap in 6.12, the whole message from 6.15 (judged at 4096 B, and what would be OVER).
    const std::string xts_old = upstream_row(old_kernel.out, "aes-256-xts"),
                      xts_new = upstream_row(new_kernel.out, "aes-256-xts");
    CHECK(xts_old.find("4096 B ") != std::string::npos);
    CHECK(xts_new.find("none, at 4096 B") != std::string::npos);
    CHECK(xts_new.find("<20250127211609.43938-1-ebiggers@kernel.org>") != std::string::npos);
    CHECK(new_kernel.out.find("uncapped: a section over") != std::string::npos);
    // CRC32: SIMD from 80 B in 6.12, 16 B in 7.1; CRC32C 512 B in both.
    CHECK(upstream_row(old_kernel.out, "crc32").find(" 80 B ") != std::string::npos);
    CHECK(upstream_row(new_kernel.out, "crc32").find(" 16 B ") != std::string::npos);
    CHECK(upstream_row(old_kernel.out, "crc32c").find(" 512 B ") != std::string::npos);
    CHECK(upstream_row(new_kernel.out, "crc32c").find(" 512 B ") != std::string::npos);
    // Every judged row is followed by the line naming its version and source.
    for (const Run* r : {&old_kernel, &new_kernel})
        for (const char* alg : {"sha256", "poly1305", "chacha20", "aes-256-gcm", "crc32c"})
            CHECK(upstream_row(r->out, alg).find("\n   ") != std::string::npos);
    // The softirq tail: stated from 6.15 on, not for 6.12.
    CHECK(new_kernel.out.find("softirqs") != std::string::npos);
    CHECK(old_kernel.out.find("softirqs") == std::string::npos);
    CHECK_FALSE(rows_of(new_kernel.out, "note: from Linux 6.15").empty());
}

TEST_CASE("CLI --linux: a version the data does not know, or a version given to -k, is one line and exit 2",
          "[models][upstream][cli]") {
    const std::string common = " --from " + std::string(FPUTUNE_ZEN3_SWEEP) + " --budget 30us";
    for (const std::string& cmd : {"check --upstream --linux 5.4" + common, "recommend --linux garbage" + common,
                                   "check --upstream --kernel 6.12" + common, "recommend -k 6.12" + common}) {
        const Run r = run_fputune(cmd);
        INFO(cmd << "\n" << r.out << r.err);
        CHECK(r.rc == 2);
        CHECK(r.err.find("--linux") != std::string::npos);
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    }
    const Run rec = run_fputune("recommend --linux 6.12" + common);
    INFO(rec.err);
    CHECK(rec.rc == 0);
    CHECK(rec.out.find("upstream columns: Linux 6.12") != std::string::npos);
    CHECK(rec.out.find("aes-256-gcm-vaes-avx2") != std::string::npos);
    CHECK(rec.out.find("no VAES-AVX2 AES-GCM before 6.19") != std::string::npos);
}

TEST_CASE("CLI report --linux: the upstream columns name their version, and from 6.15 the softirq tail",
          "[models][upstream][cli][report]") {
    const std::string common = " --from " + std::string(FPUTUNE_ZEN3_SWEEP) +
                               " --budget 30us --workload none -k 'ghash-*' -o " + (temp_dir() / "r.html").string();
    auto page = [] {
        std::ifstream in(temp_dir() / "r.html");
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    const Run old_kernel = run_fputune("report --linux 6.12" + common);
    INFO(old_kernel.err);
    REQUIRE(old_kernel.rc == 0);
    const std::string old_page = page();
    CHECK(old_page.find("Upstream columns: Linux 6.12") != std::string::npos);
    CHECK(old_page.find("softirqs") == std::string::npos);
    CHECK(old_page.find("Linux 6.12: arch/x86/crypto/ghash-clmulni-intel_glue.c") != std::string::npos);
    const Run new_kernel = run_fputune("report --linux 7.1" + common);
    REQUIRE(new_kernel.rc == 0);
    const std::string new_page = page();
    CHECK(new_page.find("Upstream columns: Linux 7.1") != std::string::npos);
    CHECK(new_page.find("kernel_fpu_end(): preemption stays off for the section plus that softirq work") !=
          std::string::npos);
    CHECK(new_page.find("Linux 7.1: lib/crypto/x86/gf128hash.h") != std::string::npos);
}
