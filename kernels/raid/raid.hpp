// SPDX-License-Identifier: MIT
// The raid family: RAID6 P+Q syndrome generation and the xor of N sources, multi-source kernels (kernel.hpp,
// docs/design.md): one FPU section = one call over every source, no chunking, no state.
// Per algorithm the entry point of every ISA file (the only symbol it exports) and the glue that makes a Kernel
// of one; the glue is instantiated by table.cpp only, with baseline flags.
// Which Linux code each variant stands for:
//   raid6-sse2, -avx2, -avx512   lib/raid6/{sse2,avx2,avx512}.c gen_syndrome, the 4-way unrolled ("x4") forms
//                                 the 64-bit kernel's boot benchmark picks: P and Q stored non-temporally
//   xor-sse, -avx, -avx512       the x86 xor_gen() templates (arch/x86/include/asm/xor*.h): dest ^= at most
//                                 4 sources per pass over the buffer (do_2 .. do_5), all passes in one section
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include "glue.hpp"

namespace fputune::raid {

// raid6: Q = sum of g^i x D_i over GF(2^8) with generator g = 2 and polynomial x^8+x^4+x^3+x^2+1 (0x11d), P = the
// xor of the D_i (H. Peter Anvin, "The mathematics of RAID-6"); src[0..N) the data disks, dst[0] = P, dst[1] = Q.
// The algorithm's block, 256 bytes, is the widest loop's step (the 4-way unrolled AVX-512 one; md passes whole
// pages); each of our variants has its own loop's step as its block (the Stripe glue's kBlock), as Linux's
// loops do: sse2 64, avx2 128, avx512 256 bytes.
inline constexpr Algorithm kRaid6{.name = "raid6", .block_bytes = 256, .out_bytes = 0};
// xor: dst[0] ^= src[0] ^ ... ^ src[N-1]; the algorithm's block, 512 bytes, is the AVX and AVX-512 loops' step
// (xor_avx_*() and xor_avx512_*() take bytes in multiples of 512); xor-sse's is 256, as xor_sse_*()'s.
inline constexpr Algorithm kXor{.name = "xor", .block_bytes = 512, .out_bytes = 0};

// The most data disks RAID6 can have: 2 has order 255 in GF(2^8), so g^0 .. g^254 are distinct coefficients.
inline constexpr std::uint32_t kRaid6MaxSources = 255;
inline constexpr std::uint32_t kXorMaxSources = std::numeric_limits<std::uint32_t>::max();

using StripeFn = void (*)(std::size_t sources, std::size_t bytes, const std::uint8_t* const* src,
                          std::uint8_t* const* dst) noexcept;
#define FPUTUNE_STRIPE_ENTRY(name) \
    void name(std::size_t sources, std::size_t bytes, const std::uint8_t* const* src, std::uint8_t* const* dst) noexcept
FPUTUNE_STRIPE_ENTRY(raid6_gen_generic);
FPUTUNE_STRIPE_ENTRY(raid6_gen_sse2);
FPUTUNE_STRIPE_ENTRY(raid6_gen_avx2);
FPUTUNE_STRIPE_ENTRY(raid6_gen_avx512);
FPUTUNE_STRIPE_ENTRY(xor_gen_generic);
FPUTUNE_STRIPE_ENTRY(xor_gen_sse);
FPUTUNE_STRIPE_ENTRY(xor_gen_avx);
FPUTUNE_STRIPE_ENTRY(xor_gen_avx512);

// The glue: an entry point and its stripe shape. align_bytes: what the entry requires of every buffer;
// block_bytes: the bytes per source its loop takes in one step (a section holds whole steps), the algorithm's
// unless given. The limits are rounded to it: a coarser block than the code's would cut up to one block off.
template <const Algorithm& A, std::uint32_t kDests, StripeFn Fn, std::uint32_t kMinSources, std::uint32_t kMaxSources,
          std::uint32_t kAlign, std::uint32_t kBlock>
struct Stripe {
    static_assert(kBlock > 0 && A.block_bytes % kBlock == 0, "a variant's block divides the algorithm's");
    static constexpr Algorithm algorithm = A;
    static constexpr std::uint32_t dest_count = kDests, min_sources = kMinSources, max_sources = kMaxSources,
                                   align_bytes = kAlign, block_bytes = kBlock;
    static void stripe(std::size_t sources, std::size_t bytes, const std::uint8_t* const* src,
                       std::uint8_t* const* dst) noexcept {
        Fn(sources, bytes, src, dst);
    }
};
template <StripeFn Fn, std::uint32_t kMinSources = 1, std::uint32_t kAlign = 0,
          std::uint32_t kBlock = kRaid6.block_bytes>
using Raid6 = Stripe<kRaid6, 2, Fn, kMinSources, kRaid6MaxSources, kAlign, kBlock>;
template <StripeFn Fn, std::uint32_t kAlign = 0, std::uint32_t kBlock = kXor.block_bytes>
using Xor = Stripe<kXor, 1, Fn, 1, kXorMaxSources, kAlign, kBlock>;

// ---- Peers: ISA-L's pq_gen_* and xor_gen_* for one ISA each (kernels/peers/raid_isal.cpp) ------------------
// ISA-L takes one array of sources then destinations, lengths as int, and buffers aligned as its code loads and
// stores them; its xor_gen writes dest = xor of the sources, so Linux's dest ^= sources is dest passed as the
// first source too (its loops read every source of a column before they store it).
FPUTUNE_STRIPE_ENTRY(raid6_gen_isal_sse);
FPUTUNE_STRIPE_ENTRY(raid6_gen_isal_avx2);
FPUTUNE_STRIPE_ENTRY(raid6_gen_isal_avx512);
FPUTUNE_STRIPE_ENTRY(xor_gen_isal_sse);
FPUTUNE_STRIPE_ENTRY(xor_gen_isal_avx);
FPUTUNE_STRIPE_ENTRY(xor_gen_isal_avx512);
#undef FPUTUNE_STRIPE_ENTRY

}  // namespace fputune::raid
