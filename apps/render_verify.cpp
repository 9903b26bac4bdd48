// SPDX-License-Identifier: MIT
// `verify`'s last lines: how many constants are OVER, the worst one, and what to do.
#include <fmt/format.h>

#include "render.hpp"

namespace fputune {

std::string render_verify_summary(const std::vector<VerifyRow>& rows, double budget_s) {
    std::size_t over = 0;
    const VerifyRow* worst = nullptr;
    for (const VerifyRow& r : rows) {
        over += !r.pass;
        if (!worst || r.bound_s > worst->bound_s) worst = &r;
    }
    if (!worst || !(budget_s > 0)) return "0 of 0 OVER: nothing was measured\n";
    const std::string line =
        fmt::format("{} of {} OVER, worst {:+.1f} % ({}, {})", over, rows.size(), 100 * (worst->bound_s / budget_s - 1),
                    worst->constant, worst->kernel);
    if (!over) return line + ": every constant holds the budget on this machine\n";
    return line +
           ": a section measured now took longer than the sweep predicted. For a constant to ship, sweep at other "
           "times (or machines) and merge them, `fputune recommend --from a.json --from b.json`, or add headroom "
           "with --margin 1.1; `fputune doctor` says whether this machine is calm enough to trust\n";
}

}  // namespace fputune
