// SPDX-License-Identifier: MIT
// The linux provider's table: the kernel's own asm, per algorithm best first, in the registry after ours.
#include "families.hpp"
#include "linux_glue.hpp"

namespace fputune {

std::span<const Kernel> linux_kernels() noexcept {
    static const std::vector<Kernel> table = [] {
        std::vector<Kernel> t;
        linux_glue::add_sha(t);
        linux_glue::add_crc(t);
        linux_glue::add_mac(t);
        linux_glue::add_chacha(t);
        linux_glue::add_aes(t);
        linux_glue::add_gcm_vaes_avx2(t);
        return t;
    }();
    return table;
}

const char* linux_layout() noexcept { return FPUTUNE_LINUX_LAYOUT; }

std::span<const char* const> linux_skipped_units() noexcept {
    static constexpr const char* kSkipped[] = {FPUTUNE_LINUX_SKIPPED_UNITS nullptr};
    return std::span<const char* const>(kSkipped, std::size(kSkipped) - 1);
}

}  // namespace fputune
