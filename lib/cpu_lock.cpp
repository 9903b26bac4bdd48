// SPDX-License-Identifier: MIT
// Per-CPU lock files for measuring runs (see cpu_lock.hpp).
#include "cpu_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "errors.hpp"

namespace fputune {

std::string cpu_lock_dir() {
    if (const char* env = std::getenv("FPUTUNE_LOCK_DIR"); env && *env) return env;
    return access("/run/lock", W_OK) == 0 ? "/run/lock" : "/tmp";
}

std::optional<CpuLock> CpuLock::try_acquire(int cpu, const std::string& command_line, std::string& holder) {
    const std::string path = fmt::format("{}/fputune-cpu{}.lock", cpu_lock_dir(), cpu);
    // O_NOFOLLOW: the folder may be world-writable (/tmp); a planted link must not redirect the write.
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0)
        (void)fchmod(fd, 0666);  // whoever runs next, root or not, can take it too
    else
        fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);  // made by another user: locking needs no write
    if (fd < 0) throw SystemError(fmt::format("cannot open the CPU lock file '{}': {}", path, std::strerror(errno)));
    struct stat st {};
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        throw SystemError(fmt::format("the CPU lock file '{}' is not a regular file; remove it", path));
    }
    while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno == EINTR) continue;
        const int err = errno;
        if (err != EWOULDBLOCK) {
            ::close(fd);
            throw SystemError(fmt::format("cannot lock '{}': {}", path, std::strerror(err)));
        }
        char buf[512] = {};
        const ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
        std::string who = n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : "";
        while (!who.empty() && (who.back() == '\n' || who.back() == '\0')) who.pop_back();
        holder = who.empty() ? "a process that did not say its PID" : who;
        ::close(fd);
        return std::nullopt;
    }
    const std::string me = fmt::format("PID {}: {}\n", getpid(), command_line);
    if (ftruncate(fd, 0) == 0 && pwrite(fd, me.data(), me.size(), 0) < 0) {}  // only a courtesy to the next one
    return CpuLock(fd, path);
}

CpuLock::~CpuLock() {
    if (fd_ < 0) return;
    [[maybe_unused]] const int rc = ftruncate(fd_, 0);  // the next holder writes its own line anyway
    ::close(fd_);
}

}  // namespace fputune
