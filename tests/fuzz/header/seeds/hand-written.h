/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _MY_LIMITS_H
#define _MY_LIMITS_H
// upstream's 4 KiB, by hand
#define FPUTUNE_SHA256_FPU_BYTES 4096U
#define FPUTUNE_CRC32C_FPU_BYTES (0x2000UL) /* 8 KiB */
#if 0
#define FPUTUNE_SHA512_FPU_BYTES 1048576
#elif 1
#define FPUTUNE_SHA512_FPU_BYTES \
        2048
#else
#define FPUTUNE_SHA512_FPU_BYTES 1
#endif
#define FPUTUNE_SHA256_SIMD_MIN_BYTES 288
#define NOT_OURS "string /* not a comment */"
#define FUNC(x) ((x) + 1)
#undef FPUTUNE_CRC32C_FPU_BYTES
#define FPUTUNE_CRC32C_FPU_BYTES 16384
#endif /* _MY_LIMITS_H */
