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

}  // namespace

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
    (void)out;
}

}  // namespace fputune::linux_glue
