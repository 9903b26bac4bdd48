// SPDX-License-Identifier: MIT
// The entry points of the kernel's x86 crypto asm, declared with the argument types the kernel's own glue
// (arch/x86/crypto/*_glue.c) gives them, and the few state layouts they read and write. The asm is built
// from the user's tree (kernels/linux/CMakeLists.txt); a symbol is referenced only where
// linux_config.h says its file built.
#pragma once

#include <cstddef>
#include <cstdint>

#include "linux_config.h"

namespace fputune::linux_asm {

// The kernel's struct blake2s_state up to what blake2s_compress_* read and write (h, t, f).
struct Blake2sState {
    std::uint32_t h[8];
    std::uint32_t t[2];
    std::uint32_t f[2];
};

// Room for struct poly1305_arch_internal (hash, r, and the key powers the AVX code stores: 24 + 16 + 8 +
// 9 x 16 = 192 bytes, offsets up to 224 written), 16-byte aligned as in struct poly1305_desc_ctx.
inline constexpr std::size_t kPoly1305ArchBytes = 256;

}  // namespace fputune::linux_asm

extern "C" {
// sha1_ssse3_glue.c, sha256_ssse3_glue.c, sha512_ssse3_glue.c, sm3_avx_glue.c (6.12: int blocks, of which the asm
// reads the whole register; lib/crypto/x86 in 6.17+: size_t nblocks): declared size_t for both.
void sha1_transform_ssse3(std::uint32_t* state, const std::uint8_t* data, std::size_t blocks);
void sha1_transform_avx(std::uint32_t* state, const std::uint8_t* data, std::size_t blocks);
void sha1_transform_avx2(std::uint32_t* state, const std::uint8_t* data, std::size_t blocks);
void sha1_ni_transform(std::uint32_t* state, const std::uint8_t* data, std::size_t blocks);
void sha256_transform_ssse3(std::uint32_t* state, const std::uint8_t* data, std::size_t blocks);
void sha256_transform_avx(std::uint32_t* state, const std::uint8_t* data, std::size_t blocks);
void sha256_transform_rorx(std::uint32_t* state, const std::uint8_t* data, std::size_t blocks);
void sha256_ni_transform(std::uint32_t* state, const std::uint8_t* data, std::size_t rounds);
void sha512_transform_ssse3(std::uint64_t* state, const std::uint8_t* data, std::size_t blocks);
void sha512_transform_avx(std::uint64_t* state, const std::uint8_t* data, std::size_t blocks);
void sha512_transform_rorx(std::uint64_t* state, const std::uint8_t* data, std::size_t blocks);
void sm3_transform_avx(std::uint32_t* state, const std::uint8_t* data, std::size_t nblocks);
// lib/crypto/x86/sha256.h (Biggers 2025): ctx is struct __sha256_ctx (state, bytecount, buf); len >= 64.
void sha256_ni_finup2x(const void* ctx, const std::uint8_t* data1, const std::uint8_t* data2, int len,
                       std::uint8_t out1[32], std::uint8_t out2[32]);

// crc32c-intel_glue.c, crc32-pclmul_glue.c, crct10dif-pclmul_glue.c
unsigned int crc_pcl(const std::uint8_t* buffer, int len, unsigned int crc_init);
std::uint32_t crc32_pclmul_le_16(const std::uint8_t* buffer, std::size_t len,
                                 std::uint32_t crc32);  // 16-byte aligned, len >= 64, % 16 == 0
std::uint16_t crc_t10dif_pcl(std::uint16_t init_crc, const std::uint8_t* buf, std::size_t len);  // len >= 16

// 6.15+ (lib/crc/x86/crc32.h, crc-pclmul-template.h): crc32c_x86_3way, and the template's functions, one per CRC
// and width, len >= 16, consts = the address linux_crc_consts.c exports for that CRC.
std::uint32_t crc32c_x86_3way(std::uint32_t crc, const std::uint8_t* buffer, std::size_t len);
#define FPUTUNE_LINUX_CRC_TEMPLATE(prefix, crc_t)                                                         \
    crc_t prefix##_pclmul_sse(crc_t crc, const std::uint8_t* p, std::size_t len, const void* consts);    \
    crc_t prefix##_vpclmul_avx2(crc_t crc, const std::uint8_t* p, std::size_t len, const void* consts);  \
    crc_t prefix##_vpclmul_avx512(crc_t crc, const std::uint8_t* p, std::size_t len, const void* consts);
FPUTUNE_LINUX_CRC_TEMPLATE(crc32_lsb, std::uint32_t)
FPUTUNE_LINUX_CRC_TEMPLATE(crc16_msb, std::uint16_t)
FPUTUNE_LINUX_CRC_TEMPLATE(crc64_lsb, std::uint64_t)
#undef FPUTUNE_LINUX_CRC_TEMPLATE
extern const void* const fputune_linux_crc32_lsb_consts;
extern const void* const fputune_linux_crc16_msb_consts;
extern const void* const fputune_linux_crc64_lsb_consts;

// ghash-clmulni-intel_glue.c: shash is the key as the kernel's ghash_setkey() prepares it (an le128).
void clmul_ghash_mul(std::uint8_t* dst, const std::uint8_t* shash);
void clmul_ghash_update(std::uint8_t* dst, const std::uint8_t* src, unsigned int srclen, const std::uint8_t* shash);

// polyval-clmulni_glue.c: keys = the 8 key powers h^8 .. h^1, 16 bytes each, 16-byte aligned.
void clmul_polyval_update(const std::uint8_t* keys, const std::uint8_t* in, std::size_t nblocks,
                          std::uint8_t* accumulator);
void clmul_polyval_mul(std::uint8_t* op1, const std::uint8_t* op2);

// nhpoly1305-sse2-glue.c, nhpoly1305-avx2-glue.c: the NH hash of one message (len % 16 == 0).
void nh_sse2(const std::uint32_t* key, const std::uint8_t* message, std::size_t message_len, std::uint64_t hash[4]);
void nh_avx2(const std::uint32_t* key, const std::uint8_t* message, std::size_t message_len, std::uint64_t hash[4]);

// blake2s-glue.c
void blake2s_compress_ssse3(fputune::linux_asm::Blake2sState* state, const std::uint8_t* block, std::size_t nblocks,
                            std::uint32_t inc);
void blake2s_compress_avx512(fputune::linux_asm::Blake2sState* state, const std::uint8_t* block, std::size_t nblocks,
                             std::uint32_t inc);

// chacha_glue.c: the state (16 words) is read, not written (the glue advances the counter); len in bytes,
// at most the blocks the function handles (2, 4 or 8; 1 or 4 for ssse3), a partial last block included.
void chacha_block_xor_ssse3(std::uint32_t* state, std::uint8_t* dst, const std::uint8_t* src, unsigned int len,
                            int nrounds);
void chacha_4block_xor_ssse3(std::uint32_t* state, std::uint8_t* dst, const std::uint8_t* src, unsigned int len,
                             int nrounds);
void chacha_2block_xor_avx2(std::uint32_t* state, std::uint8_t* dst, const std::uint8_t* src, unsigned int len,
                            int nrounds);
void chacha_4block_xor_avx2(std::uint32_t* state, std::uint8_t* dst, const std::uint8_t* src, unsigned int len,
                            int nrounds);
void chacha_8block_xor_avx2(std::uint32_t* state, std::uint8_t* dst, const std::uint8_t* src, unsigned int len,
                            int nrounds);
void chacha_2block_xor_avx512vl(std::uint32_t* state, std::uint8_t* dst, const std::uint8_t* src, unsigned int len,
                                int nrounds);
void chacha_4block_xor_avx512vl(std::uint32_t* state, std::uint8_t* dst, const std::uint8_t* src, unsigned int len,
                                int nrounds);
void chacha_8block_xor_avx512vl(std::uint32_t* state, std::uint8_t* dst, const std::uint8_t* src, unsigned int len,
                                int nrounds);

// poly1305_glue.c (poly1305-x86_64-cryptogams.pl): len is in bytes, a multiple of 16.
void poly1305_init_x86_64(void* ctx, const std::uint8_t key[16]);
void poly1305_blocks_x86_64(void* ctx, const std::uint8_t* inp, std::size_t len, std::uint32_t padbit);
void poly1305_emit_x86_64(void* ctx, std::uint8_t mac[16], const std::uint32_t nonce[4]);
void poly1305_blocks_avx(void* ctx, const std::uint8_t* inp, std::size_t len, std::uint32_t padbit);
void poly1305_blocks_avx2(void* ctx, const std::uint8_t* inp, std::size_t len, std::uint32_t padbit);
void poly1305_blocks_avx512(void* ctx, const std::uint8_t* inp, std::size_t len, std::uint32_t padbit);
void poly1305_emit_avx(void* ctx, std::uint8_t mac[16], const std::uint32_t nonce[4]);
}
