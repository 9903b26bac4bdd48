// SPDX-License-Identifier: MIT
// Before/after and machine/machine comparison of sweeps (fitted lines and limits) or bench files, with a
// significance test from each file's own 95 % intervals.
#include "compare.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>

#include <fmt/format.h>

#include "atomic_file.hpp"
#include "errors.hpp"
#include "contention.hpp"
#include "fit.hpp"
#include "provenance_json.hpp"
#include "select_models.hpp"
#include "stats.hpp"

namespace fputune {

using nlohmann::json;

std::size_t CompareResult::changed() const {
    return static_cast<std::size_t>(
        std::count_if(rows.begin(), rows.end(), [](const CompareRow& r) { return r.changed(); }));
}

Change compare_estimates(const Estimate& a, const Estimate& b, double shown_a, double shown_b, bool lower_is_better,
                         const CompareOptions& o, double extra_rel_se, const HostMove* host, double memory_share) {
    constexpr double z = 1.959963984540054;
    Change c;
    c.compared = true;
    c.a = a;
    c.b = b;
    c.shown_a = shown_a;
    c.shown_b = shown_b;
    c.rel = shown_a != 0 ? (shown_b - shown_a) / shown_a : 0;
    c.beyond_host = c.rel;
    if (!a.has_interval() && !b.has_interval()) {
        c.p = std::numeric_limits<double>::quiet_NaN();
        c.verdict = "no interval";
        return c;
    }
    // B moved back by the host's shift: what is left is the change of this variant alone.
    const bool moved = host && host->known;
    const double back = moved ? std::exp(-host->shift_at(memory_share)) : 1;
    const Estimate bb{b.value * back, b.lo * back, b.hi * back, b.t};
    const double rel = shown_a != 0 ? (shown_b * back - shown_a) / shown_a : 0;
    c.beyond_host = rel;
    // Each side's standard error from the half of its interval that faces the other value.
    const double d = bb.value - a.value;
    auto se = [](const Estimate& e, bool upper) {
        return std::max(0.0, upper ? e.hi - e.value : e.value - e.lo) / e.t;
    };
    const double own_a = se(a, d > 0), own_b = se(bb, d < 0);
    const double extra = extra_rel_se * std::abs(a.value),
                 host_se = moved ? host->sd_at(memory_share) * std::abs(a.value) : 0;
    auto combined = [&](double e, double h) { return std::sqrt(own_a * own_a + own_b * own_b + e * e + h * h); };
    const double s = combined(extra, host_se);
    if (a.value != 0) {
        c.spread = z * s / std::abs(a.value);
        c.contention_spread = extra > 0 ? c.spread - z * combined(0, host_se) / std::abs(a.value) : 0;
        c.host_spread = host_se > 0 ? c.spread - z * combined(extra, 0) / std::abs(a.value) : 0;
    }
    c.p = s > 0 ? std::erfc(std::abs(d) / s / std::sqrt(2.0)) : (d == 0 ? 1.0 : 0.0);
    const bool same_direction = (d > 0) == (rel > 0) || rel == 0;
    c.significant = c.p < o.alpha && std::abs(rel) >= o.min_change && same_direction && rel != 0;
    if (!c.significant)
        c.verdict = "no significant change";
    else if (lower_is_better)
        c.verdict = rel < 0 ? "faster" : "slower";
    else
        c.verdict = rel > 0 ? "larger" : "smaller";
    return c;
}

namespace {

double robust_sd(const std::vector<double>& xs, double centre) {
    std::vector<double> dev;
    for (double x : xs) dev.push_back(std::abs(x - centre));
    return 1.4826 * median(dev);
}

}  // namespace

HostMove host_move(const std::vector<const Change*>& changes, const std::vector<double>& memory_shares) {
    HostMove h;
    std::vector<double> logs, shares;
    for (std::size_t i = 0; i < changes.size(); ++i) {
        const Change* c = changes[i];
        if (c->compared && std::isfinite(c->p) && c->a.value > 0 && c->b.value > 0) {
            logs.push_back(std::log(c->b.value / c->a.value));
            shares.push_back(i < memory_shares.size() ? memory_shares[i] : 0.0);
        }
    }
    h.rows = logs.size();
    if (h.rows < kHostMoveMinRows) return h;
    h.known = true;
    h.shift = median(logs);
    // The host does not move every kernel alike (memory-bound ones more): their scatter about the shift is
    // added whole, not less what each test's own spread already holds (on the Intel Xeon VM, 2026-12-02, the own
    // spreads were as wide as the scatter, and taking them off left the SHA kernels that had not moved "faster").
    h.sd = robust_sd(logs, h.shift);
    const auto bound = static_cast<std::size_t>(
        std::count_if(shares.begin(), shares.end(), [](double m) { return m >= kMemoryBoundShare; }));
    if (bound < kHostMoveMinRows || h.rows - bound < kHostMoveMinRows) return h;
    // The memory term (HostMove): Theil-Sen over the pairs of rows whose shares differ by a twentieth or more.
    std::vector<double> slopes;
    for (std::size_t i = 0; i < logs.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (std::abs(shares[i] - shares[j]) >= 0.05)
                slopes.push_back((logs[i] - logs[j]) / (shares[i] - shares[j]));
    if (slopes.empty()) return h;
    const double memory = median(slopes);
    std::vector<double> intercepts;
    for (std::size_t i = 0; i < logs.size(); ++i) intercepts.push_back(logs[i] - memory * shares[i]);
    const double shift = median(intercepts);
    std::vector<double> compute_res, memory_res;
    for (std::size_t i = 0; i < logs.size(); ++i) {
        h.residuals.emplace_back(shares[i], logs[i] - shift - memory * shares[i]);
        (shares[i] >= kMemoryBoundShare ? memory_res : compute_res).push_back(h.residuals.back().second);
    }
    h.memory_known = true;
    h.memory_rows = bound;
    h.memory = memory;
    h.shift = shift;
    h.sd = robust_sd(compute_res, 0);
    h.memory_sd = robust_sd(memory_res, 0);
    return h;
}

double HostMove::sd_at(double m) const {
    if (!memory_known) return sd;
    std::vector<std::pair<double, double>> by = residuals;
    std::sort(by.begin(), by.end(),
              [m](const auto& x, const auto& y) { return std::abs(x.first - m) < std::abs(y.first - m); });
    const std::size_t k = std::min(by.size(), std::max<std::size_t>(kHostMoveMinRows, by.size() / 4));
    std::vector<double> r;
    for (std::size_t i = 0; i < k; ++i) r.push_back(by[i].second);
    return robust_sd(r, 0);
}

double contention_widening(const CacheModel& a, double level_a, const CacheModel& b, double level_b, std::string& basis,
                           double quiet) {
    basis.clear();
    if (!(level_a >= 1) || !(level_b >= 1)) return 0;
    constexpr double z = 1.959963984540054;
    quiet = quiet >= 1 ? quiet : 1;
    const auto above = [quiet](double c) { return std::max(0.0, c - quiet); };
    // A known s: the error of moving the side's rounds to quiet with it, at the level that side met.
    auto known = [&](const CacheModel& m, double c) {
        return (m.contention_s_hi - m.contention_s_lo) / (2 * z) * above(c) / contention_factor(m.contention_s, c);
    };
    if (a.contention_known && b.contention_known) {
        basis = fmt::format("s {:.2f}..{:.2f} at c {:.2f}, {:.2f}..{:.2f} at c {:.2f}", a.contention_s_lo, a.contention_s_hi,
                            level_a, b.contention_s_lo, b.contention_s_hi, level_b);
        // The two s apart by more than their intervals: the excess, as an error of either side's move to quiet.
        const double apart =
            std::abs(a.contention_s - b.contention_s) -
            std::hypot(a.contention_s_hi - a.contention_s_lo, b.contention_s_hi - b.contention_s_lo) / 2;
        double disagree = 0;
        if (apart > 0) {
            const double c = std::max(level_a, level_b);
            disagree = apart / z * above(c) / contention_factor((a.contention_s + b.contention_s) / 2, c);
            basis += fmt::format("; the two s {:.2f} apart beyond their intervals", apart);
        }
        return std::hypot(known(a, level_a), known(b, level_b), disagree);
    }
    if (!a.contention_known && !b.contention_known) {
        basis = fmt::format("s unknown, c {:.2f} in A, {:.2f} in B", level_a, level_b);
        return std::abs(level_b - level_a) / z;
    }
    const bool a_known = a.contention_known;
    basis = fmt::format("s unknown in {} at c {:.2f}", a_known ? "B" : "A", a_known ? level_b : level_a);
    return std::hypot(a_known ? known(a, level_a) : above(level_a) / z,
                      a_known ? above(level_b) / z : known(b, level_b));
}

namespace {

Change not_compared(const std::string& why) {
    Change c;
    c.why = why;
    c.verdict = "-";
    return c;
}

// The slope of a line (core cycles per byte) and its interval.
Estimate slope(const LineFit& f) {
    return {f.b, f.b_lo, f.b_hi, f.points > 2 ? student_t95(f.points - 2) : 1.959963984540054};
}

// The limit with recommend's interval (docs/results.md, How sure): where the bound line meets the budget, its
// band (two marginal 95 % intervals: wider than one) widened by how far the sweep's rounds move the limit
// near it (already a prediction for another sweep's centre). Each side's interval is used as if it were
// the 95 % interval of its own centre, so the test is conservative: a limit is "changed" only beyond what
// the fit and the host's phases explain.
Estimate limit_estimate(const VariantResult& v) {
    return {v.central_bytes, v.interval_lo_bytes, v.interval_hi_bytes, 1.959963984540054};
}

std::string percent(double rel) { return fmt::format("{:+.1f} %", 100 * rel); }

// A change as said: its own size, and its size beyond the host's move where one was taken off.
std::string change_percent(const Change& c) {
    if (c.beyond_host == c.rel) return percent(c.rel);
    return fmt::format("{} ({} beyond the host's move)", percent(c.rel), percent(c.beyond_host));
}

void summarise(CompareRow& row) {
    std::string s;
    auto add = [&](const char* what, const Change& c) {
        if (!c.significant) return;
        s += fmt::format("{}{} {} {}", s.empty() ? "" : ", ", what, c.verdict, change_percent(c));
    };
    add("p50", row.p50_cpb);
    add("bound", row.bound_cpb);
    add("limit", row.limit);
    row.verdict = s.empty() ? "no significant change" : s;
    // How much of the p50 test's spread the contention term added: the share of the widening it explains.
    if (row.contention_se > 0 && row.p50_cpb.compared && row.p50_cpb.spread > 0)
        row.verdict += fmt::format(" (p50 spread +-{:.1f} %, {:.1f} % of it from contention: {})",
                                   100 * row.p50_cpb.spread, 100 * row.p50_cpb.contention_spread, row.contention_basis);
}

CompareSide side_of(const ModelFile& m) {
    CompareSide s;
    s.path = m.source;
    s.kind = m.source_kind;
    s.machine = m.machine;
    s.date = m.sweep_date.empty() ? m.date : m.sweep_date;
    s.tool_version = m.sweep_tool_version.empty() ? m.tool_version : m.sweep_tool_version;
    s.tool_commit = m.sweep_tool_commit.empty() ? m.tool_commit : m.sweep_tool_commit;
    s.masked_features = masked_features(m);
    s.contention = m.contention_median;
    s.memory_ns = m.memory_p50_ns();
    return s;
}

const VariantResult* find_variant(const std::optional<Recommendation>& r, const std::string& kernel) {
    if (!r) return nullptr;
    for (const auto& row : r->variants)
        if (row.bound.kernel == kernel) return &row.bound;
    return nullptr;
}

// How much of a cold section's time it waits on memory, by its p50 slopes (CompareRow::memory_share); -1 unknown.
double memory_share_in(const ModelFile& f, const std::string& kernel) {
    const CacheModel* hot = f.model(kernel, Cache::hot);
    const CacheModel* cold = f.model(kernel, Cache::cold);
    if (!hot || !cold || !(hot->p50.b > 0) || !(cold->p50.b > 0)) return -1;
    return std::clamp(1 - hot->p50.b / cold->p50.b, 0.0, 1.0);
}

double memory_share(const ModelFile& a, const ModelFile& b, const std::string& kernel, Cache used) {
    if (used != Cache::cold) return 0;
    const double ma = memory_share_in(a, kernel), mb = memory_share_in(b, kernel);
    if (ma >= 0 && mb >= 0) return (ma + mb) / 2;
    return std::max({ma, mb, 0.0});
}

// One variant's change: the slopes of its p50 and bound lines, and its limit where both files recommend one,
// each test widened by what the two files' contention leaves uncertain.
CompareRow compare_row(const KernelInfo& k, const CacheModel& ma, const CacheModel& mb, Cache used,
                       const std::optional<Recommendation>& ra, const std::optional<Recommendation>& rb,
                       const CompareOptions& o, const std::pair<double, double>& levels, double quiet) {
    CompareRow row;
    row.kernel = k.name;
    row.algorithm = k.algorithm;
    row.cache = used;
    row.contention_se = contention_widening(ma, levels.first, mb, levels.second, row.contention_basis, quiet);
    const double w = row.contention_se;
    const Estimate pa = slope(ma.p50), pb = slope(mb.p50);
    row.p50_cpb = compare_estimates(pa, pb, pa.value, pb.value, true, o, w);
    const Estimate ba = slope(bound_fit(ma, o.recommend.question.quantile));
    const Estimate bb = slope(bound_fit(mb, o.recommend.question.quantile));
    row.bound_cpb = compare_estimates(ba, bb, ba.value, bb.value, true, o, w);
    const VariantResult* va = find_variant(ra, k.name);
    const VariantResult* vb = find_variant(rb, k.name);
    if (!k.needs_fpu)
        row.limit = not_compared("needs no FPU: no limit");
    else if (!va || !vb)
        row.limit = not_compared("not recommended (a peer beside a variant of ours)");
    else if (!va->fits || !vb->fits)
        row.limit = not_compared(fmt::format("no size fits in {}", !va->fits ? (!vb->fits ? "A and B" : "A") : "B"));
    else if (va->cache != used || vb->cache != used)
        row.limit = not_compared("limits use another cache state");
    else
        row.limit = compare_estimates(limit_estimate(*va), limit_estimate(*vb), static_cast<double>(va->bytes),
                                      static_cast<double>(vb->bytes), false, o, w);
    summarise(row);
    return row;
}

// Per algorithm: the limit and threshold of A against B.
void compare_algorithms(CompareResult& r, const std::optional<Recommendation>& ra,
                        const std::optional<Recommendation>& rb) {
    if (!ra || !rb) return;
    auto add = [&](const AlgorithmRow& x, bool is_a) {
        auto it = std::find_if(r.algorithms.begin(), r.algorithms.end(),
                               [&](const CompareAlgorithm& c) { return c.algorithm == x.algorithm; });
        if (it == r.algorithms.end()) {
            r.algorithms.push_back({});
            it = std::prev(r.algorithms.end());
            it->algorithm = x.algorithm;
        }
        (is_a ? it->in_a : it->in_b) = true;
        (is_a ? it->limit_a : it->limit_b) = x.fits ? std::optional<std::uint64_t>(x.bytes) : std::nullopt;
        (is_a ? it->bound_by_a : it->bound_by_b) = x.kernel;
        (is_a ? it->threshold_a : it->threshold_b) = x.threshold;
    };
    for (const auto& x : ra->algorithms) add(x, true);
    for (const auto& x : rb->algorithms) add(x, false);
    for (auto& c : r.algorithms)
        if (c.limit_a && c.limit_b && *c.limit_a)
            c.rel = (static_cast<double>(*c.limit_b) - static_cast<double>(*c.limit_a)) /
                    static_cast<double>(*c.limit_a);
}

// The host's move per quantity over every row, and each row's tests again beyond it, with a note that says it.
void judge_beyond_host(CompareResult& r, const CompareOptions& o) {
    struct Quantity {
        Change CompareRow::*change;
        HostMove CompareResult::*move;
        bool lower_is_better;
        const char* what;
    };
    for (const Quantity& q : {Quantity{&CompareRow::p50_cpb, &CompareResult::host_p50, true, "p50 c/B"},
                              Quantity{&CompareRow::bound_cpb, &CompareResult::host_bound, true, "bound c/B"},
                              Quantity{&CompareRow::limit, &CompareResult::host_limit, false, "limit"}}) {
        std::vector<const Change*> changes;
        std::vector<double> shares;
        for (const CompareRow& row : r.rows) {
            changes.push_back(&(row.*q.change));
            shares.push_back(row.memory_share);
        }
        const HostMove h = host_move(changes, shares);
        r.*q.move = h;
        if (!h.known) continue;
        for (CompareRow& row : r.rows) {
            Change& c = row.*q.change;
            if (!c.compared || !std::isfinite(c.p)) continue;
            c = compare_estimates(c.a, c.b, c.shown_a, c.shown_b, q.lower_is_better, o, row.contention_se, &h,
                                  row.memory_share);
        }
        if (h.memory_known) {
            r.notes.push_back(fmt::format(
                "{}: the variants that wait on no memory moved by {} from A to B, and cold ones by a further {} "
                "times the share of their time they wait on memory, by their cold against hot p50 slope ({} of {} "
                "variants wait {:.0f} % of it or more); about that, the changes of those under {:.0f} % scatter "
                "{:.1f} %, of the others {:.1f} %: the host and its memory, or a change shared by all of them; each "
                "variant is judged by its change beyond that, with the scatter of the variants nearest it in that "
                "share added to its spread",
                q.what, percent(std::expm1(h.shift)), percent(std::expm1(h.memory)), h.memory_rows, h.rows,
                100 * kMemoryBoundShare, 100 * kMemoryBoundShare, 100 * h.sd, 100 * h.memory_sd));
            continue;
        }
        // A bench file's rows are kernels at sizes, a sweep's its variants.
        const bool bench = r.kind == "bench";
        r.notes.push_back(fmt::format(
            "{}: the {} moved by {} at the median from A to B, and their changes scatter {:.1f} % about that ({} {}): "
            "the host, or a change shared by all of them; each {} is judged by its change beyond that, with that "
            "scatter added to its spread",
            q.what, bench ? "rows (kernels at sizes)" : "variants", percent(std::expm1(h.shift)), 100 * h.sd, h.rows,
            bench ? "rows" : "variants", bench ? "row" : "variant"));
    }
    // What the host's memory did between the two (cold sections move with it): the one probe of ours that can
    // say the host moved, where the contention probe holds still.
    if (r.a.memory_ns > 0 && r.b.memory_ns > 0)
        r.notes.push_back(fmt::format(
            "memory probe: a read in no cache took {:.1f} ns in A and {:.1f} ns in B at the median ({}): cold "
            "sections move with the host's memory",
            r.a.memory_ns, r.b.memory_ns, percent(r.b.memory_ns / r.a.memory_ns - 1)));
    for (CompareRow& row : r.rows) summarise(row);
}

}  // namespace

// Holm's step-down over every test of one comparison (each row's p50, bound and limit): a comparison of
// 100 variants makes ~300 tests, and at p < 0.05 each, about 15 of them come out "significant" between two
// files of one machine and one binary by chance alone. The i-th smallest p of m is held to alpha / (m - i),
// until the first that fails; that and every larger p are not significant. The family-wise error is then
// alpha. Each row's verdict is written again.
std::size_t holm_step_down(std::vector<CompareRow>& rows, const CompareOptions& o) {
    std::vector<Change*> all;
    for (CompareRow& row : rows)
        for (Change* c : {&row.p50_cpb, &row.bound_cpb, &row.limit})
            if (c->compared && std::isfinite(c->p)) all.push_back(c);
    std::vector<double> p;
    for (const Change* c : all) p.push_back(c->p);
    const std::vector<bool> rejected = holm_rejects(p, o.alpha);
    for (std::size_t i = 0; i < all.size(); ++i)
        if (!rejected[i] && all[i]->significant) {
            all[i]->significant = false;
            all[i]->verdict = "no significant change";
        }
    for (CompareRow& row : rows) summarise(row);
    return all.size();
}

CompareResult compare_models(const ModelFile& a_in, const ModelFile& b_in, const CompareOptions& o) {
    validate(o.recommend);
    // Both files' quiet bounds and p50 lines at one level: the higher floor (quiet_level) where they differ.
    const double quiet = std::max(a_in.contention_floor, b_in.contention_floor);
    ModelFile a_moved, b_moved;
    const bool move = a_in.contention_floor != b_in.contention_floor;
    if (move) {
        a_moved = a_in;
        b_moved = b_in;
        raise_floor(a_moved, quiet);
        raise_floor(b_moved, quiet);
    }
    const ModelFile& a = move ? a_moved : a_in;
    const ModelFile& b = move ? b_moved : b_in;
    CompareResult r;
    r.kind = "sweep";
    r.a = side_of(a);
    r.b = side_of(b);
    r.options = o;
    std::optional<Recommendation> ra, rb;
    try {
        ra = recommend({a}, o.recommend);
        rb = recommend({b}, o.recommend);
    } catch (const std::runtime_error& e) {
        r.notes.push_back(std::string("no limits compared: ") + e.what());
    }
    const Cache cache = o.recommend.question.cache, fallback = other(cache);
    const ModelSelection sa = select_models(std::span(&a, 1), o.recommend.question);
    const ModelSelection sb = select_models(std::span(&b, 1), o.recommend.question);
    std::vector<std::string> fell_back;
    // A series the closed loop measured for a count alone (raid6-avx2.x17) is where that sweep's count fell, not a
    // variant both sweeps measured alike: it is compared through the count, never as a row.
    for (const auto& k : a.kernels) {
        if (k.count_only) continue;
        const ModelChoice* ca = sa.find(a, k.name);
        const ModelChoice* cb = sb.find(b, k.name);
        if (!ca) continue;  // no section points in A: not a sectioned variant
        const CacheModel *ma = ca->model, *mb = cb ? cb->model : nullptr;
        // As recommend, the other cache state when the asked one is missing, but on both sides alike.
        if (cb && ca->cache != cb->cache) {
            ma = a.model(k.name, fallback);
            mb = b.model(k.name, fallback);
        }
        if (!ma || !mb) {
            r.only_a.push_back(k.name + (b.kernel(k.name) ? " (no section points in B)" : ""));
            continue;
        }
        if (ma->cache != cache) fell_back.push_back(k.name);
        r.rows.push_back(
            compare_row(k, *ma, *mb, ma->cache, ra, rb, o, {a.contention_median, b.contention_median}, quiet));
        r.rows.back().memory_share = memory_share(a, b, k.name, ma->cache);
    }
    for (const auto& k : b.kernels)
        if (!k.count_only && sb.find(b, k.name) && !sa.find(a, k.name))
            r.only_b.push_back(k.name + (a.kernel(k.name) ? " (no section points in A)" : ""));
    compare_algorithms(r, ra, rb);
    if (!fell_back.empty())
        r.notes.push_back(fmt::format("no {}-cache points for {}: compared {} cache", name(cache),
                                      fmt::join(fell_back, ", "), name(fallback)));
    if (r.rows.empty()) r.notes.push_back("no variant has section points in both files: nothing to compare");
    if (same_cpu(a, b)) judge_beyond_host(r, o);
    r.tests = holm_step_down(r.rows, o);
    return r;
}

namespace {

struct BenchRow {
    std::string kernel, algorithm;
    std::uint64_t bytes = 0;
    double cpb = 0, rel_ci50 = 0;
    double contention = 0;  // the median level of the turns it ran in (0: unknown, an older file)
};

// What besides the brand says which kind of CPU a bench file's host was.
struct BenchCpu {
    std::string vendor;
    double tsc_hz = 0;  // 0: unknown
};

std::vector<BenchRow> bench_rows(const json& j, const std::string& path, CompareSide& side, BenchCpu& cpu) {
    auto fail = [&](const std::string& why) { return InputError(path + ": " + why); };
    const std::string schema = j.value("schema", "");
    if (schema.rfind("fputune.bench/", 0) != 0)
        throw fail("schema '" + schema + "' is not a bench file (fputune.bench/1)");
    if (schema != "fputune.bench/1")
        throw fail("schema '" + schema + "' is not a version this fputune reads (fputune.bench/1)");
    std::vector<BenchRow> rows;
    try {
        const json& c = j.at("context");
        side.path = path;
        side.kind = "bench";
        side.machine = c.value("cpu_brand", "unknown CPU");
        side.date = c.value("date", "");
        side.tool_version = c.value("tool_version", "");
        side.tool_commit = c.value("tool_commit", "");
        side.masked_features = c.value("masked_features", "");
        cpu.vendor = c.value("cpu_vendor", "");
        cpu.tsc_hz = c.value("tsc_hz", 0.0);
        // As a sweep file states it (contention_json): the median level under "level".
        if (const auto k = c.find("contention"); k != c.end() && k->is_object() && k->contains("level") &&
                                                 (*k)["level"].is_object() && (*k)["level"].value("p50", 0.0) >= 1)
            side.contention = (*k)["level"]["p50"].get<double>();
        for (const auto& x : j.at("results")) {
            BenchRow b{x.at("kernel").get<std::string>(), x.value("algorithm", ""), x.at("bytes").get<std::uint64_t>(),
                       x.at("core_cycles_per_byte").get<double>(), x.value("rel_ci50", 0.0)};
            if (const auto c = x.find("contention"); c != x.end() && c->is_number()) b.contention = c->get<double>();
            if (!(b.cpb > 0) || !std::isfinite(b.cpb) || !(b.rel_ci50 >= 0))
                throw fail(fmt::format("malformed bench file: {} at {} B has core_cycles_per_byte {} (must be > 0)",
                                       b.kernel, b.bytes, b.cpb));
            rows.push_back(std::move(b));
        }
    } catch (const json::exception& e) {
        throw fail(std::string("malformed bench file: ") + e.what());
    }
    return rows;
}

}  // namespace

CompareResult compare_bench(const json& a, const std::string& path_a, const json& b, const std::string& path_b,
                            const CompareOptions& o) {
    CompareResult r;
    r.kind = "bench";
    r.options = o;
    BenchCpu cpu_a, cpu_b;
    const std::vector<BenchRow> rows_a = bench_rows(a, path_a, r.a, cpu_a), rows_b = bench_rows(b, path_b, r.b, cpu_b);
    std::map<std::pair<std::string, std::uint64_t>, const BenchRow*> in_b;
    for (const auto& x : rows_b) in_b[{x.kernel, x.bytes}] = &x;
    std::map<std::pair<std::string, std::uint64_t>, bool> seen;
    for (const auto& x : rows_a) {
        seen[{x.kernel, x.bytes}] = true;
        auto it = in_b.find({x.kernel, x.bytes});
        if (it == in_b.end()) {
            r.only_a.push_back(fmt::format("{} {} B", x.kernel, x.bytes));
            continue;
        }
        const BenchRow& y = *it->second;
        CompareRow row;
        row.kernel = x.kernel;
        row.algorithm = x.algorithm;
        row.bytes = x.bytes;
        const Estimate ea{x.cpb, x.cpb * (1 - x.rel_ci50), x.cpb * (1 + x.rel_ci50)};
        const Estimate eb{y.cpb, y.cpb * (1 - y.rel_ci50), y.cpb * (1 + y.rel_ci50)};
        // What else ran on the core in each file's turns: no sensitivity is known to a bench, so as a sweep's row
        // with none (contention_widening), anywhere from immune to as exposed as the probe.
        row.contention_se =
            contention_widening(CacheModel{}, x.contention, CacheModel{}, y.contention, row.contention_basis, 1);
        row.p50_cpb = compare_estimates(ea, eb, ea.value, eb.value, true, o, row.contention_se);
        row.bound_cpb = not_compared("a bench file has no bound line");
        row.limit = not_compared("a bench file has no limit");
        summarise(row);
        r.rows.push_back(std::move(row));
    }
    for (const auto& y : rows_b)
        if (!seen.count({y.kernel, y.bytes})) r.only_b.push_back(fmt::format("{} {} B", y.kernel, y.bytes));
    if (r.rows.empty()) r.notes.push_back("no kernel and size measured in both files: nothing to compare");
    // One kind of CPU (brand, vendor, TSC within 1 %, the same masks): the host's move over every row is taken off
    // each, as between two sweeps. Two runs of one build 20 s apart on the AMD Zen 5 VM (2026-12-04), whose core
    // c/B came from one core/TSC ratio per run, moved 3.3 % at the median (the core clock): 414 of 732 rows
    // changed, 405 of them "faster"; beyond that move, 24.
    if (r.a.machine == r.b.machine && cpu_a.vendor == cpu_b.vendor && r.a.masked_features == r.b.masked_features &&
        cpu_a.tsc_hz > 0 && cpu_b.tsc_hz > 0 && std::abs(cpu_b.tsc_hz / cpu_a.tsc_hz - 1) <= 0.01)
        judge_beyond_host(r, o);
    r.tests = holm_step_down(r.rows, o);
    return r;
}

CompareResult compare_files(const std::string& path_a, const std::string& path_b, const CompareOptions& o) {
    validate(o.recommend);
    // A bench file is told by its schema; everything else goes to the model reader (sweeps, model files,
    // reference CSVs), which names what it cannot read.
    auto bench_json = [](const std::string& path) -> std::optional<json> {
        const std::string text = read_file(path);
        const auto first = text.find_first_not_of(" \t\r\n");
        if (first == std::string::npos || text[first] != '{') return std::nullopt;
        json j;
        try {
            j = json::parse(text);
        } catch (const json::parse_error& e) {
            throw InputError(path + ": not valid JSON (truncated?): " + e.what());
        }
        if (j.is_object() && j.contains("schema") && j["schema"].is_string() &&
            j["schema"].get<std::string>().rfind("fputune.bench/", 0) == 0)
            return j;
        return std::nullopt;
    };
    const std::optional<json> ja = bench_json(path_a), jb = bench_json(path_b);
    if (ja && jb) return compare_bench(*ja, path_a, *jb, path_b, o);
    if (ja || jb)
        throw InputError(
            fmt::format("{} is a bench file and {} is not: compare two bench files, or two sweeps (or model files)",
                        ja ? path_a : path_b, ja ? path_b : path_a));
    return compare_models(load_models(path_a), load_models(path_b), o);
}

std::vector<std::string> regressions(const CompareResult& r, double pct) {
    std::vector<std::string> out;
    const double limit = pct / 100;
    // The change beyond the host's move (the change itself where none is known) is what is held to `pct`.
    for (const auto& row : r.rows) {
        const std::string name = row.kernel + (row.bytes ? fmt::format(" {} B", row.bytes) : "");
        if (row.p50_cpb.significant && row.p50_cpb.beyond_host > limit)
            out.push_back(name + ": p50 c/B " + change_percent(row.p50_cpb));
        if (row.bound_cpb.significant && row.bound_cpb.beyond_host > limit)
            out.push_back(name + ": bound c/B " + change_percent(row.bound_cpb));
        if (row.limit.significant && -row.limit.beyond_host > limit)
            out.push_back(name + ": limit " + change_percent(row.limit));
    }
    return out;
}

namespace {

json estimate_json(const Estimate& e) {
    if (!e.has_interval()) return {{"value", e.value}, {"ci95", nullptr}};
    return {{"value", e.value}, {"ci95", {e.lo, e.hi}}};
}

json change_json(const Change& c) {
    if (!c.compared) return {{"compared", false}, {"why", c.why}};
    return {{"compared", true},
            {"a", estimate_json(c.a)},
            {"b", estimate_json(c.b)},
            {"shown_a", c.shown_a},
            {"shown_b", c.shown_b},
            {"change", c.rel},
            {"p_value", std::isnan(c.p) ? json(nullptr) : json(c.p)},
            {"significant", c.significant},
            {"spread", c.spread},
            {"contention_spread", c.contention_spread},
            {"beyond_host", c.beyond_host},
            {"host_spread", c.host_spread},
            {"verdict", c.verdict}};
}

json side_json(const CompareSide& s) {
    return {{"path", s.path},
            {"kind", s.kind},
            {"machine", s.machine},
            {"date", s.date},
            {"tool", {{"version", s.tool_version}, {"commit", s.tool_commit}}},
            {"masked_features", s.masked_features},
            {"contention_p50", s.contention},
            {"memory_p50_ns", s.memory_ns > 0 ? json(s.memory_ns) : json(nullptr)}};
}

}  // namespace

json to_json(const CompareResult& r) {
    const RecommendOptions& o = r.options.recommend;
    json j = provenance_json(kCompareSchema, tool_version(), tool_commit(), std::nullopt);
    j["kind"] = r.kind;
    j["a"] = side_json(r.a);
    j["b"] = side_json(r.b);
    j["options"] = {{"alpha", r.options.alpha},
                    {"tests", r.tests},
                    {"min_change", r.options.min_change},
                    {"budget_s", o.question.budget_s},
                    {"min_freq_hz", o.question.min_freq_hz},
                    {"margin", o.question.margin},
                    {"cache", name(o.question.cache)},
                    {"quantile", name(o.question.quantile)},
                    {"round", name(o.round)},
                    {"units", "core cycles per byte; limits in bytes"}};
    j["rows"] = json::array();
    for (const auto& row : r.rows) {
        json x = {{"kernel", row.kernel},
                  {"algorithm", row.algorithm},
                  {"p50_cycles_per_byte", change_json(row.p50_cpb)},
                  {"bound_cycles_per_byte", change_json(row.bound_cpb)},
                  {"limit_bytes", change_json(row.limit)},
                  {"changed", row.changed()},
                  {"contention", {{"rel_se", row.contention_se}, {"basis", row.contention_basis}}},
                  {"verdict", row.verdict}};
        if (r.kind == "bench")
            x["bytes"] = row.bytes;
        else {
            x["cache"] = name(row.cache);
            x["memory_share"] = row.memory_share;
        }
        j["rows"].push_back(x);
    }
    j["algorithms"] = json::array();
    auto threshold = [](const std::optional<SimdThreshold>& t) -> json {
        if (!t) return nullptr;
        return {{"kernel", t->kernel}, {"dirty", name(t->dirty)}, {"kind", name(t->kind)}, {"bytes", t->bytes}};
    };
    for (const auto& c : r.algorithms)
        j["algorithms"].push_back({{"algorithm", c.algorithm},
                                   {"in_a", c.in_a},
                                   {"in_b", c.in_b},
                                   {"limit_a", c.limit_a ? json(*c.limit_a) : json(nullptr)},
                                   {"limit_b", c.limit_b ? json(*c.limit_b) : json(nullptr)},
                                   {"bound_by_a", c.bound_by_a},
                                   {"bound_by_b", c.bound_by_b},
                                   {"change", c.limit_a && c.limit_b ? json(c.rel) : json(nullptr)},
                                   {"simd_threshold_a", threshold(c.threshold_a)},
                                   {"simd_threshold_b", threshold(c.threshold_b)}});
    auto move = [](const HostMove& h) -> json {
        if (!h.known) return {{"known", false}, {"rows", h.rows}};
        json m = {{"known", true}, {"rows", h.rows}, {"shift", std::expm1(h.shift)}, {"rel_sd", h.sd}};
        m["memory"] = h.memory_known ? json{{"known", true},
                                            {"rows", h.memory_rows},
                                            {"min_share", kMemoryBoundShare},
                                            {"shift_per_share", std::expm1(h.memory)},
                                            {"rel_sd", h.memory_sd}}
                                     : json{{"known", false}};
        return m;
    };
    if (r.kind == "sweep")
        j["host_move"] = {{"p50_cycles_per_byte", move(r.host_p50)},
                          {"bound_cycles_per_byte", move(r.host_bound)},
                          {"limit_bytes", move(r.host_limit)}};
    j["only_in_a"] = r.only_a;
    j["only_in_b"] = r.only_b;
    j["summary"] = {
        {"compared", r.rows.size()}, {"changed", r.changed()}, {"no_significant_change", r.rows.size() - r.changed()}};
    j["notes"] = r.notes;
    return j;
}

}  // namespace fputune
