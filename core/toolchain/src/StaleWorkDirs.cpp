#include "sage_toolchain/StaleWorkDirs.h"

#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace sage::toolchain {
namespace {

// A folder of ours, or (filesAlso) a plain file of ours: the run cache's blobs are staged as files.
bool ownedByMe(const fs::path& p, bool filesAlso = false) {
    struct stat st {};
    return ::lstat(p.c_str(), &st) == 0 && (S_ISDIR(st.st_mode) || (filesAlso && S_ISREG(st.st_mode))) &&
           st.st_uid == ::getuid();
}

// "<key>.tmp.<pid>.<n>" -> pid, or -1 when the name does not have that shape.
long ownerPidOf(const std::string& name) {
    const size_t tmp = name.find(".tmp.");
    if (tmp == std::string::npos) return -1;
    const size_t begin = tmp + 5, end = name.find('.', begin);
    if (end == std::string::npos || end == begin) return -1;
    try {
        return std::stol(name.substr(begin, end - begin));
    } catch (const std::exception&) {
        return -1;
    }
}

bool removeTree(const fs::path& p) {
    std::error_code ec;
    return fs::remove_all(p, ec) > 0 && !ec;
}

} // namespace

bool isWorkEntry(const fs::path& p) { return p.filename().string().find(".tmp.") != std::string::npos; }

bool processAlive(long pid) {
    if (pid <= 0) return false;
    if (pid == long(::getpid())) return true;
    if (::kill(pid_t(pid), 0) != 0 && errno != EPERM) return false;
    // Killed but not yet reaped by its parent: "Z" in /proc/<pid>/stat (after the name's ')').
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (stat && std::getline(stat, line)) {
        const size_t close = line.rfind(')');
        if (close != std::string::npos && close + 2 < line.size() && line[close + 2] == 'Z') return false;
    }
    return true;
}

size_t removeStaleWorkDirs(const ToolPaths& paths, std::chrono::seconds runnerMinAge) {
    size_t removed = 0;
    std::error_code ec;
    const auto now = fs::file_time_type::clock::now();
    const fs::path tmp = fs::temp_directory_path(ec);
    if (!ec)
        for (fs::directory_iterator it(tmp, ec), end; !ec && it != end; it.increment(ec)) {
            const fs::path p = it->path();
            if (p.filename().string().rfind("sage-run-", 0) != 0 || !ownedByMe(p)) continue;
            std::error_code tec;
            const auto mtime = fs::last_write_time(p, tec);
            if (!tec && now - mtime >= runnerMinAge) removed += removeTree(p);
        }
    if (!paths.cacheDir.empty())
        for (const char* cache : {"kernels", "runs", "runs/blobs"}) {
            std::error_code kec;
            for (fs::directory_iterator it(fs::path(paths.cacheDir) / cache, kec), end; !kec && it != end; it.increment(kec)) {
                const fs::path p = it->path();
                const long pid = ownerPidOf(p.filename().string());
                if (pid > 0 && !processAlive(pid) && ownedByMe(p, true)) removed += removeTree(p);
            }
        }
    return removed;
}

} // namespace sage::toolchain
