// SPDX-License-Identifier: MIT
// Files are complete or not written at all, and a write never replaces what is not a regular file.
//
// How a path is written depends on what it names when the write starts:
//  - a regular file, or a path that does not exist yet: a temporary file beside it (created with
//    O_EXCL|O_NOFOLLOW under an unpredictable name), fsync, rename over the path, fsync the folder;
//  - a symlink: followed (to the end of its chain); its target is replaced that way, the link stays;
//  - a FIFO, a character device (/dev/null), "-", /dev/stdout, /dev/stderr or /dev/fd/N: written
//    straight through, no rename;
//  - anything else (a folder, a block device, a socket): refused.
// Temporary files are named ".<name>.fputune-tmp.<pid>.<random>"; one whose writer is gone (killed
// at the rename) is removed by the next write beside it.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "errors.hpp"

namespace fputune {

// Writes `contents` to `path` as above. Throws InputError when the path cannot be an output (a
// folder, a missing folder, no permission: what the user can mend) and SystemError when the write
// itself fails (a full disk, an I/O error); either way an existing file is left untouched.
void write_file_atomic(const std::string& path, std::string_view contents);

// Checks up front that `path` could be written, so a long run fails in its first second instead of
// at its end. Throws InputError like write_file_atomic.
void check_writable(const std::string& path);

// True when `path` names standard output ("-", /dev/stdout, /dev/fd/1, /proc/self/fd/1).
bool is_stdout_path(const std::string& path);

// An option and the path it names, e.g. {"--header", "limits.h"}, for the messages below.
using NamedPath = std::pair<std::string, std::string>;
// Refuses (InputError, naming both options) an output that is also an input (the same file: same
// inode, through any link) or the same file as another output. Char devices and standard output may
// repeat; an empty path (an option not given) is skipped. Call it before anything is measured or written.
void refuse_same_files(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs);

// The whole file. InputError when it cannot be opened (missing, a folder, no permission) or is larger
// than kMaxInputBytes; SystemError on a read error. Both name the path.
std::string read_file(const std::string& path);
inline constexpr std::size_t kMaxInputBytes = 256u << 20;

// Removes the temporary files a killed writer left beside `path` (see above). Returns how many.
int remove_stale_temporaries(const std::string& path);

}  // namespace fputune
