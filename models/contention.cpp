// SPDX-License-Identifier: MIT
// The contention sensitivity fit: least squares with one quiet level per point, profiled out.
#include "contention.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <exception>
#include <map>

#include <fmt/format.h>

#include "fit.hpp"

namespace fputune {

namespace {

constexpr std::size_t kMinObservations = 6;
constexpr double kMinWithinSpread = 0.05;  // of c within a point, max - min, on some point

struct Normalised {
    std::vector<double> x, y;  // c - 1, value / the point's median value
    std::vector<int> round;  // the sweep's round of each (-1: not known)
};

std::vector<Normalised> normalise(const std::vector<std::vector<ContentionObservation>>& points) {
    std::vector<Normalised> out;
    for (const auto& p : points) {
        std::vector<double> values;
        for (const ContentionObservation& o : p)
            if (o.level >= 1 && o.value > 0 && std::isfinite(o.value)) values.push_back(o.value);
        if (values.size() < 2) continue;
        std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2), values.end());
        const double median = values[values.size() / 2];
        Normalised n;
        for (const ContentionObservation& o : p)
            if (o.level >= 1 && o.value > 0 && std::isfinite(o.value)) {
                n.x.push_back(o.level - 1);
                n.y.push_back(o.value / median);
                n.round.push_back(o.round);
            }
        out.push_back(std::move(n));
    }
    return out;
}

// Each point's quiet level a for a given s (least squares of y = a (1 + s x)).
std::vector<double> levels_at(const std::vector<Normalised>& pts, double s) {
    std::vector<double> a(pts.size(), 1);
    for (std::size_t p = 0; p < pts.size(); ++p) {
        double num = 0, den = 0;
        for (std::size_t i = 0; i < pts[p].x.size(); ++i) {
            const double f = 1 + s * pts[p].x[i];
            num += pts[p].y[i] * f;
            den += f * f;
        }
        a[p] = den > 0 ? num / den : 1;
    }
    return a;
}

double residual_ss(const std::vector<Normalised>& pts, double s) {
    const std::vector<double> a = levels_at(pts, s);
    double ss = 0;
    for (std::size_t p = 0; p < pts.size(); ++p)
        for (std::size_t i = 0; i < pts[p].x.size(); ++i) {
            const double e = pts[p].y[i] - a[p] * (1 + s * pts[p].x[i]);
            ss += e * e;
        }
    return ss;
}

// The s of least squares, the levels profiled out: a coarse grid over [-0.9, 4] (every kernel seen lies in
// 0..1.5), then golden-section search around the best node.
double best_s(const std::vector<Normalised>& pts) {
    constexpr double lo = -0.9, hi = 4, step = 0.02;
    double best = 0, best_ss = residual_ss(pts, 0);
    for (double s = lo; s <= hi; s += step)
        if (const double ss = residual_ss(pts, s); ss < best_ss) {
            best_ss = ss;
            best = s;
        }
    double a = best - step, b = best + step;
    const double g = (std::sqrt(5.0) - 1) / 2;
    for (int it = 0; it < 40; ++it) {
        const double c = b - g * (b - a), d = a + g * (b - a);
        if (residual_ss(pts, c) < residual_ss(pts, d))
            b = d;
        else
            a = c;
    }
    return (a + b) / 2;
}

}  // namespace

double contention_factor(double s, double c) {
    if (!(c > 0)) return 1;
    return std::max(0.5, 1 + s * (c - 1));
}

