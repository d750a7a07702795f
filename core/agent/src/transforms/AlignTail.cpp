// align_tail: count-form DataCopy moves whole 32-byte blocks only, so a tile or tail whose length is
// not a multiple of 32 bytes loses its last elements. Every count-form DataCopy whose count is not a
// compile-time multiple of 32 bytes is rewritten: on devices with DataCopyPad (910B) into a
// DataCopyPad with the exact byte count; on devices without it (310P) into an aligned main part
// copied by DataCopy plus the few tail elements moved by scalar GetValue/SetValue between full
// barriers (slow, but only on the last tile). Refused when no such copy exists or the element type
// of the local tensor cannot be told.
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

std::string indentOf(const std::string& l) { return l.substr(0, l.find_first_not_of(" \t")); }

// The declaration of `name` nearest above line `at`: a kernel reuses operand names such as dst and
// src in several helpers (a GM destination in one, a local one in the next), so the closest
// declaration is the one in scope.
struct Operand {
    bool found = false, global = false;
    std::string type;
};
Operand nearestDeclaration(const std::vector<std::string>& lines, size_t at, const std::string& name) {
    const std::regex decl("\\b(Local|Global)Tensor\\s*<\\s*(\\w+)\\s*>\\s*&?\\s*" + name + "\\b");
    for (size_t i = at + 1; i-- > 0;) {
        std::smatch m;
        if (lines[i].size() <= 1000 && std::regex_search(lines[i], m, decl)) return {true, m[1].str() == "Global", m[2].str()};
    }
    return {};
}

// An aligned main part by DataCopy plus the tail elements by scalar moves between full barriers.
// `dst`/`src` are the copy's operands as written (e.g. "zGm[off]", "c").
std::string splitCopy(const std::string& dst, const std::string& src, bool toGm, const std::string& local,
                      const std::string& count, const std::string& unit, const std::string& indent) {
    const std::string gmOperand = toGm ? dst : src;
    const std::string gm = gmOperand.substr(0, gmOperand.find('['));
    std::string off = gmOperand.find('[') == std::string::npos
                          ? "0"
                          : gmOperand.substr(gmOperand.find('[') + 1, gmOperand.rfind(']') - gmOperand.find('[') - 1);
    // The GM side is written through a copy: a helper may hold it as a const reference.
    const std::string tail = toGm ? "sageGm.SetValue((" + off + ") + sageK, " + local + ".GetValue(sageK))"
                                  : local + ".SetValue(sageK, " + gm + ".GetValue((" + off + ") + sageK))";
    const std::string i1 = indent + "    ", i2 = indent + "        ";
    return "{  // sage: aligned main part by DataCopy, the tail by scalar moves\n" +
           (toGm ? i1 + "auto sageGm = " + gm + ";\n" : std::string()) +
           i1 + "uint32_t sageMain = (" + count + ") / " + unit + " * " + unit + ";\n" +
           i1 + "if (sageMain > 0) AscendC::DataCopy(" + dst + ", " + src + ", sageMain);\n" +
           i1 + "if (sageMain < (" + count + ")) {\n" +
           i2 + "AscendC::PipeBarrier<PIPE_ALL>();\n" +
           i2 + "for (uint32_t sageK = sageMain; sageK < (" + count + "); ++sageK) " + tail + ";\n" +
           i2 + "AscendC::PipeBarrier<PIPE_ALL>();\n" +
           i1 + "}\n" + indent + "}";
}

} // namespace

