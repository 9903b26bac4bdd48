/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-driver bytes_per_fpu limits of Elliott's "bigbuf tests with bytes_per_fpu limits as shown"
 * (linux-kernel, 2022-11-01, "RE: [PATCH v2 00/19] crypto: x86 - fix RCU stalls"; the bpf column of the
 * bigbuf-limited rows of elliott-2022-fpu-sections.csv), named for the kernels of
 * elliott-2022-4k-cycles.csv, for `fputune simulate --limits`. Intel Cascade Lake at 2.2 GHz.
 */
#ifndef _FPUTUNE_ELLIOTT_2022_LIMITS_H
#define _FPUTUNE_ELLIOTT_2022_LIMITS_H

#define FPUTUNE_SHA1_AVX2_FPU_BYTES 34816U   /* sha1-avx2, 34 KiB */
#define FPUTUNE_SHA224_AVX2_FPU_BYTES 14080U /* sha224-avx2, 13.75 KiB */
#define FPUTUNE_SHA256_AVX2_FPU_BYTES 14080U /* sha256-avx2, 13.75 KiB */
#define FPUTUNE_SHA384_AVX2_FPU_BYTES 20480U /* sha384-avx2, 20 KiB */
#define FPUTUNE_SHA512_AVX2_FPU_BYTES 20480U /* sha512-avx2, 20 KiB */
#define FPUTUNE_CRC32C_FPU_BYTES 895232U     /* crc32c-intel, 874 KiB */
#define FPUTUNE_CRCT10DIF_FPU_BYTES 626944U  /* crct10dif-pclmul, 612 KiB */

#endif /* _FPUTUNE_ELLIOTT_2022_LIMITS_H */
