// SPDX-License-Identifier: MIT
// Section shapes in the models (docs/section-shapes.md): series of sections as kernels of their own (an XTS message, GCM's
// AAD, N sources of a multi-source kernel, the ZMM warm-up state), upstream judged where it has no cap, the
// multi-source kernels' counts at 4 KiB stripes, and their macros in the header and in check. Synthetic,
// noise-free lines: the answers are exact up to the fit's arithmetic.
#include <cmath>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "check.hpp"
#include "fit_sweep.hpp"
#include "header.hpp"
#include "model_json.hpp"
#include "recommend.hpp"
#include "recommendation_json.hpp"
#include "render.hpp"
#include "stripes.hpp"
#include "upstream.hpp"

using namespace fputune;

namespace {

constexpr double kRatio = 1.25;  // core cycles per tick
constexpr double kTscHz = 2e9;

// A series as the sweep lists it.
KernelInfo series(const std::string& name, const std::string& algorithm, std::uint32_t block,
                  const std::string& of = "", const std::string& shape = "", std::uint32_t sources = 0,
                  double idle_s = 0) {
    KernelInfo k{name, algorithm, "fake", "fputune", block, true};
    k.of = of;
    k.shape = shape;
    k.sources = sources;
    if (sources) k.dest_count = 2, k.max_sources = 255;
    k.idle_s = idle_s;
    return k;
}

// Noise-free points of cycles = a + b x data bytes (data = sources x bytes), p90 = 1.05 x p50, cold cache.
void add_line(SweepFile& f, const KernelInfo& k, double a, double b) {
    f.kernels.push_back(k);
    const double n_sources = k.sources ? k.sources : 1;
    for (std::uint64_t bytes = k.block_bytes; bytes <= (256u << 10); bytes *= 2) {
        PointStats s;
        s.samples = 500;
        s.p50 = (a + b * n_sources * static_cast<double>(bytes)) / kRatio;
        s.p10 = s.min = s.p50;
        s.p90 = s.p99 = s.p999 = s.max = s.p99_clean = 1.05 * s.p50;
        SectionPoint p{k.name, "cold", bytes, s, s.p50, true, {}, {}};
        p.sources = k.sources;
        f.sections.push_back(p);
    }
}

SweepFile base_sweep() {
    SweepFile f;
    f.tool_version = f.tool_commit = "test";
    f.date = "2026-01-01T00:00:00Z";
    f.cpu = {{"brand", "Test CPU"}};
    f.tsc_hz = kTscHz;
    f.core_per_tsc = f.core_per_tsc_end = kRatio;
    return f;
}

// RAID6 with 4, 8, 16, 24 and 32 data disks (or `measured`): 2000 cycles + `per_byte` cycles per data byte (0.1:
// 64 sources of 4 KiB fit 30 us at 1 GHz, beyond the largest measured; 0.3: 21, between 16 and 24).
ModelFile raid_models(double per_byte = 0.1, std::vector<std::uint32_t> measured = {4, 8, 16, 24, 32},
                      std::uint32_t max_sources = 255) {
    SweepFile f = base_sweep();
    for (std::uint32_t n : measured) {
        KernelInfo k =
            series("raid6-fake.x" + std::to_string(n), "raid6.x" + std::to_string(n), 256, "raid6-fake", "stripe", n);
        k.max_sources = max_sources;
        add_line(f, k, 2000, per_byte);
    }
    return fit_sweep(f, "raid.json");
}

// XTS whole messages, GCM data and AAD, and GCM data after an idle period (slower by 3000 cycles).
ModelFile cipher_models() {
    SweepFile f = base_sweep();
    add_line(f, series("aes-256-xts-fake", "aes-256-xts", 16, "", "message"), 1000, 0.5);
    add_line(f, series("aes-256-gcm-fake", "aes-256-gcm", 16), 800, 0.6);
    add_line(f, series("aes-256-gcm-fake.aad", "aes-256-gcm.aad", 16, "aes-256-gcm-fake", "aad"), 500, 0.3);
    add_line(f, series("aes-256-gcm-fake.idle", "aes-256-gcm", 16, "aes-256-gcm-fake", "", 0, 1e-3), 3800, 0.6);
    return fit_sweep(f, "cipher.json");
}

RecommendOptions budget_30us() {
    RecommendOptions o;
    o.question.budget_s = 30e-6;
    o.question.min_freq_hz = 1e9;
    return o;
}

const VariantResult* variant(const Recommendation& r, const std::string& kernel) {
    for (const auto& row : r.variants)
        if (row.bound.kernel == kernel) return &row.bound;
    return nullptr;
}

const AlgorithmRow* algorithm(const Recommendation& r, const std::string& alg) {
    for (const auto& a : r.algorithms)
        if (a.algorithm == alg) return &a;
    return nullptr;
}

}  // namespace

