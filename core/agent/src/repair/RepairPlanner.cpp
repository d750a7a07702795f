#include "repair/RepairPlanner.h"

#include <algorithm>

namespace sage::agent::repair {
using nlohmann::json;
using Kind = toolchain::DiagnosticKind;

std::vector<Kind> failureKinds(const eval::Evaluation* ev) {
    std::vector<Kind> out;
    if (!ev) return out;
    for (const auto& d : ev->compile.diagnostics)
        if (d.severity == toolchain::Severity::Error) {
            out.push_back(Kind::CompileError);
            break;
        }
    bool failed = !out.empty();
    for (const auto& d : ev->run.diagnostics)
        if (d.severity == toolchain::Severity::Error) out.push_back(d.kind), failed = true;
    // An uninitialised TBuf only warns (a path may never touch it); when the run then failed, the
    // warning names the cause the error at the first use does not.
    if (failed)
        for (const auto& d : ev->run.diagnostics)
            if (d.kind == Kind::TbufNotInitialised) out.push_back(d.kind);
    if (out.empty() && ev->compile.ok && ev->run.status == toolchain::RunStatus::Ok && !ev->verify.pass)
        out.push_back(Kind::WrongResult);
    return out;
}

std::vector<json> actionsFor(const Kind& kind) {
    auto transform = [](const char* name, const char* direction = nullptr) {
        json a = {{"type", "transform"}, {"name", name}};
        if (direction) a["direction"] = direction;
        return a;
    };
    switch (kind.code()) {
    case Kind::RaceRaw:
    case Kind::RaceWar:
    case Kind::RaceWaw: return {transform("sync_pair")};
    case Kind::Deadlock: return {transform("set_before_wait")};
    case Kind::FlagUnpaired: return {transform("wait_after_set")};
    case Kind::CompileError:
        return {transform("rename_identifier"), transform("template_argument"), transform("replace_datacopy_pad")};
    case Kind::CapacityExceeded:
        return {{{"type", "step_tunable"}, {"name", "@tile"}, {"direction", "down"}},
                {{"type", "step_tunable"}, {"name", "@tile_count"}, {"direction", "up"}},
                transform("double_buffer", "down")};
    case Kind::AllocNoFreeBuffer:
    case Kind::TooManyAllocs: return {transform("free_tensor"), transform("double_buffer")};
    case Kind::EnqueBeyondDepth: return {transform("double_buffer", "down")};
    case Kind::DequeEmpty: return {transform("enque_tensor")};
    case Kind::QueueNotInitialised:
    case Kind::TbufNotInitialised: return {transform("init_buffer")};
    case Kind::GmOutOfBounds: return {transform("gm_offset_consensus"), transform("align_tail")};
    case Kind::DatacopyNot32bMultiple:
    case Kind::WrongResult: return {transform("align_tail")};
    default: return {};  // no automatic repair (docs/builtin-policy.md)
    }
}

const toolchain::Diagnostic* firstRunDiagnostic(const eval::Evaluation* ev, std::initializer_list<Kind::Code> kinds) {
    if (!ev) return nullptr;
    for (const auto& d : ev->run.diagnostics)
        if (d.line > 0 && std::find(kinds.begin(), kinds.end(), d.kind.code()) != kinds.end()) return &d;
    return nullptr;
}

} // namespace sage::agent::repair
