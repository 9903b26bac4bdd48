// SPDX-License-Identifier: MIT
// Where models (data only) and the kernel registry must agree; in the main test binary, which links both.
#include <catch2/catch.hpp>

#include "model.hpp"
#include "registry.hpp"

using namespace fputune;

TEST_CASE("models' is_peer agrees with the registry's on every kernel", "[models]") {
    for (const Kernel* k : all_kernels()) {
        KernelInfo info;
        info.name = k->name;
        info.algorithm = k->algorithm;
        info.provider = k->provider;
        INFO(k->name << " (provider " << k->provider << ")");
        CHECK(is_peer(info) == is_peer(*k));
    }
}
