// SPDX-License-Identifier: MIT
// Files are complete or not written at all: write a temporary beside the target, fsync, rename.
#pragma once

#include <string>
#include <string_view>

namespace fputune {

// Throws std::runtime_error ("cannot write 'path': reason") and leaves any existing file untouched.
void write_file_atomic(const std::string& path, std::string_view contents);

// Checks up front that `path` could be written (its directory exists and is writable), so a long
// run fails in its first second instead of at its end. Throws like write_file_atomic.
void check_writable(const std::string& path);

std::string read_file(const std::string& path);  // throws std::runtime_error naming the path

}  // namespace fputune
