// SPDX-License-Identifier: MIT
// Looking things up in a model file, and the names it gives kernels and machines.
#include "model.hpp"

namespace fputune {

using nlohmann::json;

bool is_peer(const KernelInfo& k) {
    return k.provider != kOwnProvider && k.provider != kReferenceProvider &&
           !k.provider.starts_with(kLinuxProviderPrefix);
}

std::string machine_name(const json& cpu) {
    auto str = [](const json& o, const char* key) -> std::string {
        if (o.is_object() && o.contains(key) && o[key].is_string()) return o[key].get<std::string>();
        return "";
    };
    if (auto b = str(cpu, "brand"); !b.empty()) return b;
    if (cpu.is_object())
        for (const auto& [key, value] : cpu.items())
            if (auto b = str(value, "brand"); !b.empty()) return b;
    if (auto v = str(cpu, "vendor"); !v.empty()) return v;
    return "unknown CPU";
}

const KernelInfo* ModelFile::kernel(const std::string& name) const {
    for (const auto& k : kernels)
        if (k.name == name) return &k;
    return nullptr;
}

const CacheModel* ModelFile::model(const std::string& kernel_name, Cache cache) const {
    for (const auto& m : models)
        if (m.kernel == kernel_name && m.cache == cache) return &m;
    return nullptr;
}

ModelFile new_model(const std::string& source, const std::string& kind) {
    ModelFile m;
    m.tool_version = tool_version();
    m.tool_commit = tool_commit();
    m.date = utc_now_iso8601();
    m.source = source;
    m.source_kind = kind;
    return m;
}

std::string masked_features(const ModelFile& m) {
    const bool has =
        m.options.is_object() && m.options.contains("masked_features") && m.options["masked_features"].is_string();
    return has ? m.options["masked_features"].get<std::string>() : std::string();
}

bool same_cpu(const ModelFile& a, const ModelFile& b) {
    if (!a.cpu.is_object() || !b.cpu.is_object() || a.machine != b.machine) return false;
    for (const char* key : {"vendor", "family", "model", "stepping"})
        if (!a.cpu.contains(key) || !b.cpu.contains(key) || a.cpu[key] != b.cpu[key]) return false;
    return masked_features(a) == masked_features(b);
}

}  // namespace fputune
