// SPDX-License-Identifier: MIT
// Safe writes by file type (see atomic_file.hpp), and bounded reads.
#include "atomic_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>

#include <fmt/format.h>

namespace fputune {

namespace fs = std::filesystem;

namespace {

constexpr const char* kTempMarker = ".fputune-tmp.";

[[noreturn]] void fail_input(const std::string& path, const std::string& why) {
    throw InputError("cannot write '" + path + "': " + why);
}
[[noreturn]] void fail_system(const std::string& path, const std::string& why) {
    throw SystemError("cannot write '" + path + "': " + why);
}

// errno values that mean the path is unusable as given (the user can mend it), not that the machine failed.
bool is_input_errno(int err) {
    return err == EACCES || err == EPERM || err == EROFS || err == ENOENT || err == ENOTDIR || err == EISDIR ||
           err == ENAMETOOLONG || err == ELOOP || err == ENXIO || err == ETXTBSY;
}

std::string dir_of(const std::string& path) {
    const auto parent = fs::path(path).parent_path();
    return parent.empty() ? std::string(".") : parent.string();
}
std::string base_of(const std::string& path) { return fs::path(path).filename().string(); }

// The file descriptor a path names directly: "-" and /dev/stdout (1), /dev/stderr (2), /dev/fd/N, /proc/self/fd/N.
std::optional<int> fd_path(const std::string& path) {
    if (path == "-" || path == "/dev/stdout") return 1;
    if (path == "/dev/stderr") return 2;
    for (std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"}) {
        if (path.rfind(prefix, 0) != 0) continue;
        const std::string digits = path.substr(prefix.size());
        if (digits.empty() || digits.size() > 6 || digits.find_first_not_of("0123456789") != std::string::npos)
            return std::nullopt;
        return std::stoi(digits);
    }
    return std::nullopt;
}

enum class Kind { replace, through_path, through_fd };

struct Plan {
    Kind kind = Kind::replace;
    std::string target;  // the path written (symlinks followed)
    bool exists = false;  // target exists (a regular file for replace)
    struct stat st {};  // of the target, when it exists
    int fd = -1;  // through_fd
};

// Follows symlinks to the end of the chain (at most 40 links) and decides how the target is written.
Plan plan_output(const std::string& path) {
    Plan plan;
    if (path.empty()) fail_input(path, "empty file name");
    if (auto fd = fd_path(path)) {
        if (fcntl(*fd, F_GETFD) < 0) fail_input(path, fmt::format("file descriptor {} is not open", *fd));
        plan.kind = Kind::through_fd;
        plan.fd = *fd;
        plan.target = path;
        return plan;
    }
    std::string p = path;
    for (int hops = 0;; ++hops) {
        struct stat st {};
        if (lstat(p.c_str(), &st) != 0) {
            if (errno != ENOENT) fail_input(path, std::strerror(errno));
            plan.target = p;  // a new file (perhaps the target of a dangling link)
            break;
        }
        if (S_ISLNK(st.st_mode)) {
            if (hops >= 40) fail_input(path, "too many levels of symbolic links");
            std::string link(PATH_MAX, '\0');
            const ssize_t n = readlink(p.c_str(), link.data(), link.size());
            if (n < 0) fail_input(path, std::strerror(errno));
            link.resize(static_cast<std::size_t>(n));
            p = fs::path(link).is_absolute() ? link : (fs::path(dir_of(p)) / link).string();
            if (fd_path(p)) return plan_output(p);  // a link to /dev/stdout
            continue;
        }
        plan.target = p;
        plan.exists = true;
        plan.st = st;
        if (S_ISREG(st.st_mode)) break;
        if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) {
            plan.kind = Kind::through_path;
            return plan;
        }
        if (S_ISDIR(st.st_mode))
            fail_input(path, p == path ? "it is a directory" : "it leads to the directory '" + p + "'");
        if (S_ISBLK(st.st_mode))
            fail_input(path, "it is a block device; fputune writes only files, FIFOs and character devices");
        if (S_ISSOCK(st.st_mode))
            fail_input(path, "it is a socket; fputune writes only files, FIFOs and character devices");
        fail_input(path, "not a regular file");
    }
    const std::string dir = dir_of(plan.target);
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) fail_input(path, "directory '" + dir + "' does not exist");
    return plan;
}