TEST_CASE("upstream: the ciphers and RAID are found by our names, uncapped sections judged where the CSV says",
          "[models][shapes]") {
    const UpstreamLimit* xts = find_upstream_limit("aes-128-xts");
    REQUIRE(xts);
    CHECK(xts->algorithm == "aes-xts");
    CHECK_FALSE(xts->fpu_chunk_bytes);
    REQUIRE(xts->judged_at_bytes);
    CHECK(*xts->judged_at_bytes == 4096);
    CHECK(xts->judged_because.find("dm-crypt") != std::string::npos);
    const UpstreamLimit* aad = find_upstream_limit("aes-256-gcm.aad");
    REQUIRE(aad);
    CHECK_FALSE(aad->judged_bytes());  // uncapped and unbounded
    REQUIRE(find_upstream_limit("aes-256-gcm"));
    CHECK(*find_upstream_limit("aes-256-gcm")->fpu_chunk_bytes == 4096);
    CHECK(*find_upstream_limit("aes-256-ctr")->fpu_chunk_bytes == 4096);
    const UpstreamLimit* raid = find_upstream_limit("raid6.x8");
    REQUIRE(raid);
    CHECK(raid->algorithm == "raid6");
    CHECK(raid->count == "disks");
    CHECK(find_upstream_limit("xor.x4")->count == "sources");
    CHECK(series_sources("raid6-avx512.x16.idle") == 16);
    CHECK(series_sources("aes-256-gcm.aad") == 0);
    // ChaCha's cap is in both tables (the hash family's and the ciphers'): they must agree.
    const UpstreamLimit* chacha20 = find_upstream_limit("chacha20");
    const UpstreamLimit* chacha = find_upstream_limit("chacha");
    REQUIRE(chacha20);
    REQUIRE(chacha);
    CHECK(chacha20->fpu_chunk_bytes == chacha->fpu_chunk_bytes);
    // The hash family is unchanged.
    CHECK_FALSE(find_upstream_limit("sha256")->fpu_chunk_bytes);
    CHECK(find_upstream_limit("sha256")->judged_because.empty());
    CHECK_FALSE(find_upstream_limit("no-such-algorithm"));
}

