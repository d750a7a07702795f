// Repairs for queue misuse, each reading the first matching diagnostic of the parent's evaluation
// (its line names the queue):
// - free_tensor: a queue runs out of buffers because its tensor is never freed
//   (alloc_no_free_buffer, too_many_allocs): FreeTensor after the consumer's last use, or, for a
//   tensor kept in a class member, beside the class's other FreeTensor calls;
// - enque_tensor: a DeQue finds nothing (deque_empty) because the producer never EnQue'd:
//   EnQue just before the DeQue when it follows the allocation in the same function, else after
//   the producer's last use of the tensor it allocated;
// - init_buffer: a queue or TBuf used without InitBuffer (queue_not_initialised,
//   tbuf_not_initialised): the same InitBuffer a sibling of the same kind and position has.
#include "repair/RepairPlanner.h"
#include "repair/SourceScope.h"
#include "transforms/KernelFacts.h"
#include "transforms/Transform.h"

#include <regex>

namespace sage::agent::transforms {
namespace {

using repair::enclosingFunction;
using repair::indentOf;
using repair::lastMention;

using Kind = toolchain::DiagnosticKind;
using repair::firstRunDiagnostic;

// The queue (or TBuf) whose `method` is called on `line`: `inQ_x.AllocTensor<half>()` -> inQ_x.
std::string objectCalling(const std::string& line, const std::string& methods) {
    std::smatch m;
    if (std::regex_search(line, m, std::regex(R"((\w+)\s*\.\s*(?:)" + methods + R"()\s*[<(])"))) return m[1].str();
    return {};
}

// The first line `V = Q.method...` (a LocalTensor taken from queue Q): its index and V.
std::optional<std::pair<size_t, std::string>> tensorFrom(const std::vector<std::string>& lines, const std::string& queue,
                                                         const std::string& method) {
    const std::regex take(R"((\w+)\s*=\s*)" + queue + R"(\s*\.\s*)" + method + R"(\s*[<(])");
    for (size_t i = 0; i < lines.size(); ++i) {
        std::smatch m;
        if (std::regex_search(lines[i], m, take)) return std::make_pair(i, m[1].str());
    }
    return std::nullopt;
}

// Inserts `statement` after the last use of `var` in the function around `anchor`.
Result insertAfterLastUse(const std::string& source, size_t anchor, const std::string& var, const std::string& statement,
                          const std::string& description) {
    auto lines = kernel::splitLines(source);
    auto fn = enclosingFunction(lines, anchor);
    if (!fn) return refuse("cannot tell the function around line " + std::to_string(anchor + 1));
    auto last = lastMention(lines, anchor, fn->second - 1, var);
    if (!last) return refuse("'" + var + "' is not used after line " + std::to_string(anchor + 1));
    lines.insert(lines.begin() + std::ptrdiff_t(*last + 1), indentOf(lines[*last]) + statement);
    Result r;
    r.source = kernel::joinLines(lines, source);
    r.description = description + " after line " + std::to_string(*last + 1);
    return r;
}

// A tensor kept in a class member (taken in one method, used in others) is freed where the
// class frees its other members' tensors: a FreeTensor line at the top of the method that holds
// the sibling FreeTensor calls (a Release()) and does not itself call the method that takes the
// tensor. Nothing when the tensor is a local or has no such sibling.
std::optional<Result> freeBesideSiblings(const std::vector<std::string>& lines, const std::string& source,
                                         const std::string& queue, const std::string& var, size_t takenAt,
                                         const std::string& kind) {
    if (var.empty() || var.back() != '_') return std::nullopt;  // members end in '_' in the composer's style and ours
    // The method that takes the tensor (a Load()): a method calling it frees other lifetimes.
    auto taker = enclosingFunction(lines, takenAt);
    std::smatch name;
    if (!taker || !std::regex_search(lines[taker->first], name, std::regex(R"((\w+)\s*\()"))) return std::nullopt;
    const std::regex callsTaker("\\b" + name[1].str() + "\\s*\\(");
    const std::regex sibling(R"((\w+)\s*\.\s*FreeTensor\s*\(\s*(\w+_)\s*\))");
    for (size_t i = 0; i < lines.size(); ++i) {
        std::smatch m;
        if (!std::regex_search(lines[i], m, sibling) || m[1].str() == queue) continue;
        auto fn = enclosingFunction(lines, i);
        if (!fn || *fn == *taker) continue;
        bool caller = false;
        for (size_t j = fn->first + 1; j < fn->second && !caller; ++j) caller = std::regex_search(lines[j], callsTaker);
        if (caller) continue;
        auto out = lines;
        const size_t at = fn->first + 1;  // the first statement of the method
        out.insert(out.begin() + std::ptrdiff_t(at), indentOf(lines[at]) + queue + ".FreeTensor(" + var + ");");
        Result r;
        r.source = kernel::joinLines(out, source);
        r.description = kind + ": " + queue + ".FreeTensor(" + var + ") beside the other members' FreeTensor on line " +
                        std::to_string(i + 1);
        return r;
    }
    return std::nullopt;
}

} // namespace

Result freeTensor(const Input& in) {
    const auto* d = firstRunDiagnostic(in.parent, {Kind::AllocNoFreeBuffer, Kind::TooManyAllocs});
    if (!d) return refuse("no alloc_no_free_buffer or too_many_allocs diagnostic with a line");
    const auto lines = kernel::splitLines(in.source);
    if (size_t(d->line) > lines.size()) return refuse("the diagnostic line is outside the kernel");
    const std::string queue = objectCalling(lines[size_t(d->line - 1)], "AllocTensor");
    if (queue.empty()) return refuse("line " + std::to_string(d->line) + " has no AllocTensor call");
    if (in.source.find(queue + ".FreeTensor(") != std::string::npos)
        return refuse(queue + " already frees its tensors: it needs more buffers, not a FreeTensor");
    // The consumer frees: where the tensor is DeQue'd, else where it was allocated (no EnQue).
    auto taken = tensorFrom(lines, queue, "DeQue");
    if (!taken) taken = tensorFrom(lines, queue, "AllocTensor");
    if (!taken) return refuse("no `T t = " + queue + ".DeQue/AllocTensor()` line to free after");
    if (auto r = freeBesideSiblings(lines, in.source, queue, taken->second, taken->first, std::string(d->kind.name()))) return *r;
    return insertAfterLastUse(in.source, taken->first, taken->second, queue + ".FreeTensor(" + taken->second + ");",
                              std::string(d->kind.name()) + ": " + queue + ".FreeTensor(" + taken->second + ")");
}

Result enqueTensor(const Input& in) {
    const auto* d = firstRunDiagnostic(in.parent, {Kind::DequeEmpty});
    if (!d) return refuse("no deque_empty diagnostic with a line");
    const auto lines = kernel::splitLines(in.source);
    if (size_t(d->line) > lines.size()) return refuse("the diagnostic line is outside the kernel");
    const std::string queue = objectCalling(lines[size_t(d->line - 1)], "DeQue");
    if (queue.empty()) return refuse("line " + std::to_string(d->line) + " has no DeQue call");
    auto made = tensorFrom(lines, queue, "AllocTensor");
    if (!made) return refuse("no `T t = " + queue + ".AllocTensor()` line: nothing to EnQue");
    auto fn = enclosingFunction(lines, made->first);
    if (fn)
        for (size_t i = made->first; i <= fn->second; ++i)
            if (lines[i].find(queue + ".EnQue(") != std::string::npos)
                return refuse(queue + " is already EnQue'd on line " + std::to_string(i + 1) + ": the DeQue runs more often than it");
    const size_t deque = size_t(d->line - 1);
    if (fn && deque > made->first && deque <= fn->second) {
        // The DeQue follows in the same function: the tensor is complete there, whoever wrote it
        // (the producer may write through a view of it in another function).
        auto out = lines;
        out.insert(out.begin() + std::ptrdiff_t(deque), indentOf(lines[deque]) + queue + ".EnQue(" + made->second + ");");
        Result r;
        r.source = kernel::joinLines(out, in.source);
        r.description = "deque_empty: " + queue + ".EnQue(" + made->second + ") before line " + std::to_string(deque + 1);
        return r;
    }
    return insertAfterLastUse(in.source, made->first, made->second, queue + ".EnQue(" + made->second + ");",
                              "deque_empty: " + queue + ".EnQue(" + made->second + ")");
}

Result initBuffer(const Input& in) {
    const auto* d = firstRunDiagnostic(in.parent, {Kind::QueueNotInitialised});
    if (!d && in.parent)  // tbuf_not_initialised is a warning: the failure shows at the first use
        for (const auto& x : in.parent->run.diagnostics)
            if (x.kind == Kind::TbufNotInitialised && x.line > 0) d = &x;
    if (!d) return refuse("no queue_not_initialised or tbuf_not_initialised diagnostic with a line");
    auto lines = kernel::splitLines(in.source);
    if (size_t(d->line) > lines.size()) return refuse("the diagnostic line is outside the kernel");
    const std::string object = objectCalling(lines[size_t(d->line - 1)], "AllocTensor|Get");
    if (object.empty()) return refuse("line " + std::to_string(d->line) + " has no AllocTensor or Get call");
    // The declared type of the object, e.g. `TQue<TPosition::VECIN, 1>`: a sibling must share it.
    const std::string type = kernel::queueTypeOf(in.source, object);
    if (type.empty()) return refuse("no declaration of '" + object + "' as a TQue or TBuf");
    const std::regex init(R"((\w+)\s*\.\s*InitBuffer\s*\(\s*(\w+)\s*,)");
    std::optional<size_t> sibling, lastInit;
    for (size_t i = 0; i < lines.size(); ++i) {
        std::smatch c;
        if (!std::regex_search(lines[i], c, init)) continue;
        if (c[2].str() == object) return refuse(object + " has an InitBuffer on line " + std::to_string(i + 1) + ": it runs too late or not at all");
        lastInit = i;
        if (!sibling && kernel::queueTypeOf(in.source, c[2].str()) == type) sibling = i;
    }
    if (!sibling) return refuse("no other " + type + " has an InitBuffer to copy");
    const std::string from = lines[*sibling];
    std::smatch c;
    std::regex_search(from, c, init);
    const std::string added = c.prefix().str() + c[1].str() + ".InitBuffer(" + object + "," + c.suffix().str();
    lines.insert(lines.begin() + std::ptrdiff_t(*lastInit + 1), added);
    Result r;
    r.source = kernel::joinLines(lines, in.source);
    r.description = std::string(d->kind.name()) + ": InitBuffer for " + object + " sized like " + c[2].str() + " (line " + std::to_string(*lastInit + 2) + ")";
    return r;
}

} // namespace sage::agent::transforms
