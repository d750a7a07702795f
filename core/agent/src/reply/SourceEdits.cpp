#include "reply/SourceEdits.h"

#include "Text.h"

#include <regex>

namespace sage::agent::reply {
namespace {

using text::splitLines;
using text::trim;

bool isMarker(const std::string& line, char c, size_t minCount, const char* word) {
    std::string t = trim(line);
    size_t n = 0;
    while (n < t.size() && t[n] == c) ++n;
    if (n < minCount) return false;
    std::string rest = trim(t.substr(n));
    return word ? text::lower(rest) == text::lower(word) : rest.empty();
}

// Line ranges [begin, end) of `hay` whose lines equal `needle`'s lines ignoring surrounding blanks.
std::vector<size_t> looseMatches(const std::vector<std::string>& hay, const std::vector<std::string>& needle) {
    std::vector<size_t> at;
    if (needle.empty() || needle.size() > hay.size()) return at;
    for (size_t i = 0; i + needle.size() <= hay.size(); ++i) {
        bool same = true;
        for (size_t k = 0; k < needle.size() && same; ++k) same = trim(hay[i + k]) == trim(needle[k]);
        if (same) at.push_back(i);
    }
    return at;
}

size_t countOccurrences(const std::string& hay, const std::string& needle) {
    size_t n = 0;
    for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
    return n;
}

// Drop leading and trailing blank lines so a block's surrounding spacing does not matter.
std::vector<std::string> stripBlankEdges(std::vector<std::string> lines) {
    while (!lines.empty() && trim(lines.back()).empty()) lines.pop_back();
    size_t b = 0;
    while (b < lines.size() && trim(lines[b]).empty()) ++b;
    lines.erase(lines.begin(), lines.begin() + long(b));
    return lines;
}

std::string shortLine(const std::string& line) {
    std::string t = trim(line);
    return t.size() > 80 ? t.substr(0, 77) + "..." : t;
}

} // namespace

std::vector<SourceEdit> findSearchReplace(const std::string& reply, std::string& error) {
    std::vector<SourceEdit> edits;
    enum { Outside, InSearch, InReplace } state = Outside;
    SourceEdit cur;
    for (const auto& line : splitLines(reply)) {
        if (state == Outside) {
            if (isMarker(line, '<', 5, "SEARCH")) {
                cur = {};
                state = InSearch;
            }
        } else if (state == InSearch) {
            if (isMarker(line, '=', 5, nullptr)) state = InReplace;
            else cur.search += line + "\n";
        } else {
            if (isMarker(line, '>', 5, "REPLACE")) {
                edits.push_back(cur);
                state = Outside;
            } else {
                cur.replace += line + "\n";
            }
        }
    }
    if (state != Outside)
        error = "SEARCH/REPLACE block " + std::to_string(edits.size() + 1) +
                " is not complete: every block needs `<<<<<<< SEARCH`, the old lines, `=======`, the new lines and "
                "`>>>>>>> REPLACE`";
    return edits;
}

bool looksLikeUnifiedDiff(const std::string& t) {
    static const std::regex hunk(R"(^@@ -\d+(,\d+)? \+\d+(,\d+)? @@.*)");
    const auto lines = splitLines(t);
    for (size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].rfind("@@ ", 0) == 0 && lines[i].size() < 2000 && std::regex_match(lines[i], hunk)) return true;
        if (lines[i].rfind("--- ", 0) == 0 && i + 1 < lines.size() && lines[i + 1].rfind("+++ ", 0) == 0) return true;
    }
    return false;
}

std::vector<SourceEdit> editsFromUnifiedDiff(const std::string& diff) {
    std::vector<SourceEdit> edits;
    bool inHunk = false;
    SourceEdit cur;
    auto flush = [&] {
        if (inHunk && (!cur.search.empty() || !cur.replace.empty())) edits.push_back(cur);
        cur = {};
    };
    for (const auto& line : splitLines(diff)) {
        if (line.rfind("@@", 0) == 0) {
            flush();
            inHunk = true;
            continue;
        }
        if (line.rfind("--- ", 0) == 0 || line.rfind("+++ ", 0) == 0 || line.rfind("diff ", 0) == 0 ||
            line.rfind("index ", 0) == 0) {
            flush();
            inHunk = false;
            continue;
        }
        if (!inHunk) continue;
        if (line.empty()) {  // many models drop the leading space of blank context lines
            cur.search += "\n";
            cur.replace += "\n";
        } else if (line[0] == '-') {
            cur.search += line.substr(1) + "\n";
        } else if (line[0] == '+') {
            cur.replace += line.substr(1) + "\n";
        } else if (line[0] == ' ') {
            cur.search += line.substr(1) + "\n";
            cur.replace += line.substr(1) + "\n";
        } else if (line[0] != '\\') {  // "\ No newline at end of file" is not content
            cur.search += line + "\n";
            cur.replace += line + "\n";
        }
    }
    flush();
    return edits;
}

