// SPDX-License-Identifier: MIT
// The portable reference of the aes family: AES (FIPS 197) byte by byte, CTR (SP 800-38A), XTS
// (IEEE 1619 / SP 800-38E) and GCM (SP 800-38D) written as the standards state them. It is the oracle
// every SIMD variant is tested against, not a fast path: the S-box is a table indexed by secret bytes
// (NOT constant-time) and GHASH is the standard's bit-serial multiplication (Algorithm 1). Compiled
// with -mgeneral-regs-only, like the kernel's no-FPU code.
#include <array>
#include <cassert>
#include <cstring>

#include "aes.hpp"

namespace fputune::aes {

namespace {

using u8 = std::uint8_t;
using u64 = std::uint64_t;

constexpr u8 xtime(u8 a) noexcept { return static_cast<u8>((a << 1) ^ ((a >> 7) * 0x1b)); }

constexpr u8 gf256_mul(u8 a, u8 b) noexcept {
    u8 r = 0;
    for (int i = 0; i < 8; ++i) {
        if (b & 1) r ^= a;
        a = xtime(a);
        b >>= 1;
    }
    return r;
}

constexpr u8 rotl8(u8 x, int n) noexcept { return static_cast<u8>((x << n) | (x >> (8 - n))); }

// FIPS 197 section 5.1.1: the multiplicative inverse in GF(2^8) (0 -> 0), then the affine map.
constexpr std::array<u8, 256> make_sbox() noexcept {
    std::array<u8, 256> s{};
    for (int x = 0; x < 256; ++x) {
        u8 inv = 0;
        for (int y = 1; y < 256 && x; ++y)
            if (gf256_mul(static_cast<u8>(x), static_cast<u8>(y)) == 1) inv = static_cast<u8>(y);
        s[x] = static_cast<u8>(inv ^ rotl8(inv, 1) ^ rotl8(inv, 2) ^ rotl8(inv, 3) ^ rotl8(inv, 4) ^ 0x63);
    }
    return s;
}
constexpr std::array<u8, 256> kSbox = make_sbox();
static_assert(kSbox[0x00] == 0x63 && kSbox[0x53] == 0xed);  // FIPS 197 Figure 7 and the 5.1.1 example

void encrypt_block(const AesKey* k, const u8 in[16], u8 out[16]) noexcept {
    u8 s[16];
    for (int i = 0; i < 16; ++i) s[i] = in[i] ^ k->rk[0][i];
    for (unsigned r = 1; r <= k->rounds; ++r) {
        // SubBytes and ShiftRows (byte i is row i % 4 of column i / 4; row r moves left by r columns).
        u8 t[16];
        for (int c = 0; c < 4; ++c)
            for (int row = 0; row < 4; ++row) t[row + 4 * c] = kSbox[s[row + 4 * ((c + row) % 4)]];
        if (r != k->rounds) {  // MixColumns
            for (int c = 0; c < 4; ++c) {
                const u8 a0 = t[4 * c], a1 = t[4 * c + 1], a2 = t[4 * c + 2], a3 = t[4 * c + 3];
                t[4 * c] = static_cast<u8>(xtime(a0) ^ xtime(a1) ^ a1 ^ a2 ^ a3);
                t[4 * c + 1] = static_cast<u8>(a0 ^ xtime(a1) ^ xtime(a2) ^ a2 ^ a3);
                t[4 * c + 2] = static_cast<u8>(a0 ^ a1 ^ xtime(a2) ^ xtime(a3) ^ a3);
                t[4 * c + 3] = static_cast<u8>(xtime(a0) ^ a0 ^ a1 ^ a2 ^ xtime(a3));
            }
        }
        for (int i = 0; i < 16; ++i) s[i] = t[i] ^ k->rk[r][i];
    }
    std::memcpy(out, s, 16);
}

// ---- CTR -------------------------------------------------------------------------------------------
void inc128_be(u8 c[16]) noexcept {
    for (int i = 15; i >= 0; --i)
        if (++c[i] != 0) break;
}

void inc32_be(u8 c[16]) noexcept {
    for (int i = 15; i >= 12; --i)
        if (++c[i] != 0) break;
}

// ---- XTS: multiplication of the tweak by alpha (x) in GF(2^128), little-endian bytes ----------------
void mul_alpha(u8 t[16]) noexcept {
    const u8 carry = t[15] >> 7;
    for (int i = 15; i > 0; --i) t[i] = static_cast<u8>((t[i] << 1) | (t[i - 1] >> 7));
    t[0] = static_cast<u8>((t[0] << 1) ^ (carry * 0x87));
}

void xor16(u8* out, const u8* a, const u8* b) noexcept {
    for (int i = 0; i < 16; ++i) out[i] = a[i] ^ b[i];
}

// ---- GHASH: SP 800-38D Algorithm 1, bit 0 = the most significant bit of byte 0 --------------------
u64 load_be64(const u8* p) noexcept {
    u64 v = 0;
    for (int i = 0; i < 8; ++i) v = v << 8 | p[i];
    return v;
}
void store_be64(u8* p, u64 v) noexcept {
    for (int i = 7; i >= 0; --i, v >>= 8) p[i] = static_cast<u8>(v);
}

// x = x * y
void gf128_mul(u8 x[16], const u8 y[16]) noexcept {
    const u64 x0 = load_be64(x), x1 = load_be64(x + 8);
    u64 z0 = 0, z1 = 0, v0 = load_be64(y), v1 = load_be64(y + 8);
    for (int i = 0; i < 128; ++i) {
        const u64 bit = (i < 64 ? x0 >> (63 - i) : x1 >> (127 - i)) & 1;
        z0 ^= v0 & (0 - bit);
        z1 ^= v1 & (0 - bit);
        const u64 lsb = v1 & 1;
        v1 = (v1 >> 1) | (v0 << 63);
        v0 = (v0 >> 1) ^ ((0 - lsb) & 0xe100000000000000ull);  // R = 11100001 || 0^120
    }
    store_be64(x, z0);
    store_be64(x + 8, z1);
}

void ghash_update(const u8 h[16], u8 ghash[16], const u8* p, std::size_t len) noexcept {
    while (len) {
        u8 block[16] = {};
        const std::size_t n = len < 16 ? len : 16;
        std::memcpy(block, p, n);
        xor16(ghash, ghash, block);
        gf128_mul(ghash, h);
        p += n;
        len -= n;
    }
}

// src ^ the keystream of counter blocks ctr, inc(ctr), ... (SP 800-38A section 6.5).
void ctr_crypt(const AesKey* key, u8 ctr[16], void (*inc)(u8*) noexcept, const u8* src, u8* dst,
               std::size_t len) noexcept {
    while (len) {
        u8 ks[16];
        encrypt_block(key, ctr, ks);
        inc(ctr);
        const std::size_t n = len < 16 ? len : 16;
        for (std::size_t i = 0; i < n; ++i) dst[i] = src[i] ^ ks[i];
        src += n;
        dst += n;
        len -= n;
    }
}

}  // namespace

void aes_expand_key(AesKey* k, const u8* key, std::size_t key_bytes) noexcept {
    assert(key_bytes == 16 || key_bytes == 24 || key_bytes == 32);
    const unsigned nk = static_cast<unsigned>(key_bytes / 4);
    k->rounds = nk + 6;
    u8* w = &k->rk[0][0];  // words of 4 bytes, FIPS 197 section 5.2
    std::memcpy(w, key, key_bytes);
    u8 rcon = 1;
    for (unsigned i = nk; i < 4 * (k->rounds + 1); ++i) {
        u8 t[4];
        std::memcpy(t, w + 4 * (i - 1), 4);
        if (i % nk == 0) {
            const u8 t0 = t[0];
            t[0] = static_cast<u8>(kSbox[t[1]] ^ rcon);
            t[1] = kSbox[t[2]];
            t[2] = kSbox[t[3]];
            t[3] = kSbox[t0];
            rcon = xtime(rcon);
        } else if (nk > 6 && i % nk == 4) {
            for (u8& b : t) b = kSbox[b];
        }
        for (int j = 0; j < 4; ++j) w[4 * i + j] = w[4 * (i - nk) + j] ^ t[j];
    }
}

void aes_ctr_generic(const AesKey* key, u8 ctr[16], const u8* src, u8* dst, std::size_t len) noexcept {
    ctr_crypt(key, ctr, inc128_be, src, dst, len);
}

void aes_xts_encrypt_iv_generic(const AesKey* tweak_key, const u8 iv[16], u8 tweak[16]) noexcept {
    encrypt_block(tweak_key, iv, tweak);
}

void aes_xts_encrypt_generic(const AesKey* key, const u8* src, u8* dst, std::size_t len, u8 tweak[16]) noexcept {
    assert(len >= 16);
    const std::size_t tail = len % 16;
    std::size_t full = len / 16 - (tail ? 1 : 0);  // with a tail, the last whole block goes with it
    for (; full; --full, src += 16, dst += 16) {
        u8 x[16];
        xor16(x, src, tweak);
        encrypt_block(key, x, x);
        xor16(dst, x, tweak);
        mul_alpha(tweak);
    }
    if (tail) {  // ciphertext stealing (IEEE 1619 section 5.3.2)
        u8 cc[16], pp[16];
        xor16(cc, src, tweak);
        encrypt_block(key, cc, cc);
        xor16(cc, cc, tweak);
        mul_alpha(tweak);
        std::memcpy(pp, src + 16, tail);  // read the tail before writing over it (dst may be src)
        std::memcpy(pp + tail, cc + tail, 16 - tail);
        std::memcpy(dst + 16, cc, tail);
        xor16(pp, pp, tweak);
        encrypt_block(key, pp, pp);
        xor16(dst, pp, tweak);
    }
}

void aes_gcm_setkey_generic(GcmKey* key, const u8* raw_key, std::size_t key_bytes) noexcept {
    aes_expand_key(&key->aes, raw_key, key_bytes);
    std::memset(key->hpow, 0, sizeof key->hpow);
    const u8 zero[16] = {};
    encrypt_block(&key->aes, zero, key->hpow[0]);  // H = E(K, 0^128)
    key->npow = 1;
}

void aes_gcm_aad_generic(const GcmKey* key, u8 ghash[16], const u8* aad, std::size_t len) noexcept {
    ghash_update(key->hpow[0], ghash, aad, len);
}

void aes_gcm_enc_generic(const GcmKey* key, u8 ctr[16], u8 ghash[16], const u8* src, u8* dst,
                         std::size_t len) noexcept {
    ctr_crypt(&key->aes, ctr, inc32_be, src, dst, len);
    ghash_update(key->hpow[0], ghash, dst, len);
}

void aes_gcm_final_generic(const GcmKey* key, const u8 iv[12], const u8 ghash[16], std::uint64_t aad_bytes,
                           std::uint64_t data_bytes, u8 tag[16]) noexcept {
    u8 x[16], lengths[16], j0[16] = {};
    std::memcpy(x, ghash, 16);
    store_be64(lengths, aad_bytes * 8);
    store_be64(lengths + 8, data_bytes * 8);
    ghash_update(key->hpow[0], x, lengths, 16);
    std::memcpy(j0, iv, 12);
    j0[15] = 1;
    encrypt_block(&key->aes, j0, tag);
    xor16(tag, tag, x);
}

}  // namespace fputune::aes
