// SPDX-License-Identifier: MIT
// The raid family against the mathematics: RAID6's P and Q against an independent GF(2^8) sum (bitwise
// multiplication mod 0x11d, not the kernels' doubling), hand-computed stripes, and recovery of every pair of lost
// disks from P and Q (H. Peter Anvin, "The mathematics of RAID-6"), on every variant and peer; xor against its
// algebra. Block edges, misalignment, guards and section splits are the conformance suite's.
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "cpu.hpp"
#include "raid.hpp"
#include "registry.hpp"
#include "test_util.hpp"

using namespace fputune;
using namespace fputune::test;

namespace {

using Bytes = std::vector<std::uint8_t>;

// GF(2^8) with the RAID6 polynomial x^8 + x^4 + x^3 + x^2 + 1, by shift-and-add: independent of the kernels'
// bytewise doubling.
std::uint8_t gf_mul(std::uint8_t a, std::uint8_t b) {
    unsigned r = 0, x = a;
    for (int i = 0; i < 8; ++i, x <<= 1)
        if (b >> i & 1) r ^= x;
    for (int bit = 15; bit >= 8; --bit)
        if (r >> bit & 1) r ^= 0x11du << (bit - 8);
    return static_cast<std::uint8_t>(r);
}
std::uint8_t gf_pow2(unsigned e) {
    std::uint8_t r = 1;
    for (unsigned i = 0; i < e % 255; ++i) r = gf_mul(r, 2);
    return r;
}
std::uint8_t gf_inv(std::uint8_t a) {  // a^254
    std::uint8_t r = 1;
    for (int i = 0; i < 254; ++i) r = gf_mul(r, a);
    return r;
}

std::vector<const Kernel*> runnable(const std::string& algorithm) {
    std::vector<const Kernel*> out;
    for (const Kernel* k : all_kernels()) {
        if (algorithm != k->algorithm) continue;
        if (FeatureSet missing = missing_features(*k, usable_features())) {
            WARN("SKIPPED " << k->name << ": this CPU lacks " << feature_list_string(missing));
            continue;
        }
        out.push_back(k);
    }
    return out;
}

// A stripe held as aligned vectors (64 bytes: every kernel's and peer's alignment), run through one kernel.
struct Stripe {
    std::vector<Bytes> disks;  // data, then the destinations
    std::size_t bytes;
    Stripe(std::size_t n, std::size_t dests, std::size_t bytes_) : bytes(bytes_) {
        for (std::size_t i = 0; i < n + dests; ++i) disks.emplace_back(bytes + 64);
    }
    std::uint8_t* at(std::size_t i) {
        std::uint8_t* p = disks[i].data();
        return p + (64 - reinterpret_cast<std::uintptr_t>(p) % 64) % 64;
    }
    void run(const Kernel& k, std::size_t n) {
        std::vector<const std::uint8_t*> src;
        std::vector<std::uint8_t*> dst;
        for (std::size_t i = 0; i < n; ++i) src.push_back(at(i));
        for (std::size_t i = n; i < disks.size(); ++i) dst.push_back(at(i));
        k.stripe(n, bytes, src.data(), dst.data());
    }
    Bytes get(std::size_t i) { return Bytes(at(i), at(i) + bytes); }
    void set(std::size_t i, const Bytes& v) { std::memcpy(at(i), v.data(), bytes); }
};

}  // namespace

