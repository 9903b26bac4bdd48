// SPDX-License-Identifier: MIT
// AES-GCM: the aesni body VEX-encoded (three-operand forms, no legacy-SSE alignment rules), as Linux
// has an aesni-avx GCM (aes-gcm-aesni-x86_64.S built twice). Requires AES-NI, PCLMULQDQ and AVX.
#include "aes_core.hpp"

namespace fputune::aes {
namespace {
constexpr unsigned kVecs = 8;
}  // namespace

FPUTUNE_AES_DEFINE_GCM(aesni_avx, Vec128, kVecs)

}  // namespace fputune::aes
