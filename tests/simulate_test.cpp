// SPDX-License-Identifier: MIT
// `simulate`: workloads, the split of requests into sections, Elliott 2022's table reproduced from Elliott 2022's
// own 4 KiB data, this machine's sweep with its generated header, and the CLI's answers to bad input.
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "atomic_file.hpp"
#include "cli_scratch.hpp"
#include "header.hpp"
#include "model_file.hpp"
#include "model_json.hpp"
#include "recommend.hpp"
#include "render_simulate.hpp"
#include "simulate.hpp"
#include "simulation_json.hpp"
#include "workload.hpp"

using namespace fputune;
namespace fs = std::filesystem;

namespace {

std::string source_file(const std::string& rel) { return std::string(FPUTUNE_SOURCE_DIR) + "/" + rel; }
const std::string kElliottCycles = source_file("data/reference/elliott-2022-4k-cycles.csv");
const std::string kElliottSections = source_file("data/reference/elliott-2022-fpu-sections.csv");
const std::string kElliottLimits = source_file("data/reference/elliott-2022-limits.h");
const std::string kEmeraldRapids = source_file("data/machines/emerald-rapids-vm-2026-11-30.json");

// The suite's scratch folder, removed when the process ends (ctest runs each case as a process of its own).
fs::path scratch() {
    static const fputune_test::CliScratch folder{"simulate-test"};
    return folder.dir();
}

std::string write_scratch(const std::string& name, const std::string& text) {
    const fs::path p = scratch() / name;
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
}

// A model of one kernel at exactly B cycles per byte (a reference CSV: A = 0, core = TSC).
ModelFile line_model(const std::string& kernel, double cycles_per_byte) {
    return read_reference_csv(
        fmt::format("# machine: Test CPU\nalgorithm,bytes,cycles_per_op\n{},4096,{}\n", kernel, 4096 * cycles_per_byte),
        "test.csv");
}

Workload requests(const std::string& csv) {
    return workload_from_csv("kernel,bytes,count\n" + csv, "test-workload.csv");
}

const SimRow& row(const Simulation& s, const std::string& kernel, std::size_t machine = 0) {
    for (const auto& r : s.machines.at(machine).rows)
        if (r.kernel == kernel) return r;
    FAIL("no row for " << kernel);
    throw std::logic_error("unreachable");
}

// Elliott 2022's rows (elliott-2022-fpu-sections.csv) by run and driver.
struct SeedRow {
    double calls = 0, cost = 0, maxcycles = 0;
    std::uint64_t bpf = 0;
    std::string module;
};
std::map<std::pair<std::string, std::string>, SeedRow> seed_rows() {
    std::map<std::pair<std::string, std::string>, SeedRow> rows;
    std::istringstream in(read_file(kElliottSections));
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#' || line.rfind("run,", 0) == 0) continue;
        std::vector<std::string> f;
        std::stringstream ls(line);
        for (std::string cell; std::getline(ls, cell, ',');) f.push_back(cell);
        REQUIRE(f.size() == 10);
        rows[{f[0], f[8]}] = {std::stod(f[1]), std::stod(f[2]), std::stod(f[3]), std::stoull(f[4]), f[9]};
    }
    return rows;
}

struct Run {
    int rc = -1;
    std::string out, err;
};

Run fputune_cli(const std::string& args) {
    const fs::path bin =
        (fs::read_symlink("/proc/self/exe").parent_path() / ".." / "apps" / "fputune").lexically_normal();
    const std::string out = (scratch() / "stdout").string(), err = (scratch() / "stderr").string();
    const int status = std::system((bin.string() + " " + args + " >" + out + " 2>" + err).c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_file(out), read_file(err)};
}

}  // namespace

TEST_CASE("simulate: a hash request is update() sections of whole blocks, then final() in a pair of its own",
          "[simulate]") {
    const ModelFile m = line_model("sha256-avx2", 5);
    SimulateOptions o;
    o.question.min_freq_hz = 1e9;
    o.pair_cycles = 50;
    SimLimits l;
    l.label = "test";
    l.by_stem["SHA256_AVX2"] = {14080, "test"};
    // 1 MiB: 74 sections of 14080 B, one of the 6656 B left, one final (the padding block).
    Simulation s = simulate({m}, requests("sha256-avx2,1MiB,3\n"), &l, o);
    const SimRow& r = row(s, "sha256-avx2");
    CHECK(r.own_final_section);
    CHECK(r.upstream.sections == 3 * 2);
    CHECK(r.upstream.longest_bytes == 1 << 20);
    CHECK(r.upstream.longest_cycles == Approx(5.0 * (1 << 20)));
    CHECK(r.upstream.longest_s == Approx(5.0 * (1 << 20) / 1e9));
    CHECK(r.upstream.limit_from.find("lib/crypto/x86/sha256.h") != std::string::npos);
    REQUIRE(r.limited);
    CHECK(r.limited->sections == 3 * 76);
    CHECK(r.limited->longest_bytes == 14080);
    CHECK(r.limited->longest_cycles == Approx(5.0 * 14080));
    // Every byte once, padding included; A = 0, so the inside time is the same; the pairs cost the difference.
    CHECK(r.limited->bytes == 3.0 * ((1 << 20) + 64));
    CHECK(r.limited->inside_cycles == Approx(r.upstream.inside_cycles));
    CHECK(r.limited->cost_cycles == Approx(3 * 76 * 50.0));
    CHECK(r.throughput_cost ==
          Approx((3 * 76 * 50.0 + r.upstream.inside_cycles) / (3 * 2 * 50.0 + r.upstream.inside_cycles) - 1));
    // final() takes two blocks when the length field does not fit after the last partial block.
    s = simulate({m}, requests("sha256-avx2,120,1\nsha256-avx2,100,1\n"), nullptr, o);
    CHECK(row(s, "sha256-avx2").upstream.sections == 4);
    CHECK(row(s, "sha256-avx2").upstream.bytes == 64 + 128 + 64 + 64);
    // A limit that is not whole blocks: the glue hands over whole blocks.
    l.by_stem["SHA256_AVX2"] = {1000, "test"};
    s = simulate({m}, requests("sha256-avx2,1024,1\n"), &l, o);
    CHECK(row(s, "sha256-avx2").limited->longest_bytes == 960);
    CHECK(row(s, "sha256-avx2").limited->sections == 3);
    CHECK_FALSE(row(s, "sha256-avx2").notes.empty());
}

