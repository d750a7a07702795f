#include "sage_toolchain/Files.h"

#include <fstream>
#include <iterator>
#include <stdexcept>

namespace sage::toolchain {

std::string readTextFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<uint8_t> readBinaryFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void writeFile(const std::string& path, const void* data, size_t bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(static_cast<const char*>(data), std::streamsize(bytes));
    if (!out) throw std::runtime_error("cannot write " + path + " (is the directory writable and the disk not full?)");
}

} // namespace sage::toolchain
