// SPDX-License-Identifier: MIT
// The mac family table: per algorithm, best variant first, the portable reference last among ours,
// then the peers. Baseline flags: this file only takes the addresses of the ISA entry points.
#include "families.hpp"
#include "mac.hpp"

namespace fputune {

namespace {

using F = Feature;
using namespace mac;

constexpr std::uint32_t P1305_SIMD = kPoly1305SimdCtxBytes;

const Kernel kMacKernels[] = {
    // poly1305: key r||s (32 bytes), 16-byte blocks, 16-byte tag.
    {"poly1305-avx2", "poly1305", "avx2", "fputune", features(F::avx, F::avx2), 16, P1305_SIMD, 32, 16, true,
     poly1305_init_avx2, poly1305_blocks_avx2, poly1305_final_avx2},
    {"poly1305-avx", "poly1305", "avx", "fputune", features(F::avx), 16, P1305_SIMD, 32, 16, true,
     poly1305_init_avx, poly1305_blocks_avx, poly1305_final_avx},
    {"poly1305-scalar", "poly1305", "scalar", "fputune", 0, 16, kPoly1305ScalarCtxBytes, 32, 16, false,
     poly1305_init_scalar, poly1305_blocks_scalar, poly1305_final_scalar},
    {"poly1305-openssl", "poly1305", "openssl", "openssl", 0, 16, kPeerCtxBytes, 32, 16, true,
     poly1305_init_openssl, poly1305_blocks_openssl, poly1305_final_openssl},
    {"poly1305-sodium", "poly1305", "sodium", "sodium", 0, 16, kPeerCtxBytes, 32, 16, true,
     poly1305_init_sodium, poly1305_blocks_sodium, poly1305_final_sodium},
};

}  // namespace

std::span<const Kernel> mac_kernels() noexcept { return kMacKernels; }

}  // namespace fputune