Sensitivity fit_sensitivity(const std::vector<std::vector<ContentionObservation>>& points) {
    Sensitivity r;
    const std::vector<Normalised> pts = normalise(points);
    double widest = 0;
    std::size_t quiet = 0;
    r.level_min = 0;
    for (const Normalised& p : pts) {
        r.observations += p.x.size();
        const auto [lo, hi] = std::minmax_element(p.x.begin(), p.x.end());
        widest = std::max(widest, *hi - *lo);
        r.level_min = r.points ? std::min(r.level_min, 1 + *lo) : 1 + *lo;
        r.level_max = std::max(r.level_max, 1 + *hi);
        ++r.points;
        for (double x : p.x) quiet += x + 1 < kContendedLevel;
    }
    r.quiet_share = r.observations ? static_cast<double>(quiet) / static_cast<double>(r.observations) : 0;
    if (r.observations < kMinObservations || r.points < 2) {
        r.why_unknown = fmt::format("{} rounds of known contention on {} points (at least {} on 2 are needed)",
                                    r.observations, r.points, kMinObservations);
        return r;
    }
    if (widest < kMinWithinSpread) {
        r.why_unknown = fmt::format("the contention hardly moved during the sweep (levels {:.2f}..{:.2f})", r.level_min,
                                    r.level_max);
        return r;
    }
    const double s = best_s(pts);
    const std::vector<double> a = levels_at(pts, s);
    // The interval: residuals about the fit, and the spread of x about each point's own mean (the levels
    // absorb the rest). Beside it, the same score summed per round (a cluster-robust sandwich): on a shared
    // host a round is a window of time whose neighbour slowed every point alike, whatever c each point's
    // probe read, so a sweep's many points still hold only as many independent looks at s as it has rounds.
    // On an AMD EPYC (Zen 5) VM the least-squares interval alone was +-0.08 where five sweeps gave
    // sha256-ssse3 s = 0.44 .. 1.18.
    double ss = 0, sxx = 0;
    std::map<int, double> score;  // per round: the sum of its observations' terms of the slope's score
    bool rounds_known = true;
    for (std::size_t p = 0; p < pts.size(); ++p) {
        double mean = 0;
        for (double x : pts[p].x) mean += x / static_cast<double>(pts[p].x.size());
        for (std::size_t i = 0; i < pts[p].x.size(); ++i) {
            const double e = pts[p].y[i] - a[p] * (1 + s * pts[p].x[i]);
            ss += e * e;
            sxx += a[p] * a[p] * (pts[p].x[i] - mean) * (pts[p].x[i] - mean);
            rounds_known = rounds_known && pts[p].round[i] >= 0;
            score[pts[p].round[i]] += e * a[p] * (pts[p].x[i] - mean);
        }
    }
    const std::size_t df = r.observations > r.points + 1 ? r.observations - r.points - 1 : 1;
    double half = sxx > 0 ? student_t95(df) * std::sqrt(ss / static_cast<double>(df) / sxx) : 0;
    if (rounds_known && score.size() >= 3 && sxx > 0) {
        const double g = static_cast<double>(score.size());
        double sum2 = 0;
        for (const auto& [round, v] : score) sum2 += v * v;
        half = std::max(half, student_t95(score.size() - 1) * std::sqrt(g / (g - 1) * sum2) / sxx);
    }
    r.known = true;
    r.s = s;
    r.lo = s - half;
    r.hi = s + half;
    return r;
}

std::vector<std::vector<ContentionObservation>> section_observations(const SweepFile& f, const std::string& kernel,
                                                                     const std::string& cache) {
    std::vector<std::vector<ContentionObservation>> out;
    for (const SectionPoint& p : f.sections) {
        if (p.kernel != kernel || p.cache != cache) continue;
        std::vector<ContentionObservation> obs;
        for (std::size_t i = 0; i < p.rounds.size(); ++i) {
            const RoundStats& r = p.rounds[i];
            const int round = static_cast<int>(i);
            if (r.quiet_samples >= kSplitRoundMinSamples && r.contended_samples >= kSplitRoundMinSamples &&
                r.quiet_contention >= 1 && r.contended_contention >= 1 && r.quiet_p50 > 0 && r.contended_p50 > 0) {
                obs.push_back({r.quiet_contention, r.quiet_p50, round});
                obs.push_back({r.contended_contention, r.contended_p50, round});
            } else if (r.contention >= 1 && r.samples >= 5) {
                obs.push_back({r.contention, r.p50, round});
            }
        }
        if (obs.size() >= 2) out.push_back(std::move(obs));
    }
    return out;
}

