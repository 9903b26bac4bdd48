// SPDX-License-Identifier: MIT
// One conformance suite over the whole registry, one test case per kernel (test_util.hpp: `ctest -R
// '^<kernel>:'`): every variant against its algorithm's portable reference at block edges, misaligned,
// split into sections every way the glue loop may, with guards. Published vectors for the references
// live in the family tests (sha_test.cpp, crc_test.cpp, mac_test.cpp).
#include <algorithm>
#include <cstring>
#include <set>
#include <string_view>

#include <catch2/catch.hpp>

#include "cpu.hpp"
#include "registry.hpp"
#include "test_util.hpp"

using namespace fputune;
using namespace fputune::test;

namespace {

std::vector<std::uint8_t> key_for(const Kernel& k, std::uint64_t seed) { return random_bytes(k.key_bytes, seed); }

bool not_reference(const Kernel& k) { return &k != reference_kernel(k.algorithm); }

void equals_reference(const Kernel& k) {
    const Kernel* ref = reference_kernel(k.algorithm);
    INFO(k.name << " vs " << ref->name);
    const std::size_t b = k.block_bytes;
    const std::vector<std::size_t> lengths = {0, 1, 3, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129,
                                              b - 1, b, b + 1, 2 * b + 3, 8 * b - 1, 8 * b, 8 * b + 1,
                                              255, 256, 257, 511, 512, 513, 1000, 1023, 1024, 1025, 4096 + 7, 65536 + 13};
    auto data = random_bytes(65536 + 64, 11);
    auto key = key_for(k, 12);
    for (std::size_t len : lengths) {
        INFO("length " << len);
        CHECK(digest_hex(k, key, data.data(), len) == digest_hex(*ref, key, data.data(), len));
    }
}

void misaligned_with_guards(const Kernel& k) {
    auto key = key_for(k, 21);
    auto src = random_bytes(3000, 22);
    const std::string expect = digest_hex(k, key, src.data(), src.size());
    for (std::size_t offset = 1; offset < 16; ++offset) {
        INFO("offset " << offset);
        std::vector<std::uint8_t> buf(src.size() + 64, 0);
        std::memcpy(buf.data() + offset, src.data(), src.size());
        std::vector<std::uint8_t> out(k.out_bytes + 2 * 16 + offset, 0xa5);
        kernel_digest(k, key.empty() ? nullptr : key.data(), buf.data() + offset, src.size(), out.data() + 16 + offset);
        CHECK(to_hex(out.data() + 16 + offset, k.out_bytes) == expect);
        CHECK(std::all_of(out.begin(), out.begin() + 16 + offset, [](std::uint8_t x) { return x == 0xa5; }));
        CHECK(std::all_of(out.begin() + 16 + offset + k.out_bytes, out.end(), [](std::uint8_t x) { return x == 0xa5; }));
        CHECK(std::memcmp(buf.data() + offset, src.data(), src.size()) == 0);
    }
}

void every_split(const Kernel& k) {
    auto key = key_for(k, 31);
    const std::size_t b = k.block_bytes;
    // Every split of up to 6 blocks plus a tail into sections (all compositions of the block count).
    for (std::size_t nblocks = 0; nblocks <= 6; ++nblocks)
        for (std::size_t tail : {std::size_t{0}, std::size_t{1}, b - 1}) {
            const std::size_t len = nblocks * b + tail;
            auto data = random_bytes(len + 1, 32 + len);
            const std::string expect = digest_hex(k, key, data.data(), len);
            for (unsigned mask = 0; mask < (1u << (nblocks ? nblocks - 1 : 0)); ++mask) {
                std::vector<std::size_t> sections;
                std::size_t run = 1;
                for (std::size_t i = 1; i < nblocks; ++i) {
                    if (mask & (1u << (i - 1))) {
                        sections.push_back(run);
                        run = 0;
                    }
                    ++run;
                }
                if (nblocks) sections.push_back(run);
                INFO("blocks " << nblocks << " tail " << tail << " split mask " << mask);
                CHECK(sectioned_hex(k, key, data.data(), len, sections) == expect);
            }
        }
    // Random long splits, with empty sections mixed in, as the glue loop with any FPU limit makes.
    auto data = random_bytes(64 * 1024 + 77, 33);
    const std::string expect = digest_hex(k, key, data.data(), data.size());
    std::mt19937_64 rng(34);
    for (int trial = 0; trial < 20; ++trial) {
        INFO("trial " << trial);
        CHECK(sectioned_hex(k, key, data.data(), data.size(), random_sections(data.size() / b, rng, 39)) == expect);
    }
}

void nothing_past_ctx(const Kernel& k) {
    REQUIRE(k.ctx_bytes <= kMaxCtxBytes);
    alignas(kCtxAlign) std::uint8_t ctx[kMaxCtxBytes];
    std::memset(ctx, 0x5a, sizeof ctx);
    auto key = key_for(k, 41);
    auto data = random_bytes(8 * k.block_bytes + 5, 42);
    k.init(ctx, key.empty() ? nullptr : key.data());
    k.blocks(ctx, data.data(), 8);
    std::vector<std::uint8_t> out(k.out_bytes);
    k.final(ctx, data.data() + 8 * k.block_bytes, 5, out.data());
    CHECK(std::all_of(ctx + k.ctx_bytes, ctx + kMaxCtxBytes, [](std::uint8_t x) { return x == 0x5a; }));
}

const PerKernel kEqualsReference("conformance: equals the reference at block edges and beyond", "[conformance]",
                                 not_reference, equals_reference);
const PerKernel kMisaligned("conformance: misaligned input and output, guard bytes intact, input untouched",
                            "[conformance]", PerKernel::all, misaligned_with_guards);
const PerKernel kEverySplit("conformance: every split into sections gives the same output", "[conformance][sections]",
                            PerKernel::all, every_split);
const PerKernel kNothingPastCtx("conformance: writes nothing past ctx_bytes", "[conformance]", PerKernel::all,
                                nothing_past_ctx);

}  // namespace

