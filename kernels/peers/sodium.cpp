// SPDX-License-Identifier: MIT
// Peer: libsodium's poly1305 (crypto_onetimeauth_poly1305_*; it picks its own SSE2 or portable code).
#include <sodium.h>

#include <cassert>

#include "mac/mac_peers.hpp"

namespace fputune::peers {

namespace {
using State = crypto_onetimeauth_poly1305_state;
static_assert(sizeof(State) <= kPeerCtxBytes && alignof(State) <= kCtxAlign);

void ensure_sodium() noexcept {
    static const int ok = sodium_init();  // once: selects libsodium's implementation for this CPU
    assert(ok >= 0);
    (void)ok;
}
}  // namespace

void Poly1305Sodium::init(void* ctx, const std::uint8_t* key) noexcept {
    ensure_sodium();
    crypto_onetimeauth_poly1305_init(static_cast<State*>(ctx), key);
}

void Poly1305Sodium::blocks(void* ctx, const std::uint8_t* data, std::size_t nblocks) noexcept {
    crypto_onetimeauth_poly1305_update(static_cast<State*>(ctx), data, nblocks * 16);
}

void Poly1305Sodium::final(void* ctx, const std::uint8_t* data, std::size_t len, std::uint8_t* out) noexcept {
    auto* st = static_cast<State*>(ctx);
    crypto_onetimeauth_poly1305_update(st, data, len);
    crypto_onetimeauth_poly1305_final(st, out);
}

}  // namespace fputune::peers
