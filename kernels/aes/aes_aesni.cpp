// SPDX-License-Identifier: MIT
// AES-CTR, AES-XTS and AES-GCM with AES-NI and PCLMULQDQ on xmm, 8 blocks in flight (Linux
// aes-{ctr,xts,gcm}-aesni, OpenSSL aesni_ctr32_encrypt_blocks/aesni_xts_encrypt). Requires AES-NI,
// PCLMULQDQ and SSSE3.
#include "aes_core.hpp"

namespace fputune::aes {
namespace {
constexpr unsigned kXtsVecs = 4;
constexpr unsigned kVecs = 8;
}  // namespace

FPUTUNE_AES_DEFINE_CTR_XTS(aesni, Vec128, kVecs, kXtsVecs)
FPUTUNE_AES_DEFINE_GCM(aesni, Vec128, kVecs)

}  // namespace fputune::aes
