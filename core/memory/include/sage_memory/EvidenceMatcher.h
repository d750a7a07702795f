// EvidenceMatcher: did a candidate actually use an experience? It looks for the entry's
// evidence pattern or its code idiom in the lines the candidate *added* — code that was
// already there is no evidence of adoption.
//
//   evidence pattern: an ECMAScript regular expression matched against each added line; if it is
//                     not a valid regex it is matched as a literal substring of the added text.
//   code idiom:       matched as a literal after collapsing every run of whitespace to one space,
//                     so re-indented or re-wrapped idioms still count.
#pragma once

#include "sage_memory/Experience.h"

#include <string>
#include <string_view>

namespace sage::memory {

class EvidenceMatcher {
public:
    // The lines a unified diff adds ('+' lines without the '+', file headers excluded), '\n'-joined.
    static std::string addedLinesFromDiff(std::string_view unifiedDiff);
    // The lines of newText that oldText lacks, counted as a multiset (a line that appears twice in
    // the new text and once in the old one is added once). Order follows the new text.
    static std::string addedLines(std::string_view oldText, std::string_view newText);

    static bool patternMatches(std::string_view pattern, std::string_view addedText);
    static bool idiomMatches(std::string_view idiom, std::string_view addedText);
    // Either the pattern or the idiom appears; false when the entry has neither.
    static bool isEvidenced(const Experience& experience, std::string_view addedText);

    static std::string collapseWhitespace(std::string_view text);
};

} // namespace sage::memory