TEST_CASE("simulate: a peer is simulated beside our variants only when a request names it", "[simulate]") {
    ModelFile m = read_reference_csv(
        "algorithm,bytes,cycles_per_op\nsha256-avx2,4096,20480\nsha256-openssl,4096,16384\n", "peer.csv");
    for (auto& k : m.kernels)
        if (k.name == "sha256-openssl") k.provider = "openssl";
    CHECK(simulate({m}, bigbuf_workload(), nullptr, SimulateOptions{}).machines[0].rows.size() == 1);
    const Simulation named =
        simulate({m}, requests("sha256,4KiB,1\nsha256-openssl,4KiB,2\n"), nullptr, SimulateOptions{});
    REQUIRE(named.machines[0].rows.size() == 2);
    CHECK(row(named, "sha256-avx2").upstream.requests == 1);
    CHECK(row(named, "sha256-openssl").upstream.requests == 2);
}

TEST_CASE("CLI: simulate -k shows a kernel's row as the whole input has it, never recomputed on the subset",
          "[simulate][cli]") {
    // Ours and a peer of the same algorithm: on the whole input the peer is compared, not standing for sha256, so a
    // request for "sha256" does not reach it. On the -k subset alone the peer would stand for sha256 and take it.
    ModelFile m = read_reference_csv(
        "algorithm,bytes,cycles_per_op\nsha256-avx2,4096,20480\nsha256-openssl,4096,16384\n", "peer.csv");
    for (auto& k : m.kernels)
        if (k.name == "sha256-openssl") k.provider = "openssl";
    const std::string from = " --from " + write_scratch("peer-model.json", to_json(m).dump());
    const std::string wl = " --workload " + write_scratch("peer.csv", "kernel,bytes,count\nsha256,4KiB,1\nsha256-openssl,4KiB,2\n");
    auto rows = [&](const std::string& extra) {
        const Run r = fputune_cli("simulate" + from + wl + " --budget 30us --json" + extra);
        INFO(r.err);
        REQUIRE(r.rc == 0);
        const nlohmann::json j = nlohmann::json::parse(r.out);
        std::map<std::string, nlohmann::json> by_kernel;
        for (const auto& k : j["machines"][0]["kernels"]) by_kernel[k["kernel"].get<std::string>()] = k;
        return by_kernel;
    };
    const auto whole = rows("");
    REQUIRE(whole.size() == 2);
    CHECK(whole.at("sha256-openssl")["without_limits"]["requests"] == 2);
    for (const std::string kernel : {"sha256-openssl", "sha256-avx2"}) {
        INFO(kernel);
        const auto shown = rows(" -k " + kernel);
        REQUIRE(shown.size() == 1);
        CHECK(shown.at(kernel) == whole.at(kernel));
    }
    CHECK(rows(" -k sha256") == whole);  // the algorithm: every variant
    // A -k that names no kernel of the input: one line, exit 2; one that names kernels the workload does not reach
    // says so instead of claiming the input reaches nothing.
    const Run none = fputune_cli("simulate" + from + wl + " -k sha1-avx2");
    CHECK(none.rc == 2);
    CHECK_THAT(none.err, Catch::Contains("sha1-avx2"));
    CHECK(std::count(none.err.begin(), none.err.end(), '\n') == 1);
    const std::string ours_only = write_scratch("peer-only.csv", "kernel,bytes,count\nsha256-avx2,4KiB,1\n");
    const Run hidden = fputune_cli("simulate" + from + " --workload " + ours_only + " -k sha256-openssl");
    CHECK(hidden.rc == 0);
    CHECK_THAT(hidden.out, Catch::Contains("no kernel -k names is reached by the workload (1 other is)"));
}