TEST_CASE("series: an XTS message is judged at 4096 B, GCM's AAD unbounded, each with its own macro",
          "[models][shapes]") {
    const RecommendOptions o = budget_30us();
    const Recommendation r = recommend({cipher_models()}, o);
    const VariantResult* xts = variant(r, "aes-256-xts-fake");
    REQUIRE(xts);
    REQUIRE(xts->upstream_judged_at);
    CHECK(*xts->upstream_judged_at == 4096);
    CHECK(xts->upstream_time_s == Approx(1.05 * (1000 + 0.5 * 4096) / 1e9).epsilon(1e-3));
    CHECK(xts->upstream_pass);
    const VariantResult* aad = variant(r, "aes-256-gcm-fake.aad");
    REQUIRE(aad);
    CHECK(std::isinf(aad->upstream_time_s));
    CHECK_FALSE(aad->upstream_pass);
    // Largest whole-block size with 1.05 (500 + 0.3 n) <= 30000 cycles.
    CHECK(aad->bytes == static_cast<std::uint64_t>((30000 / 1.05 - 500) / 0.3) / 16 * 16);
    const AlgorithmRow* aad_alg = algorithm(r, "aes-256-gcm.aad");
    REQUIRE(aad_alg);
    CHECK(aad_alg->stem == "AES_256_GCM_AAD");
    CHECK_FALSE(aad_alg->upstream_because.empty());
    const std::string h = render_header(r, "limits.h");
    CHECK(h.find("#define FPUTUNE_AES_256_GCM_FAKE_AAD_FPU_BYTES " + std::to_string(aad->bytes) + "U") !=
          std::string::npos);
    CHECK(h.find("#define FPUTUNE_AES_256_GCM_AAD_FPU_BYTES") != std::string::npos);
    CHECK(h.find("#define FPUTUNE_AES_256_XTS_FAKE_FPU_BYTES") != std::string::npos);
    const std::string table = render_table(r);
    CHECK(table.find("none@4096") != std::string::npos);
    CHECK(table.find("unbounded OVER") != std::string::npos);
    // check maps every macro back to its series.
    const CheckReport c = check_header(h, "limits.h", {cipher_models()}, o);
    CHECK(c.all_pass());
    CHECK(c.results.size() == 6);
}

TEST_CASE("series: the ZMM warm-up state joins its warm row, binds it when slower, and says so", "[models][shapes]") {
    const RecommendOptions o = budget_30us();
    const Recommendation r = recommend({cipher_models()}, o);
    CHECK_FALSE(variant(r, "aes-256-gcm-fake"));  // the idle series bound the row
    const VariantResult* gcm = variant(r, "aes-256-gcm-fake.idle");
    REQUIRE(gcm);
    CHECK(gcm->idle_s == 1e-3);
    CHECK(gcm->stem == "AES_256_GCM_FAKE");  // the macro stays the kernel's
    CHECK(gcm->bytes == static_cast<std::uint64_t>((30000 / 1.05 - 3800) / 0.6) / 16 * 16);
    bool noted = false;
    for (const auto& n : gcm->notes)
        noted |= n.find("ZMM warm-up") != std::string::npos && n.find("binds") != std::string::npos;
    CHECK(noted);
    for (const auto& row : r.variants)
        CHECK((row.bound.kernel.find(".idle") == std::string::npos || row.per_machine.size() == 2));
    const std::string h = render_header(r, "limits.h");
    CHECK(h.find("#define FPUTUNE_AES_256_GCM_FAKE_FPU_BYTES " + std::to_string(gcm->bytes) + "U") !=
          std::string::npos);
    CHECK(h.find("IDLE") == std::string::npos);
    // check judges a constant on the slower state.
    const std::string over = "#define FPUTUNE_AES_256_GCM_FAKE_FPU_BYTES " + std::to_string(gcm->bytes + 16) + "U\n";
    const CheckReport c = check_header(over, "h", {cipher_models()}, o);
    REQUIRE(c.results.size() == 1);
    CHECK_FALSE(c.results[0].pass);
    CHECK(c.results[0].kernel == "aes-256-gcm-fake.idle");
}

