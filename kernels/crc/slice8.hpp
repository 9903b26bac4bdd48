// SPDX-License-Identifier: MIT
// Slice-by-8 table-driven CRC (portable C++, no ISA flags), for the generic files of each algorithm.
#pragma once

#include <cassert>
#include <cstring>

#include "crc_spec.hpp"

namespace fputune::crc {
namespace {

// Eight bytes per step: the register is xored into the first bytes, then each byte's contribution
// "byte followed by j zero bytes" is looked up in table j (Intel's slicing-by-8, Kounavis & Berry 2005).
template <const CrcSpec& S, const Slice8Tables& T>
u64 update_slice8(u64 crc, const u8* p, std::size_t len) noexcept {
    assert(p != nullptr || len == 0);
    constexpr u64 mask = S.bits == 64 ? ~u64{0} : (u64{1} << S.bits) - 1;
    while (len >= 8) {
        u64 v;
        std::memcpy(&v, p, 8);
        u64 c = 0;
        if constexpr (S.reflected) {
            v ^= crc;  // little-endian load: the register's low byte meets the first data byte
            for (unsigned k = 0; k < 8; ++k) c ^= T.t[7 - k][(v >> (8 * k)) & 0xff];
        } else {
            v = __builtin_bswap64(v) ^ (crc << (64 - S.bits));  // big-endian: top byte meets the first
            for (unsigned k = 0; k < 8; ++k) c ^= T.t[7 - k][(v >> (56 - 8 * k)) & 0xff];
        }
        crc = c;
        p += 8;
        len -= 8;
    }
    for (; len; --len, ++p) {
        if constexpr (S.reflected)
            crc = (crc >> 8) ^ T.t[0][(crc ^ *p) & 0xff];
        else
            crc = ((crc << 8) & mask) ^ T.t[0][((crc >> (S.bits - 8)) ^ *p) & 0xff];
    }
    return crc;
}

}  // namespace
}  // namespace fputune::crc