TEST_CASE("simulate: upstream's own chunks and SIMD thresholds make the 'without limits' column", "[simulate]") {
    std::vector<ModelFile> ms = {line_model("poly1305-avx2", 0.5)};
    SimulateOptions o;
    o.question.budget_s = 30e-6;
    // WireGuard's mix: the 48-byte packets are under upstream's 288 B threshold, so only 576 and 1420 take sections.
    const Simulation s = simulate(ms, wireguard_workload(), nullptr, o);
    const SimRow& r = row(s, "poly1305-avx2");
    CHECK(r.upstream.limit_bytes == std::optional<std::uint64_t>(4096));
    CHECK(r.upstream.simd_min_bytes == 288);
    CHECK(r.upstream.requests == 120000);
    CHECK(r.upstream.simd_requests == 50000);
    CHECK(r.upstream.sections == 50000);
    CHECK(r.upstream.longest_bytes == 1424);  // 1420 B rounded up to 16-byte blocks
    REQUIRE(r.upstream.within_budget);
    CHECK(*r.upstream.within_budget);
    CHECK_FALSE(r.limited);
    // bigbuf on it: 1 MiB in upstream's 4 KiB sections.
    const Simulation b = simulate(ms, bigbuf_workload(), nullptr, o);
    CHECK(row(b, "poly1305-avx2").upstream.sections == 10 * 256);
    CHECK(row(b, "poly1305-avx2").upstream.longest_bytes == 4096);
}

TEST_CASE("simulate: the state save is paid once per request and left out of the time inside sections", "[simulate]") {
    // A sweep model: p50 = 2000 + 2 n ticks at core/TSC 1.5 (3000 + 3 n core cycles, the model's unit)
    // with every measured section paying a 300-tick save.
    ModelFile m = line_model("crc32c-pclmul", 2 * 1.5);
    m.models[0].cache = Cache::cold;
    m.models[0].p50.a = m.models[0].p50.a_lo = m.models[0].p50.a_hi = 2000 * 1.5;
    m.models[0].p99 = m.models[0].p90 = m.models[0].p50;
    m.core_per_tsc = 1.5;
    m.dirty = Dirty::ymm;
    m.cpu = {{"brand", "Test CPU"},
             {"xsave", {{"costs", {{{"dirty", "ymm"}, {"save_ticks", 300}, {"restore_ticks", 500}}}}}}};
    SimLimits l;
    l.label = "test";
    l.by_stem["CRC32C"] = {65536, "test"};
    const Simulation s = simulate({m}, requests("crc32c,1MiB,1\n"), &l, SimulateOptions{});
    REQUIRE(s.machines[0].save_known);
    CHECK(s.machines[0].save_cycles == Approx(450));
    const SimRow& r = row(s, "crc32c-pclmul");
    CHECK(r.upstream.sections == 1);
    CHECK(r.upstream.cost_cycles == Approx(1.5 * 800));
    CHECK(r.upstream.inside_cycles == Approx(1.5 * (2000 + 2.0 * (1 << 20)) - 450));
    CHECK(r.upstream.longest_cycles ==
          Approx(1.5 * (2000 + 2.0 * (1 << 20))));  // the bound keeps the save: the first section pays it
    CHECK(r.limited->sections == 16);
    CHECK(r.limited->cost_cycles == Approx(1.5 * 800));
    CHECK(r.limited->inside_cycles == Approx(16 * (1.5 * (2000 + 2.0 * 65536) - 450)));
    CHECK(r.throughput_cost == Approx(15 * (1.5 * 2000 - 450) / r.upstream.total_cycles()));
    // In a kernel thread (dm-crypt's kcryptd) there is no user state to save: no cost, the same inside.
    Workload kthread = requests("crc32c,1MiB,1\n");
    kthread.kernel_thread = true;
    const SimRow k =
        row(simulate({m}, kthread, &l, SimulateOptions{}), "crc32c-pclmul");  // a copy: the simulation is a temporary
    CHECK(k.upstream.cost_cycles == 0);
    CHECK(k.upstream.inside_cycles == Approx(r.upstream.inside_cycles));
    CHECK(dm_crypt_workload().kernel_thread);
    CHECK(wireguard_workload().kernel_thread);
    CHECK_FALSE(bigbuf_workload().kernel_thread);
    CHECK_FALSE(module_signing_workload({1}, "x").kernel_thread);
}

