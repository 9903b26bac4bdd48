// SPDX-License-Identifier: MIT
// Section shapes in the engine (issue 14): which series of sections each kernel gets, their sizes and names,
// kernel kinds for -k, the series in the sweep file, and a tiny measured sweep of a cipher's two shapes.
// Nothing here asserts a time.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cpu.hpp"
#include "registry.hpp"
#include "sweep.hpp"

using namespace fputune;

namespace {

const Kernel& kernel(const char* name) {
    for (const Kernel* k : all_kernels())
        if (std::strcmp(k->name, name) == 0) return *k;
    FAIL("no kernel " << name);
    throw;
}

bool has(const std::vector<std::uint64_t>& v, std::uint64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// A sweep of a few points that takes well under a second: one round, few samples, 5 ms per point.
SweepOptions tiny_sweep() {
    SweepOptions opt;
    opt.sampling.rounds = 1;
    opt.sampling.min_samples = 5;
    opt.sampling.min_samples90 = 10;
    opt.sampling.min_samples99 = 20;
    opt.sampling.point_cap_s = 0.005;
    opt.budget_s = 2;
    return opt;
}

// "xor-sse.x8" -> 8.
std::uint32_t series_sources_of(const std::string& name) {
    return static_cast<std::uint32_t>(std::stoul(name.substr(name.rfind(".x") + 2)));
}

}  // namespace

TEST_CASE("shapes: each kernel's series and sizes, as Linux's glue cuts its work", "[sweep][shapes]") {
    SweepOptions opt;
    // A hash: one bulk series under the kernel's own name, one block to 1 MiB.
    const Kernel& sha = kernel("sha256-avx2");
    REQUIRE(section_series(sha, opt).size() == 1);
    CHECK(section_series(sha, opt)[0].shape == SectionShape::bulk);
    CHECK(series_name(sha, section_series(sha, opt)[0]) == "sha256-avx2");
    const auto sha_sizes = series_sizes(sha, {}, opt);
    CHECK(sha_sizes.front() == 64);
    CHECK(sha_sizes.back() >= (1u << 20));
    CHECK(has(sha_sizes, 4096));
    // XTS: whole messages from a 512-byte sector to 1 MiB; the kernel's own name.
    const Kernel& xts = kernel("aes-256-xts-aesni");
    REQUIRE(section_series(xts, opt).size() == 1);
    const SeriesSpec message = section_series(xts, opt)[0];
    CHECK(message.shape == SectionShape::message);
    CHECK(series_name(xts, message) == "aes-256-xts-aesni");
    const auto xts_sizes = series_sizes(xts, message, opt);
    CHECK(xts_sizes.front() == 512);
    CHECK(has(xts_sizes, 4096));
    CHECK(xts_sizes.back() >= (1u << 20));
    for (std::uint64_t n : xts_sizes) CHECK(n % 16 == 0);
    const KernelInfo xts_info = series_info(xts, message);
    CHECK(xts_info.shape == "message");
    CHECK(xts_info.of.empty());
    // GCM: the data part under the kernel's name, the AAD as a series of its own.
    const Kernel& gcm = kernel("aes-256-gcm-aesni");
    const auto gcm_series = section_series(gcm, opt);
    REQUIRE(gcm_series.size() == 2);
    CHECK(gcm_series[0].shape == SectionShape::bulk);
    CHECK(gcm_series[1].shape == SectionShape::aad);
    const KernelInfo aad = series_info(gcm, gcm_series[1]);
    CHECK(aad.name == "aes-256-gcm-aesni.aad");
    CHECK(aad.algorithm == "aes-256-gcm.aad");
    CHECK(aad.of == "aes-256-gcm-aesni");
    CHECK(aad.shape == "aad");
    CHECK(series_sizes(gcm, gcm_series[1], opt).front() == 16);
    // CTR: a walk step; a kernel without the FPU has no sections.
    CHECK(section_series(kernel("aes-256-ctr-aesni"), opt).size() == 1);
    CHECK(section_series(kernel("aes-256-ctr-generic"), opt).empty());
    CHECK(section_series(kernel("crc32c-sse42"), opt).empty());
    // Explicit sizes are taken as given (whole blocks).
    SweepOptions sized;
    sized.sizes = {100, 4096};
    CHECK(series_sizes(xts, message, sized) == std::vector<std::uint64_t>{96, 4096});
}

TEST_CASE("shapes: --zmm-idle adds the warm-up state to kernels that need AVX-512F, sizes to 256 KiB",
          "[sweep][shapes]") {
    SweepOptions opt;
    opt.zmm_idle_s = 1e-3;
    const Kernel& z = kernel("aes-256-gcm-vaes-avx512");
    const auto series = section_series(z, opt);
    REQUIRE(series.size() == 4);  // data, aad, and both after idle
    std::set<std::string> names;
    for (const SeriesSpec& s : series) names.insert(series_name(z, s));
    CHECK(names == std::set<std::string>{"aes-256-gcm-vaes-avx512", "aes-256-gcm-vaes-avx512.aad",
                                         "aes-256-gcm-vaes-avx512.idle", "aes-256-gcm-vaes-avx512.aad.idle"});
    const KernelInfo idle = series_info(z, series[2]);
    CHECK(idle.idle_s == 1e-3);
    CHECK(idle.algorithm == "aes-256-gcm");  // the warm-up state is a state of the same algorithm
    CHECK(idle.of == "aes-256-gcm-vaes-avx512");
    CHECK(series_sizes(z, series[2], opt).back() <= kIdleMaxBytes);
    CHECK(section_series(kernel("aes-256-gcm-vaes-avx2"), opt).size() == 2);  // no AVX-512: no warm-up state
    CHECK(section_series(kernel("sha256-avx2"), opt).size() == 1);
}

TEST_CASE("shapes: -k takes kinds (hash, cipher, raid, all) beside globs", "[sweep][shapes]") {
    const auto ciphers = select_kernels_or_kinds({"cipher"});
    REQUIRE(!ciphers.empty());
    for (const Kernel* k : ciphers) CHECK(is_cipher(*k));
    const auto hashes = select_kernels_or_kinds({"hash"});
    REQUIRE(!hashes.empty());
    // A multi-message hash (sha256-shani-2x) is a hash; RAID and xor are the multi-source kernels of bytes.
    for (const Kernel* k : hashes) CHECK_FALSE((is_cipher(*k) || (is_multisource(*k) && !is_multimessage(*k))));
    CHECK(std::count(hashes.begin(), hashes.end(), &kernel("sha256-shani-2x")) == 1);
    const auto raid = select_kernels_or_kinds({"raid"});
    REQUIRE(!raid.empty());
    for (const Kernel* k : raid) CHECK((is_multisource(*k) && !is_multimessage(*k)));
    CHECK(select_kernels_or_kinds({"all"}).size() == all_kernels().size());
    CHECK(select_kernels_or_kinds({"hash", "cipher", "raid"}).size() == all_kernels().size());
    const auto mixed = select_kernels_or_kinds({"cipher", "sha256-avx2"});
    CHECK(mixed.size() == ciphers.size() + 1);
    CHECK(select_kernels_or_kinds({"sha256-avx2"}).size() == 1);
    CHECK_THROWS_AS(select_kernels_or_kinds({"no-such-kernel*"}), std::invalid_argument);
    CHECK_THROWS_AS(select_kernels_or_kinds({"cipher", "no-such-kernel*"}), std::invalid_argument);
}

TEST_CASE("shapes: series and sources in the sweep file, and files without them", "[sweep][shapes]") {
    SweepFile f;
    f.tool_version = f.tool_commit = std::string("test");
    f.cpu = {{"brand", "Test CPU"}};
    f.tsc_hz = 2e9;
    f.core_per_tsc = f.core_per_tsc_end = 1;
    KernelInfo x{"raid6-fake.x8",           "raid6.x8",           "fake", "fputune", 256, true,
                 std::string("raid6-fake"), std::string("stripe")};
    x.sources = 8;
    x.dest_count = 2;
    x.max_sources = 255;
    x.idle_s = 0.001;
    f.kernels = {x, {"sha256-fake", "sha256", "fake", "fputune", 64, true}};
    PointStats s;
    s.samples = 10;
    s.min = s.p10 = s.p50 = s.p90 = s.p99 = s.p999 = s.max = s.p99_clean = 100;
    SectionPoint p{"raid6-fake.x8", "cold", 4096, s, 100, true, {}, {}};
    p.sources = 8;
    f.sections = {p, {"sha256-fake", "hot", 64, s, 100, true, {}, {}}};
    nlohmann::json j = to_json(f);
    CHECK(j["kernels"][0]["of"] == "raid6-fake");
    CHECK(j["kernels"][0]["sources"] == 8);
    CHECK_FALSE(j["kernels"][1].contains("of"));  // a plain kernel writes none of them
    CHECK(j["sections"][0]["sources"] == 8);
    CHECK_FALSE(j["sections"][1].contains("sources"));
    const SweepFile back = sweep_from_json(j, "x.json");
    CHECK(back.kernels[0].of == "raid6-fake");
    CHECK(back.kernels[0].shape == "stripe");
    CHECK(back.kernels[0].sources == 8);
    CHECK(back.kernels[0].dest_count == 2);
    CHECK(back.kernels[0].max_sources == 255);
    CHECK(back.kernels[0].idle_s == 0.001);
    CHECK(back.kernels[1].kernel() == "sha256-fake");
    CHECK(back.sections[0].sources == 8);
    CHECK(back.sections[1].sources == 0);
    // A wrong shape is one clear message naming the field.
    j["kernels"][0]["shape"] = "spiral";
    try {
        sweep_from_json(j, "x.json");
        FAIL("accepted a shape 'spiral'");
    } catch (const std::exception& e) {
        CHECK(std::string(e.what()).find("shape") != std::string::npos);
    }
}

TEST_CASE("shapes: a tiny sweep of GCM measures its data and AAD sections as two series", "[sweep][shapes]") {
    const Kernel* gcm = best_kernel("aes-256-gcm", usable_features());
    if (!gcm || !gcm->needs_fpu) {
        WARN("no AES-GCM SIMD kernel on this CPU: skipped");
        return;
    }
    SweepOptions opt = tiny_sweep();
    opt.kernels = {gcm};
    opt.sizes = {64, 1024};
    const SweepPlan plan = plan_sweep(opt, nullptr);
    CHECK(plan.sections.size() == 8);  // 2 series x 2 caches x 2 sizes
    SweepInputs in;
    in.cpu = {{"brand", "Test CPU"}};
    const SweepFile f = measure_sweep(opt, in, PoolHooks{});
    REQUIRE(f.kernels.size() == 2);
    CHECK(f.kernels[0].name == gcm->name);
    CHECK(f.kernels[1].name == std::string(gcm->name) + ".aad");
    CHECK(f.kernels[1].of == gcm->name);
    std::set<std::string> series;
    for (const SectionPoint& p : f.sections) series.insert(p.kernel);
    CHECK(series.size() == 2);
    CHECK(impossible_points(f).empty());
    // A resumed complete sweep has nothing left to measure, in either series.
    CHECK(plan_sweep(opt, &f).sections.empty());
}

TEST_CASE("shapes: a multi-source kernel is swept as N sources x bytes per source, one series per N",
          "[sweep][shapes]") {
    SweepOptions opt;
    const Kernel& raid = kernel("raid6-sse2");
    const auto series = section_series(raid, opt);
    REQUIRE(series.size() == std::size(kStripeSources));
    for (std::size_t i = 0; i < series.size(); ++i) {
        CHECK(series[i].shape == SectionShape::stripe);
        CHECK(series[i].sources == kStripeSources[i]);
        const auto sizes = series_sizes(raid, series[i], opt);
        CHECK(sizes.front() == raid.block_bytes);
        CHECK(has(sizes, 4096));  // md's stripe
        CHECK(sizes.back() * series[i].sources <=
              2 * opt.max_section_bytes);  // N x bytes: no more data than one stream
    }
    const KernelInfo x8 = series_info(raid, series[1]);
    CHECK(x8.name == "raid6-sse2.x8");
    CHECK(x8.algorithm == "raid6.x8");
    CHECK(x8.of == "raid6-sse2");
    CHECK(x8.shape == "stripe");
    CHECK(x8.dest_count == 2);
    CHECK(x8.max_sources == raid.max_sources);
    CHECK(section_summary(raid) == "N x bytes");
    CHECK(section_series(kernel("xor-generic"), opt).empty());  // the reference has no sections

    // A tiny measured sweep (hot, two sizes, one N): every point records its sources.
    SweepOptions tiny = tiny_sweep();
    tiny.kernels = {&kernel("xor-sse")};
    tiny.sizes = {512, 4096};
    tiny.cold = false;
    const SweepPlan plan = plan_sweep(tiny, nullptr);
    CHECK(plan.sections.size() == 2 * std::size(kStripeSources));
    SweepInputs in;
    in.cpu = {{"brand", "Test CPU"}};
    const SweepFile f = measure_sweep(tiny, in, PoolHooks{});
    REQUIRE(f.kernels.size() == std::size(kStripeSources));
    CHECK(f.kernels[0].name == "xor-sse.x4");
    CHECK(f.kernels[0].sources == 4);
    REQUIRE(f.sections.size() == plan.sections.size());
    for (const SectionPoint& p : f.sections) CHECK(p.sources == series_sources_of(p.kernel));
    CHECK(impossible_points(f).empty());
    CHECK(std::none_of(f.warnings.begin(), f.warnings.end(),
                       [](const std::string& w) { return w.find("not swept") != std::string::npos; }));
}

TEST_CASE("shapes: verify measures a MAX_DISKS_4K count as that many disks of 4 KiB", "[verify][shapes][cli]") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("fputune-shapes-" + std::to_string(getpid()));
    fs::create_directories(dir);
    std::ofstream(dir / "disks.h")
        << "#define FPUTUNE_RAID6_SSE2_MAX_DISKS_4K 6U\n#define FPUTUNE_RAID6_MAX_DISKS_4K 300U\n";
    const std::string bin =
        (fs::read_symlink("/proc/self/exe").parent_path() / ".." / "apps" / "fputune").lexically_normal().string();
    const std::string cmd = "FPUTUNE_LOCK_DIR=" + dir.string() + " " + bin + " verify " + (dir / "disks.h").string() +
                            " --budget 1ms --min-freq 1GHz --time-budget 1 --json >" + (dir / "out").string() +
                            " 2>/dev/null";
    const int status = std::system(cmd.c_str());
    std::stringstream out;
    out << std::ifstream(dir / "out").rdbuf();
    fs::remove_all(dir);
    INFO(out.str());
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    const nlohmann::json j = nlohmann::json::parse(out.str());
    REQUIRE(j["results"].size() == 1);  // 6 disks = 4 data disks + P + Q, one section of 4 x 4096 B
    CHECK(j["results"][0]["kernel"] == "raid6-sse2.x4");
    CHECK(j["results"][0]["bytes"] == 4096);
    CHECK(j["results"][0]["value"] == 6);
    bool refused = false;  // 300 disks: more than the 255 data disks RAID6 takes, one line that says so
    for (const auto& n : j["notes"]) refused |= n.get<std::string>().find("298 sources") != std::string::npos;
    CHECK(refused);
}

