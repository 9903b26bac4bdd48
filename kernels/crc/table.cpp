// SPDX-License-Identifier: MIT
// The crc family table: crc32c, crc32, crct10dif, crc64; per algorithm best first, generic, then peers (ISA-L's
// dispatched function first: bench's yardstick; then its code for one ISA, named like our variant it meets).
// Baseline flags: the glue (crc.hpp) runs here and calls the ISA entry points after the registry has
// checked the CPU.
#include "crc.hpp"
#include "families.hpp"
#include "crc_peers.hpp"

namespace fputune {
namespace {

using namespace crc;
using F = Feature;
// What each ISA needs: the pclmul files also use pshufb and pextrq; the crc32c folding variants
// hand inputs under 16 bytes to the crc32 instruction.
constexpr FeatureSet kPclmul = features(F::pclmul, F::ssse3, F::sse41);
constexpr FeatureSet kVpclmulAvx2 = features(F::avx, F::avx2, F::pclmul, F::vpclmulqdq);
constexpr FeatureSet kVpclmulAvx512 = features(F::avx512f, F::avx512vl, F::avx512bw, F::pclmul, F::vpclmulqdq);
constexpr FeatureSet kSse42 = features(F::sse42);

constexpr Kernel kKernels[] = {
    kernel<Crc32c<crc32c_update_vpclmul_avx512, 64>>(
        {.name = "crc32c-vpclmul-avx512", .required = kVpclmulAvx512 | kSse42}),
    kernel<Crc32c<crc32c_update_vpclmul_avx2, 32>>({.name = "crc32c-vpclmul-avx2", .required = kVpclmulAvx2 | kSse42}),
    kernel<Crc32c<crc32c_update_3way, 8>>({.name = "crc32c-3way", .required = features(F::sse42, F::pclmul)}),
    kernel<Crc32c<crc32c_update_pclmul, 16>>({.name = "crc32c-pclmul", .required = kPclmul | kSse42}),
    kernel<Crc32c<crc32c_update_sse42_3stream, 8>>(
        {.name = "crc32c-sse42-3stream", .required = kSse42, .needs_fpu = false}),
    kernel<Crc32c<crc32c_update_sse42, 8>>({.name = "crc32c-sse42", .required = kSse42, .needs_fpu = false}),
    kernel<Crc32c<crc32c_update_generic, 8>>({.name = "crc32c-generic", .needs_fpu = false}),
    kernel<peers::Crc32cIsal>({.name = "crc32c-isal", .provider = "isal"}),
    kernel<Crc32c<peers::crc32c_update_vpclmul_avx512_isal, 16>>({.name = "crc32c-vpclmul-avx512-isal",
                                                                  .isa = "vpclmul-avx512",
                                                                  .provider = "isal",
                                                                  .required = kVpclmulAvx512}),
    kernel<Crc32c<peers::crc32c_update_3way_isal, 16>>(
        {.name = "crc32c-3way-isal", .isa = "3way", .provider = "isal", .required = features(F::sse42, F::pclmul)}),
    kernel<Crc32c<peers::crc32c_update_sse42_3stream_isal, 16>>(
        {.name = "crc32c-sse42-3stream-isal", .isa = "sse42-3stream", .provider = "isal", .required = kSse42}),

    kernel<Crc32<crc32_update_vpclmul_avx512, 64>>({.name = "crc32-vpclmul-avx512", .required = kVpclmulAvx512}),
    kernel<Crc32<crc32_update_vpclmul_avx2, 32>>({.name = "crc32-vpclmul-avx2", .required = kVpclmulAvx2}),
    kernel<Crc32<crc32_update_pclmul, 16>>({.name = "crc32-pclmul", .required = kPclmul}),
    kernel<Crc32<crc32_update_generic, 8>>({.name = "crc32-generic", .needs_fpu = false}),
    kernel<peers::Crc32Isal>({.name = "crc32-isal", .provider = "isal"}),
    kernel<Crc32<peers::crc32_update_vpclmul_avx512_isal, 16>>(
        {.name = "crc32-vpclmul-avx512-isal", .isa = "vpclmul-avx512", .provider = "isal", .required = kVpclmulAvx512}),
    kernel<Crc32<peers::crc32_update_pclmul_isal, 16>>(
        {.name = "crc32-pclmul-isal", .isa = "pclmul", .provider = "isal", .required = kPclmul}),

    kernel<CrcT10dif<crct10dif_update_vpclmul_avx512, 64>>(
        {.name = "crct10dif-vpclmul-avx512", .required = kVpclmulAvx512}),
    kernel<CrcT10dif<crct10dif_update_vpclmul_avx2, 32>>({.name = "crct10dif-vpclmul-avx2", .required = kVpclmulAvx2}),
    kernel<CrcT10dif<crct10dif_update_pclmul, 16>>({.name = "crct10dif-pclmul", .required = kPclmul}),
    kernel<CrcT10dif<crct10dif_update_generic, 8>>({.name = "crct10dif-generic", .needs_fpu = false}),
    kernel<peers::CrcT10difIsal>({.name = "crct10dif-isal", .provider = "isal"}),
    kernel<CrcT10dif<peers::crct10dif_update_vpclmul_avx512_isal, 16>>({.name = "crct10dif-vpclmul-avx512-isal",
                                                                        .isa = "vpclmul-avx512",
                                                                        .provider = "isal",
                                                                        .required = kVpclmulAvx512}),
    kernel<CrcT10dif<peers::crct10dif_update_pclmul_isal, 16>>(
        {.name = "crct10dif-pclmul-isal", .isa = "pclmul", .provider = "isal", .required = kPclmul}),

    kernel<Crc64<crc64_update_vpclmul_avx512, 64>>({.name = "crc64-vpclmul-avx512", .required = kVpclmulAvx512}),
    kernel<Crc64<crc64_update_vpclmul_avx2, 32>>({.name = "crc64-vpclmul-avx2", .required = kVpclmulAvx2}),
    kernel<Crc64<crc64_update_pclmul, 16>>({.name = "crc64-pclmul", .required = kPclmul}),
    kernel<Crc64<crc64_update_generic, 8>>({.name = "crc64-generic", .needs_fpu = false}),
};

}  // namespace

std::span<const Kernel> crc_kernels() noexcept { return kKernels; }

}  // namespace fputune