void write_all(int fd, std::string_view contents, const std::string& path) {
    std::size_t done = 0;
    while (done < contents.size()) {
        const ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            fail_system(path, std::strerror(errno));
        }
        done += static_cast<std::size_t>(n);
    }
}

std::string random_hex() {
    unsigned char bytes[8];
    std::size_t got = 0;
    while (got < sizeof bytes) {
        const ssize_t n = getrandom(bytes + got, sizeof bytes - got, 0);
        if (n < 0) {
            if (errno == EINTR) continue;
            fail_system("(temporary file)", std::string("no random numbers: ") + std::strerror(errno));
        }
        got += static_cast<std::size_t>(n);
    }
    std::string s;
    for (unsigned char b : bytes) s += fmt::format("{:02x}", b);
    return s;
}

// ".<name>.fputune-tmp." (the base name shortened so that the whole stays within NAME_MAX).
std::string temp_prefix(const std::string& target) {
    return fmt::format(".{}{}", base_of(target).substr(0, 180), kTempMarker);
}

// Closes fd on every path out, and unlinks the temporary unless released.
struct TempFile {
    std::string path;
    int fd = -1;
    bool keep = false;
    ~TempFile() {
        if (fd >= 0) ::close(fd);
        if (!keep && !path.empty()) ::unlink(path.c_str());
    }
};

void replace_file(const Plan& plan, const std::string& path, std::string_view contents) {
    const std::string dir = dir_of(plan.target);
    remove_stale_temporaries(plan.target);
    TempFile tmp;
    for (int attempt = 0; tmp.fd < 0; ++attempt) {
        const std::string name =
            (fs::path(dir) / (temp_prefix(plan.target) + std::to_string(getpid()) + "." + random_hex())).string();
        const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0) {
            tmp.path = name;
            tmp.fd = fd;
        } else if (errno != EEXIST || attempt >= 16) {
            const int err = errno;
            if (is_input_errno(err))
                fail_input(path, fmt::format("cannot create a file in directory '{}' ({})", dir, std::strerror(err)));
            fail_system(path, std::strerror(err));
        }
    }
    if (plan.exists) {  // the replacement keeps the old file's permissions (and owner, when we may set it)
        if (geteuid() == 0) (void)fchown(tmp.fd, plan.st.st_uid, plan.st.st_gid);
        (void)fchmod(tmp.fd, plan.st.st_mode & 07777);
    }
    write_all(tmp.fd, contents, path);
    if (::fsync(tmp.fd) != 0) fail_system(path, std::strerror(errno));
    const int fd = tmp.fd;
    tmp.fd = -1;
    if (::close(fd) != 0) fail_system(path, std::strerror(errno));
    if (::rename(tmp.path.c_str(), plan.target.c_str()) != 0) {
        const int err = errno;
        if (is_input_errno(err)) fail_input(path, std::strerror(err));
        fail_system(path, std::strerror(err));
    }
    tmp.keep = true;
    // The rename is durable only once the folder is.
    const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        const int rc = ::fsync(dfd), err = errno;
        ::close(dfd);
        if (rc != 0 && err != EINVAL && err != EROFS)
            fail_system(path, std::string("fsync of its directory: ") + std::strerror(err));
    }
}

void write_through(const Plan& plan, const std::string& path, std::string_view contents) {
    if (plan.kind == Kind::through_fd) {
        std::fflush(plan.fd == 1 ? stdout : plan.fd == 2 ? stderr : nullptr);  // keep what was printed first, first
        write_all(plan.fd, contents, path);
        return;
    }
    const int fd = ::open(plan.target.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        const int err = errno;
        if (is_input_errno(err)) fail_input(path, std::strerror(err));
        fail_system(path, std::strerror(err));
    }
    try {
        write_all(fd, contents, path);
    } catch (...) {
        ::close(fd);
        throw;
    }
    if (::close(fd) != 0) fail_system(path, std::strerror(errno));
}

