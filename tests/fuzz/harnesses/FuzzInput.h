// Shared by the fuzz harnesses: the input as text, and a private folder for harnesses whose
// parser reads files (task.json, op specs). Every harness treats a thrown std::exception as the
// parser's documented answer to bad input; only a crash, a hang or a sanitizer report is a bug.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace sage::fuzz {

inline std::string text(const uint8_t* data, size_t size) { return std::string(reinterpret_cast<const char*>(data), size); }

// A folder of this process, created once (inputs are written into it and read back).
inline const std::filesystem::path& scratch() {
    static const std::filesystem::path dir = [] {
        auto d = std::filesystem::temp_directory_path() / ("sage-fuzz-" + std::to_string(::getpid()));
        std::filesystem::create_directories(d);
        std::atexit([] {
            std::error_code ec;
            std::filesystem::remove_all(std::filesystem::temp_directory_path() / ("sage-fuzz-" + std::to_string(::getpid())), ec);
        });
        return d;
    }();
    return dir;
}

inline void writeFile(const std::filesystem::path& p, const std::string& s) {
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary | std::ios::trunc) << s;
}

} // namespace sage::fuzz
