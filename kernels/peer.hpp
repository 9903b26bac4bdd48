// SPDX-License-Identifier: MIT
// What every peer glue type starts from (peers are other people's implementations, measured side by side
// with ours): its algorithm and a context large enough for the provider's own state (a low-level struct)
// or a pointer to it (EVP objects, created in init and freed in final: that allocation is part of what
// the peer costs per request). Each family declares its peers in <family>/<family>_peers.hpp, as
// aes/aes_glue.hpp does; peers/<provider>.cpp defines them, the only files that include the provider's
// headers. So peers/ depends on the families, never the other way.
#pragma once

#include <cstddef>

#include "glue.hpp"

namespace fputune::peers {

inline constexpr std::size_t kPeerCtxBytes = 512;

template <const Algorithm& A>
struct PeerOf {
    static constexpr Algorithm algorithm = A;
    static constexpr std::size_t ctx_bytes = kPeerCtxBytes;
};

}  // namespace fputune::peers
