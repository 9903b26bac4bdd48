// SPDX-License-Identifier: MIT
// The chacha family (ChaCha20, RFC 8439): what it computes, the entry point of every ISA file (the only
// symbol it exports: it encrypts any number of bytes from a 16-word state and advances the block counter),
// and the cipher-shaped glue that makes a Kernel of one (init: key || IV; crypt: one FPU section's whole
// blocks, src -> dst; final: the rest). The glue is instantiated by table.cpp only, with baseline flags.
// Which Linux code each variant stands for (lib/crypto/x86/chacha.h and its .S files):
//   chacha20-ssse3     chacha_4block_xor_ssse3 / chacha_block_xor_ssse3 (xmm; 4 blocks across lanes, 1 in rows)
//   chacha20-avx2      chacha_{8,4,2}block_xor_avx2 (ymm; 8 blocks across lanes, 4 and 2 in rows)
//   chacha20-avx512vl  chacha_{8,4,2}block_xor_avx512vl (ymm with AVX-512VL's vprold and 32 registers)
//   chacha20-generic   chacha_crypt_generic (no vector registers: Linux's path for <= 64 bytes)
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "glue.hpp"

namespace fputune::chacha {

// key (32 bytes) || IV (16 bytes: the 32-bit block counter, little-endian, then the 96-bit nonce), as
// Linux's chacha_init() and OpenSSL's EVP_chacha20() take them; a keystream block is 64 bytes.
inline constexpr Algorithm kChacha20{
    .name = "chacha20", .block_bytes = 64, .key_bytes = 32 + 16, .out_bytes = 0, .iv_bytes = 16};

// "expand 32-byte k"
inline constexpr std::uint32_t kSigma[4] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};

// Encrypts (or decrypts) `bytes` bytes from src to dst (dst == src, or no overlap) with the keystream of
// the 16-word state, then advances the block counter state[12] (32 bits, wrapping, as Linux's) by the
// blocks it used, a partial last one included.
using XorFn = void (*)(std::uint32_t state[16], std::uint8_t* dst, const std::uint8_t* src, std::size_t bytes) noexcept;
void chacha20_xor_generic(std::uint32_t state[16], std::uint8_t* dst, const std::uint8_t* src,
                          std::size_t bytes) noexcept;
void chacha20_xor_ssse3(std::uint32_t state[16], std::uint8_t* dst, const std::uint8_t* src,
                        std::size_t bytes) noexcept;
void chacha20_xor_avx2(std::uint32_t state[16], std::uint8_t* dst, const std::uint8_t* src, std::size_t bytes) noexcept;
void chacha20_xor_avx512vl(std::uint32_t state[16], std::uint8_t* dst, const std::uint8_t* src,
                           std::size_t bytes) noexcept;

struct alignas(64) Chacha20Ctx {
    std::uint32_t state[16];
};

inline std::uint32_t load_le32(const std::uint8_t* p) noexcept {
    return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 | std::uint32_t{p[3]} << 24;
}

// chacha_init(): the constants, the key, the counter and the nonce. No key schedule: nothing to defer.
inline void chacha20_init_state(std::uint32_t state[16], const std::uint8_t* key_iv) noexcept {
    for (int i = 0; i < 4; ++i) state[i] = kSigma[i];
    for (int i = 0; i < 8; ++i) state[4 + i] = load_le32(key_iv + 4 * i);
    for (int i = 0; i < 4; ++i) state[12 + i] = load_le32(key_iv + 32 + 4 * i);
}

template <XorFn Xor>
struct Chacha20 {
    static constexpr Algorithm algorithm = kChacha20;
    static constexpr std::size_t ctx_bytes = sizeof(Chacha20Ctx);
    static void init(void* ctx, const std::uint8_t* key) noexcept {
        chacha20_init_state(static_cast<Chacha20Ctx*>(ctx)->state, key);
    }
    static void crypt(void* ctx, const std::uint8_t* src, std::uint8_t* dst, std::size_t nblocks) noexcept {
        Xor(static_cast<Chacha20Ctx*>(ctx)->state, dst, src, 64 * nblocks);
    }
    static void final(void* ctx, const std::uint8_t* src, std::size_t len, std::uint8_t* out) noexcept {
        Xor(static_cast<Chacha20Ctx*>(ctx)->state, out, src, len);
    }
};

// ---- Peer: OpenSSL 3's EVP_chacha20 (kernels/peers/chacha_openssl.cpp) -----------------------------------
// OpenSSL picks its own code for the CPU; OPENSSL_ia32cap masks it onto one of our paths (README). Its
// context holds the EVP context, created in init and freed in final (that allocation is part of what the
// peer costs per request, as for the other OpenSSL peers), and the block counter, so that a message that
// runs past 2^32 blocks wraps the 32-bit counter as Linux does instead of carrying into the nonce.
struct Chacha20OpenSsl {
    static constexpr Algorithm algorithm = kChacha20;
    static constexpr std::size_t ctx_bytes = 128;
    static void init(void* ctx, const std::uint8_t* key) noexcept;
    static void crypt(void* ctx, const std::uint8_t* src, std::uint8_t* dst, std::size_t nblocks) noexcept;
    static void final(void* ctx, const std::uint8_t* src, std::size_t len, std::uint8_t* out) noexcept;
};

}  // namespace fputune::chacha
