// SPDX-License-Identifier: MIT
// The kernel's crc32c (crc_pcl), crc32 (crc32_pclmul_le_16) and crct10dif (crc_t10dif_pcl) asm as
// kernels, through our CRC glue (crc.hpp), whose register conventions are the ones the kernel passes:
// reflected for crc32c/crc32, msb-first for crct10dif.
//
// blocks() and final() run the kernel glue's SIMD path for that many bytes. Length gates that are a
// policy (crc32c below CRC32C_PCL_BREAKEVEN = 512 bytes runs the crc32 instruction without the FPU) are
// left out: where SIMD starts to pay is what fputune measures. Gates that the asm needs are kept, with
// our portable code standing in for the kernel's generic C: crc32_pclmul_le_16 wants >= 64 bytes,
// 16-byte aligned, whole 16-byte units; crc_t10dif_pcl wants >= 16 bytes.
#include "crc.hpp"
#include "linux_glue.hpp"

namespace fputune::linux_glue {
namespace {

using std::uint64_t;
using std::uint8_t;

#if FPUTUNE_LINUX_CRC32C_PCL
uint64_t crc32c_pcl(uint64_t crc, const uint8_t* data, std::size_t len) noexcept {
    return len ? crc_pcl(data, static_cast<int>(len), static_cast<std::uint32_t>(crc)) : crc;
}
#endif

#if FPUTUNE_LINUX_CRC32_PCLMUL
// crc32_pclmul_le() of crc32-pclmul_glue.c: PCLMUL_MIN_LEN (64) + SCALE_F_MASK (15) bytes at least, the
// bytes before the first 16-byte boundary and after the last whole unit in the generic code.
uint64_t crc32_pclmul_le(uint64_t crc, const uint8_t* p, std::size_t len) noexcept {
    if (len < 64 + 15) return crc::crc32_update_generic(crc, p, len);
    if (const std::size_t mis = reinterpret_cast<std::uintptr_t>(p) & 15) {
        crc = crc::crc32_update_generic(crc, p, 16 - mis);
        len -= 16 - mis;
        p += 16 - mis;
    }
    const std::size_t whole = len & ~std::size_t{15};
    crc = crc32_pclmul_le_16(p, whole, static_cast<std::uint32_t>(crc));
    return len > whole ? crc::crc32_update_generic(crc, p + whole, len - whole) : crc;
}
#endif

#if FPUTUNE_LINUX_CRCT10DIF_PCL
// chksum_update() of crct10dif-pclmul_glue.c.
uint64_t crct10dif_pcl(uint64_t crc, const uint8_t* data, std::size_t len) noexcept {
    if (len < 16) return crc::crct10dif_update_generic(crc, data, len);
    return crc_t10dif_pcl(static_cast<std::uint16_t>(crc), data, len);
}
#endif

#if FPUTUNE_LINUX_CRC32C_3WAY
// crc32c_arch() of 6.15+ (lib/crc/x86/crc32.h) in its SIMD branch (from CRC32C_PCLMUL_BREAKEVEN = 512 bytes,
// a policy left out as above).
uint64_t crc32c_3way(uint64_t crc, const uint8_t* data, std::size_t len) noexcept {
    return len ? crc32c_x86_3way(static_cast<std::uint32_t>(crc), data, len) : crc;
}
#endif

// CRC_PCLMUL() of crc-pclmul-template.h (6.15+): the template's function from 16 bytes, the generic code below.
template <typename CrcT, CrcT (*Fn)(CrcT, const uint8_t*, std::size_t, const void*), const void* const* Consts,
          uint64_t (*Generic)(uint64_t, const uint8_t*, std::size_t) noexcept>
uint64_t crc_template(uint64_t crc, const uint8_t* data, std::size_t len) noexcept {
    if (len < 16) return Generic(crc, data, len);
    return Fn(static_cast<CrcT>(crc), data, len, *Consts);
}

}  // namespace

// The CRC template's widths (6.15+), named as ours: pclmul on xmm, vpclmul-avx2 on ymm, vpclmul-avx512 on zmm.
static void add_crc_template([[maybe_unused]] std::vector<Kernel>& out) {
    using namespace crc;
    using F = Feature;
    [[maybe_unused]] constexpr FeatureSet kSse = features(F::pclmul, F::ssse3, F::sse41);
    [[maybe_unused]] constexpr FeatureSet kAvx2 = features(F::avx, F::avx2, F::pclmul, F::vpclmulqdq);
    [[maybe_unused]] constexpr FeatureSet kAvx512 =
        features(F::avx512f, F::avx512vl, F::avx512bw, F::pclmul, F::vpclmulqdq);
#if FPUTUNE_LINUX_CRC32_LSB && !FPUTUNE_LINUX_CRC32_PCLMUL
    using W32 = std::uint32_t;
    constexpr auto g32 = crc::crc32_update_generic;
    out.push_back(kernel<Crc32<crc_template<W32, crc32_lsb_vpclmul_avx512, &fputune_linux_crc32_lsb_consts, g32>, 64>>(
        linux_variant("crc32-vpclmul-avx512-linux", "vpclmul-avx512", kAvx512)));
    out.push_back(kernel<Crc32<crc_template<W32, crc32_lsb_vpclmul_avx2, &fputune_linux_crc32_lsb_consts, g32>, 32>>(
        linux_variant("crc32-vpclmul-avx2-linux", "vpclmul-avx2", kAvx2)));
    out.push_back(kernel<Crc32<crc_template<W32, crc32_lsb_pclmul_sse, &fputune_linux_crc32_lsb_consts, g32>, 16>>(
        linux_variant("crc32-pclmul-linux", "pclmul", kSse)));
#endif
#if FPUTUNE_LINUX_CRC16_MSB && !FPUTUNE_LINUX_CRCT10DIF_PCL
    using W16 = std::uint16_t;
    constexpr auto g16 = crc::crct10dif_update_generic;
    out.push_back(
        kernel<CrcT10dif<crc_template<W16, crc16_msb_vpclmul_avx512, &fputune_linux_crc16_msb_consts, g16>, 64>>(
            linux_variant("crct10dif-vpclmul-avx512-linux", "vpclmul-avx512", kAvx512)));
    out.push_back(
        kernel<CrcT10dif<crc_template<W16, crc16_msb_vpclmul_avx2, &fputune_linux_crc16_msb_consts, g16>, 32>>(
            linux_variant("crct10dif-vpclmul-avx2-linux", "vpclmul-avx2", kAvx2)));
    out.push_back(kernel<CrcT10dif<crc_template<W16, crc16_msb_pclmul_sse, &fputune_linux_crc16_msb_consts, g16>, 16>>(
        linux_variant("crct10dif-pclmul-linux", "pclmul", kSse)));
#endif
#if FPUTUNE_LINUX_CRC64_LSB
    using W64 = std::uint64_t;
    constexpr auto g64 = crc::crc64_update_generic;
    out.push_back(kernel<Crc64<crc_template<W64, crc64_lsb_vpclmul_avx512, &fputune_linux_crc64_lsb_consts, g64>, 64>>(
        linux_variant("crc64-vpclmul-avx512-linux", "vpclmul-avx512", kAvx512)));
    out.push_back(kernel<Crc64<crc_template<W64, crc64_lsb_vpclmul_avx2, &fputune_linux_crc64_lsb_consts, g64>, 32>>(
        linux_variant("crc64-vpclmul-avx2-linux", "vpclmul-avx2", kAvx2)));
    out.push_back(kernel<Crc64<crc_template<W64, crc64_lsb_pclmul_sse, &fputune_linux_crc64_lsb_consts, g64>, 16>>(
        linux_variant("crc64-pclmul-linux", "pclmul", kSse)));
#endif
}

void add_crc(std::vector<Kernel>& out) {
    using namespace crc;
    using F = Feature;
    // What the asm executes: crc_pcl the crc32 instruction and pclmulqdq; crc32_pclmul_le_16 pclmulqdq and
    // pextrd; crc_t10dif_pcl pclmulqdq and pshufb. 16-byte blocks, as our pclmul variants, so that a sweep
    // of both measures the same section sizes.
#if FPUTUNE_LINUX_CRC32C_PCL
    out.push_back(
        kernel<Crc32c<crc32c_pcl, 16>>(linux_variant("crc32c-pclmul-linux", "pclmul", features(F::sse42, F::pclmul))));
#endif
#if FPUTUNE_LINUX_CRC32_PCLMUL
    out.push_back(kernel<Crc32<crc32_pclmul_le, 16>>(
        linux_variant("crc32-pclmul-linux", "pclmul", features(F::pclmul, F::sse41))));
#endif
#if FPUTUNE_LINUX_CRCT10DIF_PCL
    out.push_back(kernel<CrcT10dif<crct10dif_pcl, 16>>(
        linux_variant("crct10dif-pclmul-linux", "pclmul", features(F::pclmul, F::ssse3))));
#endif
#if FPUTUNE_LINUX_CRC32C_3WAY && !FPUTUNE_LINUX_CRC32C_PCL  // the same function as 6.12's crc_pcl, renamed
    out.push_back(
        kernel<Crc32c<crc32c_3way, 16>>(linux_variant("crc32c-pclmul-linux", "pclmul", features(F::sse42, F::pclmul))));
#endif
    add_crc_template(out);
    (void)out;
}

}  // namespace fputune::linux_glue
