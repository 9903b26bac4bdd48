// SPDX-License-Identifier: MIT
// Workloads for `simulate`: what requests reach each kernel (built-ins with their sources, or a CSV).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fputune {

// `count` requests of `bytes` each for every kernel `target` names: a kernel ("sha256-avx2"), an
// algorithm (every variant of "sha256" in the models), or "*" (every kernel in the models).
struct WorkloadRequest {
    std::string target;
    std::uint64_t bytes = 0;
    std::uint64_t count = 0;
    int line = 0;  // where a CSV row came from (0: built in)
};

struct Workload {
    std::string name;  // "bigbuf", "module-signing", ..., or the CSV's path
    std::string description;  // one line: the shape, per kernel
    std::string source;  // where the shape comes from, or why it was chosen
    bool from_csv = false;  // a target that matches no kernel is then an error, not a skip
    bool kernel_thread = false;  // runs in kernel threads: kernel_fpu_begin() saves no user state there
    std::vector<WorkloadRequest> requests;
    std::vector<std::string> notes;
};

// The built-in names, in the order `--help` lists them.
const std::vector<std::string>& builtin_workload_names();
bool is_builtin_workload(const std::string& name);

// bigbuf: 10 x 1 MiB per kernel (Elliott's tcrypt test, 2022).
Workload bigbuf_workload();
// dm-crypt: AES-256-XTS (aes-xts-plain64, 512-bit key) on 4 KiB sectors, 1 GiB per kernel.
Workload dm_crypt_workload();
// wireguard: Simple IMIX (7:4:1 of 40, 576, 1500-byte IP packets) through a 1420-byte tunnel: ChaCha20 and
// Poly1305 on each packet.
Workload wireguard_workload();
// module-signing: each module hashed once with sha256 and with sha512 (`sizes`: the modules, `from`:
// where the sizes came from, for the table's provenance).
Workload module_signing_workload(const std::vector<std::uint64_t>& sizes, const std::string& from);

// A CSV of requests: an optional header "kernel,bytes,count", then one row each; '#' lines are
// comments; bytes takes units (4KiB). Throws std::invalid_argument naming `source`, the line and how to
// mend it; a file without a data row is an error.
Workload workload_from_csv(const std::string& text, const std::string& source);
inline constexpr const char* kWorkloadCsvHeader = "kernel,bytes,count";

// Module sizes from text: one size per line (what `find ... -printf '%s\n'` prints), '#' comments, or
// one comma-separated list. Throws std::invalid_argument naming `source` and the line.
std::vector<std::uint64_t> parse_module_sizes(const std::string& text, const std::string& source);

// What a module file hashes to when the signature is checked: the uncompressed module. `name` picks
// the format (.ko, .ko.gz, .ko.xz, .ko.zst); `head` and `tail` are the file's first and last bytes
// (at least 32 and up to 64 KiB; the whole file if shorter), `file_bytes` its size. Returns 0 when the
// format does not say (a zstd frame without its content size, a corrupt index).
std::uint64_t module_hashed_bytes(const std::string& name, std::string_view head, std::string_view tail,
                                  std::uint64_t file_bytes);
bool is_module_file(const std::string& name);  // *.ko, *.ko.gz, *.ko.xz, *.ko.zst

}  // namespace fputune
