// SPDX-License-Identifier: MIT
// The interface every kernel implements: plain data and function pointers, nothing that allocates.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace fputune {

// CPU features a kernel may require. Each is "CPUID says so AND the OS enabled the register state
// (XCR0)"; lib/cpu decides which are usable and applies --disable masks.
enum class Feature : unsigned {
    sse2,
    ssse3,
    sse41,
    sse42,
    pclmul,
    aesni,
    avx,
    avx2,
    bmi1,
    bmi2,
    adx,
    fma,
    avx512f,
    avx512vl,
    avx512bw,
    avx512dq,
    avx512ifma,
    avx512vbmi,
    sha,
    vaes,
    vpclmulqdq,
    gfni,
    count
};
using FeatureSet = std::uint32_t;
static_assert(static_cast<unsigned>(Feature::count) <= 32);

constexpr FeatureSet feature_bit(Feature f) noexcept { return FeatureSet{1} << static_cast<unsigned>(f); }
template <typename... F>
constexpr FeatureSet features(F... f) noexcept {
    return (FeatureSet{0} | ... | feature_bit(f));
}

// The largest context any kernel may use; callers provide it, 64-byte aligned.
inline constexpr std::size_t kMaxCtxBytes = 4096;
inline constexpr std::size_t kCtxAlign = 64;

// One variant of one algorithm. Tables build these with kernel<Glue>() (glue.hpp), never by hand.
struct Kernel {
    const char* name;  // "<algorithm>-<isa>" for ours ("sha256-avx2"), "<algorithm>-<provider>" for peers
    const char* algorithm;  // "sha256"
    // The code path, one meaning in every family: for our kernels the instruction set the code is written
    // for, the part of the name after the algorithm ("generic" = portable C++, "scalar" = integer-only,
    // "ssse3", "avx2", "shani", "pclmul", "vpclmul-avx512", ...); for peers "auto": the provider picks its
    // own code for the CPU at run time, and `provider` says who.
    const char* isa;
    const char* provider;  // "fputune" for ours; "openssl", "isal", "sodium" for peers
    FeatureSet required;  // every one must be usable, or the kernel is unavailable
    std::uint32_t block_bytes;  // sections hold whole blocks of this size
    std::uint32_t ctx_bytes;  // <= kMaxCtxBytes
    std::uint32_t key_bytes;  // 0 for unkeyed hashes and CRCs
    std::uint32_t out_bytes;  // digest / tag / CRC size (CRCs: little-endian value)
    bool needs_fpu;  // false for the crc32 instruction, scalar code and generic C++

    // init: start a request (a key, if any, is copied into ctx; SIMD key setup may be deferred to
    //       the first blocks() call, as the kernel does, so that its cost is measured honestly).
    // blocks: the bulk entry, what runs inside one FPU section: nblocks whole blocks.
    // final: any number of remaining bytes (whole blocks and a tail), then the output.
    void (*init)(void* ctx, const std::uint8_t* key) noexcept;
    void (*blocks)(void* ctx, const std::uint8_t* data, std::size_t nblocks) noexcept;
    void (*final)(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out) noexcept;

    // ---- Ciphers (hashes, MACs and CRCs leave these at their defaults) -------------------------------
    // crypt: a cipher's bulk entry, what runs inside one FPU section: nblocks whole blocks from src to dst
    //        (dst == src, or no overlap). For a cipher, blocks() is its associated-data entry (GCM's AAD,
    //        a section of its own; nullptr when it has none), and final() writes the rest of the message
    //        (whole blocks and a tail) to out[0, len), then out_bytes of tag.
    void (*crypt)(void* ctx, const std::uint8_t* src, std::uint8_t* dst, std::size_t nblocks) noexcept = nullptr;
    std::uint32_t iv_bytes = 0;  // the last iv_bytes of the key_bytes init reads: IV, nonce or counter
    std::uint32_t final_min_bytes = 0;  // XTS: 16, a final() with a partial block also takes the block before it
    bool reference_only = false;  // a portable oracle, not a path the kernel has (no threshold for it)

