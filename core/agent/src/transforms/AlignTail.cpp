// align_tail: count-form DataCopy moves whole 32-byte blocks only, so a tile or tail whose length is
// not a multiple of 32 bytes loses its last elements. On devices with DataCopyPad (910B) every
// count-form DataCopy whose count is not a compile-time multiple of 32 bytes becomes a DataCopyPad
// with the exact byte count. Refused on devices without DataCopyPad (310P): the aligned main part
// plus a separate tail is not implemented.
#include "transforms/Transform.h"

#include "sage_npu/DeviceProfile.h"
#include "transforms/KernelFacts.h"

#include <regex>

namespace sage::agent::transforms {
namespace {

std::string typeOf(const std::string& source, const std::string& var) {
    std::string t = kernel::elementTypeOf(source, var);
    if (!t.empty()) return t;
    std::smatch m;  // `auto x = q.AllocTensor<T>()` / `q.DeQue<T>()`
    std::regex decl("\\b" + var + "\\s*=\\s*\\w+\\s*\\.\\s*(?:AllocTensor|DeQue|Get)\\s*<\\s*(\\w+)\\s*>");
    if (std::regex_search(source, m, decl)) return m[1].str();
    return "";
}

} // namespace

Result alignTail(const Input& in) {
    if (in.device && !in.device->dataCopyPad)
        return refuse(in.device->id + " has no DataCopyPad; an aligned main part plus tail is not implemented");
    static const std::regex copy(R"(\b(AscendC::)?DataCopy\s*\(\s*(\w+)(\s*\[[^\]]*\])?\s*,\s*(\w+)(\s*\[[^\]]*\])?\s*,\s*([^;]+)\)\s*;)");
    const auto names = kernel::constants(in.source).values;
    auto lines = kernel::splitLines(in.source);
    int changed = 0;
    for (auto& l : lines) {
        std::smatch m;
        if (l.size() > 1000 || !std::regex_search(l, m, copy)) continue;
        const std::string count = m[6].str();
        if (count.find('{') != std::string::npos || count.find(',') != std::string::npos) continue;  // params form
        const bool toGm = m[2].str().find("Gm") != std::string::npos || m[2].str().find("gm") != std::string::npos;
        const std::string local = toGm ? m[4].str() : m[2].str();
        const std::string type = typeOf(in.source, local);
        if (type.empty()) continue;
        if (auto n = kernel::evaluate(count + " * sizeof(" + type + ")", names); n && *n % 32 == 0) continue;
        const std::string params = "AscendC::DataCopyExtParams{1, (uint32_t)((" + count + ") * sizeof(" + type + ")), 0, 0, 0}";
        std::string call = "AscendC::DataCopyPad(" + m[2].str() + m[3].str() + ", " + m[4].str() + m[5].str() + ", " + params;
        if (!toGm) call += ", AscendC::DataCopyPadExtParams<" + type + ">{false, 0, 0, " + type + "(0)}";
        l = m.prefix().str() + call + ");  // sage: exact byte count" + m.suffix().str();
        ++changed;
    }
    if (!changed) return refuse("no count-form DataCopy with a count that may not be a 32-byte multiple");
    Result r;
    r.source = kernel::joinLines(lines, in.source);
    r.description = "DataCopyPad for " + std::to_string(changed) + " unaligned DataCopy call(s)";
    return r;
}

} // namespace sage::agent::transforms
