// SPDX-License-Identifier: MIT
// The crc family: what each CRC computes, the entry point of every ISA file (it continues a CRC register
// over len bytes, any len; the only symbol an ISA file exports) and the glue that makes a Kernel of one.
// The glue is instantiated by table.cpp only, with baseline flags.
#pragma once

#include <cstddef>
#include <cstdint>

#include "glue.hpp"

namespace fputune::crc {

// The register is the CRC before the final xor, in the low bits: reflected for crc32c, crc32 and
// crc64 (as Linux crc32c()/crc32_le()/crc64_nvme() pass it), msb-first for crct10dif.
using UpdateFn = std::uint64_t (*)(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept;

#define FPUTUNE_CRC_ENTRY(name) \
    std::uint64_t name(std::uint64_t crc, const std::uint8_t* data, std::size_t len) noexcept

FPUTUNE_CRC_ENTRY(crc32c_update_generic);
FPUTUNE_CRC_ENTRY(crc32c_update_sse42);  // one crc32q chain: Linux's no-FPU path
FPUTUNE_CRC_ENTRY(crc32c_update_sse42_3stream);  // three crc32q chains joined by tables (no FPU either)
FPUTUNE_CRC_ENTRY(crc32c_update_pclmul);
FPUTUNE_CRC_ENTRY(crc32c_update_3way);  // three crc32q chains joined with PCLMULQDQ (Linux crc32c_x86_3way)
FPUTUNE_CRC_ENTRY(crc32c_update_vpclmul_avx2);
FPUTUNE_CRC_ENTRY(crc32c_update_vpclmul_avx512);

FPUTUNE_CRC_ENTRY(crc32_update_generic);
FPUTUNE_CRC_ENTRY(crc32_update_pclmul);
FPUTUNE_CRC_ENTRY(crc32_update_vpclmul_avx2);
FPUTUNE_CRC_ENTRY(crc32_update_vpclmul_avx512);

FPUTUNE_CRC_ENTRY(crct10dif_update_generic);
FPUTUNE_CRC_ENTRY(crct10dif_update_pclmul);
FPUTUNE_CRC_ENTRY(crct10dif_update_vpclmul_avx2);
FPUTUNE_CRC_ENTRY(crct10dif_update_vpclmul_avx512);

FPUTUNE_CRC_ENTRY(crc64_update_generic);
FPUTUNE_CRC_ENTRY(crc64_update_pclmul);
FPUTUNE_CRC_ENTRY(crc64_update_vpclmul_avx2);
FPUTUNE_CRC_ENTRY(crc64_update_vpclmul_avx512);

#undef FPUTUNE_CRC_ENTRY

// What a Kernel of each CRC computes around the register: its start, the final xor, the output size.
struct CrcOutput {
    const char* name;
    std::uint64_t init, xorout;
    std::uint32_t out_bytes;
};
inline constexpr CrcOutput kCrc32cOut{"crc32c", 0xffffffff, 0xffffffff, 4};
inline constexpr CrcOutput kCrc32Out{"crc32", 0xffffffff, 0xffffffff, 4};
inline constexpr CrcOutput kCrcT10difOut{"crct10dif", 0, 0, 2};
inline constexpr CrcOutput kCrc64Out{"crc64", ~std::uint64_t{0}, ~std::uint64_t{0}, 8};

// The glue around an update function: the context is the running register. init() loads the initial
// value, blocks() continues it over whole blocks (each call is self-contained: folding variants fold
// and reduce inside it, as the Linux kernel's crc functions do per call), final() continues over any
// tail and writes the CRC after the final xor as out_bytes little-endian bytes. BlockBytes is the
// variant's own: its vector width (16, 32, 64), or 8 for table and crc32-instruction code.
template <const CrcOutput& O, UpdateFn F, std::uint32_t BlockBytes>
struct Crc {
    struct Ctx {
        std::uint64_t reg;
    };
    static constexpr Algorithm algorithm{.name = O.name, .block_bytes = BlockBytes, .out_bytes = O.out_bytes};
    static constexpr std::size_t ctx_bytes = sizeof(Ctx);

    static void init(void* ctx, const std::uint8_t*) noexcept { static_cast<Ctx*>(ctx)->reg = O.init; }
    static void blocks(void* ctx, const std::uint8_t* data, std::size_t nblocks) noexcept {
        auto* c = static_cast<Ctx*>(ctx);
        c->reg = F(c->reg, data, nblocks * BlockBytes);
    }
    static void final(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out) noexcept {
        const std::uint64_t v = F(static_cast<Ctx*>(ctx)->reg, data, len) ^ O.xorout;
        for (unsigned i = 0; i < O.out_bytes; ++i) out[i] = static_cast<std::uint8_t>(v >> (8 * i));
    }
};

template <UpdateFn F, std::uint32_t BlockBytes>
using Crc32c = Crc<kCrc32cOut, F, BlockBytes>;
template <UpdateFn F, std::uint32_t BlockBytes>
using Crc32 = Crc<kCrc32Out, F, BlockBytes>;
template <UpdateFn F, std::uint32_t BlockBytes>
using CrcT10dif = Crc<kCrcT10difOut, F, BlockBytes>;
template <UpdateFn F, std::uint32_t BlockBytes>
using Crc64 = Crc<kCrc64Out, F, BlockBytes>;

}  // namespace fputune::crc
