// Paths taken from a project someone else wrote (an op tree for `sage compat` / `sage op`) before
// the host reads them or hands them to a sandbox. A link in such a tree is hostile input: a
// folder `common/inc -> /` would be bind-mounted for the compiler as `/`, and a kernel file
// linked to `/etc/shadow` would be read by the host and quoted in an error.
#pragma once

#include <cstdint>
#include <string>

namespace sage::toolchain {

// `path` with every link resolved, when it exists and resolves inside `root` (also resolved);
// otherwise "" and `why` says what is wrong.
std::string resolveInside(const std::string& path, const std::string& root, std::string& why);
// The text of a project file: only a regular file that resolves inside `root` and holds at most
// `maxBytes`. Throws std::runtime_error naming the file and the reason otherwise.
std::string readProjectFile(const std::string& path, const std::string& root, uint64_t maxBytes);

// `#include "<path>"` and a newline, or "" when the path holds a quote, a backslash or a control
// character (a file named "x.h\n#error ..." would otherwise write its own line into generated code).
std::string quotedIncludeLine(const std::string& path);
// `text` with every control character shown as an escape (\n, \x1b...): a file name or a message
// printed into a text report cannot start a line of its own (a forged "RESULT: PASS").
std::string printable(const std::string& text);

} // namespace sage::toolchain
