// SPDX-License-Identifier: MIT
// `verify`'s verdicts and last lines: how many constants are OVER and MARGINAL, the worst one, and what to do.
#include <fmt/format.h>

#include "fit_sweep.hpp"
#include "render.hpp"

namespace fputune {

namespace {
struct VerdictNames {
    const char *label, *key;
};
constexpr VerdictNames kVerdictNames[] = {
    {"PASS", "pass"}, {"MARGINAL", "marginal"}, {"OVER", "over"}, {"CONTENDED", "contended"}};  // enum order
}  // namespace

const char* verdict_label(VerifyVerdict v) { return kVerdictNames[static_cast<int>(v)].label; }
const char* verdict_key(VerifyVerdict v) { return kVerdictNames[static_cast<int>(v)].key; }

std::string render_verify_summary(const std::vector<VerifyRow>& rows, double budget_s) {
    std::size_t over = 0, marginal = 0, contended = 0;
    const VerifyRow* worst = nullptr;
    for (const VerifyRow& r : rows) {
        over += r.verdict == VerifyVerdict::over;
        marginal += r.verdict == VerifyVerdict::marginal;
        contended += r.verdict == VerifyVerdict::contended;
        if (!worst || r.bound_s > worst->bound_s) worst = &r;
    }
    if (!worst || !(budget_s > 0)) return "0 of 0 OVER: nothing was measured\n";
    const std::string line = fmt::format("{} of {} OVER, {} MARGINAL{}, worst {:+.1f} % ({}, {})", over, rows.size(),
                                         marginal, contended ? fmt::format(", {} CONTENDED", contended) : "",
                                         100 * (worst->bound_s / budget_s - 1), worst->constant, worst->kernel);
    const std::string what =
        "For a constant to ship, sweep at other times (or machines) and merge them, `fputune recommend --from a.json "
        "--from b.json`, or add headroom with --margin 1.1; `fputune doctor` says whether this machine is calm enough "
        "to trust\n";
    const std::string shared =
        contended ? fmt::format(
                        "The CONTENDED ones are over the budget, but every round they could be judged on "
                        "shared the core with a neighbour (more than {:.0f} % of its samples contended, and "
                        "the quiet ones between run slower too), so they say as much of the neighbour as of "
                        "the constant: verify again when `fputune doctor` reads calm. ",
                        100 * kCleanRoundMaxShare)
                  : "";
    if (over)
        return line +
               ": a section measured now took longer than the sweep predicted, by more than its samples' noise. " +
               shared + what;
    if (marginal)
        return line +
               ": no section is over beyond its samples' noise (Holm, 5 %); the MARGINAL ones are over by their "
               "point estimate, which a second look could as well pass. " +
               shared + what;
    if (contended) return line + ": no constant is over on a round a neighbour left alone. " + shared + "\n";
    return line + ": every constant holds the budget on this machine\n";
}

}  // namespace fputune
