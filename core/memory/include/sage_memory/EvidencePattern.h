// EvidencePattern: an entry's evidence pattern compiled with RE2, which matches in time linear in
// the text (no backtracking), so a hostile pattern such as `([ -~]*)*QQQ` cannot hang a run.
// Patterns are validated when an entry is imported, added or edited (Experience::problems); a
// pattern stored before validation existed that RE2 cannot compile is matched as a literal.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sage::memory {

class EvidencePattern {
public:
    static constexpr std::size_t kMaxLength = 2000;  // characters; longer patterns are refused

    // Why RE2 refuses `pattern` (with the RE2 message), or nullopt when it compiles.
    static std::optional<std::string> problem(std::string_view pattern);
    // Every non-overlapping match of `pattern` in `line` (the whole match text). An uncompilable
    // pattern matches as a literal substring. Empty pattern: no matches.
    static std::vector<std::string> matches(std::string_view pattern, std::string_view line);
    static bool matchesAny(std::string_view pattern, std::string_view line);
};

} // namespace sage::memory
