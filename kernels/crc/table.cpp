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

// What each ISA needs: the pclmul files also use pshufb and pextrq; the crc32c folding variants
// hand inputs under 16 bytes to the crc32 instruction.
constexpr FeatureSet kPclmul = features(F::pclmul, F::ssse3, F::sse41);
constexpr FeatureSet kVpclmulAvx2 = features(F::avx, F::avx2, F::pclmul, F::vpclmulqdq);
constexpr FeatureSet kVpclmulAvx512 = features(F::avx512f, F::avx512vl, F::avx512bw, F::pclmul, F::vpclmulqdq);
constexpr FeatureSet kSse42 = features(F::sse42);

const Kernel kKernels[] = {
    make<kCrc32c, crc::crc32c_update_vpclmul_avx512, 64>("crc32c-vpclmul-avx512", "vpclmul-avx512", "fputune", kVpclmulAvx512 | kSse42, true),
    make<kCrc32c, crc::crc32c_update_vpclmul_avx2, 32>("crc32c-vpclmul-avx2", "vpclmul-avx2", "fputune", kVpclmulAvx2 | kSse42, true),
    make<kCrc32c, crc::crc32c_update_pclmul, 16>("crc32c-pclmul", "pclmul", "fputune", kPclmul | kSse42, true),
    make<kCrc32c, crc::crc32c_update_sse42, 8>("crc32c-sse42", "sse42", "fputune", kSse42, false),
    make<kCrc32c, crc::crc32c_update_generic, 8>("crc32c-generic", "generic", "fputune", 0, false),
    make<kCrc32c, crc::crc32c_update_isal, 16>("crc32c-isal", "auto", "isal", 0, true),

    make<kCrc32, crc::crc32_update_vpclmul_avx512, 64>("crc32-vpclmul-avx512", "vpclmul-avx512", "fputune", kVpclmulAvx512, true),
    make<kCrc32, crc::crc32_update_vpclmul_avx2, 32>("crc32-vpclmul-avx2", "vpclmul-avx2", "fputune", kVpclmulAvx2, true),
    make<kCrc32, crc::crc32_update_pclmul, 16>("crc32-pclmul", "pclmul", "fputune", kPclmul, true),
    make<kCrc32, crc::crc32_update_generic, 8>("crc32-generic", "generic", "fputune", 0, false),
    make<kCrc32, crc::crc32_update_isal, 16>("crc32-isal", "auto", "isal", 0, true),

    make<kCrcT10dif, crc::crct10dif_update_vpclmul_avx512, 64>("crct10dif-vpclmul-avx512", "vpclmul-avx512", "fputune", kVpclmulAvx512, true),
    make<kCrcT10dif, crc::crct10dif_update_vpclmul_avx2, 32>("crct10dif-vpclmul-avx2", "vpclmul-avx2", "fputune", kVpclmulAvx2, true),
    make<kCrcT10dif, crc::crct10dif_update_pclmul, 16>("crct10dif-pclmul", "pclmul", "fputune", kPclmul, true),
    make<kCrcT10dif, crc::crct10dif_update_generic, 8>("crct10dif-generic", "generic", "fputune", 0, false),
    make<kCrcT10dif, crc::crct10dif_update_isal, 16>("crct10dif-isal", "auto", "isal", 0, true),

    make<kCrc64, crc::crc64_update_vpclmul_avx512, 64>("crc64-vpclmul-avx512", "vpclmul-avx512", "fputune", kVpclmulAvx512, true),
    make<kCrc64, crc::crc64_update_vpclmul_avx2, 32>("crc64-vpclmul-avx2", "vpclmul-avx2", "fputune", kVpclmulAvx2, true),
    make<kCrc64, crc::crc64_update_pclmul, 16>("crc64-pclmul", "pclmul", "fputune", kPclmul, true),
    make<kCrc64, crc::crc64_update_generic, 8>("crc64-generic", "generic", "fputune", 0, false),
};

}  // namespace

std::span<const Kernel> crc_kernels() noexcept { return kKernels; }

}  // namespace fputune
