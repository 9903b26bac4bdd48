// SPDX-License-Identifier: MIT
// AES-CTR, AES-XTS and AES-GCM with AES-NI and PCLMULQDQ on xmm, 8 blocks in flight, XTS 6 (Linux
// aes-{ctr,xts,gcm}-aesni, OpenSSL aesni_ctr32_encrypt_blocks/aesni_xts_encrypt). Requires AES-NI,
// PCLMULQDQ and SSSE3.
#include "aes_core.hpp"

namespace fputune::aes {
namespace {
// XTS on 6 blocks, as OpenSSL's aesni_xts_encrypt. AMD Zen 3's AESENC takes 4 cycles and 2 issue per
// cycle: 4 blocks fill half of each round unless batches overlap, 6 three quarters. On a Rocket Lake VM
// 4 and 6 measured alike (0.92-0.93 of OpenSSL's time at 16 KiB); 8 spill the 16 xmm registers (1.15).
// See docs/zen3-speed.md.
constexpr unsigned kXtsVecs = 6;
constexpr unsigned kVecs = 8;
}  // namespace

FPUTUNE_AES_DEFINE_CTR_XTS(aesni, Vec128, kVecs, kXtsVecs)
FPUTUNE_AES_DEFINE_GCM(aesni, Vec128, kVecs)

}  // namespace fputune::aes