bool stripCopiedLineNumbers(std::vector<std::string>& lines) {
    static const std::regex numbered(R"(^\s*\d+ \|(?: (.*))?$)");
    size_t nonBlank = 0;
    for (const auto& l : lines) {
        if (trim(l).empty()) continue;
        if (l.size() > 2000 || !std::regex_match(l, numbered)) return false;
        ++nonBlank;
    }
    if (nonBlank == 0) return false;
    std::smatch m;
    for (auto& l : lines)
        if (std::regex_match(l, m, numbered)) l = m[1].str();
    return true;
}

bool isPlaceholderLine(const std::string& line) {
    const std::string t = text::lower(trim(line));
    if (t.size() > 200 || !(t.rfind("//", 0) == 0 || t.rfind("/*", 0) == 0 || t.rfind("...", 0) == 0)) return false;
    static const std::regex elided(
        R"((\.\.\.|\xE2\x80\xA6).*(rest|unchanged|same as|existing|omitted|as before|remains)|(rest|remainder) of (the )?(code|kernel|file|function|class)|(unchanged|existing) code|code (is )?unchanged)");
    return std::regex_search(t, elided);
}

EditResult applyEdits(const std::string& parent, const std::vector<SourceEdit>& edits) {
    EditResult r;
    std::string src = parent;
    if (!src.empty() && src.back() != '\n') src += "\n";
    for (size_t i = 0; i < edits.size(); ++i) {
        const std::string label = "SEARCH block " + std::to_string(i + 1) + " of " + std::to_string(edits.size());
        auto search = stripBlankEdges(splitLines(edits[i].search));
        auto replace = stripBlankEdges(splitLines(edits[i].replace));
        if (stripCopiedLineNumbers(search)) stripCopiedLineNumbers(replace);  // copied from the numbered parent
        if (search.empty()) {
            r.error = label + " is empty: put the exact lines of the parent to replace between `<<<<<<< SEARCH` and "
                              "`=======` (or send the whole file)";
            return r;
        }
        const std::string exact = text::joinLines(search);
        const size_t n = countOccurrences(src, exact);
        if (n == 1) {
            src.replace(src.find(exact), exact.size(), text::joinLines(replace));
            continue;
        }
        if (n > 1) {
            r.error = label + " matches " + std::to_string(n) +
                      " places in the parent; add surrounding lines so it matches exactly one";
            return r;
        }
        // Indentation and trailing blanks differ often; match line by line on trimmed text.
        auto lines = splitLines(src);
        auto at = looseMatches(lines, search);
        if (at.size() > 1) {
            r.error = label + " matches " + std::to_string(at.size()) +
                      " places in the parent; add surrounding lines so it matches exactly one";
            return r;
        }
        if (at.empty()) {
            size_t firstMiss = 0;
            while (firstMiss < search.size() && looseMatches(lines, {search[firstMiss]}).size() > 0) ++firstMiss;
            r.error = label + " does not match the parent";
            if (firstMiss < search.size())
                r.error += ": the line `" + shortLine(search[firstMiss]) + "` is not in the parent";
            else
                r.error += ": its lines exist but not in this order";
            r.error += ". Copy the SEARCH lines exactly from the parent candidate (without the line numbers), or send "
                       "the whole file";
            return r;
        }
        std::vector<std::string> out(lines.begin(), lines.begin() + long(at[0]));
        out.insert(out.end(), replace.begin(), replace.end());
        out.insert(out.end(), lines.begin() + long(at[0] + search.size()), lines.end());
        src = text::joinLines(out);
    }
    r.ok = true;
    r.source = src;
    return r;
}

} // namespace sage::agent::reply
