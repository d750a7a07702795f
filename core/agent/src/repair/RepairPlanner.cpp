#include "repair/RepairPlanner.h"

namespace sage::agent::repair {
using nlohmann::json;

std::vector<std::string> failureKinds(const eval::Evaluation* ev) {
    std::vector<std::string> out;
    if (!ev) return out;
    for (const auto& d : ev->compile.diagnostics)
        if (d.severity == "error") {
            out.push_back("compile_error");
            break;
        }
    bool failed = !out.empty();
    for (const auto& d : ev->run.diagnostics)
        if (d.severity == "error") out.push_back(d.kind), failed = true;
    // An uninitialised TBuf only warns (a path may never touch it); when the run then failed, the
    // warning names the cause the error at the first use does not.
    if (failed)
        for (const auto& d : ev->run.diagnostics)
            if (d.kind == "tbuf_not_initialised") out.push_back(d.kind);
    if (out.empty() && ev->compile.ok && ev->run.status == toolchain::RunStatus::Ok && !ev->verify.pass) out.push_back("wrong_result");
    return out;
}

std::vector<json> actionsFor(const std::string& kind) {
    auto transform = [](const char* name, const char* direction = nullptr) {
        json a = {{"type", "transform"}, {"name", name}};
        if (direction) a["direction"] = direction;
        return a;
    };
    if (kind.rfind("race_", 0) == 0) return {transform("sync_pair")};
    if (kind == "deadlock") return {transform("set_before_wait")};
    if (kind == "flag_unpaired") return {transform("wait_after_set")};
    if (kind == "compile_error")
        return {transform("rename_identifier"), transform("template_argument"), transform("replace_datacopy_pad")};
    if (kind == "capacity_exceeded")
        return {{{"type", "step_tunable"}, {"name", "@tile"}, {"direction", "down"}},
                {{"type", "step_tunable"}, {"name", "@tile_count"}, {"direction", "up"}},
                transform("double_buffer", "down")};
    if (kind == "alloc_no_free_buffer" || kind == "too_many_allocs") return {transform("free_tensor"), transform("double_buffer")};
    if (kind == "enque_beyond_depth") return {transform("double_buffer", "down")};
    if (kind == "deque_empty") return {transform("enque_tensor")};
    if (kind == "queue_not_initialised" || kind == "tbuf_not_initialised") return {transform("init_buffer")};
    if (kind == "gm_out_of_bounds") return {transform("gm_offset_consensus"), transform("align_tail")};
    if (kind == "datacopy_not_32b_multiple" || kind == "wrong_result") return {transform("align_tail")};
    return {};
}

} // namespace sage::agent::repair
