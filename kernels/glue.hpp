// SPDX-License-Identifier: MIT
// The one glue that builds every Kernel: a table row (a Variant) names a variant, says what it requires
// and who provides it; a glue type G supplies everything else. G is a family's algorithm glue around one
// ISA file's entry point (sha::Sha256<sha256_blocks_avx2>, crc::Crc32c<crc32c_update_pclmul, 16>,
// mac::Poly1305<poly1305_blocks_avx2>) or a peer (peer.hpp). Baseline code: only table.cpp
// files instantiate glue, so no glue is ever compiled with an ISA's flags.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "kernel.hpp"

namespace fputune {

// What a kernel computes, shared by every variant and peer of it.
struct Algorithm {
    const char* name;  // "sha256"
    std::uint32_t block_bytes;  // sections hold whole blocks of this size
    std::uint32_t key_bytes = 0;  // 0 for unkeyed hashes and CRCs
    std::uint32_t out_bytes;  // digest / tag / CRC size
    std::uint32_t iv_bytes = 0;  // ciphers: the last iv_bytes of key_bytes are the IV (kernel.hpp)
    std::uint32_t final_min_bytes = 0;  // ciphers with ciphertext stealing (XTS): 16
};

// A table row. The name decides the isa (kernel.hpp): "<algorithm>-<isa>" for ours;
// "<algorithm>-<provider>" for a provider that picks its own code (isa "auto");
// "<algorithm>-<isa>-<provider>" for someone else's code for one ISA (then .isa says which). A provider
// may carry a version after a space ("linux 6.12.117", kernels/linux); the name carries its first word.
struct Variant {
    const char* name;
    const char* isa = nullptr;  // only for the third form
    const char* provider = "fputune";  // a peer names its library: "openssl", "isal", "sodium"
    FeatureSet required = 0;  // every one must be usable, or the kernel is unavailable
    bool needs_fpu = true;  // false only for code that touches no vector register
    bool reference_only = false;  // a portable oracle, not a path the kernel has (kernel.hpp)
};

// A glue type: the algorithm, the context size, and the Kernel entry points: init, final, and blocks (hashes)
// or crypt (ciphers, blocks optional).
template <class G>
concept KernelGlue = requires(void* ctx, const std::uint8_t* in, std::size_t n, std::uint8_t* out) {
    { G::algorithm } -> std::convertible_to<Algorithm>;
    { G::ctx_bytes } -> std::convertible_to<std::size_t>;
    { G::init(ctx, in) }
    noexcept;
    { G::final(ctx, in, n, out) }
    noexcept;
}
&&(
    requires(void* ctx, const std::uint8_t* in, std::size_t n) {
        { G::blocks(ctx, in, n) }
        noexcept;
    } ||
    requires(void* ctx, const std::uint8_t* in, std::size_t n, std::uint8_t* out) {
        { G::crypt(ctx, in, out, n) }
        noexcept;
    });

// A cipher's glue adds crypt() (kernel.hpp); its blocks() is its associated data, if it has any.
template <class G>
constexpr auto glue_blocks() noexcept {
    if constexpr (requires { G::blocks; })
        return &G::blocks;
    else
        return static_cast<void (*)(void*, const std::uint8_t*, std::size_t) noexcept>(nullptr);
}
template <class G>
constexpr auto glue_crypt() noexcept {
    if constexpr (requires { G::crypt; })
        return &G::crypt;
    else
        return static_cast<void (*)(void*, const std::uint8_t*, std::uint8_t*, std::size_t) noexcept>(nullptr);
}

// Declares a glue type's entry points as static members, for glue written out of line (peers).
#define FPUTUNE_KERNEL_ENTRY_POINTS                                                        \
    static void init(void* ctx, const std::uint8_t* key) noexcept;                         \
    static void blocks(void* ctx, const std::uint8_t* data, std::size_t nblocks) noexcept; \
    static void final(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out) noexcept

// The glue of an algorithm whose init/blocks/final are written once, out of line with baseline flags,
// and take the variant's entry point as their last argument (mac.hpp: poly1305, ghash, nh, blake2s, ...).
template <const Algorithm& A, std::size_t CtxBytes, auto Entry, auto Init, auto Blocks, auto Final>
struct Streamed {
    static constexpr Algorithm algorithm = A;
    static constexpr std::size_t ctx_bytes = CtxBytes;
    static void init(void* ctx, const std::uint8_t* key) noexcept { Init(ctx, key); }
    static void blocks(void* ctx, const std::uint8_t* data, std::size_t nblocks) noexcept {
        Blocks(ctx, data, nblocks, Entry);
    }
    static void final(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out) noexcept {
        Final(ctx, data, len, out, Entry);
    }
};

// The Kernel of one row. consteval: a row that breaks the naming rule does not compile.
template <KernelGlue G>
consteval Kernel kernel(Variant v) {
    static_assert(G::ctx_bytes <= kMaxCtxBytes);
    const Algorithm a = G::algorithm;
    const std::string_view name = v.name, alg = a.name;
    // A provider may carry a version after a space ("linux 6.12.117"); names carry its first word.
    const std::string_view provider = std::string_view(v.provider).substr(0, std::string_view(v.provider).find(' '));
    if (!name.starts_with(alg) || name.size() <= alg.size() + 1 || name[alg.size()] != '-')
        throw "a kernel's name starts with its algorithm and a '-'";
    const char* rest = v.name + alg.size() + 1;
    const std::string_view suffix = rest;
    const char* isa = rest;
    if (provider != "fputune") {
        isa = v.isa ? v.isa : "auto";
        const std::string_view i = isa;
        const bool named = v.isa ? suffix.size() == i.size() + 1 + provider.size() && suffix.starts_with(i) &&
                                       suffix[i.size()] == '-' && suffix.ends_with(provider)
                                 : suffix == provider;
        if (!named) throw "a peer is named <algorithm>-<provider>, or <algorithm>-<isa>-<provider> with .isa";
    } else if (v.isa && std::string_view(v.isa) != suffix) {
        throw "our kernels are named <algorithm>-<isa>: leave .isa out";
    }
    return Kernel{.name = v.name,
                  .algorithm = a.name,
                  .isa = isa,
                  .provider = v.provider,
                  .required = v.required,
                  .block_bytes = a.block_bytes,
                  .ctx_bytes = static_cast<std::uint32_t>(G::ctx_bytes),
                  .key_bytes = a.key_bytes,
                  .out_bytes = a.out_bytes,
                  .needs_fpu = v.needs_fpu,
                  .init = G::init,
                  .blocks = glue_blocks<G>(),
                  .final = G::final,
                  .crypt = glue_crypt<G>(),
                  .iv_bytes = a.iv_bytes,
                  .final_min_bytes = a.final_min_bytes,
                  .reference_only = v.reference_only};
}

// A multi-source glue (RAID6, xor): the algorithm, the shape of its stripes and the one entry point (kernel.hpp).
template <class G>
concept MultiSourceGlue = requires(std::size_t n, const std::uint8_t* const* src, std::uint8_t* const* dst) {
    { G::algorithm } -> std::convertible_to<Algorithm>;
    { G::dest_count } -> std::convertible_to<std::uint32_t>;
    { G::min_sources } -> std::convertible_to<std::uint32_t>;
    { G::max_sources } -> std::convertible_to<std::uint32_t>;
    { G::align_bytes } -> std::convertible_to<std::uint32_t>;
    { G::stripe(n, n, src, dst) }
    noexcept;
};

namespace detail {
// The stream entry points kernel<>() expects, so that a multi-source row's name is checked by the same code;
// the Kernel built from it then has none (nullptr): nothing streams across a stripe.
template <class G>
struct NoStream {
    static constexpr Algorithm algorithm = G::algorithm;
    static constexpr std::size_t ctx_bytes = 0;
    static void init(void*, const std::uint8_t*) noexcept {}
    static void blocks(void*, const std::uint8_t*, std::size_t) noexcept {}
    static void final(void*, const std::uint8_t*, std::size_t, std::uint8_t*) noexcept {}
};
}  // namespace detail

// The Kernel of a multi-source row.
template <MultiSourceGlue G>
consteval Kernel kernel(Variant v) {
    static_assert(G::dest_count > 0 && G::min_sources > 0 && G::min_sources <= G::max_sources);
    Kernel k = kernel<detail::NoStream<G>>(v);
    k.init = nullptr;
    k.blocks = nullptr;
    k.final = nullptr;
    k.stripe = G::stripe;
    k.dest_count = G::dest_count;
    k.min_sources = G::min_sources;
    k.max_sources = G::max_sources;
    k.align_bytes = G::align_bytes;
    if constexpr (requires { G::block_bytes; }) k.block_bytes = G::block_bytes;  // the variant's loop step
    return k;
}

}  // namespace fputune
