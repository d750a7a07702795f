// Whole-file reads and writes, the one copy the toolchain and the evaluator share.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sage::toolchain {

std::string readTextFile(const std::string& path);           // "" when missing or unreadable
std::vector<uint8_t> readBinaryFile(const std::string& path); // empty when missing or unreadable
// Throws std::runtime_error naming the file when it cannot be written. The file's blocks are
// reserved (fallocate) before the data is written: on ext4 a write that grows a new file through
// delayed allocation measured 37 ms per 4 MB on the 2-core machine, 1.3 ms with the blocks reserved
// (docs/performance.md, session 6), and run inputs, references and outputs are all new files.
void writeFile(const std::string& path, const void* data, size_t bytes);
// Reserves `bytes` for an open file (posix_fallocate); best effort, for writers that own their fd.
void reserveFileBlocks(int fd, size_t bytes);
inline void writeFile(const std::string& path, const std::string& text) { writeFile(path, text.data(), text.size()); }

} // namespace sage::toolchain
