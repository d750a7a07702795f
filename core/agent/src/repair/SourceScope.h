// Where things are in a kernel's text, for the repairs that insert a statement: the function body
// around a line (brace counting over code with comments and string literals skipped), and the
// last line of a range that mentions a variable. Kernels are hostile input: an unbalanced or odd
// text gives "not found" (nullopt), never a guess.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sage::agent::repair {

// [header line, closing-brace line] (0-based) of the innermost function definition containing
// `line`, or nullopt. A function header is a line with `name(...)` that opens a brace and is not
// an if/for/while/switch/else/do statement.
std::optional<std::pair<size_t, size_t>> enclosingFunction(const std::vector<std::string>& lines, size_t line);

// The last line in [from, to] that uses `identifier` as a whole word (outside comments), or nullopt.
std::optional<size_t> lastMention(const std::vector<std::string>& lines, size_t from, size_t to, const std::string& identifier);

// The leading whitespace of a line.
std::string indentOf(const std::string& line);

} // namespace sage::agent::repair
