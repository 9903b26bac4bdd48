// SPDX-License-Identifier: MIT
// A recommendation as JSON: inputs, machines, per variant (and per machine) and per algorithm.
#include "recommendation_json.hpp"
#include "provenance_json.hpp"

#include <cmath>

#include "upstream.hpp"

namespace fputune {

using nlohmann::json;

namespace {

json threshold_json(const std::optional<SimdThreshold>& t) {
    if (!t) return nullptr;
    return {{"kernel", t->kernel},
            {"dirty", std::string(name(t->dirty))},
            {"kind", std::string(name(t->kind))},
            {"bytes", t->bytes},
            {"scalar_kernels", t->scalar_kernels},
            {"measured_from", t->measured_from},
            {"measured_to", t->measured_to},
            {"save_every", t->save_every},
            {"save_cycles", t->save_cycles},
            {"save_from", t->save_from}};
}

json parts_json(const std::optional<ThresholdParts>& p) {
    if (!p) return nullptr;
    return {{"save_cycles", p->save_cycles},
            {"setup_cycles", p->setup_cycles},
            {"gap_cycles_per_byte", p->gap_cycles_per_byte},
            {"save_every", p->save_every},
            {"break_even_bytes", std::isfinite(p->break_even_bytes) ? json(p->break_even_bytes) : json(nullptr)}};
}

json variant_json(const VariantResult& v) {
    json j = {{"kernel", v.kernel},
              {"algorithm", v.algorithm},
              {"machine", v.machine},
              {"source", v.source},
              {"cache", std::string(name(v.cache))},
              {"block_bytes", v.block_bytes},
              {"fits", v.fits},
              {"unrounded_bytes", v.unrounded_bytes},
              {"one_block_s", v.one_block_s},
              {"notes", v.notes}};
    j["bytes"] = v.fits ? json(v.bytes) : json(nullptr);
    j["time_s"] = v.fits ? json(v.time_s) : json(nullptr);
    j["next_granule_time_s"] = v.fits ? json(v.next_time_s) : json(nullptr);
    j["throughput_cost"] = v.fits ? json(v.throughput_cost) : json(nullptr);
    j["interval"] = {{"lo_bytes", v.interval_lo_bytes}, {"central_bytes", v.central_bytes},
                     {"hi_bytes", v.interval_hi_bytes}, {"rounds", v.rounds},
                     {"round_spread", v.round_spread},  {"local_bias", v.local_bias},
                     {"point_spread", v.point_spread}};
    j["upstream"] = v.upstream_known
                        ? json{{"fpu_chunk_bytes", v.upstream_bytes ? json(*v.upstream_bytes) : json("none")},
                               {"time_s", std::isinf(v.upstream_time_s) ? json(nullptr) : json(v.upstream_time_s)},
                               {"verdict", v.upstream_pass ? "PASS" : "OVER"},
                               {"source", v.upstream_cited}}
                        : json(nullptr);
    j["simd_threshold"] = threshold_json(v.threshold);
    // The contention its bound is stated at (null: as measured, nothing known).
    j["contention"] = v.contention_known && v.contention_level >= 1
                          ? json{{"level", v.contention_level},
                                 {"sensitivity", v.contention_s},
                                 {"sensitivity_lo", v.contention_s_lo},
                                 {"sensitivity_hi", v.contention_s_hi}}
                          : json(nullptr);
    if (j["contention"].is_object() && v.contention_tail.known) {
        j["contention"]["tail_p90"] = v.contention_tail.p90;
        j["contention"]["tail_p99"] = v.contention_tail.p99;
    }
    return j;
}

// A multi-source kernel's count at a stripe size: never beyond the measured N's, and which of them bracket it.
json stripe_json(const StripeResult& s) {
    const bool fits = s.max_sources > 0;
    return {{"kernel", s.kernel},
            {"algorithm", s.algorithm},
            {"machine", s.machine},
            {"source", s.source},
            {"cache", std::string(name(s.cache))},
            {"unit", s.unit.word},
            {"stripe_bytes", s.stripe_bytes},
            {"count", fits ? json(s.count()) : json(nullptr)},
            {"sources", fits ? json(s.max_sources) : json(nullptr)},
            {"time_s", fits ? json(s.time_s) : json(nullptr)},
            {"one_source_s", s.one_source_s},
            {"kernel_max_sources", s.cap ? json(s.cap) : json(nullptr)},
            {"measured_sources", s.measured},
            {"bracket",
             {{"fits_sources", s.fits_measured ? json(s.fits_measured) : json(nullptr)},
              {"over_sources", s.over_measured ? json(s.over_measured) : json(nullptr)}}},
            {"capped", s.capped},
            {"below_measured_sources", s.below_measured ? json(s.below_measured) : json(nullptr)}};
}

}  // namespace

json to_json(const Recommendation& r) {
    const RecommendOptions& o = r.options;
    json j = provenance_json(kRecommendationSchema, r.tool_version, r.tool_commit, r.date);
    j["inputs"] = {{"budget_s", o.question.budget_s},
                   {"min_freq_hz", o.question.min_freq_hz},
                   {"margin", o.question.margin},
                   {"effective_budget_s", effective_budget_s(o.question)},
                   {"cache", std::string(name(o.question.cache))},
                   {"dirty", r.dirty_label()},
                   {"quantile", std::string(name(o.question.quantile))},
                   {"contention", o.question.contention},
                   {"emit", std::string(name(o.emit))},
                   {"round", std::string(name(o.round))},
                   {"save_every", o.save_every},
                   {"per_algorithm", std::string(name(o.per_algorithm))},
                   {"linux", resolve_linux_version(o.linux_version)},
                   {"command", o.command_line}};
    j["machines"] = json::array();
    for (const auto& m : r.machines) {
        j["machines"].push_back({{"machine", m.machine},
                                 {"source", m.source},
                                 {"kind", m.kind},
                                 {"date", m.date},
                                 {"dirty", m.dirty},
                                 {"core_per_tsc", m.core_per_tsc},
                                 {"tsc_hz", m.tsc_hz},
                                 {"tool", {{"version", m.tool_version}, {"commit", m.tool_commit}}}});
        if (m.memory_p50_ticks > 0)
            j["machines"].back()["memory"] = {{"bytes", m.memory_bytes}, {"p50_ticks", m.memory_p50_ticks}};
    }
    j["variants"] = json::array();
    for (const auto& row : r.variants) {
        json v = variant_json(row.bound);
        v["per_machine"] = json::array();
        for (const auto& pm : row.per_machine) v["per_machine"].push_back(variant_json(pm));
        j["variants"].push_back(v);
    }
    j["algorithms"] = json::array();
    for (const auto& a : r.algorithms) {
        j["algorithms"].push_back(
            {{"algorithm", a.algorithm},
             {"fits", a.fits},
             {"bytes", a.fits ? json(a.bytes) : json(nullptr)},
             {"time_s", a.fits ? json(a.time_s) : json(nullptr)},
             {"bound_by", {{"kernel", a.kernel}, {"machine", a.machine}}},
             {"one_block_s", a.one_block_s},
             {"upstream",
              a.upstream_known
                  ? json{{"fpu_chunk_bytes", a.upstream_bytes ? json(*a.upstream_bytes) : json("none")},
                         {"time_s", std::isinf(a.upstream_time_s) ? json(nullptr) : json(a.upstream_time_s)},
                         {"verdict", a.upstream_pass ? "PASS" : "OVER"},
                         {"source", a.upstream_cited}}
                  : json(nullptr)},
             {"simd_threshold", threshold_json(a.threshold)},
             {"simd_threshold_machine", a.threshold_machine}});
        // The threshold against upstream's: with the save paid by every one-shot, by none, and its parts.
        j["algorithms"].back().update(
            {{"simd_threshold_every_pays", threshold_json(a.threshold_every)},
             {"simd_threshold_none_pays", threshold_json(a.threshold_none)},
             {"simd_threshold_parts", parts_json(a.threshold_parts)},
             {"upstream_simd_min", a.upstream_simd_min.empty() ? json(nullptr) : json(a.upstream_simd_min)},
             {"policy", std::string(name(a.policy))},
             {"selected", a.selected},
             {"selection_note", a.selection_note}});
    }
    j["stripes"] = json::array();
    for (const StripeRow& row : r.stripes) {
        json v = stripe_json(row.bound);
        v["per_machine"] = json::array();
        for (const StripeResult& pm : row.per_machine) v["per_machine"].push_back(stripe_json(pm));
        j["stripes"].push_back(v);
    }
    j["stripe_algorithms"] = json::array();
    for (const StripeResult& a : r.stripe_algorithms) j["stripe_algorithms"].push_back(stripe_json(a));
    j["repeats"] = json::array();
    for (const RepeatSpread& rep : r.repeats) {
        json widest = json::array();
        for (const RepeatSpread::Widest& w : rep.widest)
            widest.push_back({{"kernel", w.kernel},
                              {"cache", std::string(name(w.cache))},
                              {"smallest_bytes", w.smallest},
                              {"largest_bytes", w.largest},
                              {"block_bytes", w.block_bytes}});
        j["repeats"].push_back({{"machine", rep.machine},
                                {"sources", rep.sources},
                                {"variants", rep.variants},
                                {"median_spread", rep.median_spread},
                                {"within", rep.within},
                                {"within_or_one_block", rep.within_block},
                                {"within_share", kRepeatWithin},
                                {"widest", widest}});
    }
    j["notes"] = r.notes;
    return j;
}

}  // namespace fputune
