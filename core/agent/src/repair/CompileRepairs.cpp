// Repairs for compile errors that name what is wrong: an unknown identifier close to a known API
// name (the compiler's "did you mean" first, else the nearest documented name within two edits),
// and an AllocTensor/DeQue/Get call missing its element type, taken from the LocalTensor<T> the
// line declares.
#include "transforms/KernelFacts.h"
#include "transforms/Transform.h"

#include <algorithm>
#include <regex>

namespace sage::agent::transforms {
namespace {

size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t prev = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            size_t cur = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] == b[j - 1] ? 0 : 1)});
            prev = cur;
        }
    }
    return row[b.size()];
}

const std::vector<std::string>& apiNames() {
    static const std::vector<std::string> names = {
        "DataCopy", "DataCopyPad", "DataCopyExtParams", "DataCopyPadExtParams", "DataCopyParams", "Add", "Sub", "Mul", "Div",
        "Max", "Min", "Adds", "Muls", "Maxs", "Mins", "Exp", "Ln", "Abs", "Sqrt", "Rsqrt", "Reciprocal", "Relu", "LeakyRelu",
        "Duplicate", "Cast", "Compare", "Select", "ReduceSum", "ReduceMax", "ReduceMin", "WholeReduceSum", "WholeReduceMax",
        "SetFlag", "WaitFlag", "PipeBarrier", "TPipe", "TQue", "TBuf", "GetBlockIdx", "GetBlockNum", "InitBuffer",
        "AllocTensor", "FreeTensor", "EnQue", "DeQue", "LocalTensor", "GlobalTensor", "SetGlobalBuffer", "GetValue",
        "SetValue", "HardEvent", "TPosition", "QuePosition", "RoundMode", "Axpy", "Mmad", "LoadData", "Fixpipe"};
    return names;
}

const toolchain::Diagnostic* firstCompileError(const eval::Evaluation* ev) {
    if (!ev) return nullptr;
    for (const auto& d : ev->compile.diagnostics)
        if (d.severity == toolchain::Severity::Error && d.line > 0) return &d;
    return nullptr;
}

} // namespace

Result renameIdentifier(const Input& in) {
    const auto* d = firstCompileError(in.parent);
    if (!d) return refuse("no compile error with a line");
    // clang ('x') and GCC (‘x’) spellings.
    static const std::string q = "(?:'|\xE2\x80\x98|\xE2\x80\x99)";
    static const std::regex unknown("(?:undeclared identifier|no member named|no template named|unknown type name) " + q +
                                    "(\\w+)" + q + "|" + q + "(\\w+)" + q + " (?:was not declared|is not a member|has not been declared)");
    static const std::regex hint("did you mean " + q + "(?:\\w+::)*(\\w+)" + q);
    std::smatch m;
    if (!std::regex_search(d->message, m, unknown)) return refuse("the compile error names no unknown identifier: " + d->message);
    const std::string bad = m[1].matched ? m[1].str() : m[2].str();
    std::string good;
    std::smatch h;
    if (std::regex_search(d->message, h, hint)) good = h[1].str();
    for (const auto& n : d->notes)
        if (good.empty() && std::regex_search(n.message, h, hint)) good = h[1].str();
    if (good.empty()) {
        size_t best = 3;
        for (const auto& name : apiNames()) {
            size_t e = editDistance(bad, name);
            if (e < best && e <= std::max<size_t>(1, bad.size() / 3)) best = e, good = name;
        }
    }
    if (good.empty() || good == bad) return refuse("no known API name is close to '" + bad + "'");
    auto lines = kernel::splitLines(in.source);
    if (size_t(d->line) > lines.size()) return refuse("the error line is outside the kernel");
    std::string& l = lines[size_t(d->line - 1)];
    std::string out = std::regex_replace(l, std::regex("\\b" + bad + "\\b"), good);
    if (out == l) return refuse("'" + bad + "' is not on line " + std::to_string(d->line));
    l = out;
    Result r;
    r.source = kernel::joinLines(lines, in.source);
    r.description = "compile_error: '" + bad + "' -> '" + good + "' at line " + std::to_string(d->line);
    return r;
}

Result templateArgument(const Input& in) {
    const auto* d = firstCompileError(in.parent);
    if (!d) return refuse("no compile error with a line");
    auto lines = kernel::splitLines(in.source);
    if (size_t(d->line) > lines.size()) return refuse("the error line is outside the kernel");
    std::string& l = lines[size_t(d->line - 1)];
    static const std::regex call(R"(\.\s*(AllocTensor|DeQue|Get)\s*\()");
    static const std::regex declared(R"(LocalTensor\s*<\s*(\w+)\s*>)");
    std::smatch c, t;
    if (!std::regex_search(l, c, call)) return refuse("line " + std::to_string(d->line) + " has no AllocTensor/DeQue/Get call without a type");
    std::string type;
    if (std::regex_search(l, t, declared)) {
        type = t[1].str();
    } else {  // `member_ = q.DeQue();`: the type the member was declared with
        static const std::regex assigned(R"((\w+)\s*=\s*\w+\s*\.\s*(?:AllocTensor|DeQue|Get)\s*\()");
        if (std::regex_search(l, t, assigned)) type = kernel::elementTypeOf(in.source, t[1].str());
    }
    if (type.empty()) return refuse("line " + std::to_string(d->line) + " does not declare the LocalTensor<T> it fills");
    // The match points into `l`: take the call's name before `l` is rewritten (and reallocated).
    const std::string callName = c[1].str();
    l = c.prefix().str() + "." + callName + "<" + type + ">(" + c.suffix().str();
    Result r;
    r.source = kernel::joinLines(lines, in.source);
    r.description = "compile_error: " + callName + "<" + type + "> at line " + std::to_string(d->line);
    return r;
}

} // namespace sage::agent::transforms
