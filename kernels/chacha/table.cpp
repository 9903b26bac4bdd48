// SPDX-License-Identifier: MIT
// The chacha family table: best variant first, the generic no-FPU path last among ours (a real kernel path:
// Linux sends inputs of at most 64 bytes to it, so sweep measures its SIMD-vs-scalar threshold), then
// OpenSSL. Baseline flags: the glue (chacha.hpp) runs here and calls the ISA entry points after the registry
// has checked the CPU.
#include "chacha.hpp"
#include "families.hpp"

namespace fputune {
namespace {

using namespace chacha;
using F = Feature;

constexpr Kernel kKernels[] = {
    // chacha20: key || 16-byte IV (32-bit block counter, 96-bit nonce); 64-byte blocks.
    kernel<Chacha20<chacha20_xor_avx512vl>>(
        {.name = "chacha20-avx512vl", .required = features(F::avx512f, F::avx512vl, F::avx512bw)}),
    kernel<Chacha20<chacha20_xor_avx2>>({.name = "chacha20-avx2", .required = features(F::avx, F::avx2)}),
    kernel<Chacha20<chacha20_xor_ssse3>>({.name = "chacha20-ssse3", .required = features(F::ssse3)}),
    kernel<Chacha20<chacha20_xor_generic>>({.name = "chacha20-generic", .needs_fpu = false}),
    kernel<Chacha20OpenSsl>({.name = "chacha20-openssl", .provider = "openssl"}),
};

}  // namespace

std::span<const Kernel> chacha_kernels() noexcept { return kKernels; }

}  // namespace fputune
