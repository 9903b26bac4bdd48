// SPDX-License-Identifier: MIT
// The sha family's peers: OpenSSL 3's SHA-1, SHA-2 and SM3 (peers/openssl.cpp), built by table.cpp.
#pragma once

#include "sha.hpp"
#include "peer.hpp"

namespace fputune::peers {

// OpenSSL 3 (openssl.cpp).
struct Sha1OpenSsl : PeerOf<sha::kSha1> {
    FPUTUNE_KERNEL_ENTRY_POINTS;
};
struct Sha224OpenSsl : PeerOf<sha::kSha224> {
    FPUTUNE_KERNEL_ENTRY_POINTS;
};
struct Sha256OpenSsl : PeerOf<sha::kSha256> {
    FPUTUNE_KERNEL_ENTRY_POINTS;
};
struct Sha384OpenSsl : PeerOf<sha::kSha384> {
    FPUTUNE_KERNEL_ENTRY_POINTS;
};
struct Sha512OpenSsl : PeerOf<sha::kSha512> {
    FPUTUNE_KERNEL_ENTRY_POINTS;
};
struct Sm3OpenSsl : PeerOf<sha::kSm3> {
    FPUTUNE_KERNEL_ENTRY_POINTS;
};

}  // namespace fputune::peers