TEST_CASE("multi-source: exact at the measured N, linear in N between, the count never beyond the largest",
          "[models][shapes]") {
    const ModelFile m = raid_models();
    const RecommendOptions o = budget_30us();
    const std::vector<StripeSeries> all = stripe_series(m, Cache::cold);
    REQUIRE(all.size() == 1);
    const StripeSeries& s = all[0];
    CHECK(s.kernel == "raid6-fake");
    CHECK(s.algorithm == "raid6");
    CHECK(s.unit.word == "disks");
    CHECK(s.unit.extra == 2);
    CHECK(s.by_sources.size() == 5);
    auto cycles = [](double n, double bytes) { return 1.05 * (2000 + 0.1 * n * bytes); };
    bool extrapolated = true;
    CHECK(stripe_time_s(s, 8, 4096, o, &extrapolated) * 1e9 == Approx(cycles(8, 4096)).epsilon(1e-3));
    CHECK_FALSE(extrapolated);
    CHECK(stripe_time_s(s, 12, 4096, o, &extrapolated) * 1e9 == Approx(cycles(12, 4096)).epsilon(1e-3));
    CHECK_FALSE(extrapolated);
    CHECK(stripe_time_s(s, 40, 4096, o, &extrapolated) * 1e9 == Approx(cycles(40, 4096)).epsilon(1e-3));
    CHECK(extrapolated);
    CHECK(stripe_time_s(s, 2, 8192, o, &extrapolated) * 1e9 == Approx(cycles(2, 8192)).epsilon(1e-3));
    CHECK(extrapolated);
    // The line says 1.05 (2000 + 409.6 N) <= 30000 holds to N = 64; the count stops at the largest measured, 32.
    const auto by_line = static_cast<std::uint32_t>((30000 / 1.05 - 2000) / 409.6);
    REQUIRE(by_line > 32);
    CHECK(stripe_time_s(s, by_line, 4096, o) <= 30e-6);
    const StripeResult most = solve_stripe_count(s, o);
    CHECK(most.max_sources == 32);
    CHECK(most.count() == 34);
    CHECK(most.capped);
    CHECK(most.time_s * 1e9 == Approx(cycles(32, 4096)).epsilon(1e-3));
    CHECK(most.measured == std::vector<std::uint32_t>{4, 8, 16, 24, 32});
    CHECK(most.fits_measured == 32);
    CHECK(most.over_measured == 0);
    // What the closed loop measures next: the line's count past 32, not 33.
    CHECK(most.line_sources == by_line);
    CHECK(most.line_time_s <= 30e-6);
    CHECK(stripe_time_s(s, by_line + 1, 4096, o) > 30e-6);
    // A budget no source fits.
    RecommendOptions tiny = o;
    tiny.question.budget_s = 1e-6;
    CHECK(solve_stripe_count(s, tiny).max_sources == 0);
    CHECK_FALSE(solve_stripe_count(s, tiny).capped);
}

TEST_CASE("multi-source: between two measured N the count is interpolated, and they are named", "[models][shapes]") {
    const RecommendOptions o = budget_30us();
    const ModelFile m = raid_models(0.3);  // the series points into it: it must outlive them
    const StripeSeries s = stripe_series(m, Cache::cold).at(0);
    // 1.05 (2000 + 1228.8 N) <= 30000: N = 21, between the measured 16 and 24.
    const StripeResult r = solve_stripe_count(s, o);
    CHECK(r.max_sources == static_cast<std::uint32_t>((30000 / 1.05 - 2000) / 1228.8));
    CHECK(r.max_sources == 21);
    CHECK_FALSE(r.capped);
    CHECK(r.fits_measured == 16);
    CHECK(r.over_measured == 24);
    CHECK(stripe_bracket_text(r) == "between 16 and 24 sources measured");
    const Recommendation rec = recommend({raid_models(0.3)}, o);
    const std::string h = render_header(rec, "limits.h");
    CHECK(h.find("#define FPUTUNE_RAID6_FAKE_MAX_DISKS_4K 23U") != std::string::npos);
    CHECK(h.find("between 16 and 24 sources measured") != std::string::npos);
    CHECK(h.find("extrapolated") == std::string::npos);
    const nlohmann::json j = to_json(rec);
    REQUIRE(j["stripes"].size() == 1);
    CHECK(j["stripes"][0]["count"] == 23);
    CHECK(j["stripes"][0]["bracket"]["fits_sources"] == 16);
    CHECK(j["stripes"][0]["bracket"]["over_sources"] == 24);
    CHECK(j["stripes"][0]["capped"] == false);
    CHECK(j["stripe_algorithms"][0]["count"] == 23);
    CHECK(render_table(rec).find("16..24 src") != std::string::npos);
}