void fit_tail_sensitivity(Sensitivity& into, const SweepFile& f, const std::string& kernel, const std::string& cache) {
    std::vector<double> t90, t99;
    const auto one = [](std::vector<double>& ts, double all, double quiet, double c, double c_quiet) {
        if (!(all > 0) || !(quiet > 0)) return;
        // u: the level gap the ratio y is spread over; kept clear of 0, where t would be a ratio of noise.
        const double y = all / quiet, u = (c - 1) - y * (c_quiet - 1);
        if (u >= kTailMinGap / 2 && std::isfinite(y)) ts.push_back((y - 1) / u);
    };
    for (const SectionPoint& p : f.sections) {
        if (p.kernel != kernel || p.cache != cache) continue;
        for (const RoundStats& r : p.rounds) {
            if (r.quiet_samples < kTailMinQuiet || r.samples < 2 * kTailMinQuiet || !(r.quiet_contention >= 1) ||
                !(r.contention >= r.quiet_contention + kTailMinGap) || !std::isfinite(r.p99_clean) ||
                !std::isfinite(r.quiet_p99_clean))
                continue;
            one(t90, r.p90, r.quiet_p90, r.contention, r.quiet_contention);
            one(t99, std::max(r.p99_clean, r.p90), std::max(r.quiet_p99_clean, r.quiet_p90), r.contention,
                r.quiet_contention);
        }
    }
    if (t99.size() < kTailMinRounds || t90.size() < kTailMinRounds) return;
    const auto median = [](std::vector<double> v) {
        std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
        return v[v.size() / 2];
    };
    into.tail = {true, median(t90), median(t99)};
    into.tail_rounds = t99.size();
}

std::map<std::pair<std::string, std::string>, Sensitivity> sweep_sensitivities(const SweepFile& f) {
    std::map<std::pair<std::string, std::string>, Sensitivity> out;
    for (const SectionPoint& p : f.sections) {
        const auto key = std::make_pair(p.kernel, p.cache);
        if (out.count(key)) continue;
        out[key] = fit_sensitivity(section_observations(f, p.kernel, p.cache));
        if (out[key].known) fit_tail_sensitivity(out[key], f, p.kernel, p.cache);
        if (!has_contention(f)) out[key].why_unknown = "the sweep file records no contention (made before the probe)";
    }
    return out;
}

std::map<std::pair<std::string, std::string>, SiblingStretch> sibling_stretches(const SweepFile& f) {
    std::map<std::pair<std::string, std::string>, std::vector<double>> ratios;
    if (!f.options.is_object() || !(f.options.contains("sibling") || f.options.contains("neighbour"))) return {};
    for (const SectionPoint& p : f.sections) {
        double busy = 0, quiet = 0;
        int nb = 0, nq = 0;
        for (std::size_t r = 0; r < p.rounds.size(); ++r) {
            if (p.rounds[r].samples < 5) continue;
            (r % 2 ? busy : quiet) += p.rounds[r].p50;
            ++(r % 2 ? nb : nq);
        }
        if (nb && nq && quiet > 0) ratios[{p.kernel, p.cache}].push_back((busy / nb) / (quiet / nq));
    }
    std::map<std::pair<std::string, std::string>, SiblingStretch> out;
    for (auto& [key, v] : ratios) {
        std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
        out[key] = {v[v.size() / 2], v.size()};
    }
    return out;
}

std::string ContentionTarget::text() const {
    switch (kind) {
        case Kind::quiet: return "quiet";
        case Kind::observed: return "observed";
        case Kind::factor: return fmt::format("{:g}", factor);
        case Kind::as_measured: return "as-measured";
    }
    return "?";
}

std::optional<ContentionTarget> parse_contention_target(std::string_view text) {
    if (text == "quiet") return ContentionTarget{};
    if (text == "observed") return ContentionTarget{ContentionTarget::Kind::observed, 1};
    if (text == "as-measured") return ContentionTarget{ContentionTarget::Kind::as_measured, 1};
    std::string t(text);
    if (!t.empty() && (t.back() == 'x' || t.back() == 'X')) t.pop_back();
    if (t.empty() || t.size() > 16) return std::nullopt;
    std::size_t used = 0;
    double v = 0;
    try {
        v = std::stod(t, &used);
    } catch (const std::exception&) {
        return std::nullopt;
    }
    if (used != t.size() || !std::isfinite(v) || v < 1 || v > 10) return std::nullopt;
    return ContentionTarget{ContentionTarget::Kind::factor, v};
}

