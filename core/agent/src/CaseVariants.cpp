#include "CaseVariants.h"

#include <sstream>

namespace sage::agent {

std::optional<CaseVariants> CaseVariants::split(const std::string& source) {
    const size_t marker = source.find(kMarker);
    if (marker == std::string::npos) return std::nullopt;
    const size_t afterMarker = source.find('\n', marker);
    if (afterMarker == std::string::npos) return std::nullopt;
    CaseVariants v;
    v.head = source.substr(0, afterMarker + 1);
    std::istringstream in(source.substr(afterMarker + 1));
    std::string line;
    int depth = 0;  // of preprocessor conditionals inside a body
    bool inTail = false;
    auto directive = [](const std::string& l, const char* d) {
        const size_t start = l.find_first_not_of(" \t");
        return start != std::string::npos && l.compare(start, std::string(d).size(), d) == 0;
    };
    while (std::getline(in, line)) {
        line += "\n";
        if (inTail) {
            v.tail += line;
            continue;
        }
        const bool opens = directive(line, "#if");  // #if, #ifdef, #ifndef
        if (depth == 0 && ((opens && v.blocks.empty()) || (!v.blocks.empty() && directive(line, "#elif")))) {
            v.blocks.push_back({line, ""});
            continue;
        }
        if (depth == 0 && (directive(line, "#else") || directive(line, "#endif"))) {
            inTail = true;
            v.tail += line;
            continue;
        }
        if (v.blocks.empty()) {
            if (line.find_first_not_of(" \t\n") == std::string::npos) continue;  // blank lines before the first #if
            return std::nullopt;
        }
        if (opens) ++depth;
        else if (directive(line, "#endif")) --depth;
        v.blocks.back().second += line;
    }
    if (v.blocks.empty() || !inTail) return std::nullopt;
    return v;
}

std::string CaseVariants::join() const {
    std::string s = head;
    for (const auto& [guard, body] : blocks) s += guard + body;
    return s + tail;
}

} // namespace sage::agent
