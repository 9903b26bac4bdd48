// SPDX-License-Identifier: MIT
// NH (the Adiantum hash of Linux crypto/nhpoly1305) in portable C++, and the streaming glue of nh and
// nhpoly1305 that every NH core shares (baseline flags; it only calls the core it is given).
//
// nhpoly1305 is Linux's crypto_nhpoly1305: key = 16 bytes of Poly1305 r || the 1072-byte NH key
// (NHPOLY1305_KEY_SIZE = 1088), each 1024-byte NH message (the last one shorter, its tail zero-padded to
// 16 bytes) hashed to 32 bytes and fed to Poly1305 as two blocks; the output is h mod p, without s.
// nh (a fputune definition, so NH alone has a fixed-size output): key = the 1072-byte NH key, the data is
// cut into 1024-byte NH messages as above, and the output is the 4 x 64-bit NH sums of all messages added
// lane-wise mod 2^64 (32 bytes, little-endian). Since NH is a sum over 16-byte units, that is one sum over
// all units, each unit using the key at its offset within its message.
#include <cassert>
#include <cstring>

#include "mac.hpp"

namespace fputune::mac {

namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

// The context of both: the NH sums are of all messages (nh) or of the current one (nhpoly1305, whose
// Poly1305 absorbs each message's hash).
struct NhCtx {
    u32 key[kNhKeyWords];
    u64 sums[4];
    u32 pos;  // bytes of the current NH message already hashed (a multiple of 16, below 1024)
    Poly1305Core poly;
};
static_assert(sizeof(NhCtx) <= kNhCtxBytes);

u32 load_le32(const std::uint8_t* p) noexcept {
    u32 v;
    std::memcpy(&v, p, 4);
    return v;
}

void load_nh_key(u32* key, const std::uint8_t* bytes) noexcept {
    for (std::size_t i = 0; i < kNhKeyWords; ++i) key[i] = load_le32(bytes + 4 * i);
}

// The NH hash of the message so far is complete: Poly1305 absorbs its 32 bytes as two full blocks.
void nh_hash_to_poly(NhCtx* c) noexcept {
    std::uint8_t bytes[32];
    std::memcpy(bytes, c->sums, 32);  // little-endian words, as Linux's __le64 hash
    poly1305_core_blocks(&c->poly, bytes, 2, 1);
}

// Feeds whole units to the core, message by message: each unit uses the key at its offset within its
// 1024-byte message. With per_message (nhpoly1305) each message starts from zero sums and its hash goes
// to Poly1305 when it is complete.
void stream(NhCtx* c, const std::uint8_t* data, std::size_t nunits, NhCoreFn core, bool per_message) noexcept {
    std::size_t len = nunits * kNhMessageUnit;
    while (len) {
        if (per_message && c->pos == 0) c->sums[0] = c->sums[1] = c->sums[2] = c->sums[3] = 0;
        const std::size_t n = len < kNhMessageBytes - c->pos ? len : kNhMessageBytes - c->pos;
        core(c->key + c->pos / 4, data, n, c->sums);
        c->pos += static_cast<u32>(n);
        data += n;
        len -= n;
        if (c->pos == kNhMessageBytes) {
            c->pos = 0;
            if (per_message) nh_hash_to_poly(c);
        }
    }
}

// All units of a request's rest, the last one zero-padded.
void stream_final(NhCtx* c, const std::uint8_t* data, std::size_t len, NhCoreFn core, bool per_message) noexcept {
    stream(c, data, len / kNhMessageUnit, core, per_message);
    if (len % kNhMessageUnit) {
        std::uint8_t unit[kNhMessageUnit] = {};
        std::memcpy(unit, data + len / kNhMessageUnit * kNhMessageUnit, len % kNhMessageUnit);
        stream(c, unit, 1, core, per_message);
    }
}

}  // namespace

void nh_core_generic(const u32* key, const std::uint8_t* m, std::size_t len, u64 sums[4]) noexcept {
    assert(len % kNhMessageUnit == 0);
    u64 s0 = sums[0], s1 = sums[1], s2 = sums[2], s3 = sums[3];
    for (; len; len -= 16, m += 16, key += 4) {
        const u32 m0 = load_le32(m), m1 = load_le32(m + 4), m2 = load_le32(m + 8), m3 = load_le32(m + 12);
        // Pass i pairs words 0,2 and 1,3 of the unit, each plus the key 4*i words further on.
        s0 += static_cast<u64>(m0 + key[0]) * (m2 + key[2]) + static_cast<u64>(m1 + key[1]) * (m3 + key[3]);
        s1 += static_cast<u64>(m0 + key[4]) * (m2 + key[6]) + static_cast<u64>(m1 + key[5]) * (m3 + key[7]);
        s2 += static_cast<u64>(m0 + key[8]) * (m2 + key[10]) + static_cast<u64>(m1 + key[9]) * (m3 + key[11]);
        s3 += static_cast<u64>(m0 + key[12]) * (m2 + key[14]) + static_cast<u64>(m1 + key[13]) * (m3 + key[15]);
    }
    sums[0] = s0;
    sums[1] = s1;
    sums[2] = s2;
    sums[3] = s3;
}

void nh_glue_init(void* ctx, const std::uint8_t* key) noexcept {
    auto* c = static_cast<NhCtx*>(ctx);
    load_nh_key(c->key, key);
    c->sums[0] = c->sums[1] = c->sums[2] = c->sums[3] = 0;
    c->pos = 0;
}

void nh_glue_blocks(void* ctx, const std::uint8_t* data, std::size_t nblocks, NhCoreFn core) noexcept {
    stream(static_cast<NhCtx*>(ctx), data, nblocks, core, false);
}

void nh_glue_final(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out, NhCoreFn core) noexcept {
    auto* c = static_cast<NhCtx*>(ctx);
    stream_final(c, data, len, core, false);
    std::memcpy(out, c->sums, 32);
}

void nhpoly1305_glue_init(void* ctx, const std::uint8_t* key) noexcept {
    auto* c = static_cast<NhCtx*>(ctx);
    std::uint8_t poly_key[32] = {};
    std::memcpy(poly_key, key, 16);  // r only: nhpoly1305 never adds s
    poly1305_core_init(&c->poly, poly_key);
    load_nh_key(c->key, key + 16);
    c->pos = 0;
}

void nhpoly1305_glue_blocks(void* ctx, const std::uint8_t* data, std::size_t nblocks, NhCoreFn core) noexcept {
    stream(static_cast<NhCtx*>(ctx), data, nblocks, core, true);
}

void nhpoly1305_glue_final(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out,
                           NhCoreFn core) noexcept {
    auto* c = static_cast<NhCtx*>(ctx);
    stream_final(c, data, len, core, true);
    if (c->pos) nh_hash_to_poly(c);  // a message begun and not yet absorbed
    poly1305_core_emit(&c->poly, false, out);
}

}  // namespace fputune::mac
