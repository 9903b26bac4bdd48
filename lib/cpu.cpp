// SPDX-License-Identifier: MIT
// CPUID + XGETBV feature detection (both must agree, as BLAKE3 and xxHash check), and the feature mask.
#include "cpu.hpp"

#include <cpuid.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <atomic>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace fputune {

CpuId cpuid(std::uint32_t leaf, std::uint32_t subleaf) noexcept {
    CpuId r{};
    __cpuid_count(leaf, subleaf, r.eax, r.ebx, r.ecx, r.edx);
    return r;
}

std::uint64_t xgetbv0() noexcept {
    if (!(cpuid(1).ecx & (1u << 27))) return 0;  // OSXSAVE: XGETBV is allowed
    std::uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (std::uint64_t{hi} << 32) | lo;
}

namespace {

FeatureSet detect() noexcept {
    const std::uint32_t max_leaf = cpuid(0).eax;
    const CpuId l1 = cpuid(1);
    const CpuId l7 = max_leaf >= 7 ? cpuid(7, 0) : CpuId{};
    const std::uint64_t xcr0 = xgetbv0();
    const bool os_sse = (xcr0 & 0x2) || true;  // SSE state is always usable in 64-bit user mode
    const bool os_avx = (xcr0 & 0x6) == 0x6;  // XMM | YMM
    const bool os_avx512 = os_avx && (xcr0 & 0xe0) == 0xe0;  // opmask | ZMM_Hi256 | Hi16_ZMM
    FeatureSet f = 0;
    auto set = [&](Feature feat, bool on) {
        if (on) f |= feature_bit(feat);
    };
    set(Feature::sse2, os_sse && (l1.edx & (1u << 26)));
    set(Feature::ssse3, os_sse && (l1.ecx & (1u << 9)));
    set(Feature::sse41, os_sse && (l1.ecx & (1u << 19)));
    set(Feature::sse42, os_sse && (l1.ecx & (1u << 20)));
    set(Feature::pclmul, os_sse && (l1.ecx & (1u << 1)));
    set(Feature::aesni, os_sse && (l1.ecx & (1u << 25)));
    set(Feature::avx, os_avx && (l1.ecx & (1u << 28)));
    set(Feature::fma, os_avx && (l1.ecx & (1u << 12)));
    set(Feature::avx2, os_avx && (l7.ebx & (1u << 5)));
    set(Feature::bmi1, l7.ebx & (1u << 3));
    set(Feature::bmi2, l7.ebx & (1u << 8));
    set(Feature::adx, l7.ebx & (1u << 19));
    set(Feature::sha, os_sse && (l7.ebx & (1u << 29)));
    set(Feature::avx512f, os_avx512 && (l7.ebx & (1u << 16)));
    set(Feature::avx512dq, os_avx512 && (l7.ebx & (1u << 17)));
    set(Feature::avx512ifma, os_avx512 && (l7.ebx & (1u << 21)));
    set(Feature::avx512bw, os_avx512 && (l7.ebx & (1u << 30)));
    set(Feature::avx512vl, os_avx512 && (l7.ebx & (1u << 31)));
    set(Feature::avx512vbmi, os_avx512 && (l7.ecx & (1u << 1)));
    set(Feature::gfni, os_sse && (l7.ecx & (1u << 8)));
    set(Feature::vaes, os_avx && (l7.ecx & (1u << 9)));
    set(Feature::vpclmulqdq, os_avx && (l7.ecx & (1u << 10)));
    return f;
}

// Each feature and the one it cannot be used without.
struct Dependency {
    Feature feature, needs;
};
constexpr Dependency kDependencies[] = {
    {Feature::ssse3, Feature::sse2},
    {Feature::sse41, Feature::ssse3},
    {Feature::sse42, Feature::sse41},
    {Feature::pclmul, Feature::sse2},
    {Feature::aesni, Feature::sse2},
    {Feature::sha, Feature::sse2},
    {Feature::gfni, Feature::sse2},
    {Feature::avx, Feature::sse42},
    {Feature::fma, Feature::avx},
    {Feature::avx2, Feature::avx},
    {Feature::vaes, Feature::avx},
    {Feature::vpclmulqdq, Feature::avx},
    {Feature::avx512f, Feature::avx2},
    {Feature::avx512vl, Feature::avx512f},
    {Feature::avx512bw, Feature::avx512f},
    {Feature::avx512dq, Feature::avx512f},
    {Feature::avx512ifma, Feature::avx512f},
    {Feature::avx512vbmi, Feature::avx512f},
};

std::atomic<FeatureSet> g_disabled{0};

}  // namespace