struct FileId {
    dev_t dev = 0;
    ino_t ino = 0;
    bool operator==(const FileId&) const = default;
};

}  // namespace

bool is_stdout_path(const std::string& path) {
    const auto fd = fd_path(path);
    return fd && *fd == 1;
}

void check_writable(const std::string& path) {
    const Plan plan = plan_output(path);
    if (plan.kind == Kind::through_fd) return;
    if (plan.kind == Kind::through_path) {
        if (access(plan.target.c_str(), W_OK) != 0)
            fail_input(path, std::string("not writable (") + std::strerror(errno) + ")");
        return;
    }
    const std::string dir = dir_of(plan.target);
    if (access(dir.c_str(), W_OK) != 0)
        fail_input(path, "directory '" + dir + "' is not writable (" + std::strerror(errno) + ")");
    if (plan.exists && access(plan.target.c_str(), W_OK) != 0)
        fail_input(path, std::string("the existing file is not writable (") + std::strerror(errno) + ")");
}

void write_file_atomic(const std::string& path, std::string_view contents) {
    check_writable(path);
    const Plan plan = plan_output(path);
    if (plan.kind == Kind::replace)
        replace_file(plan, path, contents);
    else
        write_through(plan, path, contents);
}

int remove_stale_temporaries(const std::string& path) {
    const std::string dir = dir_of(path), prefix = temp_prefix(path);
    DIR* d = opendir(dir.c_str());
    if (!d) return 0;
    int removed = 0;
    while (const dirent* e = readdir(d)) {
        const std::string name = e->d_name;
        if (name.rfind(prefix, 0) != 0) continue;
        // ".<name>.fputune-tmp.<pid>.<16 hex>": remove it only when that process is gone.
        const std::string rest = name.substr(prefix.size());
        const auto dot = rest.find('.');
        if (dot == std::string::npos || dot == 0 || dot > 10 || rest.size() != dot + 17) continue;
        if (rest.substr(0, dot).find_first_not_of("0123456789") != std::string::npos) continue;
        const long pid = std::stol(rest.substr(0, dot));
        if (pid <= 0 || (kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH)) continue;
        const std::string full = (fs::path(dir) / name).string();
        struct stat st {};
        if (lstat(full.c_str(), &st) != 0 || !(S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) || st.st_uid != geteuid())
            continue;
        if (::unlink(full.c_str()) == 0) ++removed;
    }
    closedir(d);
    return removed;
}

void refuse_same_files(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs) {
    auto id_of = [](const std::string& path) -> std::optional<FileId> {
        struct stat st {};
        if (::stat(path.c_str(), &st) != 0) return std::nullopt;
        return FileId{st.st_dev, st.st_ino};
    };
    auto says = [](const NamedPath& p) { return p.first.empty() ? "'" + p.second + "'" : p.first + " " + p.second; };
    struct Out {
        const NamedPath* named;
        std::optional<FileId> id;
        std::string canonical;  // for paths that do not exist yet
    };
    std::vector<Out> outs;
    for (const auto& o : outputs) {
        if (o.second.empty()) continue;  // an option not given
        const Plan plan = plan_output(o.second);
        if (plan.kind != Kind::replace) continue;  // /dev/null, a FIFO or stdout may be named twice
        std::error_code ec;
        const auto canonical = fs::weakly_canonical(plan.target, ec);
        outs.push_back({&o, plan.exists ? std::optional<FileId>(FileId{plan.st.st_dev, plan.st.st_ino}) : std::nullopt,
                        ec ? plan.target : canonical.string()});
    }
    for (const auto& in : inputs) {
        if (in.second.empty()) continue;
        const auto id = id_of(in.second);
        if (!id) continue;
        for (const auto& o : outs)
            if (o.id && *o.id == *id)
                throw InputError(fmt::format(
                    "{} is also the input {}: writing it would destroy what is read; name another output file",
                    says(*o.named), says(in)));
    }
    for (std::size_t i = 0; i < outs.size(); ++i)
        for (std::size_t j = i + 1; j < outs.size(); ++j)
            if ((outs[i].id && outs[j].id && *outs[i].id == *outs[j].id) ||
                (!outs[i].id && !outs[j].id && outs[i].canonical == outs[j].canonical))
                throw InputError(
                    fmt::format("{} and {} name the same file: the second would replace the first; name two files",
                                says(*outs[i].named), says(*outs[j].named)));
}

