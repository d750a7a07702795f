// Tunables: constants a kernel declares editable with a marker comment, e.g.
//     constexpr uint32_t TILE_LENGTH = 256;  // @tunable tile_length {128, 256, 512, 1024}
// The built-in policy changes kernels only through these (and documented transforms), so every
// move keeps the file readable and the diff small.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace sage::agent {

struct Tunable {
    std::string key;       // the marker name, e.g. "tile_length"
    std::string constant;  // the C++ name, e.g. "TILE_LENGTH"
    long long value = 0;
    std::vector<long long> allowed;  // in the order written; empty = any positive value
    int line = 0;
};

std::vector<Tunable> parseTunables(const std::string& source);
// Finds a tunable by marker key or constant name, case-insensitively.
std::optional<Tunable> findTunable(const std::vector<Tunable>& tunables, const std::string& name);
// The source with the tunable's value replaced (only the number on its declaration line changes).
std::string setTunable(const std::string& source, const Tunable& t, long long value);

} // namespace sage::agent