TEST_CASE("multi-source: a count capped at the largest measured says so in the header, table and JSON",
          "[models][shapes]") {
    const RecommendOptions o = budget_30us();
    const Recommendation r = recommend({raid_models()}, o);
    const std::string h = render_header(r, "limits.h");
    for (const char* macro : {"FPUTUNE_RAID6_FAKE_MAX_DISKS_4K 34U", "FPUTUNE_RAID6_MAX_DISKS_4K 34U"}) {
        const std::size_t at = h.find(std::string("#define ") + macro);
        REQUIRE(at != std::string::npos);
        const std::string line = h.substr(at, h.find('\n', at) - at);
        CHECK(line.find("capped at the largest measured, 32 sources (34 disks)") != std::string::npos);
    }
    const std::string table = render_table(r);
    CHECK(table.find("34 disks^") != std::string::npos);
    CHECK(table.find("at 32 src") != std::string::npos);
    CHECK(table.find("capped at the largest measured") != std::string::npos);
    const nlohmann::json j = to_json(r);
    REQUIRE(j["stripes"].size() == 1);
    const nlohmann::json& x = j["stripes"][0];
    CHECK(x["count"] == 34);
    CHECK(x["sources"] == 32);
    CHECK(x["capped"] == true);
    CHECK(x["measured_sources"] == nlohmann::json::array({4, 8, 16, 24, 32}));
    CHECK(x["bracket"]["fits_sources"] == 32);
    CHECK(x["bracket"]["over_sources"].is_null());
    CHECK(x["per_machine"].size() == 1);
    // Measured to 16 only (an older sweep): capped at 16, not the line's 64.
    const Recommendation old = recommend({raid_models(0.1, {4, 8, 16})}, o);
    CHECK(old.stripes.at(0).bound.count() == 18);
    CHECK(render_header(old, "h").find("capped at the largest measured, 16 sources (18 disks)") != std::string::npos);
    // A kernel that takes at most 20 sources, all measured and fitting: every count it takes, not a cap.
    const StripeResult all = recommend({raid_models(0.1, {4, 8, 16, 20}, 20)}, o).stripes.at(0).bound;
    CHECK(all.max_sources == 20);
    CHECK_FALSE(all.capped);
    CHECK(all.line_sources == 0);
}

TEST_CASE("multi-source: fewer than the smallest measured N is no count either", "[models][shapes]") {
    const RecommendOptions o = budget_30us();
    // 1.05 (2000 + 8192 N) <= 30000: N = 3, below the smallest measured, 4.
    const Recommendation r = recommend({raid_models(2.0)}, o);
    const StripeResult& b = r.stripes.at(0).bound;
    CHECK(b.max_sources == 0);
    CHECK(b.below_measured == 3);
    const std::string h = render_header(r, "limits.h");
    CHECK(h.find("#define FPUTUNE_RAID6_FAKE_MAX_DISKS_4K") == std::string::npos);
    CHECK(h.find("FPUTUNE_RAID6_FAKE_MAX_DISKS_4K: none, fewer than the smallest measured, 4 sources (6 disks)") !=
          std::string::npos);
    const nlohmann::json j = to_json(r);
    CHECK(j["stripes"][0]["count"].is_null());
    CHECK(j["stripes"][0]["below_measured_sources"] == 3);
    CHECK(render_table(r).find("fewer than the 4 sources measured fit") != std::string::npos);
}

