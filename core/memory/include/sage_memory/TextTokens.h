// TextTokens: the one tokenizer of the memory, used to build safe FTS5 queries from free text
// and to measure text similarity for dedup. A token is a run of ASCII letters and digits (or of
// UTF-8 bytes >= 0x80), lower-cased; everything else separates tokens, like FTS5's unicode61.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace sage::memory {

class TextTokens {
public:
    // Every token, in order, repeats kept.
    static std::vector<std::string> words(std::string_view text);
    // Distinct tokens without English stop words and one-character tokens, in first-seen order.
    static std::vector<std::string> keywords(std::string_view text);
    static std::set<std::string> keywordSet(std::string_view text);

    // An FTS5 MATCH expression that can never be a syntax error: each keyword double-quoted,
    // joined with OR ("ub" OR "capacity" OR ...). At most maxTerms terms; "" when none are left.
    static std::string ftsQuery(const std::vector<std::string>& keywords, std::size_t maxTerms = 32);
    // The same query for PostgreSQL's to_tsquery ("w1 | w2"), from an ftsQuery() expression: its
    // quoted words, with anything but word bytes dropped (so the text cannot inject operators).
    static std::string tsQuery(std::string_view ftsQuery);

    // |A ∩ B| / |A ∪ B| over keyword sets; 0 when both are empty.
    static double jaccard(const std::set<std::string>& a, const std::set<std::string>& b);

    static bool isStopWord(std::string_view word);
};

} // namespace sage::memory
