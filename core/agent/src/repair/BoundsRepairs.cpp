// Repair for a global-memory access past the range SetGlobalBuffer gave (gm_out_of_bounds) when
// the cause is one deviant index: the copies of a kernel walk their GlobalTensors in step (x, y
// and z at the same offset), so when the failing line indexes its tensor with an expression the
// other GlobalTensors are not walked with, the deviant index is replaced by theirs on every line
// where that tensor uses it. The other tensors' offsets are read from `gm[index]` and from an
// offset argument that follows a GlobalTensor in a call (`CopyRow(dst, xGm_, row * cols)`). When
// the deviant index begins or ends with one of those offsets (`off + 64`), that one is chosen;
// otherwise the single most used one. Ties, or no other offsets, are refused (then align_tail,
// for a missing tail, is the next candidate).
#include "repair/RepairPlanner.h"
#include "repair/SourceScope.h"
#include "transforms/KernelFacts.h"
#include "transforms/Transform.h"

#include <cctype>
#include <map>
#include <regex>
#include <set>

namespace sage::agent::transforms {
namespace {

// The argument text after `name ,` in a call, up to the next top-level ',' or ')'.
std::string argumentAfter(const std::string& line, size_t from) {
    int depth = 0;
    size_t i = from;
    for (; i < line.size(); ++i) {
        const char c = line[i];
        if (c == '(' || c == '[') ++depth;
        else if ((c == ')' || c == ']') && depth == 0) break;
        else if (c == ')' || c == ']') --depth;
        else if (c == ',' && depth == 0) break;
    }
    return i < line.size() ? line.substr(from, i - from) : std::string();
}

bool isTokenChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// `index` is `base` with something added before or after it (`off+64`, `64+off`).
bool perturbs(const std::string& index, const std::string& base) {
    if (base.empty() || index.size() <= base.size()) return false;
    if (index.compare(0, base.size(), base) == 0 && !isTokenChar(index[base.size()])) return true;
    const size_t at = index.size() - base.size();
    return index.compare(at, base.size(), base) == 0 && !isTokenChar(index[at - 1]);
}

} // namespace

Result gmOffsetConsensus(const Input& in) {
    const auto* d = repair::firstRunDiagnostic(in.parent, {toolchain::DiagnosticKind::GmOutOfBounds});
    if (!d) return refuse("no gm_out_of_bounds diagnostic with a line");
    auto lines = kernel::splitLines(in.source);
    if (size_t(d->line) > lines.size()) return refuse("the diagnostic line is outside the kernel");
    std::set<std::string> gmNames;
    static const std::regex declared(R"(GlobalTensor\s*<[^;>]*>\s+(\w+)\s*[;,=])");
    for (auto it = std::sregex_iterator(in.source.begin(), in.source.end(), declared); it != std::sregex_iterator(); ++it)
        gmNames.insert((*it)[1].str());
    if (gmNames.empty()) return refuse("no GlobalTensor declarations");
    // Every `gm[index]` access: which tensor, which index (spaces removed), on which line.
    static const std::regex access(R"((\w+)\s*\[([^\[\]]+)\])");
    struct Access {
        std::string tensor, index;
        size_t line;
    };
    std::vector<Access> all;
    for (size_t i = 0; i < lines.size(); ++i)
        for (auto it = std::sregex_iterator(lines[i].begin(), lines[i].end(), access); it != std::sregex_iterator(); ++it)
            if (gmNames.count((*it)[1].str())) all.push_back({(*it)[1].str(), kernel::withoutSpaces((*it)[2].str()), i});
    const Access* bad = nullptr;
    for (const auto& a : all)
        if (a.line == size_t(d->line - 1)) bad = bad ? bad : &a;
    if (!bad) return refuse("line " + std::to_string(d->line) + " indexes no GlobalTensor with []");
    std::map<std::string, int> uses;  // offset -> how many accesses of *other* tensors use it
    for (const auto& a : all)
        if (a.tensor != bad->tensor) ++uses[a.index];
    for (const auto& name : gmNames) {
        if (name == bad->tensor) continue;
        const std::regex passed("\\b" + name + R"(\s*,)");
        for (const auto& l : lines)
            for (auto it = std::sregex_iterator(l.begin(), l.end(), passed); it != std::sregex_iterator(); ++it) {
                const std::string arg = kernel::withoutSpaces(argumentAfter(l, size_t(it->position(0) + it->length(0))));
                if (!arg.empty()) ++uses[arg];
            }
    }
    auto pick = [&uses](auto&& admissible) {
        std::string best;
        int most = 0;
        bool tie = false;
        for (const auto& [index, n] : uses) {
            if (!admissible(index)) continue;
            if (n > most) most = n, best = index, tie = false;
            else if (n == most) tie = true;
        }
        return tie ? std::string() : best;
    };
    std::string shared = pick([&](const std::string& i) { return perturbs(bad->index, i); });
    if (shared.empty()) shared = pick([](const std::string&) { return true; });
    if (shared.empty()) return refuse("the other GlobalTensors share no single offset to walk " + bad->tensor + " with");
    if (shared == bad->index) return refuse(bad->tensor + "[" + bad->index + "] already uses the shared index: the range itself is short");
    int changed = 0;
    const std::regex sameAccess("\\b" + bad->tensor + R"(\s*\[([^\[\]]+)\])");
    for (auto& l : lines) {
        std::string out;
        auto begin = l.cbegin();
        for (auto it = std::sregex_iterator(l.begin(), l.end(), sameAccess); it != std::sregex_iterator(); ++it) {
            const auto& m = *it;
            out.append(begin, m[0].first);
            if (kernel::withoutSpaces(m[1].str()) == bad->index) {
                out += bad->tensor + "[" + shared + "]";
                ++changed;
            } else {
                out.append(m[0].first, m[0].second);
            }
            begin = m[0].second;
        }
        out.append(begin, l.cend());
        l = out;
    }
    Result r;
    r.source = kernel::joinLines(lines, in.source);
    r.description = "gm_out_of_bounds: " + bad->tensor + "[" + bad->index + "] -> " + bad->tensor + "[" + shared + "] (" +
                    std::to_string(changed) + " access(es), as the other GlobalTensors are indexed)";
    return r;
}

} // namespace sage::agent::transforms
