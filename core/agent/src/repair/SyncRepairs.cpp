// Repairs for synchronisation diagnostics, each reading the first matching diagnostic of the
// parent's evaluation: a race names both lines and both pipes, so the later line gets the
// SetFlag/WaitFlag for exactly that pipe pair; a deadlock (WaitFlag with no SetFlag) gets its
// SetFlag; an unpaired SetFlag gets its WaitFlag.
#include "repair/RepairPlanner.h"
#include "repair/SourceScope.h"
#include "transforms/KernelFacts.h"
#include "transforms/SyncText.h"
#include "transforms/Transform.h"

#include <regex>

namespace sage::agent::transforms {
namespace {

using repair::indentOf;

using Kind = toolchain::DiagnosticKind;
using repair::firstRunDiagnostic;

} // namespace

Result raceSync(const Input& in) {
    const auto* d = firstRunDiagnostic(in.parent, {Kind::RaceRaw, Kind::RaceWar, Kind::RaceWaw});
    if (!d) return refuse("no race diagnostic with a line");
    static const std::regex re(R"(PIPE_(\w+) at line (\d+) .*PIPE_(\w+) \(line (\d+)\))");
    std::smatch m;
    if (!std::regex_search(d->message, m, re)) return refuse("the race message does not name both pipes: " + d->message);
    const std::string later = m[1].str(), earlier = m[3].str();
    auto lines = kernel::splitLines(in.source);
    if (d->line < 1 || size_t(d->line) > lines.size()) return refuse("race line " + std::to_string(d->line) + " is outside the kernel");
    const std::string& at = lines[size_t(d->line - 1)];
    lines.insert(lines.begin() + (d->line - 1), indentOf(at) + sync::waitFor(in.source, earlier, later) + "  // sage: PIPE_" +
                                                    later + " waits for PIPE_" + earlier + " (line " + m[4].str() + ")");
    Result r;
    r.source = kernel::joinLines(lines, in.source);
    r.description = std::string(d->kind.name()) + ": " + earlier + "->" + later + " flag before line " + std::to_string(d->line);
    return r;
}

Result setBeforeWait(const Input& in) {
    const auto* d = firstRunDiagnostic(in.parent, {Kind::Deadlock});
    if (!d) return refuse("no deadlock diagnostic with a line");
    auto lines = kernel::splitLines(in.source);
    if (size_t(d->line) > lines.size()) return refuse("deadlock line is outside the kernel");
    std::string l = lines[size_t(d->line - 1)];
    static const std::regex wait(R"(\b((?:AscendC::)?)WaitFlag(\s*<[^>]*>\s*\([^)]*\))\s*;)");
    std::smatch m;
    if (!std::regex_search(l, m, wait)) return refuse("line " + std::to_string(d->line) + " has no WaitFlag<...>(...)");
    lines.insert(lines.begin() + (d->line - 1), indentOf(l) + m[1].str() + "SetFlag" + m[2].str() + ";  // sage: the missing SetFlag");
    Result r;
    r.source = kernel::joinLines(lines, in.source);
    r.description = "deadlock: SetFlag before the WaitFlag at line " + std::to_string(d->line);
    return r;
}

Result waitAfterSet(const Input& in) {
    const auto* d = firstRunDiagnostic(in.parent, {Kind::FlagUnpaired});
    if (!d) return refuse("no flag_unpaired diagnostic with a line");
    auto lines = kernel::splitLines(in.source);
    if (size_t(d->line) > lines.size()) return refuse("flag line is outside the kernel");
    std::string l = lines[size_t(d->line - 1)];
    static const std::regex set(R"(\b((?:AscendC::)?)SetFlag(\s*<[^>]*>\s*\([^)]*\))\s*;)");
    std::smatch m;
    if (!std::regex_search(l, m, set)) return refuse("line " + std::to_string(d->line) + " has no SetFlag<...>(...)");
    // "set again before a WaitFlag consumed it": consume the earlier one before this line;
    // "never matched": wait right after it.
    const bool again = d->message.find("set again") != std::string::npos;
    const std::string wait = indentOf(l) + m[1].str() + "WaitFlag" + m[2].str() + ";  // sage: pair the SetFlag";
    lines.insert(lines.begin() + (again ? d->line - 1 : d->line), wait);
    Result r;
    r.source = kernel::joinLines(lines, in.source);
    r.description = std::string("flag_unpaired: WaitFlag ") + (again ? "before" : "after") + " the SetFlag at line " +
                    std::to_string(d->line);
    return r;
}

} // namespace sage::agent::transforms
