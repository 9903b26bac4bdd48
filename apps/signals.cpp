// SPDX-License-Identifier: MIT
// The stop-on-signal guard of long runs (see signals.hpp).
#include "signals.hpp"

#include <csignal>
#include <cstdio>
#include <iterator>

namespace fputune::cli {

namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGPIPE};
std::atomic<bool> g_stop{false};
std::atomic<int> g_signal{0};
struct sigaction g_previous[sizeof kSignals / sizeof kSignals[0]];

static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free,
              "set from a signal handler");

extern "C" void on_stop_signal(int sig) {
    int none = 0;
    g_signal.compare_exchange_strong(none, sig);
    g_stop.store(true);
}

}  // namespace

StopOnSignals::StopOnSignals() {
    g_stop = false;
    g_signal = 0;
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;  // a write in progress goes on; the run checks stop() between samples
    for (std::size_t i = 0; i < std::size(kSignals); ++i) sigaction(kSignals[i], &sa, &g_previous[i]);
}

StopOnSignals::~StopOnSignals() {
    // What was printed goes out while a closed pipe or a lost terminal still cannot kill us.
    std::fflush(stdout);
    std::fflush(stderr);
    // After a stop signal the run is ending with its partial file written: further ones (a Ctrl-C
    // pressed again and again) are ignored until it has exited with kExitPartial, and a write to a
    // dead reader just fails. Without one, the previous dispositions come back.
    const bool stopping = g_signal.load() != 0;
    for (std::size_t i = 0; i < std::size(kSignals); ++i) {
        if (stopping)
            std::signal(kSignals[i], SIG_IGN);
        else
            sigaction(kSignals[i], &g_previous[i], nullptr);
    }
}

const std::atomic<bool>& StopOnSignals::stop() const { return g_stop; }
int StopOnSignals::signal() const { return g_signal.load(); }

const char* signal_name(int sig) {
    switch (sig) {
        case SIGINT: return "SIGINT";
        case SIGTERM: return "SIGTERM";
        case SIGHUP: return "SIGHUP";
        case SIGUSR1: return "SIGUSR1";
        case SIGPIPE: return "SIGPIPE";
        default: return "a signal";
    }
}

}  // namespace fputune::cli
