#include "sage_toolchain/Hash.h"

#include <cstdio>

namespace sage::toolchain {

ContentHash& ContentHash::add(std::string_view data) {
    for (unsigned char c : data) {
        a_ = (a_ ^ c) * 0x100000001b3ull;
        b_ = (b_ ^ uint64_t(c ^ 0x5a)) * 0x100000001b3ull;
        b_ ^= b_ >> 29;
    }
    // Separate fields so that ("ab","c") and ("a","bc") differ.
    a_ = (a_ ^ 0xff) * 0x100000001b3ull;
    b_ = (b_ ^ data.size()) * 0x100000001b3ull;
    return *this;
}

std::string ContentHash::hex() const {
    char buf[33];
    std::snprintf(buf, sizeof buf, "%016llx%016llx", (unsigned long long)a_, (unsigned long long)b_);
    return buf;
}

} // namespace sage::toolchain
