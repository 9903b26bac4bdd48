// SPDX-License-Identifier: MIT
// The two kinds of failure a command reports, each with its own exit code (see apps/cli.hpp).
#pragma once

#include <stdexcept>

namespace fputune {

// Bad usage or bad input (exit 2): an option, a path or a file the user gave is wrong. The message
// names the value and says how to mend it.
struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The machine or the file system failed us (exit 3): a write error, a full disk, no CPU to pin, a
// timer that does not work. Nothing the user typed is wrong; trying again elsewhere may work.
struct SystemError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace fputune
