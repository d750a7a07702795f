#include "sage_memory/TextTokens.h"

#include <algorithm>
#include <cctype>
#include <array>
#include <unordered_set>

namespace sage::memory {

namespace {

bool isTokenByte(unsigned char c) { return std::isalnum(c) || c >= 0x80; }

constexpr std::array<std::string_view, 48> kStopWords{
    "a",    "an",   "and",  "are",   "as",    "at",   "be",   "but",  "by",   "do",    "does", "for",
    "from", "has",  "have", "if",    "in",    "into", "is",   "it",   "its",  "no",    "not",  "of",
    "on",   "or",   "so",   "such",  "than",  "that", "the",  "then", "there", "these", "this", "to",
    "too",  "was",  "were", "when",  "where", "which", "while", "will", "with", "would", "you",  "your"};

bool validUtf8(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        const std::size_t length = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (length == 0 || i + length > text.size()) return false;
        for (std::size_t k = 1; k < length; ++k)
            if ((static_cast<unsigned char>(text[i + k]) >> 6) != 2) return false;
        i += length;
    }
    return true;
}

} // namespace

bool TextTokens::isStopWord(std::string_view word) {
    return std::find(kStopWords.begin(), kStopWords.end(), word) != kStopWords.end();
}

std::vector<std::string> TextTokens::words(std::string_view text) {
    std::vector<std::string> out;
    std::string current;
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (isTokenByte(c)) {
            current.push_back(c < 0x80 ? static_cast<char>(std::tolower(c)) : ch);
        } else if (!current.empty()) {
            out.push_back(std::move(current));
            current.clear();
        }
    }
    if (!current.empty()) out.push_back(std::move(current));
    return out;
}

std::vector<std::string> TextTokens::keywords(std::string_view text) {
    std::vector<std::string> out;
    std::unordered_set<std::string> seen;
    for (std::string& word : words(text)) {
        if (word.size() < 2 || isStopWord(word)) continue;
        if (seen.insert(word).second) out.push_back(std::move(word));
    }
    return out;
}

std::set<std::string> TextTokens::keywordSet(std::string_view text) {
    const auto list = keywords(text);
    return {list.begin(), list.end()};
}

std::string TextTokens::ftsQuery(const std::vector<std::string>& keywords, std::size_t maxTerms) {
    std::string query;
    std::size_t terms = 0;
    for (const std::string& word : keywords) {
        if (terms == maxTerms) break;
        if (word.empty()) continue;
        if (terms++) query += " OR ";
        query += '"';
        for (const char c : word) {
            if (c == '"') query += '"';  // words() never yields quotes; doubled anyway to stay safe
            query += c;
        }
        query += '"';
    }
    return query;
}

std::string TextTokens::tsQuery(std::string_view ftsQuery) {
    std::string query;
    bool inside = false;
    std::string word;
    for (std::size_t i = 0; i < ftsQuery.size(); ++i) {
        const char c = ftsQuery[i];
        if (c != '"') {
            if (inside && isTokenByte(static_cast<unsigned char>(c))) word += c;
            continue;
        }
        if (inside && i + 1 < ftsQuery.size() && ftsQuery[i + 1] == '"') {  // a doubled quote inside a word
            ++i;
            continue;
        }
        inside = !inside;
        if (!inside && !word.empty() && validUtf8(word)) {  // PostgreSQL refuses invalid UTF-8
            if (!query.empty()) query += " | ";
            query += word;
            word.clear();
        }
    }
    return query;
}

double TextTokens::jaccard(const std::set<std::string>& a, const std::set<std::string>& b) {
    if (a.empty() && b.empty()) return 0.0;
    std::size_t common = 0;
    for (const std::string& word : a) common += b.count(word);
    return static_cast<double>(common) / static_cast<double>(a.size() + b.size() - common);
}

} // namespace sage::memory
