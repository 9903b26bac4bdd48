// SPDX-License-Identifier: MIT
// The mac family's peers: OpenSSL 3 (peers/openssl.cpp) and libsodium (peers/sodium.cpp), built by table.cpp.
#pragma once

#include "mac.hpp"
#include "peer.hpp"

namespace fputune::peers {

// OpenSSL 3 (openssl.cpp).
struct Poly1305OpenSsl : PeerOf<mac::kPoly1305> {
    FPUTUNE_KERNEL_ENTRY_POINTS;
};
struct GhashOpenSsl : PeerOf<mac::kGhash> {
    FPUTUNE_KERNEL_ENTRY_POINTS;
};
struct Blake2sOpenSsl : PeerOf<mac::kBlake2s> {
    FPUTUNE_KERNEL_ENTRY_POINTS;
};

// libsodium (sodium.cpp).
struct Poly1305Sodium : PeerOf<mac::kPoly1305> {
    FPUTUNE_KERNEL_ENTRY_POINTS;
};

}  // namespace fputune::peers