TEST_CASE("raid: the table has every variant in order, multi-source shaped", "[raid]") {
    std::vector<std::string> names;
    for (const Kernel* k : all_kernels()) {
        const std::string alg = k->algorithm;
        if (alg != "raid6" && alg != "xor") continue;
        names.emplace_back(k->name);
        INFO(k->name);
        CHECK(is_multisource(*k));
        CHECK(k->dest_count == (alg == "raid6" ? 2u : 1u));
        // Our variants' block is their loop's step, as Linux's (lib/raid6/*.c x4 forms, xor_{sse,avx,avx512}_*()).
        const std::map<std::string, std::uint32_t> step{{"raid6-avx2", 128}, {"raid6-sse2", 64}, {"xor-sse", 256}};
        const auto own = step.find(k->name);
        CHECK(k->block_bytes == (own != step.end() ? own->second : alg == "raid6" ? 256u : 512u));
        if (!is_peer(*k)) CHECK(k->align_bytes == 0);
        if (!is_peer(*k) && !k->needs_fpu) CHECK(k->reference_only);  // no scalar RAID path on x86-64 Linux
    }
    CHECK(names == std::vector<std::string>{"raid6-avx512", "raid6-avx2", "raid6-sse2", "raid6-generic",
                                            "raid6-avx512-isal", "raid6-avx2-isal", "raid6-sse-isal", "xor-avx512",
                                            "xor-avx", "xor-sse", "xor-generic", "xor-avx512-isal", "xor-avx-isal",
                                            "xor-sse-isal"});
    CHECK(std::string(reference_kernel("raid6")->name) == "raid6-generic");
    CHECK(std::string(reference_kernel("xor")->name) == "xor-generic");
}

TEST_CASE("raid6: the GF(2^8) arithmetic of the test itself", "[raid]") {
    CHECK(gf_mul(0x80, 2) == 0x1d);  // x^8 = x^4 + x^3 + x^2 + 1
    CHECK(gf_pow2(8) == 0x1d);
    CHECK(gf_pow2(255) == 1);  // 2 generates the multiplicative group: order 255
    for (unsigned e = 1; e < 255; ++e) CHECK(gf_pow2(e) != 1);
    for (unsigned a = 1; a < 256; ++a)
        CHECK(gf_mul(static_cast<std::uint8_t>(a), gf_inv(static_cast<std::uint8_t>(a))) == 1);
}

TEST_CASE("raid6: hand-computed stripes, every variant and peer", "[raid]") {
    for (const Kernel* k : runnable("raid6")) {
        INFO(k->name);
        const std::size_t b = k->block_bytes;
        // Two disks of ones: P = 1 ^ 1 = 0, Q = 1 + 2 * 1 = 3.
        Stripe s(2, 2, b);
        s.set(0, Bytes(b, 1));
        s.set(1, Bytes(b, 1));
        s.run(*k, 2);
        CHECK(s.get(2) == Bytes(b, 0));
        CHECK(s.get(3) == Bytes(b, 3));
        // 0x80 on disk 1 of 3: P = 0x80, Q = 2 * 0x80 = 0x1d (the polynomial folded back in).
        Stripe t(3, 2, b);
        t.set(0, Bytes(b, 0));
        t.set(1, Bytes(b, 0x80));
        t.set(2, Bytes(b, 0));
        t.run(*k, 3);
        CHECK(t.get(3) == Bytes(b, 0x80));
        CHECK(t.get(4) == Bytes(b, 0x1d));
    }
}

TEST_CASE("raid6: P and Q equal the GF(2^8) sums P = xor D_i, Q = sum 2^i D_i, every variant and peer", "[raid]") {
    for (const Kernel* k : runnable("raid6"))
        for (std::size_t n : {2, 3, 4, 9, 16, 31, 255}) {
            if (n < k->min_sources || n > k->max_sources) continue;
            INFO(k->name << " with " << n << " data disks");
            const std::size_t bytes = k->block_bytes;
            Stripe s(n, 2, bytes);
            for (std::size_t i = 0; i < n; ++i) s.set(i, random_bytes(bytes, 200 + i));
            s.run(*k, n);
            Bytes p(bytes, 0), q(bytes, 0);
            for (std::size_t i = 0; i < n; ++i) {
                const Bytes d = s.get(i);
                const std::uint8_t g = gf_pow2(static_cast<unsigned>(i));
                for (std::size_t j = 0; j < bytes; ++j) {
                    p[j] ^= d[j];
                    q[j] ^= gf_mul(g, d[j]);
                }
            }
            CHECK(s.get(n) == p);
            CHECK(s.get(n + 1) == q);
        }
}

