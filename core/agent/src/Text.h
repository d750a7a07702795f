// The small text helpers core/agent needs in several places (policies, prompts, diffs, tunables):
// one copy of each, so that "a line" and "blank" mean the same thing everywhere.
#pragma once

#include <string>
#include <vector>

namespace sage::agent::text {

std::string lower(std::string s);                          // ASCII lower case
std::string trim(const std::string& s);                    // without leading/trailing blanks and newlines
std::vector<std::string> splitLines(const std::string& s); // by '\n', a trailing '\r' dropped; no final empty line
// Lines [from, to) each followed by '\n'.
std::string joinLines(const std::vector<std::string>& lines, size_t from = 0, size_t to = std::string::npos);

} // namespace sage::agent::text
