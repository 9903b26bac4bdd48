// SPDX-License-Identifier: MIT
// One measuring run per CPU: two sweeps pinned to one CPU would measure each other.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace fputune {

// An exclusive flock(2) on "<dir>/fputune-cpu<N>.lock" (dir: $FPUTUNE_LOCK_DIR, else /run/lock, else
// /tmp), holding the holder's PID and command line; released when the process ends, however it ends.
class CpuLock {
public:
    // The lock, or nullopt when another process holds it; then `holder` says who ("PID 1234: fputune
    // sweep ..."). Throws SystemError when no lock file can be opened at all.
    static std::optional<CpuLock> try_acquire(int cpu, const std::string& command_line, std::string& holder);
    CpuLock(CpuLock&& other) noexcept : fd_(other.fd_), path_(std::move(other.path_)) { other.fd_ = -1; }
    CpuLock& operator=(CpuLock&& other) noexcept {
        std::swap(fd_, other.fd_);
        std::swap(path_, other.path_);
        return *this;
    }
    ~CpuLock();
    const std::string& path() const { return path_; }

private:
    CpuLock(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
    int fd_ = -1;
    std::string path_;
};

// The folder lock files go to (see CpuLock).
std::string cpu_lock_dir();

}  // namespace fputune
