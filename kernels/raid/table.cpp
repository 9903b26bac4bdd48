// SPDX-License-Identifier: MIT
// The raid family table: per algorithm, best variant first, the portable reference last among ours (a test
// oracle: reference_only), then ISA-L for the same ISAs. Baseline flags: the glue (raid.hpp) runs here and calls
// the ISA entry points after the registry has checked the CPU.
#include "families.hpp"
#include "raid.hpp"

namespace fputune {
namespace {

using namespace raid;
using F = Feature;
// Linux's raid6_have_avx512() asks for all of these.
constexpr FeatureSet kRaid6Avx512 = features(F::avx2, F::avx512f, F::avx512bw, F::avx512vl, F::avx512dq);

constexpr Variant reference(const char* name) { return {.name = name, .needs_fpu = false, .reference_only = true}; }

constexpr Kernel kKernels[] = {
    // raid6: src = N data disks, dst = P, Q; bytes per disk in blocks of the x4 loop's step: 4 vectors.
    kernel<Raid6<raid6_gen_avx512, 1, 0, 256>>({.name = "raid6-avx512", .required = kRaid6Avx512}),
    kernel<Raid6<raid6_gen_avx2, 1, 0, 128>>({.name = "raid6-avx2", .required = features(F::avx, F::avx2)}),
    kernel<Raid6<raid6_gen_sse2, 1, 0, 64>>({.name = "raid6-sse2", .required = features(F::sse2)}),
    kernel<Raid6<raid6_gen_generic>>(reference("raid6-generic")),
    // ISA-L: at least 2 data disks (pq_gen fails on 1); pq_gen_sse needs SSE4.1 and 16-byte aligned buffers,
    // pq_gen_avx2 32, pq_gen_avx512 64.
    kernel<Raid6<raid6_gen_isal_avx512, 2, 64>>({.name = "raid6-avx512-isal",
                                                 .isa = "avx512",
                                                 .provider = "isal",
                                                 .required = features(F::avx512f, F::avx512bw, F::avx512vl)}),
    kernel<Raid6<raid6_gen_isal_avx2, 2, 32>>(
        {.name = "raid6-avx2-isal", .isa = "avx2", .provider = "isal", .required = features(F::avx, F::avx2)}),
    kernel<Raid6<raid6_gen_isal_sse, 2, 16>>(
        {.name = "raid6-sse-isal", .isa = "sse", .provider = "isal", .required = features(F::sse41)}),

    // xor: dst[0] ^= N sources; bytes per source in blocks of the loop's step: 512 bytes, xor-sse's 256.
    kernel<Xor<xor_gen_avx512>>({.name = "xor-avx512", .required = features(F::avx512f)}),
    kernel<Xor<xor_gen_avx>>({.name = "xor-avx", .required = features(F::avx)}),
    kernel<Xor<xor_gen_sse, 0, 256>>({.name = "xor-sse", .required = features(F::sse2)}),
    kernel<Xor<xor_gen_generic>>(reference("xor-generic")),
    kernel<Xor<xor_gen_isal_avx512, 64>>({.name = "xor-avx512-isal",
                                          .isa = "avx512",
                                          .provider = "isal",
                                          .required = features(F::avx512f, F::avx512bw, F::avx512vl)}),
    kernel<Xor<xor_gen_isal_avx, 32>>(
        {.name = "xor-avx-isal", .isa = "avx", .provider = "isal", .required = features(F::avx)}),
    kernel<Xor<xor_gen_isal_sse, 16>>(
        {.name = "xor-sse-isal", .isa = "sse", .provider = "isal", .required = features(F::sse41)}),
};

}  // namespace

std::span<const Kernel> raid_kernels() noexcept { return kKernels; }

}  // namespace fputune
