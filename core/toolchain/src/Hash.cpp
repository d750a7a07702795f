#include "sage_toolchain/Hash.h"

#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#define XXH_STATIC_LINKING_ONLY  // XXH3_state_t by value (no heap state per hash)
#include <xxhash.h>

namespace sage::toolchain {

struct ContentHash::State {
    XXH3_state_t st;
};

ContentHash::ContentHash() : s_(std::make_unique<State>()) {
    if (XXH3_128bits_reset(&s_->st) != XXH_OK) throw std::runtime_error("XXH3_128bits_reset failed");
}
ContentHash::~ContentHash() = default;
ContentHash::ContentHash(const ContentHash& other) : s_(std::make_unique<State>()) {
    XXH3_copyState(&s_->st, &other.s_->st);
}
ContentHash& ContentHash::operator=(const ContentHash& other) {
    if (this != &other) XXH3_copyState(&s_->st, &other.s_->st);
    return *this;
}

ContentHash& ContentHash::add(std::string_view data) {
    // Frame every field by its length so that field boundaries are part of the key.
    const uint64_t n = data.size();
    XXH3_128bits_update(&s_->st, &n, sizeof n);
    XXH3_128bits_update(&s_->st, data.data(), data.size());
    return *this;
}

std::string ContentHash::hex() const {
    XXH128_hash_t h = XXH3_128bits_digest(&s_->st);
    char buf[33];
    std::snprintf(buf, sizeof buf, "%016llx%016llx", (unsigned long long)h.high64, (unsigned long long)h.low64);
    return buf;
}

std::string fileDigest(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return "";
    struct stat st {};
    std::string out;
    if (::fstat(fd, &st) == 0) {
        const size_t n = size_t(st.st_size);
        void* p = n ? ::mmap(nullptr, n, PROT_READ, MAP_PRIVATE, fd, 0) : nullptr;
        if (n == 0 || p != MAP_FAILED) {
            out = ContentHash().add(std::string_view(static_cast<const char*>(p), n)).hex();
            if (n) ::munmap(p, n);
        }
    }
    ::close(fd);
    return out;
}

} // namespace sage::toolchain