TEST_CASE("Elliott 2022's table from Elliott's own 4 KiB cycles: SHA avx2 bigbuf maxcycles and calls",
          "[simulate][golden]") {
    const auto seed = seed_rows();
    const ModelFile cascade = load_models(kElliottCycles);
    const SimLimits limits = limits_from_header(read_file(kElliottLimits), kElliottLimits);
    SimulateOptions o;
    o.question.min_freq_hz = 2.2e9;  // Elliott 2022's counters tick at 2.2 GHz (TSC = core on that reading)
    o.repeat = 100;  // 1000 x 1 MiB per driver: what Elliott 2022's calls count (see below)
    const Simulation s = simulate({cascade}, bigbuf_workload(), &limits, o);
    for (const char* kernel : {"sha1-avx2", "sha256-avx2", "sha512-avx2"}) {
        INFO(kernel);
        const SimRow& r = row(s, kernel);
        const SeedRow& unlimited = seed.at({"bigbuf-unlimited", kernel});
        const SeedRow& limited = seed.at({"bigbuf-limited", kernel});
        REQUIRE(r.limited);
        CHECK(r.limited->limit_bytes == std::optional<std::uint64_t>(limited.bpf));
        // Without limits the whole 1 MiB update is one section: within 25 % of Elliott 2022's maxcycles (we
        // predict 17-20 % less: Elliott 2022's counter is the module's, the max over its slower ssse3/avx
        // drivers too, and the 4 KiB figures themselves differ by 17 % between sha224 and sha256, one code).
        CHECK(std::abs(r.upstream.longest_cycles / unlimited.maxcycles - 1) < 0.25);
        CHECK(r.upstream.longest_cycles < unlimited.maxcycles);
        // With the limits the kernel's own work is 73-75 k cycles (33-34 us); Elliott 2022's maxcycles of that run
        // (161-227 k) add interrupts (kernel_fpu_begin leaves them on): Elliott 2022 saw 81 912 cycles at best
        // across repeated runs ("I've seen results vary from 81912 (37 us) to (102 us)"). Within 25 % of that.
        CHECK(std::abs(r.limited->longest_cycles / 81912.0 - 1) < 0.25);
        CHECK(r.limited->longest_cycles < limited.maxcycles);
    }
    // The calls: Elliott 2022's counter is per module, over every driver of it. Simulating every driver with
    // its own limit (the rate does not matter for the count) gives Elliott 2022's calls: 1000 x 1 MiB per
    // driver, each an update() in ceil(1 MiB / bpf) sections plus a final() section.
    std::string csv = "algorithm,bytes,cycles_per_op\n";
    std::string header;
    std::map<std::string, std::vector<std::string>> modules;
    for (const auto& [key, r] : seed) {
        const auto& [run, driver] = key;
        if (run != "bigbuf-limited" || driver.rfind("sha", 0) != 0) continue;
        csv += driver + ",4096,20000\n";
        header += fmt::format("#define FPUTUNE_{}_FPU_BYTES {}\n", macro_stem(driver), r.bpf);
        modules[r.module].push_back(driver);
    }
    const SimLimits every = limits_from_header(header, "seed-limits.h");
    const Simulation all = simulate({read_reference_csv(csv, "seed-drivers.csv")}, bigbuf_workload(), &every, o);
    for (const auto& [module, drivers] : modules) {
        INFO(module);
        double unlimited_calls = 0, limited_calls = 0;
        for (const auto& d : drivers) {
            unlimited_calls += row(all, d).upstream.sections;
            limited_calls += row(all, d).limited->sections;
        }
        CHECK(unlimited_calls == Approx(seed.at({"bigbuf-unlimited", drivers.front()}).calls).epsilon(0.001));
        CHECK(limited_calls == Approx(seed.at({"bigbuf-limited", drivers.front()}).calls).epsilon(0.001));
    }
}

TEST_CASE("simulate on the Emerald Rapids sweep with its generated header: every longest section within the budget",
          "[simulate][golden]") {
    std::vector<ModelFile> sources = {load_models(kEmeraldRapids)};
    RecommendOptions ro;
    ro.question.budget_s = 30e-6;
    ro.question.min_freq_hz = 1e9;
    const std::string header = render_header(recommend(sources, ro), "limits.h");
    const SimLimits limits = limits_from_header(header, "limits.h");
    SimulateOptions o;
    o.question.budget_s = 30e-6;
    o.question.min_freq_hz = 1e9;
    // (dm-crypt and wireguard reach the AES and ChaCha20 kernels, which this sweep predates: the Zen 3 test below.)
    for (const Workload& w : {bigbuf_workload(), module_signing_workload({48186713, 1 << 20, 4096}, "test")}) {
        const Simulation s = simulate(sources, w, &limits, o);
        REQUIRE_FALSE(s.machines[0].rows.empty());
        for (const SimRow& r : s.machines[0].rows) {
            INFO(w.name << " " << r.kernel);
            REQUIRE(r.limited);
            REQUIRE(r.limited->within_budget);
            CHECK(*r.limited->within_budget);
            CHECK(r.limited->longest_s <= 30e-6);
            CHECK(r.limited->limit_from.find("FPUTUNE_") == 0);
            // Upstream leaves SHA, SM3 and CRC unlimited: over the budget whenever a request is long.
            const bool unlimited_upstream =
                r.algorithm.rfind("sha", 0) == 0 || r.algorithm == "sm3" || r.algorithm.rfind("crc", 0) == 0;
            if (unlimited_upstream) {
                CHECK_FALSE(r.upstream.limit_bytes);
                CHECK_FALSE(*r.upstream.within_budget);
            }
        }
    }
    // Two machines with one header: a table each.
    sources.push_back(load_models(kElliottCycles));
    const Simulation two = simulate(sources, bigbuf_workload(), &limits, o);
    CHECK(two.machines.size() == 2);
    CHECK(row(two, "sha256-avx2", 1).limited->limit_from.find("FPUTUNE_SHA256_AVX2_FPU_BYTES") == 0);
    // A kernel only one of them has: the other machine's table says so.
    const Simulation one = simulate(sources, requests("sha256-shani,64,1\n"), &limits, o);
    CHECK(one.machines[0].rows.size() == 1);
    CHECK(one.machines[1].rows.empty());
    CHECK_THAT(render_simulation(one), Catch::Contains("no kernel of this input is reached by the workload"));
}