FeatureSet detected_features() noexcept {
    static const FeatureSet f = detect();
    return f;
}

std::vector<Feature> all_features() {
    std::vector<Feature> v;
    for (unsigned i = 0; i < static_cast<unsigned>(Feature::count); ++i) v.push_back(static_cast<Feature>(i));
    return v;
}

FeatureSet close_mask(FeatureSet masked) noexcept {
    for (bool changed = true; changed;) {
        changed = false;
        for (auto [feature, needs] : kDependencies)
            if ((masked & feature_bit(needs)) && !(masked & feature_bit(feature))) {
                masked |= feature_bit(feature);
                changed = true;
            }
    }
    return masked;
}

FeatureSet parse_feature_list(const std::string& list) {
    FeatureSet out = 0;
    std::stringstream ss(list);
    std::string item;
    while (std::getline(ss, item, ',')) {
        item.erase(std::remove_if(item.begin(), item.end(), ::isspace), item.end());
        if (item.empty()) continue;
        std::transform(item.begin(), item.end(), item.begin(), ::tolower);
        if (item == "avx512") item = "avx512f";
        if (item == "shani" || item == "sha_ni") item = "sha";
        if (item == "sse42") item = "sse4.2";
        if (item == "sse41") item = "sse4.1";
        if (item == "clmul" || item == "pclmulqdq") item = "pclmul";
        if (item == "aesni") item = "aes";
        bool found = false;
        for (Feature f : all_features())
            if (feature_name(f) == item) {
                out |= feature_bit(f);
                found = true;
            }
        if (!found) {
            std::string valid;
            for (Feature f : all_features()) {
                if (!valid.empty()) valid += ", ";
                valid += feature_name(f);
            }
            throw std::invalid_argument("unknown feature '" + item + "' in --disable; valid features: " + valid +
                                        " (aliases: avx512, shani, sse42, clmul)");
        }
    }
    return out;
}

void set_disabled_features(FeatureSet masked) noexcept { g_disabled.store(close_mask(masked)); }
FeatureSet disabled_features() noexcept { return g_disabled.load(); }
FeatureSet usable_features() noexcept { return detected_features() & ~disabled_features(); }

std::string feature_list_string(FeatureSet set) {
    std::string s;
    for (Feature f : all_features())
        if (set & feature_bit(f)) {
            if (!s.empty()) s += ' ';
            s += feature_name(f);
        }
    return s;
}

CpuIdentity cpu_identity() {
    CpuIdentity id;
    CpuId l0 = cpuid(0);
    char vendor[13] = {};
    std::memcpy(vendor, &l0.ebx, 4);
    std::memcpy(vendor + 4, &l0.edx, 4);
    std::memcpy(vendor + 8, &l0.ecx, 4);
    id.vendor = vendor;
    if (cpuid(0x80000000).eax >= 0x80000004) {
        char brand[49] = {};
        for (unsigned i = 0; i < 3; ++i) {
            CpuId r = cpuid(0x80000002 + i);
            std::memcpy(brand + 16 * i, &r, 16);
        }
        id.brand = brand;
        auto b = id.brand.find_first_not_of(' ');
        id.brand = b == std::string::npos ? "" : id.brand.substr(b);
        while (!id.brand.empty() && id.brand.back() == ' ') id.brand.pop_back();
    }
    CpuId l1 = cpuid(1);
    unsigned base_family = (l1.eax >> 8) & 0xf, base_model = (l1.eax >> 4) & 0xf;
    id.family = base_family == 0xf ? base_family + ((l1.eax >> 20) & 0xff) : base_family;
    id.model = (base_family == 0x6 || base_family == 0xf) ? base_model + (((l1.eax >> 16) & 0xf) << 4) : base_model;
    id.stepping = l1.eax & 0xf;
    id.hypervisor = l1.ecx & (1u << 31);
    std::ifstream cpuinfo("/proc/cpuinfo");
    for (std::string line; std::getline(cpuinfo, line);)
        if (line.rfind("microcode", 0) == 0) {
            auto colon = line.find(':');
            if (colon != std::string::npos) id.microcode = line.substr(line.find_first_not_of(" \t", colon + 1));
            break;
        }
    utsname u{};
    if (uname(&u) == 0) id.kernel_release = u.release;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    id.logical_cpus = n > 0 ? static_cast<unsigned>(n) : 0;
    return id;
}

}  // namespace fputune
