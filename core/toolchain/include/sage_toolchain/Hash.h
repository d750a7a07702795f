// A 128-bit content hash (two independent FNV-1a 64 streams) for cache keys. Not cryptographic:
// it only has to make accidental collisions between kernel sources practically impossible.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace sage::toolchain {

class ContentHash {
public:
    ContentHash& add(std::string_view data);
    std::string hex() const;

private:
    uint64_t a_ = 0xcbf29ce484222325ull;
    uint64_t b_ = 0x84222325cbf29ce4ull;
};

} // namespace sage::toolchain