TEST_CASE("multi-source: recommend, header and check speak in disks", "[models][shapes]") {
    const RecommendOptions o = budget_30us();
    const Recommendation r = recommend({raid_models(0.3)}, o);
    REQUIRE(r.stripes.size() == 1);
    REQUIRE(r.stripe_algorithms.size() == 1);
    const std::uint32_t disks = r.stripes[0].bound.count();
    const VariantResult* x8 = variant(r, "raid6-fake.x8");
    REQUIRE(x8);
    CHECK(x8->stem == "RAID6_FAKE_10_DISKS");
    CHECK(x8->bytes == static_cast<std::uint64_t>((30000 / 1.05 - 2000) / 2.4) / 256 * 256);
    // md's 4 KiB stripe over 8 data disks.
    REQUIRE(x8->upstream_judged_at);
    CHECK(x8->upstream_time_s == Approx(1.05 * (2000 + 2.4 * 4096) / 1e9).epsilon(1e-3));
    const std::string h = render_header(r, "limits.h");
    for (const char* macro : {"FPUTUNE_RAID6_FAKE_6_DISKS_FPU_BYTES", "FPUTUNE_RAID6_FAKE_10_DISKS_FPU_BYTES",
                              "FPUTUNE_RAID6_FAKE_18_DISKS_FPU_BYTES", "FPUTUNE_RAID6_10_DISKS_FPU_BYTES"})
        CHECK(h.find(std::string("#define ") + macro + " ") != std::string::npos);
    CHECK(h.find("#define FPUTUNE_RAID6_FAKE_MAX_DISKS_4K " + std::to_string(disks) + "U") != std::string::npos);
    CHECK(h.find("#define FPUTUNE_RAID6_MAX_DISKS_4K " + std::to_string(disks) + "U") != std::string::npos);
    CHECK(render_table(r).find("OVER above " + std::to_string(disks) + " disks") != std::string::npos);
    std::size_t over = 0;
    CHECK(render_upstream(r, over).find("OVER above") != std::string::npos);
    CHECK(over >= 1);
    // check: the header as generated passes; one disk more, or more bytes per disk, is over; an unmeasured count is
    // interpolated.
    CHECK(check_header(h, "limits.h", {raid_models(0.3)}, o).all_pass());
    const std::string more = "#define FPUTUNE_RAID6_FAKE_MAX_DISKS_4K " + std::to_string(disks + 1) + "U\n" +
                             "#define FPUTUNE_RAID6_FAKE_10_DISKS_FPU_BYTES " + std::to_string(x8->bytes + 256) +
                             "U\n" + "#define FPUTUNE_RAID6_12_DISKS_FPU_BYTES 4096U\n";
    const CheckReport c = check_header(more, "h", {raid_models(0.3)}, o);
    REQUIRE(c.results.size() == 3);
    CHECK_FALSE(c.results[0].pass);
    CHECK_FALSE(c.results[1].pass);
    CHECK(c.results[2].pass);
    CHECK(c.results[2].time_s == Approx(1.05 * (2000 + 0.3 * 10 * 4096) / 1e9).epsilon(1e-3));
}

TEST_CASE("multi-source: a multi-message hash speaks of messages, RAID of disks and sources", "[models][shapes]") {
    SweepFile f = base_sweep();
    KernelInfo k = series("sha256-shani-2x.x2", "sha256.x2", 64, "sha256-shani-2x", "stripe", 2);
    k.dest_count = 2;
    k.max_sources = 2;
    add_line(f, k, 1000, 2);
    const ModelFile two = fit_sweep(f, "sha2x.json");
    REQUIRE(stripe_series(two, Cache::cold).size() == 1);
    CHECK(stripe_series(two, Cache::cold)[0].unit.word == "messages");
    const Recommendation r = recommend({two}, budget_30us());
    REQUIRE(r.stripes.size() == 1);
    const std::string table = render_table(r), header = render_header(r, "limits.h");
    INFO(table << header);
    for (const std::string& text : {table, header}) {
        CHECK_THAT(text, Catch::Contains("messages") && !Catch::Contains("disk") && !Catch::Contains("P + Q") &&
                             !Catch::Contains("stripe") && !Catch::Contains(" src"));
    }
    CHECK_THAT(header, Catch::Contains("FPUTUNE_SHA256_SHANI_2X_2_MESSAGES_FPU_BYTES") &&
                           Catch::Contains("every count the kernel takes (2 messages)") && !Catch::Contains(" source"));
    // RAID keeps its disks and sources beside it.
    const Recommendation both = recommend({raid_models(0.3), two}, budget_30us());
    CHECK_THAT(render_table(both), Catch::Contains("disks (data + P + Q) or sources") &&
                                       Catch::Contains("or messages (hashed side by side)") &&
                                       Catch::Contains(" disks ") && Catch::Contains(" messages"));
}