TEST_CASE("workloads: built-ins, the request CSV and module sizes", "[simulate]") {
    for (const auto& name : builtin_workload_names()) CHECK(is_builtin_workload(name));
    CHECK_FALSE(is_builtin_workload("boot"));
    CHECK(bigbuf_workload().requests.at(0).bytes == 1 << 20);
    CHECK(dm_crypt_workload().requests.at(0).bytes == 4096);
    // Each built-in reaches only the algorithms its workload runs.
    for (const auto& r : dm_crypt_workload().requests) CHECK(r.target == "aes-256-xts");
    std::map<std::string, std::uint64_t> packets;
    for (const auto& r : wireguard_workload().requests) packets[r.target] += r.count;
    CHECK(packets == std::map<std::string, std::uint64_t>{{"chacha20", 120000}, {"poly1305", 120000}});
    for (const Workload& w : {bigbuf_workload(), dm_crypt_workload(), wireguard_workload()}) {
        INFO(w.name);
        for (const auto& n : w.notes) CHECK(n.find("not modelled") == std::string::npos);
        CHECK(w.source.find("not modelled") == std::string::npos);
    }
    const Workload ms = module_signing_workload({100, 200, 100}, "here");
    CHECK(ms.requests.size() == 4);  // two sizes x sha256, sha512
    CHECK(ms.requests.at(0).count == 2);

    const Workload w =
        workload_from_csv("# comment\nkernel,bytes,count\nsha256-avx2, 4KiB ,3\n\nsha512,100,1\n", "w.csv");
    REQUIRE(w.requests.size() == 2);
    CHECK(w.requests[0].bytes == 4096);
    CHECK(w.requests[0].count == 3);
    CHECK(w.requests[1].line == 5);
    CHECK(workload_from_csv("crc32c,1,1\n", "no-header.csv").requests.size() == 1);
    struct Bad {
        std::string text, says;
    };
    for (const Bad& b :
         {Bad{"", "no requests"}, Bad{"kernel,bytes,count\n", "no requests"}, Bad{"# only\n", "no requests"},
          Bad{"sha256,1\n", "w.csv:1: 2 fields"}, Bad{"sha256,1,2,3\n", "4 fields"}, Bad{",1,1\n", "an empty kernel"},
          Bad{"sha256,abc,1\n", "bad size 'abc'"}, Bad{"sha256,0,1\n", "bad size '0'"},
          Bad{"sha256,64,0\n", "count '0'"}, Bad{"sha256,64,-1\n", "count '-1'"},
          Bad{"sha256,64,2x\n", "count '2x'"}}) {
        INFO(b.text);
        CHECK_THROWS_WITH(workload_from_csv(b.text, "w.csv"), Catch::Contains(b.says));
    }
    CHECK(parse_module_sizes("# find output\n48186713\n1MiB\n\n", "sizes.txt") ==
          std::vector<std::uint64_t>{48186713, 1 << 20});
    CHECK(parse_module_sizes("10,20", "--modules") == std::vector<std::uint64_t>{10, 20});
    CHECK_THROWS_WITH(parse_module_sizes("10\nx\n", "sizes.txt"), Catch::Contains("sizes.txt:2"));
    CHECK_THROWS_WITH(parse_module_sizes("\n", "sizes.txt"), Catch::Contains("no module sizes"));
}

TEST_CASE("module files: the hashed size is the uncompressed one, read from each format's own header or index",
          "[simulate]") {
    CHECK(is_module_file("xfs.ko"));
    CHECK(is_module_file("xfs.ko.xz"));
    CHECK_FALSE(is_module_file("modules.dep"));
    CHECK(module_hashed_bytes("a.ko",
                              "\x7f"
                              "ELF",
                              "", 1234) == 1234);
    // gzip: ISIZE, the last four bytes.
    const std::string gz_head("\x1f\x8b\x08\x00", 4), gz_tail("\x00\x00\x40\xe1\xde\x02", 6);
    CHECK(module_hashed_bytes("a.ko.gz", gz_head, gz_tail, 999) == 0x02dee140);
    // zstd: single segment, 4-byte content size.
    const std::string zst("\x28\xb5\x2f\xfd\xa0\x40\xe1\xde\x02", 9);
    CHECK(module_hashed_bytes("a.ko.zst", zst, "", 999) == 0x02dee140);
    CHECK(module_hashed_bytes("a.ko.zst", std::string("\x28\xb5\x2f\xfd\x00\x58", 6), "", 999) ==
          0);  // no content size
    // xz: an index of two blocks (300 000 + 200 B), then the stream footer, then stream padding.
    std::string index(
        "\x00\x02"
        "\x10"
        "\xe0\xa7\x12"
        "\x10"
        "\xc8\x01",
        9);
    index += std::string(3, '\0') + std::string(4, '\x55');  // padding to 4 bytes, CRC32 (not checked)
    REQUIRE(index.size() % 4 == 0);
    std::string footer(4, '\x55');
    const auto backward = static_cast<char>(index.size() / 4 - 1);
    footer += std::string(1, backward) + std::string(3, '\0') + std::string("\x00\x01YZ", 4);
    const std::string xz_head(
        "\xfd"
        "7zXZ\x00\x00\x01",
        8);
    CHECK(module_hashed_bytes("a.ko.xz", xz_head, "junk" + index + footer + std::string(4, '\0'), 999) == 300200);
    CHECK(module_hashed_bytes("a.ko.xz", xz_head, "short", 999) == 0);
    CHECK(module_hashed_bytes("a.ko.xz", "not xz", index + footer, 999) == 0);
}

