#include "repair/SourceScope.h"

#include <regex>

namespace sage::agent::repair {
namespace {

// The line without its // comment and string/char literal contents (so braces in them don't count).
std::string codeOf(const std::string& line, bool& inBlockComment) {
    std::string out;
    for (size_t i = 0; i < line.size(); ++i) {
        if (inBlockComment) {
            if (line.compare(i, 2, "*/") == 0) inBlockComment = false, ++i;
            continue;
        }
        if (line.compare(i, 2, "/*") == 0) {
            inBlockComment = true;
            ++i;
            continue;
        }
        if (line.compare(i, 2, "//") == 0) break;
        if (line[i] == '"' || line[i] == '\'') {
            const char q = line[i];
            out += q;
            for (++i; i < line.size() && line[i] != q; ++i)
                if (line[i] == '\\') ++i;
            out += q;
            continue;
        }
        out += line[i];
    }
    return out;
}

bool isFunctionHeader(const std::string& code) {
    static const std::regex control(R"(^\s*(\}\s*)?(if|for|while|switch|else|do|catch)\b)");
    static const std::regex call(R"(\w\s*\([^;]*\)\s*(const\s*)?(noexcept\s*)?\{\s*$)");
    return !std::regex_search(code, control) && std::regex_search(code, call);
}

} // namespace

std::optional<std::pair<size_t, size_t>> enclosingFunction(const std::vector<std::string>& lines, size_t line) {
    if (line >= lines.size()) return std::nullopt;
    std::vector<std::string> code(lines.size());
    std::vector<int> depthBefore(lines.size() + 1, 0);
    bool comment = false;
    int depth = 0;
    for (size_t i = 0; i < lines.size(); ++i) {
        code[i] = codeOf(lines[i], comment);
        depthBefore[i] = depth;
        for (char c : code[i]) depth += c == '{' ? 1 : c == '}' ? -1 : 0;
        if (depth < 0) return std::nullopt;
    }
    // The nearest header above (or at) `line` whose body, closed where the depth returns to the
    // header's, still contains `line`.
    for (size_t h = line + 1; h-- > 0;) {
        if (!isFunctionHeader(code[h])) continue;
        const int open = depthBefore[h];
        int d = open;
        for (size_t i = h; i < lines.size(); ++i) {
            for (char c : code[i]) d += c == '{' ? 1 : c == '}' ? -1 : 0;
            if (d == open && i > h) {
                if (i >= line) return std::make_pair(h, i);
                break;
            }
        }
    }
    return std::nullopt;
}

std::optional<size_t> lastMention(const std::vector<std::string>& lines, size_t from, size_t to, const std::string& identifier) {
    if (identifier.empty() || from >= lines.size()) return std::nullopt;
    const std::regex word("\\b" + identifier + "\\b");
    std::optional<size_t> last;
    bool comment = false;
    for (size_t i = 0; i <= to && i < lines.size(); ++i) {
        const std::string code = codeOf(lines[i], comment);
        if (i >= from && std::regex_search(code, word)) last = i;
    }
    return last;
}

std::string indentOf(const std::string& line) { return line.substr(0, line.find_first_not_of(" \t")); }

} // namespace sage::agent::repair
