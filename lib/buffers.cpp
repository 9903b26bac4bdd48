// SPDX-License-Identifier: MIT
#include "buffers.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <new>
#include <sstream>
#include <string>

namespace fputune {

MappedBuffer::MappedBuffer(std::size_t bytes, bool huge) : n(bytes) {
    const std::size_t align = huge ? kHugePageBytes : 4096;
    const std::size_t body = (std::max<std::size_t>(bytes, 1) + align - 1) & ~(align - 1);
    map_bytes_ = body + (huge ? align : 0);  // room to align the start to 2 MiB
    map_ = mmap(nullptr, map_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map_ == MAP_FAILED) {
        map_ = nullptr;
        throw std::bad_alloc();
    }
    const auto start = reinterpret_cast<std::uintptr_t>(map_);
    p = reinterpret_cast<std::uint8_t*>((start + align - 1) & ~(std::uintptr_t{align} - 1));
    // Advice only: a kernel without THP (or with it "never") keeps 4 KiB pages, which the sweep records.
    if (huge) madvise(p, body, MADV_HUGEPAGE);
    std::uint64_t x = 0x9e3779b97f4a7c15ull;  // xorshift64: fast enough for a GiB of filler
    for (std::size_t i = 0; i < bytes; i += 8) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        std::memcpy(p + i, &x, std::min<std::size_t>(8, bytes - i));
    }
}

MappedBuffer::~MappedBuffer() {
    if (map_) munmap(map_, map_bytes_);
}

std::optional<std::uint64_t> anon_huge_bytes(std::istream& smaps, std::uintptr_t begin, std::uintptr_t end) {
    std::optional<std::uint64_t> total;
    bool inside = false;
    std::string line;
    while (std::getline(smaps, line)) {
        // A mapping's header: "7f0000000000-7f0010000000 rw-p 00000000 00:00 0"; its fields follow.
        const std::size_t dash = line.find('-');
        const std::size_t space = line.find(' ');
        if (dash != std::string::npos && space != std::string::npos && dash < space &&
            line.find_first_not_of("0123456789abcdef") == dash) {
            std::uintptr_t lo = 0, hi = 0;
            std::istringstream in(line.substr(0, space));
            char sep = 0;
            in >> std::hex >> lo >> sep >> hi;
            inside = in && sep == '-' && lo < end && hi > begin;
            if (inside && !total) total = 0;
            continue;
        }
        if (inside && line.rfind("AnonHugePages:", 0) == 0) {
            std::istringstream in(line.substr(14));
            std::uint64_t kb = 0;
            if (in >> kb) *total += kb * 1024;
        }
    }
    return total;
}

std::optional<std::uint64_t> anon_huge_bytes(const void* p, std::size_t bytes) {
    std::ifstream smaps("/proc/self/smaps");
    if (!smaps) return std::nullopt;
    const auto begin = reinterpret_cast<std::uintptr_t>(p);
    return anon_huge_bytes(smaps, begin, begin + bytes);
}

}  // namespace fputune
