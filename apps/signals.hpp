// SPDX-License-Identifier: MIT
// Signals that end a long run: they ask it to stop, it writes what it has, and exits kExitPartial.
#pragma once

#include <atomic>

namespace fputune::cli {

// While alive, SIGINT, SIGTERM, SIGHUP (an SSH disconnect), SIGUSR1 and SIGPIPE (the reader of our
// output went away) set stop() instead of killing the process. The handlers stay in place until the
// guard is destroyed, i.e. until the partial file is written, so a second Ctrl-C cannot lose it.
class StopOnSignals {
public:
    StopOnSignals();
    ~StopOnSignals();  // restores the previous dispositions; after a stop signal, ignores them to the exit
    StopOnSignals(const StopOnSignals&) = delete;
    StopOnSignals& operator=(const StopOnSignals&) = delete;

    const std::atomic<bool>& stop() const;
    int signal() const;  // the first signal received, 0 when none
};

// "SIGHUP" etc.
const char* signal_name(int sig);

}  // namespace fputune::cli
