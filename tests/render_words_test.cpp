// SPDX-License-Identifier: MIT
// What verify's last line says: how many constants are OVER and MARGINAL of how many, the worst with its name,
// what to do.
#include <catch2/catch.hpp>

#include "render.hpp"

using namespace fputune;

TEST_CASE("verify's last line: N of M OVER, K MARGINAL, the worst with its name, and what to do", "[render][words]") {
    const double budget = 30e-6;
    std::vector<VerifyRow> rows = {{"FPUTUNE_SHA256_FPU_BYTES", "sha256-ssse3", 29.1e-6, VerifyVerdict::pass},
                                   {"FPUTUNE_SHA256_FPU_BYTES", "sha256-avx2", 31.2e-6, VerifyVerdict::over},
                                   {"FPUTUNE_CRC32C_FPU_BYTES", "crc32c-pclmul", 30.3e-6, VerifyVerdict::over}};
    const std::string over = render_verify_summary(rows, budget);
    CHECK(over.rfind("2 of 3 OVER, 0 MARGINAL, worst +4.0 % (FPUTUNE_SHA256_FPU_BYTES, sha256-avx2): ", 0) == 0);
    CHECK(over.find("beyond") == std::string::npos);
    CHECK(over.find("fputune recommend --from a.json --from b.json") != std::string::npos);
    CHECK(over.find("--margin") != std::string::npos);
    // Over by the point estimate alone: MARGINAL, said as such, with the same advice.
    rows[2].verdict = VerifyVerdict::marginal;
    rows[1].verdict = VerifyVerdict::marginal;
    const std::string marginal = render_verify_summary(rows, budget);
    CHECK(marginal.rfind("0 of 3 OVER, 2 MARGINAL, worst +4.0 % (FPUTUNE_SHA256_FPU_BYTES, sha256-avx2): no section is "
                         "over beyond its samples' noise",
                         0) == 0);
    CHECK(marginal.find("fputune recommend --from a.json --from b.json") != std::string::npos);
    rows[1].bound_s = 28e-6, rows[1].verdict = VerifyVerdict::pass;
    rows[2].bound_s = 29.7e-6, rows[2].verdict = VerifyVerdict::pass;
    const std::string pass = render_verify_summary(rows, budget);
    CHECK(pass.rfind("0 of 3 OVER, 0 MARGINAL, worst -1.0 % (FPUTUNE_CRC32C_FPU_BYTES, crc32c-pclmul): every constant "
                     "holds",
                     0) == 0);
    // Over only on rounds a neighbour shared: CONTENDED, counted apart, said what it is and what to do.
    rows[2].bound_s = 33e-6, rows[2].verdict = VerifyVerdict::contended;
    const std::string contended = render_verify_summary(rows, budget);
    CHECK(contended.rfind("0 of 3 OVER, 0 MARGINAL, 1 CONTENDED, worst +10.0 % (FPUTUNE_CRC32C_FPU_BYTES, "
                          "crc32c-pclmul): no constant is over on a round a neighbour left alone. The CONTENDED ones",
                          0) == 0);
    CHECK(contended.find("more than 5 % of its samples contended") != std::string::npos);
    CHECK(contended.find("fputune doctor") != std::string::npos);
    rows[1].bound_s = 31e-6, rows[1].verdict = VerifyVerdict::over;
    const std::string both = render_verify_summary(rows, budget);
    CHECK(both.rfind("1 of 3 OVER, 0 MARGINAL, 1 CONTENDED, worst +10.0 %", 0) == 0);
    CHECK(both.find("by more than its samples' noise. The CONTENDED ones") != std::string::npos);
    CHECK(render_verify_summary({}, budget).rfind("0 of 0 OVER", 0) == 0);
    CHECK(std::string(verdict_label(VerifyVerdict::contended)) == "CONTENDED");
    CHECK(std::string(verdict_key(VerifyVerdict::contended)) == "contended");
    CHECK(std::string(verdict_label(VerifyVerdict::marginal)) == "MARGINAL");
    CHECK(std::string(verdict_key(VerifyVerdict::over)) == "over");
}
