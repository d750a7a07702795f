#include "sage_memory/EvidenceMatcher.h"

#include <cctype>
#include <regex>
#include <unordered_map>
#include <vector>

namespace sage::memory {

namespace {

std::vector<std::string_view> splitLines(std::string_view text) {
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        lines.push_back(line);
        start = end + 1;
    }
    return lines;
}

void appendLine(std::string& out, std::string_view line) {
    if (!out.empty()) out += '\n';
    out += line;
}

} // namespace

std::string EvidenceMatcher::addedLinesFromDiff(std::string_view unifiedDiff) {
    std::string out;
    bool previousWasOldHeader = false;
    for (std::string_view line : splitLines(unifiedDiff)) {
        const bool isOldHeader = line.substr(0, 4) == "--- ";
        if (!line.empty() && line.front() == '+' && !(previousWasOldHeader && line.substr(0, 4) == "+++ "))
            appendLine(out, line.substr(1));
        previousWasOldHeader = isOldHeader;
    }
    return out;
}

std::string EvidenceMatcher::addedLines(std::string_view oldText, std::string_view newText) {
    std::unordered_map<std::string_view, int> remaining;
    for (std::string_view line : splitLines(oldText)) ++remaining[line];
    std::string out;
    for (std::string_view line : splitLines(newText)) {
        auto it = remaining.find(line);
        if (it != remaining.end() && it->second > 0) {
            --it->second;
            continue;
        }
        appendLine(out, line);
    }
    return out;
}

bool EvidenceMatcher::patternMatches(std::string_view pattern, std::string_view addedText) {
    if (pattern.empty() || addedText.empty()) return false;
    std::regex regex;
    try {
        regex = std::regex(pattern.begin(), pattern.end(), std::regex::ECMAScript);
    } catch (const std::regex_error&) {
        return addedText.find(pattern) != std::string_view::npos;
    }
    for (std::string_view line : splitLines(addedText))
        if (std::regex_search(line.begin(), line.end(), regex)) return true;
    return false;
}

bool EvidenceMatcher::idiomMatches(std::string_view idiom, std::string_view addedText) {
    const std::string needle = collapseWhitespace(idiom);
    if (needle.empty()) return false;
    return collapseWhitespace(addedText).find(needle) != std::string::npos;
}

bool EvidenceMatcher::isEvidenced(const Experience& experience, std::string_view addedText) {
    return patternMatches(experience.evidencePattern, addedText) || idiomMatches(experience.codeIdiom, addedText);
}

std::string EvidenceMatcher::collapseWhitespace(std::string_view text) {
    std::string out;
    bool pendingSpace = false;
    for (const char c : text) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            pendingSpace = !out.empty();
            continue;
        }
        if (pendingSpace) out += ' ';
        pendingSpace = false;
        out += c;
    }
    return out;
}

} // namespace sage::memory
