// SPDX-License-Identifier: MIT
// The raid family's peers: ISA-L's pq_gen and xor_gen for one ISA each (sse, avx2/avx, avx512), behind the
// multi-source entry points of raid/raid.hpp. Baseline flags; each is reached only after the registry has
// checked the CPU for what ISA-L's code needs.
#include <isa-l/raid.h>

#include <cassert>
#include <climits>

#include "raid.hpp"

// Exported by libisal 2.30 but not declared in its raid.h.
extern "C" int pq_gen_avx512(int vects, int len, void** array);
extern "C" int xor_gen_avx512(int vects, int len, void** array);

namespace fputune::raid {

namespace {

// ISA-L's one array: the sources, then the destinations. Our widest stripe has kRaid6MaxSources data disks.
constexpr std::size_t kMaxIsalSources = kRaid6MaxSources + 1;

void pq(int (*gen)(int, int, void**), std::size_t n, std::size_t bytes, const std::uint8_t* const* src,
        std::uint8_t* const* dst) noexcept {
    assert(n >= 2 && n <= kRaid6MaxSources && bytes <= static_cast<std::size_t>(INT_MAX));
    void* array[kMaxIsalSources + 2];
    for (std::size_t i = 0; i < n; ++i) array[i] = const_cast<std::uint8_t*>(src[i]);
    array[n] = dst[0];
    array[n + 1] = dst[1];
    [[maybe_unused]] const int rc = gen(static_cast<int>(n + 2), static_cast<int>(bytes), array);
    assert(rc == 0);
}

// dest ^= sources as ISA-L's dest = xor of its sources, dest first among them; more sources than one array
// holds go in several calls, each adding its share into dest.
void xor_into(int (*gen)(int, int, void**), std::size_t n, std::size_t bytes, const std::uint8_t* const* src,
              std::uint8_t* const* dst) noexcept {
    assert(bytes <= static_cast<std::size_t>(INT_MAX));
    void* array[kMaxIsalSources + 2];
    for (std::size_t done = 0; done < n;) {
        const std::size_t m = n - done < kMaxIsalSources ? n - done : kMaxIsalSources;
        array[0] = dst[0];
        for (std::size_t i = 0; i < m; ++i) array[1 + i] = const_cast<std::uint8_t*>(src[done + i]);
        array[m + 1] = dst[0];
        [[maybe_unused]] const int rc = gen(static_cast<int>(m + 2), static_cast<int>(bytes), array);
        assert(rc == 0);
        done += m;
    }
}

}  // namespace

void raid6_gen_isal_sse(std::size_t n, std::size_t bytes, const std::uint8_t* const* src,
                        std::uint8_t* const* dst) noexcept {
    pq(::pq_gen_sse, n, bytes, src, dst);
}
void raid6_gen_isal_avx2(std::size_t n, std::size_t bytes, const std::uint8_t* const* src,
                         std::uint8_t* const* dst) noexcept {
    pq(::pq_gen_avx2, n, bytes, src, dst);
}
void raid6_gen_isal_avx512(std::size_t n, std::size_t bytes, const std::uint8_t* const* src,
                           std::uint8_t* const* dst) noexcept {
    pq(::pq_gen_avx512, n, bytes, src, dst);
}
void xor_gen_isal_sse(std::size_t n, std::size_t bytes, const std::uint8_t* const* src,
                      std::uint8_t* const* dst) noexcept {
    xor_into(::xor_gen_sse, n, bytes, src, dst);
}
void xor_gen_isal_avx(std::size_t n, std::size_t bytes, const std::uint8_t* const* src,
                      std::uint8_t* const* dst) noexcept {
    xor_into(::xor_gen_avx, n, bytes, src, dst);
}
void xor_gen_isal_avx512(std::size_t n, std::size_t bytes, const std::uint8_t* const* src,
                         std::uint8_t* const* dst) noexcept {
    xor_into(::xor_gen_avx512, n, bytes, src, dst);
}

}  // namespace fputune::raid
