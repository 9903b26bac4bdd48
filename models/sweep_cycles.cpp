// SPDX-License-Identifier: MIT
// Core cycles from a sweep point, whichever fputune wrote the sweep.
#include "sweep_cycles.hpp"

namespace fputune {

PointStats point_cycles(const SweepFile& f, const PointStats& ticks, const PointStats& cycles) {
    // Per-sample cycles count only with the ratio trace they were measured beside (as fit always did).
    if (cycles.samples && f.ratio_trace.probes && f.ratio_trace.p50 > 0) return cycles;
    PointStats s = ticks;
    const double ratio = model_core_per_tsc(f);
    for (double* v : {&s.min, &s.p10, &s.p50, &s.p90, &s.p99, &s.p999, &s.max, &s.p99_clean}) *v *= ratio;
    return s;
}

}  // namespace fputune
