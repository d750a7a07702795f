// EvidenceMatcher: did a candidate actually use an experience? It reads the change from the parent
// to the candidate — the lines removed and the lines added (a changed line is both) — and asks
// what the entry says adoption looks like. Code that was already there is no evidence.
//
//   constant-edit action  ({"type":"set_tunable","name":"BLOCK_DIM","value":8}, scale_*, step_*):
//                     the constant's value must change the way the action says (ConstantEdit);
//                     the entry's pattern and idiom are not consulted, so "raise BLOCK_DIM" is not
//                     evidenced by lowering it, and an applied action is always recognised.
//   otherwise (structural transforms such as double_buffer or multi_core, and text-only entries):
//     evidence pattern: an RE2 pattern (EvidencePattern) matched on each added line; it counts when
//                     it finds a match text that the removed lines did not already hold (multiset).
//     code idiom:     matched as a literal after collapsing every run of whitespace to one space,
//                     in the added lines and not already in the removed ones.
//   nothing to check (no constant action, pattern or idiom): the basis is "unverifiable", never
//                     evidenced; a declaration alone then weighs 0.3 and the record says why.
#pragma once

#include "sage_memory/Experience.h"

#include <string>
#include <string_view>
#include <vector>

namespace sage::memory {

// What a candidate changed relative to its parent, as two '\n'-joined line lists.
struct CandidateChange {
    std::string removed;  // parent lines the candidate dropped or changed
    std::string added;    // candidate lines the parent lacked (new or changed)

    // Multiset line difference in both directions (order follows each text).
    static CandidateChange between(std::string_view parent, std::string_view candidate);
    // From a unified diff: '-' lines and '+' lines, file headers excluded.
    static CandidateChange fromDiff(std::string_view unifiedDiff);
};

enum class EvidenceBasis { ConstantEdit, Pattern, Unverifiable };
const char* toString(EvidenceBasis basis);

struct Evidence {
    bool evidenced = false;
    EvidenceBasis basis = EvidenceBasis::Unverifiable;
    std::string detail;  // e.g. "BLOCK_DIM 8 -> 2, the action wants it raised"
};

class EvidenceMatcher {
public:
    static Evidence assess(const Experience& experience, const CandidateChange& change);

    // The lines a unified diff adds ('+' lines without the '+', file headers excluded), '\n'-joined.
    static std::string addedLinesFromDiff(std::string_view unifiedDiff);
    // The lines of newText that oldText lacks, counted as a multiset. Order follows the new text.
    static std::string addedLines(std::string_view oldText, std::string_view newText);

    // Added-lines-only checks (no removed side): kept for callers that have only the added text.
    static bool patternMatches(std::string_view pattern, std::string_view addedText);
    static bool idiomMatches(std::string_view idiom, std::string_view addedText);
    // assess() with no removed lines.
    static bool isEvidenced(const Experience& experience, std::string_view addedText);

    static std::string collapseWhitespace(std::string_view text);
    static std::vector<std::string> lines(std::string_view text);
};

} // namespace sage::memory