Result alignTail(const Input& in) {
    const bool pad = !in.device || in.device->dataCopyPad;
    static const std::regex copy(R"(\b(AscendC::)?DataCopy\s*\(\s*(\w+)(\s*\[[^\]]*\])?\s*,\s*(\w+)(\s*\[[^\]]*\])?\s*,\s*([^;]+)\)\s*;)");
    const auto names = kernel::constants(in.source).values;
    auto lines = kernel::splitLines(in.source);
    int changed = 0;
    for (size_t at = 0; at < lines.size(); ++at) {
        std::string& l = lines[at];
        std::smatch m;
        if (l.size() > 1000 || !std::regex_search(l, m, copy)) continue;
        const std::string count = m[6].str();
        if (count.find('{') != std::string::npos || count.find(',') != std::string::npos) continue;  // params form
        if (m.prefix().str().find("% 32 == 0") != std::string::npos) continue;  // already guarded by an alignment test
        const Operand dstDecl = nearestDeclaration(lines, at, m[2].str());
        const bool toGm = dstDecl.found ? dstDecl.global
                                        : m[2].str().find("Gm") != std::string::npos || m[2].str().find("gm") != std::string::npos;
        const std::string local = toGm ? m[4].str() : m[2].str();
        const Operand localDecl = toGm ? nearestDeclaration(lines, at, local) : dstDecl;
        const std::string type = localDecl.found && !localDecl.global ? localDecl.type : typeOf(in.source, local);
        if (type.empty()) continue;
        // A template's element type (T) has no size here; the rewritten copy then spells it sizeof(T).
        const auto bytes = kernel::evaluate("sizeof(" + type + ")", {});
        const std::string unit = bytes ? std::to_string(32 / *bytes) : "(32 / sizeof(" + type + "))";
        if (auto n = kernel::evaluate(count + " * sizeof(" + type + ")", names); n && *n % 32 == 0) continue;
        std::string call;
        if (pad) {
            const std::string params = "AscendC::DataCopyExtParams{1, (uint32_t)((" + count + ") * sizeof(" + type + ")), 0, 0, 0}";
            call = "AscendC::DataCopyPad(" + m[2].str() + m[3].str() + ", " + m[4].str() + m[5].str() + ", " + params;
            if (!toGm) call += ", AscendC::DataCopyPadExtParams<" + type + ">{false, 0, 0, " + type + "(0)}";
            call += "); /* sage: exact byte count */";  // a block comment: the line may go on (`{ ...; EnQue(t); }`)
        } else {
            call = splitCopy(m[2].str() + m[3].str(), m[4].str() + m[5].str(), toGm, local, count, unit, indentOf(l));
        }
        l = m.prefix().str() + call + m.suffix().str();
        ++changed;
    }
    if (!changed) return refuse("no count-form DataCopy with a count that may not be a 32-byte multiple");
    Result r;
    r.source = kernel::joinLines(lines, in.source);
    r.description = (pad ? "DataCopyPad for " : "aligned main part plus scalar tail for ") + std::to_string(changed) +
                    " unaligned DataCopy call(s)";
    return r;
}

// replace_datacopy_pad: the repair for "DataCopyPad is not supported on this device" (310P, 910):
// each DataCopyPad with one block of `bytes` (DataCopyExtParams{1, bytes, 0, 0, 0}, written inline
// or as a named variable) becomes the aligned main part plus scalar tail above. Refused for
// multi-block or strided DataCopyPad calls.
Result replaceDataCopyPad(const Input& in) {
    if (in.device && in.device->dataCopyPad) return refuse(in.device->id + " has DataCopyPad; nothing to replace");
    static const std::regex pad(
        R"(\b(?:AscendC::)?DataCopyPad\s*\(\s*(\w+(?:\s*\[[^\]]*\])?)\s*,\s*(\w+(?:\s*\[[^\]]*\])?)\s*,\s*((?:AscendC::)?DataCopyExtParams\s*\{[^}]*\}|\w+)\s*(?:,[^;]*)?\)\s*;)");
    static const std::regex inlineParams(R"(DataCopyExtParams\s*\{\s*1\s*,\s*([^,]+?)\s*,\s*0\s*,\s*0\s*,\s*0\s*\})");
    auto lines = kernel::splitLines(in.source);
    int changed = 0;
    for (auto& l : lines) {
        std::smatch m;
        if (l.size() > 1000 || !std::regex_search(l, m, pad)) continue;
        std::string params = m[3].str(), bytes;
        std::smatch p;
        if (std::regex_search(params, p, inlineParams)) bytes = p[1].str();
        else {
            std::regex named("DataCopyExtParams\\s+" + params + "\\s*\\{\\s*1\\s*,\\s*([^,]+?)\\s*,\\s*0\\s*,\\s*0\\s*,\\s*0\\s*\\}");
            if (std::regex_search(in.source, p, named)) bytes = p[1].str();
        }
        if (bytes.empty()) return refuse("line with " + m[0].str().substr(0, 60) + " is not a single-block DataCopyPad");
        const std::string dst = m[1].str(), src = m[2].str();
        const bool toGm = dst.find("Gm") != std::string::npos || dst.find("gm") != std::string::npos;
        const std::string local = (toGm ? src : dst).substr(0, (toGm ? src : dst).find('['));
        const std::string type = typeOf(in.source, local);
        const auto elem = kernel::evaluate("sizeof(" + type + ")", {});
        if (type.empty() || !elem) return refuse("cannot tell the element type of " + local);
        l = m.prefix().str() +
            splitCopy(dst, src, toGm, local, "(" + bytes + ") / sizeof(" + type + ")", std::to_string(32 / *elem), indentOf(l)) +
            m.suffix().str();
        ++changed;
    }
    if (!changed) return refuse("no DataCopyPad call");
    Result r;
    r.source = kernel::joinLines(lines, in.source);
    r.description = "DataCopyPad -> aligned DataCopy plus scalar tail in " + std::to_string(changed) + " call(s)";
    return r;
}

} // namespace sage::agent::transforms
