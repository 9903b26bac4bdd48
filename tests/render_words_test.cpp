// SPDX-License-Identifier: MIT
// What verify's last line says: how many constants are OVER of how many, the worst with its name, what to do.
#include <catch2/catch.hpp>

#include "render.hpp"

using namespace fputune;

TEST_CASE("verify's last line: N of M OVER, the worst with its name, and what to do", "[render][words]") {
    const double budget = 30e-6;
    std::vector<VerifyRow> rows = {{"FPUTUNE_SHA256_FPU_BYTES", "sha256-ssse3", 29.1e-6, true},
                                   {"FPUTUNE_SHA256_FPU_BYTES", "sha256-avx2", 31.2e-6, false},
                                   {"FPUTUNE_CRC32C_FPU_BYTES", "crc32c-pclmul", 30.3e-6, false}};
    const std::string over = render_verify_summary(rows, budget);
    CHECK(over.rfind("2 of 3 OVER, worst +4.0 % (FPUTUNE_SHA256_FPU_BYTES, sha256-avx2): ", 0) == 0);
    CHECK(over.find("fputune recommend --from a.json --from b.json") != std::string::npos);
    CHECK(over.find("--margin") != std::string::npos);
    rows[1].bound_s = 28e-6, rows[1].pass = true;
    rows[2].bound_s = 29.7e-6, rows[2].pass = true;
    const std::string pass = render_verify_summary(rows, budget);
    CHECK(pass.rfind("0 of 3 OVER, worst -1.0 % (FPUTUNE_CRC32C_FPU_BYTES, crc32c-pclmul): every constant holds", 0) ==
          0);
    CHECK(render_verify_summary({}, budget).rfind("0 of 0 OVER", 0) == 0);
}
