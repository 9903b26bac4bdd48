// SPDX-License-Identifier: MIT
// Atomic writes through a temporary file and rename(2), so readers never see half a file.
#include "atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace fputune {

namespace {
std::string dir_of(const std::string& path) {
    auto parent = std::filesystem::path(path).parent_path();
    return parent.empty() ? std::string(".") : parent.string();
}
std::runtime_error write_error(const std::string& path, const std::string& why) {
    return std::runtime_error("cannot write '" + path + "': " + why);
}
}  // namespace

void check_writable(const std::string& path) {
    if (path.empty()) throw write_error(path, "empty file name");
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw write_error(path, "it is a directory");
    const std::string dir = dir_of(path);
    if (!std::filesystem::is_directory(dir, ec)) throw write_error(path, "directory '" + dir + "' does not exist");
    if (access(dir.c_str(), W_OK) != 0) throw write_error(path, "directory '" + dir + "' is not writable (" + std::strerror(errno) + ")");
    if (std::filesystem::exists(path, ec) && access(path.c_str(), W_OK) != 0)
        throw write_error(path, std::string("the existing file is not writable (") + std::strerror(errno) + ")");
}

void write_file_atomic(const std::string& path, std::string_view contents) {
    check_writable(path);
    std::string tmp = path + ".tmp." + std::to_string(getpid());
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) throw write_error(path, std::strerror(errno));
    std::size_t done = 0;
    while (done < contents.size()) {
        ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            int err = errno;
            ::close(fd);
            ::unlink(tmp.c_str());
            throw write_error(path, std::strerror(err));
        }
        done += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        int err = errno;
        ::unlink(tmp.c_str());
        throw write_error(path, std::strerror(err));
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        int err = errno;
        ::unlink(tmp.c_str());
        throw write_error(path, std::strerror(err));
    }
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read '" + path + "': " + std::strerror(errno));
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) throw std::runtime_error("cannot read '" + path + "': read error");
    return ss.str();
}

}  // namespace fputune