TEST_CASE("simulate: limits from a header or a recommendation, and what it cannot use is said", "[simulate]") {
    const SimLimits h = limits_from_header(
        "#define FPUTUNE_SHA256_FPU_BYTES 4096U\n#define SHA1_AVX2_FPU_BYTES 0x1000\n"
        "#define FPUTUNE_SHA256_SIMD_MIN_BYTES 64U\n#define OTHER 3\n#define X foo\n",
        "h.h");
    CHECK(h.by_stem.at("SHA256").bytes == 4096);
    CHECK(h.by_stem.at("SHA1_AVX2").bytes == 4096);
    CHECK(h.by_stem.at("SHA256").from == "FPUTUNE_SHA256_FPU_BYTES (line 1)");
    CHECK(h.notes.size() == 2);  // OTHER and X; the SIMD threshold is not a section limit and not an error
    CHECK_THROWS_WITH(limits_from_header("#define NOTHING 1\n", "n.h"), Catch::Contains("n.h: no constant"));
    CHECK_THROWS_WITH(limits_from_header("#define FPUTUNE_SHA256_FPU_BYTES 0\n", "z.h"),
                      Catch::Contains("z.h:1") && Catch::Contains("is 0"));

    const ModelFile m = read_reference_csv(
        "algorithm,bytes,cycles_per_op\nsha256-avx2,4096,20480\nsha256-ssse3,4096,40960\n", "two.csv");
    const Simulation s = simulate({m}, bigbuf_workload(), &h, SimulateOptions{});
    // The algorithm constant covers both variants; a constant that names nothing reached is a note.
    CHECK(row(s, "sha256-avx2").limited->limit_bytes == std::optional<std::uint64_t>(4096));
    CHECK(row(s, "sha256-ssse3").limited->limit_bytes == std::optional<std::uint64_t>(4096));
    REQUIRE(s.notes.size() == 4);
    CHECK(s.notes[2] == "1 constant of h.h names no kernel this workload reaches: SHA1_AVX2_FPU_BYTES (line 2)");
    CHECK(s.notes[3].find("softirqs") != std::string::npos);  // Linux 7.1, the default: the softirq tail
    // A header that names nothing the workload reaches is an error, not an empty column.
    const SimLimits other = limits_from_header("#define FPUTUNE_CRC32C_FPU_BYTES 4096\n", "crc.h");
    CHECK_THROWS_WITH(simulate({m}, bigbuf_workload(), &other, SimulateOptions{}),
                      Catch::Contains("crc.h: no constant names a kernel"));
    // A kernel the CSV names that the models lack.
    CHECK_THROWS_WITH(simulate({m}, requests("sha3-avx2,64,1\n"), nullptr, SimulateOptions{}),
                      Catch::Contains("test-workload.csv:2: kernel 'sha3-avx2' is not in the models") &&
                          Catch::Contains("sha256-avx2"));
    // A built-in workload that reaches nothing in the models.
    CHECK_THROWS_WITH(simulate({m}, wireguard_workload(), nullptr, SimulateOptions{}),
                      Catch::Contains("reaches chacha20, poly1305"));
    ModelFile no_fpu = line_model("crc32c-sse42", 0.2);
    no_fpu.kernels[0].needs_fpu = false;  // the crc32 instruction: no section at all
    CHECK_THROWS_WITH(simulate({no_fpu}, bigbuf_workload(), nullptr, SimulateOptions{}),
                      Catch::Contains("workload bigbuf: no input has an FPU kernel"));
    // From a recommendation: each variant's own limit.
    RecommendOptions ro;
    ro.question.budget_s = 30e-6;
    const SimLimits r = limits_from_recommendation(recommend({m}, ro));
    CHECK(r.by_stem.at("SHA256_AVX2").bytes == 5952);  // 30 us at 1 GHz, 5 cycles/B, whole blocks
    ro.question.budget_s = 1e-9;
    const SimLimits none = limits_from_recommendation(recommend({m}, ro));
    CHECK(none.by_stem.at("SHA256_AVX2").bytes == 64);
    CHECK_FALSE(none.notes.empty());
}

