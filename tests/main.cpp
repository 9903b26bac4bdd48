// SPDX-License-Identifier: MIT
// The Catch2 main, in a file of its own so that it is compiled once.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
