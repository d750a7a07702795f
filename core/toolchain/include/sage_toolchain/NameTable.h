// The spelling table of a closed vocabulary (a status, a kind): the name of each value, indexed by
// the value. One lookup for every such table, so that each enum only lists its names.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace sage::toolchain {

// The index of `text` in `names` (exact spelling), from `first` on; nullopt when it is none of them.
template <std::size_t N>
constexpr std::optional<std::size_t> indexOfName(const std::array<std::string_view, N>& names, std::string_view text,
                                                 std::size_t first = 0) {
    for (std::size_t i = first; i < N; ++i)
        if (names[i] == text) return i;
    return std::nullopt;
}

} // namespace sage::toolchain
