// SPDX-License-Identifier: MIT
// One conformance suite over the whole registry, one test case per kernel (test_util.hpp: `ctest -R
// '^<kernel>:'`): every variant against its algorithm's portable reference at block edges, misaligned,
// split into sections every way the glue loop may, with guards. Published vectors for the references
// live in the family tests (sha_test.cpp, crc_test.cpp, mac_test.cpp).
#include <algorithm>
#include <functional>
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

// A cipher with ciphertext stealing has no messages shorter than a block (other than empty ones).
bool valid_length(const Kernel& k, std::size_t len) { return len == 0 || len >= k.final_min_bytes; }

// Output bytes of a one-shot over len bytes: the digest, or a cipher's output and tag.
std::size_t output_bytes(const Kernel& k, std::size_t len) { return k.out_bytes + (is_cipher(k) ? len : 0); }

// One composition of nblocks blocks into sections: bit i - 1 of mask set = a section ends before block i.
std::vector<std::size_t> split_of(std::size_t nblocks, unsigned mask) {
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
    return sections;
}

std::vector<std::uint8_t> key_for(const Kernel& k, std::uint64_t seed) { return random_bytes(k.key_bytes, seed); }

// The single-stream kernels (init/blocks/final, or a cipher's crypt()); multi-source ones are further down.
bool single_stream(const Kernel& k) { return !is_multisource(k); }
bool single_stream_not_reference(const Kernel& k) { return single_stream(k) && &k != reference_kernel(k.algorithm); }

