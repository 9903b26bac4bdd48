// SPDX-License-Identifier: MIT
// AES-CTR, AES-XTS and AES-GCM with VAES and VPCLMULQDQ on ymm, 4 vectors (8 blocks) in flight (Linux
// aes-*-vaes-avx2). Requires AVX2, VAES, VPCLMULQDQ, AES-NI and PCLMULQDQ.
#include "vec_avx2.hpp"

namespace fputune::aes {
namespace {
constexpr unsigned kXtsVecs = 4;
constexpr unsigned kVecs = 4;
}  // namespace

FPUTUNE_AES_DEFINE_CTR_XTS(vaes_avx2, Vec256, kVecs, kXtsVecs)
FPUTUNE_AES_DEFINE_GCM(vaes_avx2, Vec256, kVecs)

}  // namespace fputune::aes
