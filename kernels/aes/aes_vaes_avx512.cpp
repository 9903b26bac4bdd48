// SPDX-License-Identifier: MIT
// AES-CTR, AES-XTS and AES-GCM with VAES and VPCLMULQDQ on zmm, 4 vectors (16 blocks) in flight (Linux
// aes-*-vaes-avx512, formerly avx10_512). Requires AVX512F/VL/BW, VAES, VPCLMULQDQ, AES-NI, PCLMULQDQ.
#include "vec_avx512.hpp"

namespace fputune::aes {
namespace {
constexpr unsigned kXtsVecs = 4;
constexpr unsigned kVecs = 4;
}  // namespace

FPUTUNE_AES_DEFINE_CTR_XTS(vaes_avx512, Vec512, kVecs, kXtsVecs)
FPUTUNE_AES_DEFINE_GCM(vaes_avx512, Vec512, kVecs)

}  // namespace fputune::aes