    // ---- Multi-source kernels: RAID6 gen_syndrome, xor_gen (every other kernel leaves these at their defaults;
    // design: /work/notes/multisource-interface.md) ------------------------------------------------------------
    // stripe: what one FPU section runs: `sources` source buffers of `bytes` each (a multiple of block_bytes)
    //         into dest_count destination buffers of `bytes` each. raid6: dst[0] = P, dst[1] = Q (written);
    //         xor: dst[0] ^= every source (read and written, as Linux xor_gen()). Stateless: such a kernel has
    //         no init/blocks/final (nullptr), and key_bytes, ctx_bytes and out_bytes are 0.
    void (*stripe)(std::size_t sources, std::size_t bytes, const std::uint8_t* const* src,
                   std::uint8_t* const* dst) noexcept = nullptr;
    std::uint32_t dest_count = 0;  // raid6 2 (P, Q), xor 1
    std::uint32_t min_sources = 0;  // the fewest sources stripe() takes
    std::uint32_t max_sources = 0;  // the most (raid6: 255, the order of its generator 2 in GF(2^8))
    std::uint32_t align_bytes = 0;  // the alignment every buffer must have (ISA-L's peers); 0 = any
};

constexpr bool is_multisource(const Kernel& k) noexcept { return k.stripe != nullptr; }
// A multi-message hash (sha256-shani-2x: Linux's sha256_finup_2x): a multi-source kernel whose sources are
// whole messages of `bytes` each; stripe() writes each one's digest (out_bytes, of the algorithm's single-stream
// reference) to the start of its destination. Its sections are still N x bytes, no chunking inside.
constexpr bool is_multimessage(const Kernel& k) noexcept { return is_multisource(k) && k.out_bytes > 0; }

// How the number of sources enters a measurement of a multi-source kernel: each of these is a separate point
// (4: the old 4-source xor_blocks() shape and the published "xor_gen 4 sources" figures, the smallest common
// RAID6; 8 and 16: typical and large md arrays). The cost is linear in the sources, so three pin it.
inline constexpr std::uint32_t kStripeSources[] = {4, 8, 16};

constexpr bool is_cipher(const Kernel& k) noexcept { return k.crypt != nullptr; }

// ---- Section shapes (issue 14): what one FPU section covers, as Linux's glue cuts each kind of work -------
enum class SectionShape : std::uint8_t {
    bulk,  // the bulk entry on n bytes, one of a request's loop of sections: a hash's blocks(), a walk step
    // of a cipher's crypt() (CTR, ChaCha20, GCM's data part: CTR + GHASH)
    message,  // a whole message with its setup: XTS's tweak encryption + every block (upstream's 64-bit fast
    // path, xts_crypt(), runs each message in one section, uncapped)
    aad,  // a cipher's associated data through blocks(): GCM's AAD, GHASH only, all of it in one section
    stripe,  // a multi-source kernel's stripe(): N sources x bytes in one section, no chunking
};
constexpr const char* shape_name(SectionShape s) noexcept {
    return s == SectionShape::bulk      ? "bulk"
           : s == SectionShape::message ? "message"
           : s == SectionShape::aad     ? "aad"
                                        : "stripe";
}
// The shapes a kernel's sections take, its own section first. A cipher with ciphertext stealing
// (final_min_bytes: XTS, the only such mode registered) encrypts whole messages per section; a cipher with
// an associated-data entry (GCM) also has an AAD section; a multi-source kernel runs stripes. Every other
// kernel: bulk.
constexpr SectionShape primary_shape(const Kernel& k) noexcept {
    if (is_multisource(k)) return SectionShape::stripe;
    return is_cipher(k) && k.final_min_bytes > 0 ? SectionShape::message : SectionShape::bulk;
}
constexpr bool has_aad_shape(const Kernel& k) noexcept { return is_cipher(k) && k.blocks != nullptr; }

// What kind of work a kernel does, for selecting groups of them (`-k hash`, `-k cipher`, `-k raid`, `-k all`):
// "cipher" writes a destination (crypt()), "raid" combines several sources (stripe()), "hash" is every
// other one (hashes, MACs, CRCs).
constexpr const char* kernel_kind(const Kernel& k) noexcept {
    return is_multisource(k) && !is_multimessage(k) ? "raid" : is_cipher(k) ? "cipher" : "hash";
}
inline constexpr const char* kKernelKinds[] = {"hash", "cipher", "raid"};

// What one FPU section runs: blocks(ctx, src, nblocks) for hashes; crypt(ctx, src, dst, nblocks) for
// ciphers (dst: nblocks * block_bytes bytes; unused by hashes).
void run_section(const Kernel& k, void* ctx, const std::uint8_t* src, std::uint8_t* dst, std::size_t nblocks) noexcept;

// One-shot digest/MAC of len bytes: init + final on a context on the stack. A cipher's is its one-shot
// encryption: out receives len bytes of output, then out_bytes of tag.
void kernel_digest(const Kernel& k, const std::uint8_t* key, const std::uint8_t* data, std::size_t len,
                   std::uint8_t* out) noexcept;

// Short names as used on the command line (--disable avx512f, lists in `fputune cpu`).
std::string_view feature_name(Feature f) noexcept;

}  // namespace fputune
