// SPDX-License-Identifier: MIT
// The sweep's data buffers: page-aligned anonymous mappings, the cold one backed by 2 MiB pages where the
// kernel allows them, as the kernel's direct map (where the data of a kernel crypto request lives) is.
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <optional>

namespace fputune {

inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

// An anonymous private mapping of at least `bytes` (whole pages), filled with pseudo-random bytes. With
// `huge`, 2 MiB aligned and advised MADV_HUGEPAGE before it is first touched, so that transparent huge
// pages back it wherever /sys/kernel/mm/transparent_hugepage/enabled is "always" or "madvise".
struct MappedBuffer {
    std::uint8_t* p = nullptr;
    std::size_t n = 0;  // usable bytes (as asked)
    MappedBuffer(std::size_t bytes, bool huge);
    ~MappedBuffer();
    MappedBuffer(const MappedBuffer&) = delete;
    MappedBuffer& operator=(const MappedBuffer&) = delete;

private:
    void* map_ = nullptr;
    std::size_t map_bytes_ = 0;
};

// AnonHugePages (bytes) of the mappings of a /proc/PID/smaps listing that overlap [begin, end), counted
// whole per mapping that lies inside the range; nullopt when the listing has no mapping there.
std::optional<std::uint64_t> anon_huge_bytes(std::istream& smaps, std::uintptr_t begin, std::uintptr_t end);
// The same for this process (/proc/self/smaps); nullopt when it cannot be read.
std::optional<std::uint64_t> anon_huge_bytes(const void* p, std::size_t bytes);

}  // namespace fputune
