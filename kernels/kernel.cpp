// SPDX-License-Identifier: MIT
// Helpers shared by every kernel user: the one-shot digest, one section, and feature names.
#include "kernel.hpp"

#include <cassert>

namespace fputune {

void kernel_digest(const Kernel& k, const std::uint8_t* key, const std::uint8_t* data, std::size_t len,
                   std::uint8_t* out) noexcept {
    alignas(kCtxAlign) std::uint8_t ctx[kMaxCtxBytes];
    assert(k.ctx_bytes <= sizeof ctx);
    k.init(ctx, key);
    k.final(ctx, data, len, out);
}

void run_section(const Kernel& k, void* ctx, const std::uint8_t* src, std::uint8_t* dst, std::size_t nblocks) noexcept {
    if (k.crypt)
        k.crypt(ctx, src, dst, nblocks);
    else
        k.blocks(ctx, src, nblocks);
}

std::string_view feature_name(Feature f) noexcept {
    static constexpr std::string_view names[] = {
        "sse2",       "ssse3",      "sse4.1", "sse4.2", "pclmul",     "aes",      "avx",      "avx2",
        "bmi1",       "bmi2",       "adx",    "fma",    "avx512f",    "avx512vl", "avx512bw", "avx512dq",
        "avx512ifma", "avx512vbmi", "sha",    "vaes",   "vpclmulqdq", "gfni"};
    static_assert(std::size(names) == static_cast<unsigned>(Feature::count));
    return names[static_cast<unsigned>(f)];
}

}  // namespace fputune
