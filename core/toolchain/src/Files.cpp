#include "sage_toolchain/Files.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <unistd.h>

namespace sage::toolchain {

std::string readTextFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<uint8_t> readBinaryFile(const std::string& path) {
    // One sized read, not a byte-wise iterator copy: run outputs are tens of megabytes.
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) return {};
    const std::streamoff size = in.tellg();
    if (size <= 0) return {};
    std::vector<uint8_t> bytes(static_cast<size_t>(size));
    in.seekg(0);
    in.read(reinterpret_cast<char*>(bytes.data()), size);
    bytes.resize(size_t(std::max<std::streamsize>(0, in.gcount())));
    return bytes;
}

void writeFile(const std::string& path, const void* data, size_t bytes) {
    const auto fail = [&](const char* what) {
        throw std::runtime_error("cannot write " + path + ": " + what + ": " + std::strerror(errno) +
                                 " (is the directory writable and the disk not full?)");
    };
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) fail("open");
    const char* p = static_cast<const char*>(data);
    size_t done = 0;
    while (done < bytes) {
        const ssize_t w = ::write(fd, p + done, bytes - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            const int saved = errno;
            ::close(fd);
            errno = saved;
            fail("write");
        }
        done += size_t(w);
    }
    if (::close(fd) != 0) fail("close");
}

} // namespace sage::toolchain
