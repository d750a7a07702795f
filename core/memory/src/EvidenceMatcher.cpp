#include "sage_memory/EvidenceMatcher.h"

#include "sage_memory/ConstantEdit.h"
#include "sage_memory/EvidencePattern.h"

#include <cctype>
#include <map>
#include <unordered_map>
#include <vector>

namespace sage::memory {

namespace {

void appendLine(std::string& out, std::string_view line) {
    if (!out.empty()) out += '\n';
    out += line;
}

std::map<std::string, int> patternMatchCounts(std::string_view pattern, std::string_view text) {
    std::map<std::string, int> counts;
    for (const std::string& line : EvidenceMatcher::lines(text))
        for (std::string& m : EvidencePattern::matches(pattern, line)) ++counts[std::move(m)];
    return counts;
}

// A match text the added lines hold more often than the removed lines did.
bool newPatternMatch(std::string_view pattern, const CandidateChange& change) {
    if (pattern.empty() || change.added.empty()) return false;
    const auto before = patternMatchCounts(pattern, change.removed);
    for (const auto& [text, count] : patternMatchCounts(pattern, change.added)) {
        const auto it = before.find(text);
        if (count > (it == before.end() ? 0 : it->second)) return true;
    }
    return false;
}

bool newIdiom(std::string_view idiom, const CandidateChange& change) {
    return EvidenceMatcher::idiomMatches(idiom, change.added) && !EvidenceMatcher::idiomMatches(idiom, change.removed);
}

} // namespace

const char* toString(EvidenceBasis basis) {
    switch (basis) {
    case EvidenceBasis::ConstantEdit: return "constant_edit";
    case EvidenceBasis::Pattern: return "pattern";
    case EvidenceBasis::Unverifiable: return "unverifiable";
    }
    return "unverifiable";
}

std::vector<std::string> EvidenceMatcher::lines(std::string_view text) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        out.emplace_back(line);
        start = end + 1;
    }
    return out;
}

CandidateChange CandidateChange::between(std::string_view parent, std::string_view candidate) {
    return {EvidenceMatcher::addedLines(candidate, parent), EvidenceMatcher::addedLines(parent, candidate)};
}

CandidateChange CandidateChange::fromDiff(std::string_view unifiedDiff) {
    CandidateChange change;
    bool previousWasOldHeader = false;
    for (const std::string& line : EvidenceMatcher::lines(unifiedDiff)) {
        const bool isOldHeader = line.rfind("--- ", 0) == 0;
        if (!line.empty() && line.front() == '+' && !(previousWasOldHeader && line.rfind("+++ ", 0) == 0))
            appendLine(change.added, std::string_view(line).substr(1));
        else if (!line.empty() && line.front() == '-' && !isOldHeader)
            appendLine(change.removed, std::string_view(line).substr(1));
        previousWasOldHeader = isOldHeader;
    }
    return change;
}

Evidence EvidenceMatcher::assess(const Experience& experience, const CandidateChange& change) {
    Evidence e;
    if (ConstantEdit::isConstantEdit(experience.action)) {
        e.basis = EvidenceBasis::ConstantEdit;
        e.evidenced = ConstantEdit::evidenced(experience.action, change.removed, change.added, &e.detail);
        return e;
    }
    if (experience.evidencePattern.empty() && collapseWhitespace(experience.codeIdiom).empty()) {
        e.detail = "the entry has no constant action, evidence pattern or code idiom to check";
        return e;
    }
    e.basis = EvidenceBasis::Pattern;
    if (newPatternMatch(experience.evidencePattern, change)) {
        e.evidenced = true;
        e.detail = "evidence pattern found in an added line";
    } else if (newIdiom(experience.codeIdiom, change)) {
        e.evidenced = true;
        e.detail = "code idiom found in the added lines";
    } else {
        e.detail = "neither the evidence pattern nor the code idiom appears in a new line";
    }
    return e;
}

std::string EvidenceMatcher::addedLinesFromDiff(std::string_view unifiedDiff) {
    return CandidateChange::fromDiff(unifiedDiff).added;
}

std::string EvidenceMatcher::addedLines(std::string_view oldText, std::string_view newText) {
    std::unordered_map<std::string, int> remaining;
    for (std::string& line : lines(oldText)) ++remaining[std::move(line)];
    std::string out;
    for (const std::string& line : lines(newText)) {
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
    for (const std::string& line : lines(addedText))
        if (EvidencePattern::matchesAny(pattern, line)) return true;
    return false;
}

bool EvidenceMatcher::idiomMatches(std::string_view idiom, std::string_view addedText) {
    const std::string needle = collapseWhitespace(idiom);
    if (needle.empty()) return false;
    return collapseWhitespace(addedText).find(needle) != std::string::npos;
}

bool EvidenceMatcher::isEvidenced(const Experience& experience, std::string_view addedText) {
    return assess(experience, CandidateChange{std::string(), std::string(addedText)}).evidenced;
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
