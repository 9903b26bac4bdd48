// SPDX-License-Identifier: MIT
// Each kernel family contributes one table: per algorithm, best variant first, the portable reference
// last among ours, then that algorithm's peers (sources under kernels/peers/, built by the family).
#pragma once

#include "kernel.hpp"

namespace fputune {

std::span<const Kernel> sha_kernels() noexcept;  // kernels/sha: sha1, sha224, sha256, sha384, sha512, sm3
std::span<const Kernel> crc_kernels() noexcept;  // kernels/crc: crc32c, crc32, crct10dif, crc64
std::span<const Kernel> mac_kernels() noexcept;  // kernels/mac: poly1305, ghash, polyval, nh, nhpoly1305, blake2s
std::span<const Kernel> linux_kernels() noexcept;  // kernels/linux: the kernel's own asm (built with FPUTUNE_LINUX_SRC)
// kernels/linux: the tree's layout ("lib (lib/crypto/x86, lib/crc/x86, ...)"), and "<unit>: <path>: <why>" per
// unit of it that was left out.
const char* linux_layout() noexcept;
std::span<const char* const> linux_skipped_units() noexcept;
std::span<const Kernel> aes_kernels() noexcept;  // kernels/aes: aes-128/256-xts, aes-256-gcm, aes-256-ctr
std::span<const Kernel> chacha_kernels() noexcept;  // kernels/chacha: chacha20
std::span<const Kernel> raid_kernels() noexcept;  // kernels/raid: raid6, xor (multi-source)

}  // namespace fputune
