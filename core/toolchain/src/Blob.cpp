#include "sage_toolchain/Blob.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sage::toolchain {

struct Blob::Mapping {
    void* addr = nullptr;
    size_t bytes = 0;
    ~Mapping() {
        if (addr) ::munmap(addr, bytes);
    }
};

Blob Blob::own(std::vector<uint8_t> bytes) {
    Blob b;
    auto v = std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
    b.data_ = v->data();
    b.size_ = v->size();
    b.keep_ = std::move(v);
    b.valid_ = true;
    return b;
}

Blob Blob::map(const std::string& path) {
    Blob b;
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return b;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        auto m = std::make_shared<Mapping>();
        m->bytes = size_t(st.st_size);
        void* p = m->bytes ? ::mmap(nullptr, m->bytes, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0) : nullptr;
        if (m->bytes == 0 || p != MAP_FAILED) {
            m->addr = m->bytes ? p : nullptr;
            b.data_ = static_cast<const uint8_t*>(m->addr);
            b.size_ = m->bytes;
            b.keep_ = std::move(m);
            b.valid_ = true;
            b.path_ = path;
        }
    }
    ::close(fd);
    return b;
}

} // namespace sage::toolchain
