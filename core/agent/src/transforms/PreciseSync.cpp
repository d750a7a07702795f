// precise_sync: a PipeBarrier<PIPE_ALL> stalls every pipe; when the statements around it show
// which pipe produced and which consumes, the barrier becomes the one SetFlag/WaitFlag pair for
// that pipe pair (or PipeBarrier<PIPE_X> when both are the same pipe). Barriers whose neighbours
// cannot be told apart are left alone; a kernel with none that can be narrowed is refused.
#include "transforms/Transform.h"

#include "transforms/KernelFacts.h"
#include "transforms/SyncText.h"

namespace sage::agent::transforms {
namespace {

bool isCode(const std::string& l) {
    auto b = l.find_first_not_of(" \t");
    if (b == std::string::npos) return false;
    return l.compare(b, 2, "//") != 0 && l[b] != '{' && l[b] != '}';
}

std::string neighbourPipe(const std::vector<std::string>& lines, size_t at, int step) {
    for (int i = int(at) + step, n = 0; i >= 0 && i < int(lines.size()) && n < 4; i += step) {
        if (!isCode(lines[size_t(i)])) continue;
        ++n;
        std::string p = kernel::pipeOfStatement(lines[size_t(i)]);
        if (!p.empty()) return p;
        if (lines[size_t(i)].find("PipeBarrier") != std::string::npos || lines[size_t(i)].find("Flag") != std::string::npos)
            return "";
    }
    return "";
}

} // namespace

Result preciseSync(const Input& in) {
    auto lines = kernel::splitLines(in.source);
    int changed = 0;
    std::string what;
    for (size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].find("PipeBarrier<PIPE_ALL>") == std::string::npos) continue;
        std::string before = neighbourPipe(lines, i, -1), after = neighbourPipe(lines, i, +1);
        if (before.empty() || after.empty()) continue;
        std::string indent = lines[i].substr(0, lines[i].find_first_not_of(" \t"));
        lines[i] = indent + sync::waitFor(in.source, before, after) + "  // sage: was PipeBarrier<PIPE_ALL>";
        what += (changed++ ? ", " : "") + std::string("line ") + std::to_string(i + 1) + " " + before + "->" + after;
    }
    if (!changed) return refuse("no PipeBarrier<PIPE_ALL> between statements whose pipes can be told apart");
    Result r;
    r.source = kernel::joinLines(lines, in.source);
    r.description = "precise sync instead of PipeBarrier<PIPE_ALL> at " + what;
    return r;
}

} // namespace sage::agent::transforms