double target_level(const ContentionTarget& t, double observed_p90, double floor) {
    floor = floor >= 1 ? floor : 1;
    switch (t.kind) {
        case ContentionTarget::Kind::quiet: return floor;
        case ContentionTarget::Kind::observed: return observed_p90 >= 1 ? std::max(observed_p90, floor) : 0;
        case ContentionTarget::Kind::factor: return std::max(t.factor, floor);
        case ContentionTarget::Kind::as_measured: return 0;
    }
    return 0;
}

double ContentionAdjust::apply(double value, double round_level) const {
    if (!known || !(level >= 1) || !(round_level >= 1)) return value;
    return value * contention_factor(s, level) / contention_factor(s, round_level);
}

double ContentionAdjust::apply_tail(double value, double round_level, bool p99) const {
    if (!known || !(level >= 1) || !(round_level >= 1)) return value;
    const double t = !tail.known ? s : p99 ? tail.p99 : tail.p90;
    return value * contention_factor(s, level) / contention_factor(t, round_level);
}

bool restate_model(CacheModel& cm, double level) {
    if (!cm.contention_known || !(cm.contention_level >= 1) || !(level >= 1)) return false;
    const double k = contention_factor(cm.contention_s, level) / contention_factor(cm.contention_s, cm.contention_level);
    for (LineFit* f : {&cm.p90, &cm.p99})
        for (double* v : {&f->a, &f->b, &f->a_lo, &f->a_hi, &f->b_lo, &f->b_hi}) *v *= k;
    for (std::vector<double>* v : {&cm.bound_p90, &cm.bound_p99})
        for (double& x : *v) x *= k;
    for (auto* rounds : {&cm.round_p90, &cm.round_p99})
        for (std::vector<double>& r : *rounds)
            for (double& x : r) x *= k;
    cm.contention_level = level;
    return true;
}

void raise_floor(ModelFile& m, double level) {
    if (!(level > m.contention_floor)) return;
    for (std::vector<CacheModel>* models : {&m.models, &m.prior_models})
        for (CacheModel& cm : *models) {
            if (!cm.contention_known || std::abs(cm.contention_level - m.contention_floor) > 1e-9) continue;
            const double k =
                contention_factor(cm.contention_s, level) / contention_factor(cm.contention_s, cm.contention_level);
            for (double* v : {&cm.p50.a, &cm.p50.b, &cm.p50.a_lo, &cm.p50.a_hi, &cm.p50.b_lo, &cm.p50.b_hi}) *v *= k;
            restate_model(cm, level);
        }
    m.contention_floor = level;
}

void restate_contention(ModelFile& m, const ContentionTarget& target) {
    if (m.contention.empty() || m.contention == kContentionAsMeasuredText) return;
    const double level = target_level(target, m.contention_observed, m.contention_floor);
    if (!(level >= 1)) return;
    m.contention = target.text();
    for (std::vector<CacheModel>* models : {&m.models, &m.prior_models})
        for (CacheModel& cm : *models) restate_model(cm, level);
}

const HeaderContention* header_contention_for(
    const std::map<std::pair<std::string, std::string>, HeaderContention>& lines, const std::string& series,
    const std::string& cache) {
    if (auto it = lines.find({series, cache}); it != lines.end()) return &it->second;
    const auto sources = [](const std::string& name) {
        const std::size_t x = name.rfind(".x");
        return x == std::string::npos ? 0.0 : std::atof(name.c_str() + x + 2);
    };
    const std::string kernel = series.substr(0, series.find('.'));
    const double want = sources(series);
    const HeaderContention* best = nullptr;
    double best_distance = 0;
    for (const auto& [key, h] : lines) {
        const bool same = key.first == series;
        if (!same && key.first.substr(0, key.first.find('.')) != kernel) continue;
        const double distance =
            (same ? 0 : 1e9 + std::abs(sources(key.first) - want)) + (key.second == cache ? 0 : 1e6);
        if (!best || distance < best_distance) {
            best = &h;
            best_distance = distance;
        }
    }
    return best;
}

