// SPDX-License-Identifier: MIT
// Provenance that survives a fleet's trip: a sweep keeps the host it was made on, a merge names the host that
// binds each limit and lists every input's Linux, doctor verdict and fputune, and a file of another schema is
// refused naming its host.
#include <catch2/catch.hpp>

#include "fit_sweep.hpp"
#include "header.hpp"
#include "recommend.hpp"
#include "report_test_util.hpp"
#include "sweep_file.hpp"

using namespace fputune;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

SweepFile host_sweep(const std::string& host, double cycles_per_byte) {
    SweepFile f = report_test::synthetic_sweep("Test CPU", 1000, cycles_per_byte);
    f.host = host;
    f.cpu["kernel_release"] = "6.1.0-test";
    f.doctor = {{"verdict", host == "alpha" ? "calm" : "noisy"}};
    return f;
}

}  // namespace

TEST_CASE("fleet provenance: a sweep keeps its host, and the merged header names the binding host") {
    const SweepFile alpha = host_sweep("alpha", 2.0), beta = host_sweep("beta", 3.0);  // beta is slower: it binds
    CHECK(sweep_from_json(to_json(alpha), "alpha.json").host == "alpha");
    CHECK_FALSE(to_json(report_test::synthetic_sweep("Test CPU", 1000, 2.0)).contains("host"));  // none given
    RecommendOptions o;
    o.question.budget_s = 30e-6;
    o.question.min_freq_hz = 1e9;
    const Recommendation r =
        recommend({fit_sweep(alpha, "fleet/alpha.json", {}), fit_sweep(beta, "fleet/beta.json", {})}, o);
    const std::string h = render_header(r, "limits.h");
    CHECK_THAT(h, Contains("CPU [1]:       alpha (Test CPU) (sweep fleet/alpha.json"));
    CHECK_THAT(h, Contains("CPU [2]:       beta (Test CPU) (sweep fleet/beta.json"));
    CHECK_THAT(h, Contains(" *                Linux 6.1.0-test, doctor calm, fputune test (abc123)\n"));
    CHECK_THAT(h, Contains(" *                Linux 6.1.0-test, doctor noisy, fputune test (abc123)\n"));
    CHECK_THAT(h, Contains("bound by fake-avx2 on beta (Test CPU)"));
}

TEST_CASE("fleet provenance: a sweep of another schema is refused naming its host") {
    nlohmann::json j = to_json(host_sweep("alpha", 2.0));
    j["schema"] = "fputune.sweep/2";
    CHECK_THROWS_WITH(sweep_from_json(j, "fleet/alpha.json"),
                      StartsWith("fleet/alpha.json (host alpha): schema 'fputune.sweep/2' is newer than this fputune"));
    j.erase("host");
    CHECK_THROWS_WITH(sweep_from_json(j, "old.json"), StartsWith("old.json: schema 'fputune.sweep/2' is newer"));
    j["host"] = 7;  // not a name: read as the file's, then refused as a field
    j["schema"] = "fputune.sweep/1";
    CHECK_THROWS_WITH(sweep_from_json(j, "odd.json"), Contains("host"));
}