void equals_reference(const Kernel& k) {
    const Kernel* ref = reference_kernel(k.algorithm);
    INFO(k.name << " vs " << ref->name);
    const std::size_t b = k.block_bytes;
    const std::vector<std::size_t> lengths = {
        0,   1,   3,   15,    16,   17,    31,        32,        33,       63,        64,  65,
        127, 128, 129, b - 1, b,    b + 1, 2 * b + 3, 8 * b - 1, 8 * b,    8 * b + 1, 255, 256,
        257, 511, 512, 513,   1000, 1023,  1024,      1025,      4096 + 7, 65536 + 13};
    auto data = random_bytes(65536 + 64, 11);
    auto key = key_for(k, 12);
    for (std::size_t len : lengths) {
        if (!valid_length(k, len)) continue;
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
        const std::size_t n = output_bytes(k, src.size());
        std::vector<std::uint8_t> out(n + 2 * 16 + offset, 0xa5);
        kernel_digest(k, key.empty() ? nullptr : key.data(), buf.data() + offset, src.size(), out.data() + 16 + offset);
        CHECK(to_hex(out.data() + 16 + offset, n) == expect);
        CHECK(std::all_of(out.begin(), out.begin() + 16 + offset, [](std::uint8_t x) { return x == 0xa5; }));
        CHECK(std::all_of(out.begin() + 16 + offset + n, out.end(), [](std::uint8_t x) { return x == 0xa5; }));
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
            if (!valid_length(k, len)) continue;
            auto data = random_bytes(len + 1, 32 + len);
            const std::string expect = digest_hex(k, key, data.data(), len);
            for (unsigned mask = 0; mask < (1u << (nblocks ? nblocks - 1 : 0)); ++mask) {
                INFO("blocks " << nblocks << " tail " << tail << " split mask " << mask);
                CHECK(sectioned_hex(k, key, data.data(), len, split_of(nblocks, mask)) == expect);
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
    // (a cipher that steals from the last whole block gets it with the tail)
    const std::size_t sections = k.final_min_bytes ? 7 : 8, rest = data.size() - sections * k.block_bytes;
    std::vector<std::uint8_t> out(output_bytes(k, data.size()));
    run_section(k, ctx, data.data(), out.data(), sections);
    k.final(ctx, data.data() + sections * k.block_bytes, rest,
            is_cipher(k) ? out.data() + sections * k.block_bytes : out.data());
    CHECK(std::all_of(ctx + k.ctx_bytes, ctx + kMaxCtxBytes, [](std::uint8_t x) { return x == 0x5a; }));
}

const PerKernel kEqualsReference("conformance: equals the reference at block edges and beyond", "[conformance]",
                                 single_stream_not_reference, equals_reference);
const PerKernel kMisaligned("conformance: misaligned input and output, guard bytes intact, input untouched",
                            "[conformance]", single_stream, misaligned_with_guards);
const PerKernel kEverySplit("conformance: every split into sections gives the same output", "[conformance][sections]",
                            single_stream, every_split);
const PerKernel kNothingPastCtx("conformance: writes nothing past ctx_bytes", "[conformance]", single_stream,
                                nothing_past_ctx);

}  // namespace

TEST_CASE("registry: names are unique, fields are sane, every algorithm has a portable reference", "[registry]") {
    std::set<std::string> names;
    for (const Kernel* k : all_kernels()) {
        INFO(k->name);
        CHECK(names.insert(k->name).second);
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
        const Kernel* ref = reference_kernel(k->algorithm);
        REQUIRE(ref != nullptr);
        CHECK(std::string_view(ref->isa) != "auto");
        if (is_multisource(*k)) {  // stateless: one stripe() per section and nothing else
            CHECK(k->init == nullptr);
            CHECK(k->blocks == nullptr);
            CHECK(k->final == nullptr);
            CHECK(!is_cipher(*k));
            CHECK((k->ctx_bytes == 0 && k->key_bytes == 0));
            // A multi-message hash's digests are its algorithm's (the reference is single-stream); RAID's have none.
            if (is_multimessage(*k))
                CHECK((!is_multisource(*ref) && ref->out_bytes == k->out_bytes && k->dest_count == k->max_sources));
            else
                CHECK(k->out_bytes == 0);
            CHECK(k->block_bytes > 0);
            CHECK(k->dest_count > 0);
            CHECK((k->min_sources >= 1 && k->min_sources <= k->max_sources));
            continue;
        }
        CHECK(k->block_bytes > 0);
        CHECK(k->ctx_bytes <= kMaxCtxBytes);
        CHECK((k->out_bytes > 0 || is_cipher(*k)));
        CHECK(k->init != nullptr);
        CHECK((k->blocks != nullptr || is_cipher(*k)));  // a cipher's blocks() is its associated data, if any
        CHECK(k->final != nullptr);
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

// ---- Multi-source kernels (RAID6, xor): the output is every destination buffer -------------------------------

namespace {

// A stripe's buffers: n sources and dest_count destinations of `bytes` each, each at its own offset from a
// 64-byte boundary (offset(i) for buffer i, sources first), with guard bytes before and after every destination.
// Destinations start with random contents: xor reads them, raid6 must overwrite them.
struct StripeBuffers {
    static constexpr std::size_t kGuard = 64;
    std::vector<std::vector<std::uint8_t>> store;
    std::vector<const std::uint8_t*> src;
    std::vector<std::uint8_t*> dst;
    std::vector<std::size_t> at;
    std::size_t bytes;

    StripeBuffers(
        const Kernel& k, std::size_t n, std::size_t bytes_, std::uint64_t seed,
        const std::function<std::size_t(std::size_t)>& offset = [](std::size_t) { return std::size_t{0}; })
        : bytes(bytes_) {
        for (std::size_t i = 0; i < n + k.dest_count; ++i) {
            store.emplace_back(bytes + 2 * kGuard + 64 + 64, std::uint8_t{0xa5});
            std::uint8_t* base = store.back().data();
            const std::size_t to64 = (64 - reinterpret_cast<std::uintptr_t>(base + kGuard) % 64) % 64;
            at.push_back(kGuard + to64 + offset(i));
            auto fill = random_bytes(bytes, seed * 1000 + i);
            std::copy(fill.begin(), fill.end(), base + at.back());
            if (i < n)
                src.push_back(base + at.back());
            else
                dst.push_back(base + at.back());
        }
    }
    void run(const Kernel& k) { k.stripe(src.size(), bytes, src.data(), dst.data()); }
    std::vector<std::uint8_t> dests() const {
        std::vector<std::uint8_t> v;
        for (const std::uint8_t* d : dst) v.insert(v.end(), d, d + bytes);
        return v;
    }
    std::vector<std::uint8_t> sources() const {
        std::vector<std::uint8_t> v;
        for (const std::uint8_t* s : src) v.insert(v.end(), s, s + bytes);
        return v;
    }
    bool guards_intact() const {
        for (std::size_t i = src.size(); i < store.size(); ++i) {
            const auto& b = store[i];
            if (!std::all_of(b.begin(), b.begin() + at[i], [](std::uint8_t x) { return x == 0xa5; }) ||
                !std::all_of(b.begin() + at[i] + bytes, b.end(), [](std::uint8_t x) { return x == 0xa5; }))
                return false;
        }
        return true;
    }
};

// "" when equal, else where the first difference is (buffers of megabytes do not print well).
std::string first_difference(const std::vector<std::uint8_t>& got, const std::vector<std::uint8_t>& want,
                             std::size_t bytes) {
    if (got == want) return "";
    const auto at = static_cast<std::size_t>(std::mismatch(got.begin(), got.end(), want.begin()).first - got.begin());
    return "buffer " + std::to_string(at / bytes) + " differs first at byte " + std::to_string(at % bytes) + ": " +
           to_hex(got.data() + at, std::min<std::size_t>(16, got.size() - at)) + " instead of " +
           to_hex(want.data() + at, std::min<std::size_t>(16, want.size() - at));
}

std::vector<std::size_t> source_counts(const Kernel& k) {
    std::vector<std::size_t> out;
    for (std::size_t n : {1, 2, 3, 4, 5, 7, 8, 16, 17, 33})
        if (n >= k.min_sources && n <= k.max_sources) out.push_back(n);
    out.push_back(std::min<std::size_t>(k.max_sources, 255));
    return out;
}

bool multisource(const Kernel& k) { return is_multisource(k); }
bool multisource_not_reference(const Kernel& k) { return is_multisource(k) && &k != reference_kernel(k.algorithm); }
// Splitting a stripe's columns is meaningful where the output is bytewise (RAID, xor), not for whole messages.
bool bytewise_multisource(const Kernel& k) { return is_multisource(k) && !is_multimessage(k); }

// A multi-message hash: each destination starts with the single-stream reference's digest of its source, at
// lengths from one block (the shortest section it takes) past the 64 KiB of Linux's sha256_finup_2x cap.
void messages_equal_reference(const Kernel& k, const Kernel& ref) {
    const std::size_t b = k.block_bytes;
    for (std::size_t n : source_counts(k))
        for (std::size_t len : std::vector<std::size_t>{b, b + 1, 2 * b - 1, 2 * b + 3, b + 55, b + 56, 1000, 4096,
                                                        65536, 65536 + 13}) {
            INFO(k.name << " vs " << ref.name << ": " << n << " messages of " << len << " bytes");
            StripeBuffers mine(k, n, len, n * 7 + len);
            const auto sources = mine.sources();
            mine.run(k);
            for (std::size_t i = 0; i < n; ++i) {
                INFO("message " << i);
                CHECK(to_hex(mine.dst[i], k.out_bytes) == digest_hex(ref, {}, mine.src[i], len));
            }
            CHECK(mine.guards_intact());
            CHECK(first_difference(mine.sources(), sources, len) == "");
        }
}

void stripe_equals_reference(const Kernel& k) {
    const Kernel* ref = reference_kernel(k.algorithm);
    if (is_multimessage(k)) return messages_equal_reference(k, *ref);
    const std::size_t b = k.block_bytes;
    for (std::size_t n : source_counts(k))
        for (std::size_t blocks : {1, 2, 3, 5, 8, 16, 64, 256}) {
            if (n * blocks * b > (4u << 20)) continue;  // a few MiB per call are enough
            INFO(k.name << " vs " << ref->name << ": " << n << " sources of " << blocks * b << " bytes");
            StripeBuffers mine(k, n, blocks * b, n * 7 + blocks), theirs(*ref, n, blocks * b, n * 7 + blocks);
            const auto sources = mine.sources();
            mine.run(k);
            theirs.run(*ref);
            CHECK(first_difference(mine.dests(), theirs.dests(), mine.bytes) == "");
            CHECK(mine.guards_intact());
            CHECK(first_difference(mine.sources(), sources, mine.bytes) == "");
        }
}

void stripe_misaligned(const Kernel& k) {
    // ISA-L's functions need aligned buffers: they get every multiple of their alignment below 64 instead.
    const std::size_t step = k.align_bytes ? k.align_bytes : 1;
    for (std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{6}}) {
        if (n < k.min_sources || n > k.max_sources) continue;
        const std::size_t bytes = 3 * k.block_bytes;
        StripeBuffers aligned(k, n, bytes, 51 + n);
        aligned.run(k);
        for (std::size_t shift = step; shift < 64; shift += step) {
            INFO(k.name << ": " << n << " sources, buffer i at offset (" << shift << " * (i + 1)) % 64");
            StripeBuffers moved(k, n, bytes, 51 + n, [&](std::size_t i) { return shift * (i + 1) % 64; });
            const auto sources = moved.sources();
            moved.run(k);
            CHECK(first_difference(moved.dests(), aligned.dests(), bytes) == "");
            CHECK(moved.guards_intact());
            CHECK(first_difference(moved.sources(), sources, bytes) == "");
        }
    }
}

// A section is one stripe() over a column range [a, b) of every buffer: Linux never splits a stripe, but the
// output is bytewise, so any split must agree (what a limit in stripe bytes would do).
void stripe_every_split(const Kernel& k) {
    const auto sectioned = [&k](StripeBuffers& s, const std::vector<std::size_t>& sections_blocks) {
        std::size_t off = 0;
        for (std::size_t nb : sections_blocks) {
            if (nb == 0) continue;  // the glue loop makes no empty stripe
            std::vector<const std::uint8_t*> src;
            std::vector<std::uint8_t*> dst;
            for (const std::uint8_t* p : s.src) src.push_back(p + off);
            for (std::uint8_t* p : s.dst) dst.push_back(p + off);
            k.stripe(src.size(), nb * k.block_bytes, src.data(), dst.data());
            off += nb * k.block_bytes;
        }
    };
    const std::size_t n = std::max<std::size_t>(k.min_sources, 5);
    for (std::size_t nblocks = 1; nblocks <= 6; ++nblocks) {
        StripeBuffers whole(k, n, nblocks * k.block_bytes, 60 + nblocks);
        whole.run(k);
        for (unsigned mask = 0; mask < (1u << (nblocks - 1)); ++mask) {
            INFO("blocks " << nblocks << " split mask " << mask);
            StripeBuffers split(k, n, nblocks * k.block_bytes, 60 + nblocks);
            sectioned(split, split_of(nblocks, mask));
            CHECK(first_difference(split.dests(), whole.dests(), split.bytes) == "");
        }
    }
    std::mt19937_64 rng(61);
    StripeBuffers whole(k, n, 64 * k.block_bytes, 62);
    whole.run(k);
    for (int trial = 0; trial < 10; ++trial) {
        INFO("trial " << trial);
        StripeBuffers split(k, n, 64 * k.block_bytes, 62);
        sectioned(split, random_sections(64, rng, 12));
        CHECK(first_difference(split.dests(), whole.dests(), split.bytes) == "");
    }
}

const PerKernel kStripeEqualsReference(
    "conformance (multi-source): equals the reference for every source count and size", "[conformance][multisource]",
    multisource_not_reference, stripe_equals_reference);
const PerKernel kStripeMisaligned(
    "conformance (multi-source): misaligned sources and destinations, guards intact, sources untouched",
    "[conformance][multisource]", multisource, stripe_misaligned);
const PerKernel kStripeEverySplit(
    "conformance (multi-source): every split of a stripe into sections gives the same output",
    "[conformance][multisource][sections]", bytewise_multisource, stripe_every_split);

}  // namespace
