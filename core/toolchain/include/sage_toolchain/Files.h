// Whole-file reads and writes, the one copy the toolchain and the evaluator share.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sage::toolchain {

std::string readTextFile(const std::string& path);           // "" when missing or unreadable
std::vector<uint8_t> readBinaryFile(const std::string& path); // empty when missing or unreadable
// Throws std::runtime_error naming the file and the failing step (open, write, close) when it
// cannot be written: a full disk must not leave a silently truncated cache file behind.
void writeFile(const std::string& path, const void* data, size_t bytes);
inline void writeFile(const std::string& path, const std::string& text) { writeFile(path, text.data(), text.size()); }

} // namespace sage::toolchain