bool header_as_measured(const std::string& text) {
    return text.find(" * Contention:    as measured") != std::string::npos;
}

std::size_t restate_as_header(ModelFile& m,
                              const std::map<std::pair<std::string, std::string>, HeaderContention>& stated) {
    std::size_t moved = 0;
    for (std::vector<CacheModel>* models : {&m.models, &m.prior_models})
        for (CacheModel& cm : *models) {
            const auto it = stated.find({cm.kernel, std::string(name(cm.cache))});
            if (it != stated.end() && it->second.known) moved += restate_model(cm, it->second.level);
        }
    return moved;
}

std::string contention_comment(const std::string& assumed, const std::vector<HeaderContention>& variants,
                               const std::string& floor_note) {
    if (assumed.empty())
        return " * Contention:    as measured (no sensitivity known, or --contention as-measured): the bounds include\n"
               " *                whatever ran on the core beside the sections\n";
    std::string out = fmt::format(
        " * Contention:    {}: each bound is stated at contention level c (the contention probe's slowdown, 1 =\n"
        " *                quiet), from time(c) = quiet x (1 + s x (c - 1)) with each kernel's sensitivity s (tail=: "
        "the\n"
        " *                s that moved the p90/p99 of a round the neighbour held nearly throughout):\n",
        assumed);
    if (!floor_note.empty()) out += " *                " + floor_note + ":\n";
    for (const HeaderContention& v : variants) {
        auto two = [](double x) { return std::abs(x) < 0.005 ? 0.0 : x; };  // never "-0.00"
        if (v.known)
            out +=
                fmt::format(" *   contention {} {} c={:.2f} s={:.2f} ({:.2f}..{:.2f}){}\n", v.kernel, v.cache, v.level,
                            two(v.s), two(v.lo), two(v.hi),
                            v.tail.known ? fmt::format(" tail={:.2f}/{:.2f}", two(v.tail.p90), two(v.tail.p99)) : "");
        else
            out += fmt::format(" *   contention {} {} as-measured\n", v.kernel, v.cache);
    }
    return out;
}

std::map<std::pair<std::string, std::string>, HeaderContention> parse_header_contention(const std::string& text) {
    std::map<std::pair<std::string, std::string>, HeaderContention> out;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        const std::string line = text.substr(at, end - at);
        at = end + 1;
        const std::size_t key = line.find("*   contention ");
        if (key == std::string::npos) continue;
        char kernel[128] = {}, cache[8] = {};
        HeaderContention h;
        const char* rest = line.c_str() + key + 15;
        const int got = std::sscanf(rest, "%127s %7s c=%lf s=%lf (%lf..%lf) tail=%lf/%lf", kernel, cache, &h.level,
                                    &h.s, &h.lo, &h.hi, &h.tail.p90, &h.tail.p99);
        if (got >= 6) {
            h.known = h.level >= 1 && std::isfinite(h.s);
            h.tail.known = h.known && got == 8 && std::isfinite(h.tail.p90) && std::isfinite(h.tail.p99);
        } else if (std::sscanf(rest, "%127s %7s as-measured", kernel, cache) != 2)
            continue;
        h.kernel = kernel;
        h.cache = cache;
        if (h.cache != "hot" && h.cache != "cold") continue;
        out[{h.kernel, h.cache}] = h;
    }
    return out;
}

bool has_contention(const SweepFile& f) { return f.contention.probes > 0; }

double quiet_level(const SweepFile& f) {
    const ContentionTrace& c = f.contention;
    if (!has_contention(f) || !(c.p10 >= kContendedLevel) || !std::isfinite(c.p10)) return 1;
    return c.p10;
}

}  // namespace fputune
