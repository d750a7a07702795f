#include "sage_agent/FaultInjector.h"

#include "sage_agent/KernelComposer.h"

#include "transforms/KernelFacts.h"
#include "transforms/Transform.h"

#include "sage_npu/DeviceProfile.h"

#include <map>
#include <regex>
#include <set>

namespace sage::agent {
namespace {

using Mutation = std::optional<std::string> (*)(const std::string&, const npu::DeviceProfile*, std::string&);

std::optional<std::string> replaceFirst(const std::string& s, const std::regex& re, const std::string& with) {
    std::smatch m;
    if (!std::regex_search(s, m, re)) return std::nullopt;
    return m.prefix().str() + m.format(with) + m.suffix().str();
}

std::optional<std::string> dropFirstLine(const std::string& s, const std::regex& re) {
    auto lines = kernel::splitLines(s);
    for (size_t i = 0; i < lines.size(); ++i)
        if (std::regex_search(lines[i], re)) {
            lines.erase(lines.begin() + std::ptrdiff_t(i));
            return kernel::joinLines(lines, s);
        }
    return std::nullopt;
}

std::optional<std::string> misspelledApi(const std::string& s, const npu::DeviceProfile*, std::string& why) {
    auto out = replaceFirst(s, std::regex(R"(\bDataCopy\s*\()"), "DataCopi(");
    if (!out) why = "no DataCopy call";
    return out;
}

std::optional<std::string> missingTemplateArgument(const std::string& s, const npu::DeviceProfile*, std::string& why) {
    auto out = replaceFirst(s, std::regex(R"(\.\s*DeQue\s*<\s*\w+\s*>\s*\(\s*\))"), ".DeQue()");
    if (!out) why = "no DeQue<T>() call";
    return out;
}

std::optional<std::string> oversizedTile(const std::string& s, const npu::DeviceProfile* device, std::string& why) {
    auto knobs = transforms::knobsWithRole(s, "tile");
    if (knobs.empty()) return why = "no tile knob", std::nullopt;
    const long long ub = device ? device->ubBytes : 196608;  // what TPipe::InitBuffer enforces
    for (long long v = knobs.front().value * 2; v > 0 && v <= (1ll << 24); v *= 2) {
        std::string out = setTunable(s, knobs.front(), v);
        auto bytes = kernel::ubBytes(out);
        if (!bytes) return why = "the UB the kernel reserves is not known at compile time", std::nullopt;
        if (*bytes > ub) return out;
    }
    return why = "no tile size overflows the Unified Buffer", std::nullopt;
}

// Drops the FreeTensor of the first queue InitBuffer sets up (the main input of the loop in a
// kernel written in the usual order), else the first FreeTensor.
std::optional<std::string> missingFree(const std::string& s, const npu::DeviceProfile*, std::string& why) {
    std::smatch m;
    if (std::regex_search(s, m, std::regex(R"(\.\s*InitBuffer\s*\(\s*(\w+)\s*,\s*[^,()]+\s*,)"))) {
        auto out = dropFirstLine(s, std::regex(R"(^\s*)" + m[1].str() + R"(\s*\.\s*FreeTensor\s*\(\s*\w+\s*\)\s*;\s*$)"));
        if (out) return out;
    }
    auto out = dropFirstLine(s, std::regex(R"(^\s*\w+\s*\.\s*FreeTensor\s*\(\s*\w+\s*\)\s*;\s*$)"));
    if (!out) why = "no FreeTensor statement on a line of its own";
    return out;
}

std::optional<std::string> missingEnque(const std::string& s, const npu::DeviceProfile*, std::string& why) {
    auto out = dropFirstLine(s, std::regex(R"(^\s*\w+\s*\.\s*EnQue\s*\(\s*\w+\s*\)\s*;\s*$)"));
    if (!out) why = "no EnQue statement on a line of its own";
    return out;
}

// Drops the InitBuffer of a TQue whose declared type another InitBuffer'd TQue shares (so a
// sibling to copy from exists, as it does in every multi-input kernel).
std::optional<std::string> missingInitBuffer(const std::string& s, const npu::DeviceProfile*, std::string& why) {
    auto lines = kernel::splitLines(s);
    const std::regex init(R"(^\s*\w+\s*\.\s*InitBuffer\s*\(\s*(\w+)\s*,.*\)\s*;\s*$)");
    std::map<std::string, int> seen;
    for (size_t i = 0; i < lines.size(); ++i) {
        std::smatch m;
        if (!std::regex_search(lines[i], m, init)) continue;
        const std::string type = kernel::queueTypeOf(s, m[1].str());
        if (type.rfind("TQue", 0) != 0) continue;  // a TBuf's missing InitBuffer only warns
        if (seen[type]++ == 0) continue;
        lines.erase(lines.begin() + std::ptrdiff_t(i));
        return kernel::joinLines(lines, s);
    }
    why = "no two TQues of one type with InitBuffer";
    return std::nullopt;
}

// Shifts every index of the first member GlobalTensor a DataCopy reads or writes by 64 elements.
std::optional<std::string> shiftedGmOffset(const std::string& s, const npu::DeviceProfile*, std::string& why) {
    std::set<std::string> members;  // `GlobalTensor<T> name;` (a reference parameter is not one)
    static const std::regex member(R"(GlobalTensor\s*<[^;>]*>\s+(\w+)\s*;)");
    for (auto it = std::sregex_iterator(s.begin(), s.end(), member); it != std::sregex_iterator(); ++it) members.insert((*it)[1].str());
    static const std::regex copy(R"(\bDataCopy(?:Pad)?\s*\(\s*(?:\w+\s*,\s*)?(\w+)\s*\[([^\[\]]+)\])");
    for (auto it = std::sregex_iterator(s.begin(), s.end(), copy); it != std::sregex_iterator(); ++it) {
        const std::string tensor = (*it)[1].str(), index = (*it)[2].str();
        if (!members.count(tensor)) continue;
        std::string out, rest = s;
        const std::string from = tensor + "[" + index + "]", to = tensor + "[" + index + " + 64]";
        for (size_t at; (at = rest.find(from)) != std::string::npos; rest = rest.substr(at + from.size()))
            out += rest.substr(0, at) + to;
        return out + rest;
    }
    why = "no DataCopy of an indexed member GlobalTensor";
    return std::nullopt;
}

// Turns the first `if (aligned) DataCopy(...); else DataCopyPad(...);` copy-in into the plain
// DataCopy, which silently drops the last bytes of a tail that is not a multiple of 32 bytes.
std::optional<std::string> unpaddedTail(const std::string& s, const npu::DeviceProfile*, std::string& why) {
    auto out = replaceFirst(s, std::regex(R"(if\s*\([^\n]*%[^\n]*\)\s*(DataCopy\s*\([^;\n]*;)\s*\n\s*else\s+DataCopyPad\s*\([^;\n]*;)"),
                            "$1");
    if (!out) why = "no aligned/padded DataCopy pair";
    return out;
}

struct Entry {
    FaultDef def;
    Mutation mutate;
};

const std::vector<Entry>& entries() {
    static const std::vector<Entry> e = {
        {{"misspelled_api", "compile_error", "DataCopy written DataCopi"}, misspelledApi},
        {{"missing_template_argument", "compile_error", "DeQue<T>() written DeQue()"}, missingTemplateArgument},
        {{"oversized_tile", "capacity_exceeded", "the tile knob doubled until the buffers exceed the Unified Buffer"}, oversizedTile},
        {{"missing_free", "alloc_no_free_buffer", "the first FreeTensor deleted"}, missingFree},
        {{"missing_enque", "deque_empty", "the first EnQue deleted"}, missingEnque},
        {{"missing_init_buffer", "queue_not_initialised", "the InitBuffer of a second queue of one type deleted"}, missingInitBuffer},
        {{"shifted_gm_offset", "gm_out_of_bounds", "a copy-in reads its GlobalTensor 64 elements further on"}, shiftedGmOffset},
        {{"unpadded_tail", "datacopy_not_32b_multiple", "the DataCopyPad tail of a copy-in replaced by a plain DataCopy"}, unpaddedTail},
    };
    return e;
}

} // namespace

const std::vector<FaultDef>& faultCatalogue() {
    static const std::vector<FaultDef> defs = [] {
        std::vector<FaultDef> d;
        for (const auto& e : entries()) d.push_back(e.def);
        return d;
    }();
    return defs;
}

std::optional<InjectedFault> injectFault(const std::string& source, const std::string& name, const npu::DeviceProfile* device,
                                         std::string* why) {
    for (const auto& e : entries()) {
        if (name != e.def.name) continue;
        std::string reason;
        auto out = e.mutate(source, device, reason);
        if (!out || *out == source) {
            if (why) *why = name + ": " + (reason.empty() ? "the kernel is unchanged" : reason);
            return std::nullopt;
        }
        return InjectedFault{e.def.name, e.def.expectedKind, e.def.what, *out};
    }
    if (why) *why = "unknown fault '" + name + "'";
    return std::nullopt;
}

std::vector<std::string> applicableFaults(const std::string& source, const npu::DeviceProfile* device) {
    std::vector<std::string> out;
    for (const auto& e : entries())
        if (injectFault(source, e.def.name, device)) out.push_back(e.def.name);
    return out;
}

std::optional<InjectedFault> faultyDraft(const eval::Task& task, const npu::DeviceProfile& device, std::size_t pick) {
    const auto draft = composeDraft(task, device, {});
    if (!draft.ok) return std::nullopt;
    const auto names = applicableFaults(draft.source, &device);
    if (names.empty()) return std::nullopt;
    return injectFault(draft.source, names[pick % names.size()], &device);
}

} // namespace sage::agent