TEST_CASE("simulate renders Elliott 2022's columns and JSON", "[simulate]") {
    const ModelFile cascade = load_models(kElliottCycles);
    const SimLimits limits = limits_from_header(read_file(kElliottLimits), kElliottLimits);
    SimulateOptions o;
    o.question.min_freq_hz = 2.2e9;
    o.question.budget_s = 100e-6;
    const Simulation s = simulate({cascade}, bigbuf_workload(), &limits, o);
    const std::string t = render_simulation(s);
    CHECK_THAT(t, Catch::Contains("calls") && Catch::Contains("cost") && Catch::Contains("maxcycles") &&
                      Catch::Contains("bpf") && Catch::Contains("KiB") && Catch::Contains("maxlen") &&
                      Catch::Contains("Intel Cascade Lake") && Catch::Contains("without limits") &&
                      Catch::Contains("with limits") &&
                      Catch::Contains("none (upstream Linux 7.1 lib/crypto/x86/sha256.h)") &&
                      Catch::Contains("FPUTUNE_SHA256_AVX2_FPU_BYTES") && Catch::Contains("throughput cost") &&
                      Catch::Contains("2.2 GHz"));
    const nlohmann::json j = to_json(s);
    CHECK(j["schema"] == kSimulationSchema);
    CHECK(j["inputs"]["min_freq_hz"] == 2.2e9);
    bool seen = false;
    for (const auto& k : j["machines"][0]["kernels"])
        if (k["kernel"] == "sha256-avx2") {
            seen = true;
            CHECK(k["without_limits"]["limit_bytes"].is_null());
            CHECK(k["with_limits"]["limit_bytes"] == 14080);
            CHECK(k["with_limits"]["calls"] == 760);
            CHECK(k["with_limits"]["within_budget"] == true);
            CHECK(k["without_limits"]["within_budget"] == false);
        }
    CHECK(seen);
}

TEST_CASE("CLI: simulate prints the tables, and bad input is one line and exit 2", "[simulate][cli]") {
    const std::string from = " --from " + kElliottCycles;
    Run r = fputune_cli("simulate" + from + " --workload bigbuf --limits " + kElliottLimits +
                        " --min-freq 2.2GHz --budget 30us");
    INFO(r.err);
    REQUIRE(r.rc == 0);
    CHECK_THAT(r.out, Catch::Contains("with limits") && Catch::Contains("34816") && Catch::Contains("OVER"));
    r = fputune_cli("simulate" + from + " --workload bigbuf --budget 30us --min-freq 2.2GHz --json");
    REQUIRE(r.rc == 0);
    CHECK(nlohmann::json::parse(r.out)["inputs"]["limits"].get<std::string>().find("recommend") == 0);
    const std::string wl = write_scratch("ok.csv", "kernel,bytes,count\nsha256,1MiB,2\n");
    r = fputune_cli("simulate" + from + " --workload " + wl);
    CHECK(r.rc == 0);
    CHECK_THAT(r.out, Catch::Contains("\nsha256-avx2 ") && !Catch::Contains("\nsha512-avx2 "));  // rows start a line
    // module-signing from a folder of modules (one plain, one gzip'd) and from a list.
    fs::create_directories(scratch() / "mods" / "kernel");
    write_scratch("mods/kernel/a.ko", std::string(5000, 'x'));
    write_scratch("mods/kernel/b.ko.gz",
                  std::string("\x1f\x8b\x08\x00", 4) + std::string(100, 'x') + std::string("\x00\x00\x01\x00", 4));
    write_scratch("mods/modules.dep", "a.ko:\n");
    r = fputune_cli("simulate" + from + " --workload module-signing --modules " + (scratch() / "mods").string());
    INFO(r.out);
    CHECK(r.rc == 0);
    CHECK_THAT(r.out, Catch::Contains("2 modules") && Catch::Contains("1 compressed") && Catch::Contains("65536") &&
                          Catch::Contains("\nsha256-avx2 ") && Catch::Contains("\nsha512-avx2 ") &&
                          !Catch::Contains("\nsha1-avx2 "));
    r = fputune_cli("simulate" + from + " --workload module-signing --modules 48186713,1MiB");
    CHECK(r.rc == 0);
    CHECK_THAT(r.out, Catch::Contains("48186713"));

    struct Case {
        std::string args, says;
    };
    const std::vector<Case> cases = {
        {"simulate" + from + " --workload boot", "unknown workload"},
        {"simulate" + from, "--workload is required"},
        {"simulate" + from + " --workload " + write_scratch("empty.csv", ""), "no requests"},
        {"simulate" + from + " --workload " + write_scratch("bad.csv", "kernel,bytes,count\nsha256-avx2,64\n"),
         "bad.csv:2"},
        {"simulate" + from + " --workload " + write_scratch("unknown.csv", "sha3-avx2,64,1\n"),
         "'sha3-avx2' is not in the models"},
        {"simulate" + from + " --workload wireguard", "reaches chacha20, poly1305"},
        {"simulate" + from + " --workload module-signing --modules /nonexistent-dir", "/nonexistent-dir"},
        {"simulate" + from + " --workload module-signing --modules " + write_scratch("sizes.txt", "12\nabc\n"),
         "sizes.txt:2"},
        {"simulate" + from + " --workload module-signing --modules " + (scratch() / "mods" / "kernel" / "..").string() +
             "/none-here",
         "none-here"},
        {"simulate" + from + " --workload bigbuf --modules 1MiB", "only for --workload module-signing"},
        {"simulate" + from + " --workload bigbuf --limits " + write_scratch("none.h", "#define X 1\n"), "no constant"},
        {"simulate" + from + " --workload bigbuf --limits /nonexistent.h", "/nonexistent.h"},
        {"simulate" + from + " --workload bigbuf --budget 30xs", "30xs"},
        {"simulate" + from + " --workload bigbuf --min-freq -1GHz", "-1GHz"},
        {"simulate" + from + " --workload bigbuf --repeat 0", "--repeat"},
        {"simulate" + from + " --workload bigbuf --pair-cycles -5", "--pair-cycles"},
        {"simulate" + from + " --workload bigbuf --cache warm", "--cache warm"},
        {"simulate --from /nonexistent.json --workload bigbuf", "/nonexistent.json"},
    };
    for (const auto& c : cases) {
        const Run b = fputune_cli(c.args);
        INFO(c.args << "\nstdout: " << b.out << "\nstderr: " << b.err);
        CHECK(b.rc == 2);
        CHECK_THAT(b.err, Catch::Contains(c.says));
        CHECK(std::count(b.err.begin(), b.err.end(), '\n') == 1);
        CHECK(b.out.empty());
    }
}

