// SPDX-License-Identifier: MIT
// The kernel's ghash, polyval, poly1305, nh and blake2s asm as kernels, with the definitions of
// kernels/mac/mac.hpp (the same outputs as our variants). blocks() is what the kernel's glue runs inside
// one FPU section; final() the rest of the glue's SIMD path. The glue's length gates that are a policy
// (poly1305 below 288 bytes, nhpoly1305 below 64, in scalar code) are left out: fputune measures them.
#include <cstring>

#include "linux_glue.hpp"
#include "mac.hpp"

namespace fputune::linux_glue {
namespace {

using std::uint32_t;
using std::uint64_t;
using std::uint8_t;

[[maybe_unused]] uint64_t load_be64(const uint8_t* p) noexcept {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = v << 8 | p[i];
    return v;
}

[[maybe_unused]] void xor_tail(uint8_t acc[16], const uint8_t* data, std::size_t len) noexcept {
    for (std::size_t i = 0; i < len; ++i) acc[i] ^= data[i];
}

// ---- ghash (ghash-clmulni-intel) ------------------------------------------------------------------
#if FPUTUNE_LINUX_GHASH_CLMULNI
struct GhashCtx {
    alignas(16) uint8_t shash[16];  // le128: the low qword first
    alignas(16) uint8_t acc[16];  // the running GHASH value, in GCM's byte order
};

struct Ghash {
    static constexpr Algorithm algorithm = mac::kGhash;
    static constexpr std::size_t ctx_bytes = sizeof(GhashCtx);
    FPUTUNE_KERNEL_ENTRY_POINTS;
};
// What ghash_setkey() stores: GHASH's product D*K equals bitreflect(D) * bitreflect(K) * x^-127 modulo
// the reflected polynomial x^128 + x^127 + x^126 + x^121 + 1; the asm multiplies in Montgomery form, so
// the key it wants is bitreflect(K) * x (the reflection within bytes cancels GHASH's own: a byteswap).
// Multiplying by x is a 128-bit left shift of (hi:lo) = K read big-endian, the bit shifted out folded
// back as the polynomial's low terms (0xc2 << 56 in the high qword, and the 1 that the rotate brings in).
void Ghash::init(void* ctx, const uint8_t* key) noexcept {
    auto* c = static_cast<GhashCtx*>(ctx);
    const uint64_t hi = load_be64(key), lo = load_be64(key + 8);
    uint64_t new_hi = (hi << 1) | (lo >> 63);
    const uint64_t new_lo = (lo << 1) | (hi >> 63);
    if (hi >> 63) new_hi ^= uint64_t{0xc2} << 56;
    std::memcpy(c->shash, &new_lo, 8);
    std::memcpy(c->shash + 8, &new_hi, 8);
    std::memset(c->acc, 0, 16);
}
void Ghash::blocks(void* ctx, const uint8_t* data, std::size_t nblocks) noexcept {
    auto* c = static_cast<GhashCtx*>(ctx);
    clmul_ghash_update(c->acc, data, static_cast<unsigned>(nblocks * 16), c->shash);
}
// ghash_update() + ghash_final(): a tail is xored into the accumulator, then multiplied (zero padding).
void Ghash::final(void* ctx, const uint8_t* data, std::size_t len, uint8_t* out) noexcept {
    auto* c = static_cast<GhashCtx*>(ctx);
    blocks(ctx, data, len / 16);
    if (len % 16) {
        xor_tail(c->acc, data + len / 16 * 16, len % 16);
        clmul_ghash_mul(c->acc, c->shash);
    }
    std::memcpy(out, c->acc, 16);
}
#endif

// ---- polyval (polyval-clmulni) --------------------------------------------------------------------
#if FPUTUNE_LINUX_POLYVAL_CLMULNI
struct PolyvalCtx {
    alignas(16) uint8_t key_powers[8][16];  // h^8 .. h^1, as polyval_x86_setkey() computes them
    alignas(16) uint8_t acc[16];
};
struct Polyval {
    static constexpr Algorithm algorithm = mac::kPolyval;
    static constexpr std::size_t ctx_bytes = sizeof(PolyvalCtx);
    FPUTUNE_KERNEL_ENTRY_POINTS;
};
void Polyval::init(void* ctx, const uint8_t* key) noexcept {
    auto* c = static_cast<PolyvalCtx*>(ctx);
    std::memcpy(c->key_powers[7], key, 16);
    for (int i = 6; i >= 0; --i) {
        std::memcpy(c->key_powers[i], key, 16);
        clmul_polyval_mul(c->key_powers[i], c->key_powers[i + 1]);
    }
    std::memset(c->acc, 0, 16);
}
void Polyval::blocks(void* ctx, const uint8_t* data, std::size_t nblocks) noexcept {
    auto* c = static_cast<PolyvalCtx*>(ctx);
    if (nblocks) clmul_polyval_update(c->key_powers[0], data, nblocks, c->acc);
}
void Polyval::final(void* ctx, const uint8_t* data, std::size_t len, uint8_t* out) noexcept {
    auto* c = static_cast<PolyvalCtx*>(ctx);
    blocks(ctx, data, len / 16);
    if (len % 16) {
        xor_tail(c->acc, data + len / 16 * 16, len % 16);
        clmul_polyval_mul(c->acc, c->key_powers[7]);
    }
    std::memcpy(out, c->acc, 16);
}
#endif

// ---- poly1305 (poly1305-x86_64-cryptogams) ------------------------------------------------------
#if FPUTUNE_LINUX_POLY1305
struct Poly1305Ctx {
    alignas(16) uint8_t arch[linux_asm::kPoly1305ArchBytes];  // struct poly1305_arch_internal
    uint32_t s[4];  // the nonce poly1305_emit adds
};
using Poly1305Blocks = void (*)(void* ctx, const uint8_t* inp, std::size_t len, uint32_t padbit);
using Poly1305Emit = void (*)(void* ctx, uint8_t mac[16], const uint32_t nonce[4]);

// poly1305_init_arch(): r (clamped by the asm) and a zero hash; s kept for emit.
void poly1305_init(void* ctx, const uint8_t* key) noexcept {
    auto* c = static_cast<Poly1305Ctx*>(ctx);
    poly1305_init_x86_64(c->arch, key);
    for (int i = 0; i < 4; ++i)
        c->s[i] = uint32_t{key[16 + 4 * i]} | uint32_t{key[17 + 4 * i]} << 8 | uint32_t{key[18 + 4 * i]} << 16 |
                  uint32_t{key[19 + 4 * i]} << 24;
}
template <Poly1305Blocks B, Poly1305Emit E>
struct Poly1305 {
    static constexpr Algorithm algorithm = mac::kPoly1305;
    static constexpr std::size_t ctx_bytes = sizeof(Poly1305Ctx);
    static void init(void* ctx, const uint8_t* key) noexcept { poly1305_init(ctx, key); }
    static void blocks(void* ctx, const uint8_t* data, std::size_t nblocks) noexcept {
        if (nblocks) B(static_cast<Poly1305Ctx*>(ctx)->arch, data, nblocks * 16, 1);
    }
    // poly1305_final_arch(): a tail gets 0x01 and zeros and goes through the blocks code with padbit 0.
    static void final(void* ctx, const uint8_t* data, std::size_t len, uint8_t* out) noexcept {
        auto* c = static_cast<Poly1305Ctx*>(ctx);
        blocks(ctx, data, len / 16);
        if (len % 16) {
            uint8_t buf[16] = {};
            std::memcpy(buf, data + len / 16 * 16, len % 16);
            buf[len % 16] = 1;
            B(c->arch, buf, 16, 0);
        }
        E(c->arch, out, c->s);
    }
};
#endif

// ---- nh, nhpoly1305 (nh-sse2, nh-avx2) ----------------------------------------------------------
// crypto_nhpoly1305_update_helper() calls the asm per (part of a) message and adds what it returns to the
// running NH sums; the streaming and the poly1305 part are the shared glue of kernels/mac, whose
// poly1305 core is portable C++ as the kernel's (poly1305_core_blocks) is.
using NhAsm = void (*)(const uint32_t* key, const uint8_t* message, std::size_t message_len, uint64_t hash[4]);
template <NhAsm N>
void nh_core(const uint32_t* key, const uint8_t* m, std::size_t len, uint64_t sums[4]) noexcept {
    uint64_t h[4];
    N(key, m, len, h);
    for (int i = 0; i < 4; ++i) sums[i] += h[i];
}

// ---- blake2s (blake2s-core) ----------------------------------------------------------------------
// The buffering of the last block and the padding are the shared glue of kernels/mac (the kernel's
// blake2s_update()/blake2s_final() do the same); the asm wants the kernel's struct blake2s_state, with
// the finalization flag f[0] in it, so h and t are handed over in that layout and back.
#if FPUTUNE_LINUX_BLAKE2S
using Blake2sAsm = void (*)(linux_asm::Blake2sState* state, const uint8_t* block, std::size_t nblocks, uint32_t inc);
template <Blake2sAsm A>
void blake2s_compress(mac::Blake2sState* st, const uint8_t* m, std::size_t nblocks, uint32_t inc,
                      uint32_t f0) noexcept {
    linux_asm::Blake2sState k;
    std::memcpy(k.h, st->h, sizeof k.h);
    std::memcpy(k.t, st->t, sizeof k.t);
    k.f[0] = f0;
    k.f[1] = 0;
    A(&k, m, nblocks, inc);
    std::memcpy(st->h, k.h, sizeof k.h);
    std::memcpy(st->t, k.t, sizeof k.t);
}
#endif

}  // namespace

void add_mac(std::vector<Kernel>& out) {
    using F [[maybe_unused]] = Feature;  // unused when the tree has none of these files
    // Features: what each glue checks before it registers, and what its asm executes.
#if FPUTUNE_LINUX_POLY1305
    out.push_back(kernel<Poly1305<poly1305_blocks_avx512, poly1305_emit_avx>>(
        linux_variant("poly1305-avx512-linux", "avx512", features(F::avx, F::avx2, F::avx512f))));
    out.push_back(kernel<Poly1305<poly1305_blocks_avx2, poly1305_emit_avx>>(
        linux_variant("poly1305-avx2-linux", "avx2", features(F::avx, F::avx2))));
    out.push_back(kernel<Poly1305<poly1305_blocks_avx, poly1305_emit_avx>>(
        linux_variant("poly1305-avx-linux", "avx", features(F::avx))));
    // The kernel's scalar x86_64 code, what its glue runs without the FPU.
    out.push_back(kernel<Poly1305<poly1305_blocks_x86_64, poly1305_emit_x86_64>>(
        linux_variant("poly1305-scalar-linux", "scalar", 0, false)));
#endif
#if FPUTUNE_LINUX_GHASH_CLMULNI
    out.push_back(kernel<Ghash>(linux_variant("ghash-pclmul-linux", "pclmul", features(F::pclmul, F::ssse3))));
#endif
#if FPUTUNE_LINUX_POLYVAL_CLMULNI
    out.push_back(kernel<Polyval>(linux_variant("polyval-pclmul-linux", "pclmul", features(F::pclmul, F::avx))));
#endif
#if FPUTUNE_LINUX_NH_AVX2
    out.push_back(kernel<mac::Nh<nh_core<nh_avx2>>>(linux_variant("nh-avx2-linux", "avx2", features(F::avx, F::avx2))));
#endif
#if FPUTUNE_LINUX_NH_SSE2
    out.push_back(kernel<mac::Nh<nh_core<nh_sse2>>>(linux_variant("nh-sse2-linux", "sse2", features(F::sse2))));
#endif
#if FPUTUNE_LINUX_NH_AVX2
    out.push_back(kernel<mac::NhPoly1305<nh_core<nh_avx2>>>(
        linux_variant("nhpoly1305-avx2-linux", "avx2", features(F::avx, F::avx2))));
#endif
#if FPUTUNE_LINUX_NH_SSE2
    out.push_back(
        kernel<mac::NhPoly1305<nh_core<nh_sse2>>>(linux_variant("nhpoly1305-sse2-linux", "sse2", features(F::sse2))));
#endif
#if FPUTUNE_LINUX_BLAKE2S
    out.push_back(kernel<mac::Blake2s<blake2s_compress<blake2s_compress_avx512>>>(
        linux_variant("blake2s-avx512-linux", "avx512", features(F::avx, F::avx2, F::avx512f, F::avx512vl))));
    out.push_back(kernel<mac::Blake2s<blake2s_compress<blake2s_compress_ssse3>>>(
        linux_variant("blake2s-ssse3-linux", "ssse3", features(F::ssse3))));
#endif
    (void)out;
}

}  // namespace fputune::linux_glue
