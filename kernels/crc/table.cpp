// SPDX-License-Identifier: MIT
// The crc family table: crc32c, crc32, crct10dif, crc64; per algorithm best first, generic, then peers.
// Baseline flags only: the glue here calls the ISA entry points after the registry checked the CPU.
#include <cassert>

#include "crc_entry.hpp"
#include "families.hpp"

namespace fputune {
namespace {

using crc::UpdateFn;
using std::uint64_t;

// The context is the running register. init() loads the algorithm's initial value, blocks() continues
// it over whole blocks (each call is self-contained: folding variants fold and reduce inside it, as
// the Linux kernel's crc functions do per call), final() continues over any tail and writes the CRC
// after the final xor as out_bytes little-endian bytes.
struct CrcCtx {
    uint64_t reg;
};

template <UpdateFn F, uint64_t Init, uint64_t XorOut, unsigned OutBytes, unsigned BlockBytes>
struct Glue {
    static void init(void* ctx, const std::uint8_t*) noexcept { static_cast<CrcCtx*>(ctx)->reg = Init; }
    static void blocks(void* ctx, const std::uint8_t* data, std::size_t nblocks) noexcept {
        auto* c = static_cast<CrcCtx*>(ctx);
        c->reg = F(c->reg, data, nblocks * BlockBytes);
    }
    static void final(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out) noexcept {
        auto* c = static_cast<CrcCtx*>(ctx);
        const uint64_t v = F(c->reg, data, len) ^ XorOut;
        for (unsigned i = 0; i < OutBytes; ++i) out[i] = static_cast<std::uint8_t>(v >> (8 * i));
    }
};

struct Alg {
    const char* name;
    uint64_t init, xorout;
    unsigned out_bytes;
};
constexpr Alg kCrc32c{"crc32c", 0xffffffff, 0xffffffff, 4};
constexpr Alg kCrc32{"crc32", 0xffffffff, 0xffffffff, 4};
constexpr Alg kCrcT10dif{"crct10dif", 0, 0, 2};
constexpr Alg kCrc64{"crc64", ~uint64_t{0}, ~uint64_t{0}, 8};

template <const Alg& A, UpdateFn F, unsigned BlockBytes>
constexpr Kernel make(const char* name, const char* isa, const char* provider, FeatureSet required,
                      bool needs_fpu) {
    using G = Glue<F, A.init, A.xorout, A.out_bytes, BlockBytes>;
    return Kernel{name, A.name, isa, provider, required, BlockBytes, sizeof(CrcCtx), 0, A.out_bytes,
                  needs_fpu, &G::init, &G::blocks, &G::final};
}

using F = Feature;

const Kernel kKernels[] = {
    make<kCrc32c, crc::crc32c_update_sse42, 8>("crc32c-sse42", "sse42", "fputune", features(F::sse42), false),
    make<kCrc32c, crc::crc32c_update_generic, 8>("crc32c-generic", "generic", "fputune", 0, false),
    make<kCrc32c, crc::crc32c_update_isal, 16>("crc32c-isal", "auto", "isal", 0, true),

    make<kCrc32, crc::crc32_update_generic, 8>("crc32-generic", "generic", "fputune", 0, false),
    make<kCrc32, crc::crc32_update_isal, 16>("crc32-isal", "auto", "isal", 0, true),

    make<kCrcT10dif, crc::crct10dif_update_generic, 8>("crct10dif-generic", "generic", "fputune", 0, false),
    make<kCrcT10dif, crc::crct10dif_update_isal, 16>("crct10dif-isal", "auto", "isal", 0, true),

    make<kCrc64, crc::crc64_update_generic, 8>("crc64-generic", "generic", "fputune", 0, false),
};

}  // namespace

std::span<const Kernel> crc_kernels() noexcept { return kKernels; }

}  // namespace fputune
