#include "sage_toolchain/Files.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace sage::toolchain {

std::string readTextFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<uint8_t> readBinaryFile(const std::string& path) {
    // One sized read, not a byte-wise iterator copy: run outputs are tens of megabytes.
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) return {};
    const std::streamoff size = in.tellg();
    if (size <= 0) return {};
    std::vector<uint8_t> bytes(static_cast<size_t>(size));
    in.seekg(0);
    in.read(reinterpret_cast<char*>(bytes.data()), size);
    bytes.resize(size_t(std::max<std::streamsize>(0, in.gcount())));
    return bytes;
}

void writeFile(const std::string& path, const void* data, size_t bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(static_cast<const char*>(data), std::streamsize(bytes));
    if (!out) throw std::runtime_error("cannot write " + path + " (is the directory writable and the disk not full?)");
}

} // namespace sage::toolchain