namespace {

// A compressor's name and command, when `text` begins with its magic number. Every file fputune reads is text
// (JSON, CSV, a C header), so a compressed one is a mistake to name, not a file to parse: a committed sweep of
// data/machines/ given as it lies (.json.xz) was "neither a sweep/model JSON file nor a reference CSV".
struct Compressor {
    std::string_view name, magic, suffix;
    std::string_view keep, stream;  // decompress beside it (the original kept), and to standard output
};
constexpr Compressor kCompressors[] = {
    {"xz", std::string_view("\xFD" "7zXZ\0", 6), ".xz", "xz -dk", "xz -dc"},
    {"gzip", "\x1F\x8B", ".gz", "gzip -dk", "gzip -dc"},
    {"zstd", "\x28\xB5\x2F\xFD", ".zst", "zstd -d", "zstd -dc"},
    {"bzip2", "BZh", ".bz2", "bzip2 -dk", "bzip2 -dc"},
};

// bzip2's "BZh" is followed by the block size, '1'..'9', and a block's magic (pi in BCD) or the end-of-stream one.
bool starts_with_magic(std::string_view text, const Compressor& c) {
    if (!text.starts_with(c.magic)) return false;
    if (c.name != "bzip2") return true;
    return text.size() >= 10 && text[3] >= '1' && text[3] <= '9' &&
           (text.substr(4, 6) == "\x31\x41\x59\x26\x53\x59" || text.substr(4, 6) == "\x17\x72\x45\x38\x50\x90");
}

}  // namespace

std::string read_file(const std::string& path) {
    auto fail = [&](const std::string& why) { return InputError("cannot read '" + path + "': " + why); };
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) throw fail(std::strerror(errno));
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    struct stat st {};
    if (fstat(fd, &st) != 0) throw SystemError("cannot read '" + path + "': " + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) throw fail("it is a directory");
    if (S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) > kMaxInputBytes)
        throw fail(
            fmt::format("{} bytes, more than any fputune file ({} MiB at most)", st.st_size, kMaxInputBytes >> 20));
    std::string text;
    if (S_ISREG(st.st_mode)) text.reserve(static_cast<std::size_t>(st.st_size));
    char buf[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EISDIR) throw fail("it is a directory");
            throw SystemError("cannot read '" + path + "': " + std::strerror(errno));
        }
        if (n == 0) break;
        if (text.size() + static_cast<std::size_t>(n) > kMaxInputBytes)
            throw fail(fmt::format("more than any fputune file ({} MiB at most)", kMaxInputBytes >> 20));
        text.append(buf, static_cast<std::size_t>(n));
    }
    for (const Compressor& c : kCompressors) {
        if (!starts_with_magic(text, c)) continue;
        const bool suffixed = path.size() > c.suffix.size() && path.ends_with(c.suffix);
        const std::string how =
            suffixed ? fmt::format("{} '{}', then give '{}'", c.keep, path, path.substr(0, path.size() - c.suffix.size()))
                     : fmt::format("{} '{}' > FILE, then give FILE", c.stream, path);
        throw fail(fmt::format("it is compressed ({}); fputune reads its files uncompressed: {}", c.name, how));
    }
    return text;
}

}  // namespace fputune
