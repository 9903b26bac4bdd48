// SPDX-License-Identifier: MIT
// The progress bar and its throttled log form (see progress.hpp).
#include "progress.hpp"

#include <iostream>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace fputune::cli {

ProgressLog::ProgressLog(bool terminal, double min_interval_s)
    : terminal_(terminal),
      min_interval_s_(min_interval_s),
      start_(std::chrono::steady_clock::now()),
      last_line_(start_) {}

double ProgressLog::elapsed_s() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void ProgressLog::update(std::size_t done, std::size_t total, const std::string& what) {
    const double elapsed = elapsed_s();
    if (terminal_) {
        const std::size_t width = 30;
        const std::size_t filled = total ? std::min(width, width * done / total) : width;
        std::cerr << fmt::format("\r[{}{}] {:>3}/{:<3} {:>5.0f}s  {:<40}", std::string(filled, '#'),
                                 std::string(width - filled, '.'), done, total, elapsed, what)
                  << std::flush;
        drawn_ = true;
        if (what == "done") std::cerr << "\n";
        return;
    }
    if (what == "done") return;  // the command's own summary line follows
    const auto now = std::chrono::steady_clock::now();
    const long tenth = total ? static_cast<long>(10 * done / total) : 10;
    const bool due = lines_ == 0 || tenth > last_tenth_ ||
                     std::chrono::duration<double>(now - last_line_).count() >= min_interval_s_;
    if (!due) return;
    spdlog::info("[{}/{}] {:.0f}s {}", done + 1, total, elapsed, what);
    last_line_ = now;
    last_tenth_ = tenth;
    ++lines_;
}

}  // namespace fputune::cli
