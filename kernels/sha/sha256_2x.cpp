// SPDX-License-Identifier: MIT
// sha256_finup_2x around the two-chain SHA-NI block function (sha.hpp): the shared prefix, the padding of both
// messages, and the length policy of Linux's glue. Baseline flags: the SHA-NI code is only called through
// the block functions, after the registry has checked the CPU.
#include <algorithm>
#include <cstring>

#include "sha.hpp"

namespace fputune::sha {
namespace {

void store_digest(const std::uint32_t state[8], std::uint8_t out[32]) noexcept {
    for (int i = 0; i < 32; ++i) out[i] = static_cast<std::uint8_t>(state[i / 4] >> (24 - 8 * (i % 4)));
}

// The last block(s) of one message: its tail bytes, 0x80, zeros, the bit length big-endian. Returns 1 or 2.
std::size_t pad_tail(const std::uint8_t* tail, std::size_t n, std::uint64_t total_bytes, std::uint8_t out[128]) noexcept {
    std::memset(out, 0, 128);
    if (n) std::memcpy(out, tail, n);
    out[n] = 0x80;
    const std::size_t nb = n + 1 + 8 <= 64 ? 1 : 2;
    for (int i = 0; i < 8; ++i) out[nb * 64 - 1 - i] = static_cast<std::uint8_t>((total_bytes * 8) >> (8 * i));
    return nb;
}

// One message the one-chain way: the prefix, then data, then the padding.
void finup_one(const Sha256Prefix& p, const std::uint8_t* data, std::size_t len, std::uint8_t out[32]) noexcept {
    Sha256Prefix c = p;
    const std::size_t buffered = c.nbytes % 64;
    if (buffered && buffered + len >= 64) {
        std::uint8_t block[64];
        std::memcpy(block, c.buf, buffered);
        std::memcpy(block + buffered, data, 64 - buffered);
        sha256_blocks_shani(c.state, block, 1);
        data += 64 - buffered;
        len -= 64 - buffered;
        c.nbytes += 64 - buffered;
    } else if (buffered) {  // prefix and message end in the same block
        std::memcpy(c.buf + buffered, data, len);
        data = c.buf;
        c.nbytes -= buffered;
        len += buffered;
    }
    const std::size_t whole = len / 64;
    if (whole) sha256_blocks_shani(c.state, data, whole);
    std::uint8_t last[128];
    const std::size_t nb = pad_tail(data + whole * 64, len - whole * 64, c.nbytes + len, last);
    sha256_blocks_shani(c.state, last, nb);
    store_digest(c.state, out);
}

}  // namespace

void sha256_prefix_init(Sha256Prefix& p) noexcept {
    std::memcpy(p.state, kSha256Iv, sizeof p.state);
    p.nbytes = 0;
}

void sha256_prefix_update(Sha256Prefix& p, const std::uint8_t* data, std::size_t len) noexcept {
    while (len) {
        const std::size_t buffered = p.nbytes % 64;
        const std::size_t take = std::min<std::size_t>(len, 64 - buffered);
        std::memcpy(p.buf + buffered, data, take);
        p.nbytes += take;
        data += take;
        len -= take;
        if (p.nbytes % 64 == 0) sha256_blocks_generic(p.state, p.buf, 1);
    }
}

void sha256_finup_2x_shani(const Sha256Prefix& p, const std::uint8_t* data1, const std::uint8_t* data2,
                           std::size_t len, std::uint8_t out1[32], std::uint8_t out2[32]) noexcept {
    std::uint32_t a[8], b[8];
    std::memcpy(a, p.state, sizeof a);
    std::memcpy(b, p.state, sizeof b);
    const std::size_t buffered = p.nbytes % 64;
    const std::uint64_t total = p.nbytes + len;
    std::uint8_t first_a[64], first_b[64];
    if (buffered && buffered + len >= 64) {  // the prefix's partial block, completed by each message
        std::memcpy(first_a, p.buf, buffered);
        std::memcpy(first_b, p.buf, buffered);
        std::memcpy(first_a + buffered, data1, 64 - buffered);
        std::memcpy(first_b + buffered, data2, 64 - buffered);
        sha256_blocks_shani_2x(a, b, first_a, first_b, 1);
        data1 += 64 - buffered;
        data2 += 64 - buffered;
        len -= 64 - buffered;
    } else if (buffered) {  // prefix and messages end in the same block: pad from copies
        std::memcpy(first_a, p.buf, buffered);
        std::memcpy(first_b, p.buf, buffered);
        std::memcpy(first_a + buffered, data1, len);
        std::memcpy(first_b + buffered, data2, len);
        data1 = first_a;
        data2 = first_b;
        len += buffered;
    }
    const std::size_t whole = len / 64;
    if (whole) sha256_blocks_shani_2x(a, b, data1, data2, whole);
    std::uint8_t last_a[128], last_b[128];
    const std::size_t nb = pad_tail(data1 + whole * 64, len - whole * 64, total, last_a);
    pad_tail(data2 + whole * 64, len - whole * 64, total, last_b);
    sha256_blocks_shani_2x(a, b, last_a, last_b, nb);
    store_digest(a, out1);
    store_digest(b, out2);
}

bool sha256_finup_2x(const Sha256Prefix& p, const std::uint8_t* data1, const std::uint8_t* data2, std::size_t len,
                     std::uint8_t out1[32], std::uint8_t out2[32]) noexcept {
    if (len >= kSha256Finup2xMinBytes && len <= kSha256Finup2xMaxBytes) {
        sha256_finup_2x_shani(p, data1, data2, len, out1, out2);  // one section
        return true;
    }
    finup_one(p, data1, len, out1);
    finup_one(p, data2, len, out2);
    return false;
}

}  // namespace fputune::sha
