// SPDX-License-Identifier: MIT
// Progress of a long run: a bar redrawn in place on a terminal; a few log lines anywhere else.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace fputune::cli {

// On a terminal every update redraws one bar on stderr. Off a terminal (a CI log, nohup, a pipe) a
// line is logged only when 10 s have passed since the last one or another 10 % of the work is done,
// so a 3-minute sweep writes a few dozen lines, not hundreds.
class ProgressLog {
public:
    explicit ProgressLog(bool terminal, double min_interval_s = 10);
    // `done` of `total` steps finished, now working on `what` ("done" at the end).
    void update(std::size_t done, std::size_t total, const std::string& what);
    double elapsed_s() const;
    std::size_t lines() const { return lines_; }  // lines logged off a terminal

private:
    bool terminal_;
    double min_interval_s_;
    std::chrono::steady_clock::time_point start_, last_line_;
    long last_tenth_ = -1;
    std::size_t lines_ = 0;
    bool drawn_ = false;
};

}  // namespace fputune::cli
