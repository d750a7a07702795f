#include "sage_toolchain/ProjectPaths.h"

#include "sage_toolchain/Files.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

namespace sage::toolchain {
namespace fs = std::filesystem;

std::string resolveInside(const std::string& path, const std::string& root, std::string& why) {
    std::error_code ec;
    const fs::path real = fs::canonical(path, ec);
    if (ec) {
        why = path + ": " + ec.message();
        return "";
    }
    const fs::path top = fs::canonical(root, ec);
    if (ec) {
        why = "the project folder " + root + ": " + ec.message();
        return "";
    }
    const auto [mismatch, unused] = std::mismatch(top.begin(), top.end(), real.begin(), real.end());
    if (mismatch != top.end()) {
        why = path + " resolves to " + real.string() + ", outside the project " + top.string() +
              ": a link that leaves the project is refused (copy the file into the project instead)";
        return "";
    }
    return real.string();
}

std::string readProjectFile(const std::string& path, const std::string& root, uint64_t maxBytes) {
    std::string why;
    const std::string real = resolveInside(path, root, why);
    if (real.empty()) throw std::runtime_error(why);
    std::error_code ec;
    if (!fs::is_regular_file(real, ec)) throw std::runtime_error(path + " is not a regular file");
    const uint64_t size = fs::file_size(real, ec);
    if (ec || size > maxBytes)
        throw std::runtime_error(path + " holds " + std::to_string(size) + " bytes, more than the " +
                                 std::to_string(maxBytes) + " a project source may hold");
    return readTextFile(real);
}

std::string quotedIncludeLine(const std::string& path) {
    for (unsigned char c : path)
        if (c < 0x20 || c == 0x7f || c == '"' || c == '\\') return "";
    return "#include \"" + path + "\"\n";
}

std::string printable(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (unsigned char c : text) {
        if (c == '\n') out += "\\n";
        else if (c == '\r') out += "\\r";
        else if (c == '\t') out += "\\t";
        else if (c < 0x20 || c == 0x7f) {
            static const char* hex = "0123456789abcdef";
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
        } else out += char(c);
    }
    return out;
}

} // namespace sage::toolchain