// sha256_finup_2x (Linux, Biggers 2025): both messages in one section, so a sweep measures sections of 2 x bytes, one
// series whose bytes are each message's length, named and listed like a multi-source series.
TEST_CASE("shapes: sha256-shani-2x is swept as two messages of bytes per section", "[sweep][shapes]") {
    const Kernel& k = kernel("sha256-shani-2x");
    SweepOptions opt;
    const auto series = section_series(k, opt);
    REQUIRE(series.size() == 1);
    CHECK(series[0].shape == SectionShape::stripe);
    CHECK(series[0].sources == 2);
    CHECK(series_name(k, series[0]) == "sha256-shani-2x.x2");
    const KernelInfo info = series_info(k, series[0]);
    CHECK(info.algorithm == "sha256.x2");
    CHECK(info.of == "sha256-shani-2x");
    // Each message at most half of what a one-stream series holds: the same bytes per section.
    const auto sizes = series_sizes(k, series[0], opt);
    REQUIRE(!sizes.empty());
    CHECK(sizes.back() <= opt.max_section_bytes / 2);
    CHECK(sizes.front() == k.block_bytes);
    // Thresholds compare one-shot paths: sha256-generic's and the one-stream kernels', never the 2x's (it has none).
    if (missing_features(k, usable_features())) return;
    SweepOptions t = tiny_sweep();
    t.kernels = {&k, &kernel("sha256-generic"), &kernel("sha256-shani")};
    const SweepPlan plan = plan_sweep(t, nullptr);
    CHECK(!plan.thresholds.empty());
    for (const ThresholdTarget& th : plan.thresholds) CHECK(!is_multisource(*th.kernel));
}
