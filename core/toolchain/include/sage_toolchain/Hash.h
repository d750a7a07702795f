// A 128-bit content hash for cache keys: xxHash's XXH3-128 over length-framed fields (so that
// ("ab","c") and ("a","bc") differ). Not cryptographic: cache keys only have to make accidental
// collisions practically impossible, and XXH3 hashes at memory speed (binaries, tensors).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace sage::toolchain {

class ContentHash {
public:
    ContentHash();
    ~ContentHash();
    ContentHash(const ContentHash& other);
    ContentHash& operator=(const ContentHash& other);
    ContentHash& add(std::string_view data);
    ContentHash& add(const void* data, size_t bytes) { return add(std::string_view(static_cast<const char*>(data), bytes)); }
    std::string hex() const;  // 32 lowercase hex digits

private:
    struct State;
    std::unique_ptr<State> s_;
};

// Digest of a whole file's bytes (memory-mapped); empty when the file cannot be read.
std::string fileDigest(const std::string& path);

} // namespace sage::toolchain