TEST_CASE("workloads on the Zen 3 sweep: each reaches only its algorithms, in the --linux version's shapes",
          "[simulate][golden]") {
    const std::vector<ModelFile> zen3 = {load_models(FPUTUNE_ZEN3_SWEEP)};
    SimulateOptions o;
    o.question.budget_s = 30e-6;
    auto algorithms = [](const Simulation& s) {
        std::set<std::string> a;
        for (const SimRow& r : s.machines.at(0).rows) a.insert(r.algorithm);
        return a;
    };
    o.linux_version = "6.12";
    const Simulation dm_old = simulate(zen3, dm_crypt_workload(), nullptr, o);
    o.linux_version = "7.1";
    const Simulation dm_new = simulate(zen3, dm_crypt_workload(), nullptr, o);
    CHECK(algorithms(dm_new) == std::set<std::string>{"aes-256-xts"});
    for (const SimRow& r : dm_old.machines.at(0).rows) {
        INFO(r.kernel);
        CHECK(r.upstream.limit_bytes == 4096u);  // 6.12: the fast path only within one page
        CHECK(r.upstream.limit_from.find("Linux 6.12") != std::string::npos);
        CHECK(r.upstream.sections == 262144);
    }
    for (const SimRow& r : dm_new.machines.at(0).rows) {
        INFO(r.kernel);
        CHECK_FALSE(r.upstream.limit_bytes);  // 6.15+: the whole message, a 4 KiB sector
        CHECK(r.upstream.limit_from.find("Linux 7.1") != std::string::npos);
        CHECK(r.upstream.sections == 262144);
    }
    const Simulation wg = simulate(zen3, wireguard_workload(), nullptr, o);
    CHECK(algorithms(wg) == std::set<std::string>{"chacha20", "poly1305"});
    for (const SimRow& r : wg.machines.at(0).rows) {
        INFO(r.kernel);
        CHECK(r.upstream.simd_min_bytes == (r.algorithm == "chacha20" ? 65u : 288u));
        CHECK(r.upstream.simd_requests == 50000);  // the 48-byte packets take the no-FPU path
    }
    for (const auto& n : wg.workload.notes) CHECK(n.find("not modelled") == std::string::npos);
}

TEST_CASE("simulate: costs are against no limit, never negative, and nhpoly1305 has 6.12's 4 KiB chunks",
          "[simulate][golden]") {
    const std::vector<ModelFile> zen3 = {load_models(FPUTUNE_ZEN3_SWEEP)};
    RecommendOptions ro;
    ro.question.budget_s = 30e-6;
    const SimLimits limits = limits_from_recommendation(recommend(zen3, ro));
    SimulateOptions o;
    o.question.budget_s = 30e-6;
    for (const char* version : {"6.12", "7.1"}) {
        o.linux_version = version;
        const Simulation s = simulate(zen3, bigbuf_workload(), &limits, o);
        for (const SimRow& r : s.machines.at(0).rows) {
            INFO(version << " " << r.kernel);
            CHECK(r.throughput_cost >= 0);  // nh's was -46 %: its 1 KiB upstream chunks against a larger limit
            CHECK(r.upstream_cost >= 0);
        }
        const SimRow& nhp = row(s, "nhpoly1305-avx2");
        CHECK(nhp.upstream.limit_bytes == (std::string(version) == "6.12" ? 4096u : 1024u));
        CHECK(nhp.upstream.limit_from.find("no upstream entry") == std::string::npos);
        // nh against no limit: 1 KiB (7.1) or 4 KiB (6.12) chunks of 1 MiB cost something, never a saving.
        CHECK(row(s, "nh-avx2").upstream_cost > 0);
    }
    // Constants the workload does not reach are named as constants.
    const Simulation wg = simulate(zen3, wireguard_workload(), &limits, o);
    bool named = false;
    for (const auto& n : wg.notes)
        if (n.find("name no kernel this workload reaches") != std::string::npos) {
            named = true;
            CHECK(n.find("recommended, recommended") == std::string::npos);
            CHECK(n.find("FPUTUNE_") != std::string::npos);
        }
    CHECK(named);
}