TEST_CASE("registry: names are unique, fields are sane, every algorithm has a portable reference", "[registry]") {
    std::set<std::string> names;
    for (const Kernel* k : all_kernels()) {
        INFO(k->name);
        CHECK(names.insert(k->name).second);
        CHECK(k->block_bytes > 0);
        CHECK(k->ctx_bytes <= kMaxCtxBytes);
        CHECK(k->out_bytes > 0);
        CHECK(k->init != nullptr);
        CHECK(k->blocks != nullptr);
        CHECK(k->final != nullptr);
        const Kernel* ref = reference_kernel(k->algorithm);
        REQUIRE(ref != nullptr);
        CHECK(std::string_view(ref->isa) != "auto");
        // isa means one thing in every family (kernel.hpp, glue.hpp): the name's suffix for ours; "auto" for
        // a provider that picks its own code (then the name ends in the provider); someone else's code for
        // one ISA is <algorithm>-<isa>-<suffix>.
        const std::string alg = k->algorithm, isa = k->isa, name = k->name;
        if (std::string_view(k->provider) == "fputune")
            CHECK(alg + "-" + isa == name);
        else if (isa == "auto")
            CHECK(alg + "-" + k->provider == name);
        else
            CHECK(name.rfind(alg + "-" + isa + "-", 0) == 0);
    }
}

TEST_CASE("masking: with every feature disabled the portable kernels still serve each algorithm", "[masking]") {
    const FeatureSet all = ~FeatureSet{0};
    for (const std::string& alg : algorithms()) {
        INFO(alg);
        const Kernel* best = best_kernel(alg, detected_features() & ~close_mask(all));
        REQUIRE(best != nullptr);
        CHECK(best->required == 0);
    }
    // Masking one feature masks what depends on it.
    CHECK((close_mask(feature_bit(Feature::avx)) & feature_bit(Feature::avx512vl)) != 0);
    CHECK((close_mask(feature_bit(Feature::avx512f)) & feature_bit(Feature::avx2)) == 0);
    CHECK_THROWS_WITH(parse_feature_list("avx9"), Catch::Contains("unknown feature 'avx9'"));
    CHECK(parse_feature_list("AVX512,shani") == (feature_bit(Feature::avx512f) | feature_bit(Feature::sha)));
}

TEST_CASE("masking: a masked kernel is never chosen, the next best is", "[masking]") {
    for (const std::string& alg : algorithms()) {
        const Kernel* best = best_kernel(alg, detected_features());
        if (!best || best->required == 0) continue;
        FeatureSet without = detected_features() & ~close_mask(best->required);
        const Kernel* next = best_kernel(alg, without);
        INFO(alg << ": best " << best->name);
        REQUIRE(next != nullptr);
        CHECK(next != best);
        CHECK(missing_features(*next, without) == 0);
    }
}