TEST_CASE("raid6: any two lost disks are recovered from the others, P and Q, every variant and peer", "[raid]") {
    for (const Kernel* k : runnable("raid6"))
        for (std::size_t n : {2, 3, 5, 8, 13}) {
            const std::size_t bytes = 2 * k->block_bytes;
            Stripe s(n, 2, bytes);
            for (std::size_t i = 0; i < n; ++i) s.set(i, random_bytes(bytes, 300 + 17 * n + i));
            s.run(*k, n);
            std::vector<Bytes> good;
            for (std::size_t i = 0; i < n + 2; ++i) good.push_back(s.get(i));
            const std::size_t P = n, Q = n + 1;
            for (std::size_t x = 0; x < n + 2; ++x)
                for (std::size_t y = x + 1; y < n + 2; ++y) {
                    INFO(k->name << " with " << n << " data disks: disks " << x << " and " << y << " lost (P = " << P
                                 << ", Q = " << Q << ")");
                    // The survivors' syndromes: the same stripe with the lost data disks zeroed (Linux's zero page).
                    Stripe z(n, 2, bytes);
                    for (std::size_t i = 0; i < n; ++i) z.set(i, i == x || i == y ? Bytes(bytes, 0) : good[i]);
                    z.run(*k, n);
                    const Bytes pxy = z.get(P), qxy = z.get(Q);
                    Bytes dx(bytes), dy(bytes);
                    if (y < n) {  // two data disks: Dx ^ Dy = P ^ Pxy, 2^x Dx ^ 2^y Dy = Q ^ Qxy
                        const std::uint8_t gx = gf_pow2(static_cast<unsigned>(x)),
                                           gy = gf_pow2(static_cast<unsigned>(y));
                        const std::uint8_t inv = gf_inv(gx ^ gy);
                        for (std::size_t j = 0; j < bytes; ++j) {
                            const std::uint8_t a = good[P][j] ^ pxy[j], b = good[Q][j] ^ qxy[j];
                            dx[j] = gf_mul(static_cast<std::uint8_t>(b ^ gf_mul(gy, a)), inv);
                            dy[j] = a ^ dx[j];
                        }
                        CHECK(dx == good[x]);
                        CHECK(dy == good[y]);
                    } else if (x < n && y == P) {  // a data disk and P: Dx = (Q ^ Qx) / 2^x, then P again
                        const std::uint8_t inv = gf_inv(gf_pow2(static_cast<unsigned>(x)));
                        for (std::size_t j = 0; j < bytes; ++j) dx[j] = gf_mul(good[Q][j] ^ qxy[j], inv);
                        CHECK(dx == good[x]);
                        z.set(x, dx);
                        z.run(*k, n);
                        CHECK(z.get(P) == good[P]);
                    } else if (x < n && y == Q) {  // a data disk and Q: Dx = P ^ Px, then Q again
                        for (std::size_t j = 0; j < bytes; ++j) dx[j] = good[P][j] ^ pxy[j];
                        CHECK(dx == good[x]);
                        z.set(x, dx);
                        z.run(*k, n);
                        CHECK(z.get(Q) == good[Q]);
                    } else {  // P and Q: the data is whole, both are recomputed
                        CHECK(z.get(P) == good[P]);
                        CHECK(z.get(Q) == good[Q]);
                    }
                }
        }
}

TEST_CASE("xor: dest ^= every source, every variant and peer", "[raid]") {
    for (const Kernel* k : runnable("xor"))
        for (std::size_t n : {1, 2, 3, 4, 5, 8, 9, 16, 33}) {
            INFO(k->name << " with " << n << " sources");
            const std::size_t bytes = k->block_bytes;
            Stripe s(n, 1, bytes);
            Bytes expect = random_bytes(bytes, 400);
            s.set(n, expect);
            for (std::size_t i = 0; i < n; ++i) {
                const Bytes d = random_bytes(bytes, 401 + i);
                s.set(i, d);
                for (std::size_t j = 0; j < bytes; ++j) expect[j] ^= d[j];
            }
            s.run(*k, n);
            CHECK(s.get(n) == expect);
            // A source twice cancels: dest comes back.
            Stripe t(2, 1, bytes);
            t.set(0, expect);
            t.set(1, expect);
            t.set(2, Bytes(bytes, 0x5c));
            t.run(*k, 2);
            CHECK(t.get(2) == Bytes(bytes, 0x5c));
        }
}