TEST_CASE("series fields survive the model file, and files without them read as before", "[models][shapes]") {
    const ModelFile m = raid_models();
    const ModelFile back = model_from_json(to_json(m), "x.json");
    REQUIRE(back.kernels.size() == m.kernels.size());
    CHECK(back.kernels[1].of == "raid6-fake");
    CHECK(back.kernels[1].shape == "stripe");
    CHECK(back.kernels[1].sources == 8);
    CHECK(back.kernels[1].dest_count == 2);
    CHECK(back.kernels[1].max_sources == 255);
    const ModelFile c = cipher_models();
    const ModelFile cback = model_from_json(to_json(c), "y.json");
    CHECK(cback.kernels[3].idle_s == 1e-3);
    CHECK(cback.kernels[0].shape == "message");
    CHECK(cback.kernels[1].of.empty());
    CHECK(cback.kernels[1].kernel() == "aes-256-gcm-fake");
    CHECK(cback.kernels[2].kernel() == "aes-256-gcm-fake");
}

TEST_CASE("multi-source: a count in one cache state never uses a series measured only in the other",
          "[models][shapes]") {
    // Hot, 0.1 cycles per data byte: every measured N fits, the count capped at 32. Cold, 0.3: 21. The closed
    // loop measured its count's series (x21, x22) cold only, as its question asked.
    SweepFile f = base_sweep();
    for (std::uint32_t n : {4, 8, 16, 21, 22, 24, 32}) {
        KernelInfo k =
            series("raid6-fake.x" + std::to_string(n), "raid6.x" + std::to_string(n), 256, "raid6-fake", "stripe", n);
        add_line(f, k, 2000, 0.3);
        if (n == 21 || n == 22) continue;
        std::vector<SectionPoint> hot;
        for (SectionPoint p : f.sections) {
            if (p.kernel != k.name || p.cache != "cold") continue;
            p.cache = "hot";
            for (double* v : {&p.ticks.p10, &p.ticks.min, &p.ticks.p50, &p.ticks.p90, &p.ticks.p99, &p.ticks.p999,
                              &p.ticks.max, &p.ticks.p99_clean, &p.request_ticks_p50})
                *v /= 3;  // about 0.1 per byte
            hot.push_back(p);
        }
        f.sections.insert(f.sections.end(), hot.begin(), hot.end());
    }
    const ModelFile m = fit_sweep(f, "raid.json");
    const RecommendOptions o = budget_30us();
    const StripeSeries hot = stripe_series(m, Cache::hot).at(0);
    CHECK(hot.cache == Cache::hot);
    CHECK(hot.by_sources.count(21) == 0);
    CHECK(hot.by_sources.count(22) == 0);
    const StripeResult h = solve_stripe_count(hot, o);
    CHECK(h.capped);
    CHECK(h.max_sources == 32);
    // Cold: every series, the count's own among them.
    const StripeSeries cold = stripe_series(m, Cache::cold).at(0);
    CHECK(cold.by_sources.size() == 7);
    CHECK(solve_stripe_count(cold, o).max_sources == 21);
    // A kernel measured in the other state only is taken there, all its series alike.
    const StripeSeries only_cold = stripe_series(raid_models(0.3), Cache::hot).at(0);
    CHECK(only_cold.cache == Cache::cold);
    CHECK(only_cold.by_sources.size() == 5);
}
