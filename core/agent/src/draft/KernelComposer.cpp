#include "sage_agent/KernelComposer.h"
#include "draft/BenchVariants.h"

#include "draft/Skeletons.h"
#include "sage_npu/DeviceProfile.h"

#include <cctype>
#include <set>

namespace sage::agent {
using nlohmann::json;

namespace draft {

std::string cxxType(const std::string& d) {
    if (d == "float16") return "half";
    if (d == "bfloat16") return "bfloat16_t";
    if (d == "float32") return "float";
    if (d == "int32") return "int32_t";
    if (d == "int8") return "int8_t";
    if (d == "uint8") return "uint8_t";
    if (d == "int64") return "int64_t";
    throw DraftError("dtype '" + d + "' has no kernel type");
}

size_t dtypeBytes(const std::string& d) {
    if (d == "int64") return 8;
    if (d == "float32" || d == "int32") return 4;
    if (d == "int8" || d == "uint8") return 1;
    return 2;
}

std::string computeType(const eval::Task& task, const std::vector<const eval::TensorDecl*>& tensors) {
    if (!task.compute.computeDtype.empty()) return cxxType(task.compute.computeDtype);
    std::string common;
    for (const auto* t : tensors) {
        if (t->dtype == "int32" || t->dtype == "int8" || t->dtype == "uint8") continue;
        if (t->dtype == "bfloat16") return "float";
        if (common.empty()) common = t->dtype;
        else if (common != t->dtype) return "float";
    }
    return common == "float16" ? "half" : "float";
}

const eval::TensorDecl* findTensor(const eval::Task& task, const std::string& name) {
    for (const auto* list : {&task.inputs, &task.outputs})
        for (const auto& d : *list)
            if (d.name == name) return &d;
    return nullptr;
}

std::string bf16BitsHelpers() {
    return "// bfloat16 as raw bits (the device has no bfloat16 type), for scalar reads and writes.\n"
           "__aicore__ inline float Bf16BitsToFloat(int16_t b) {\n    uint32_t u = uint32_t(uint16_t(b)) << 16;\n"
           "    float v;\n    std::memcpy(&v, &u, sizeof(v));\n    return v;\n}\n"
           "__aicore__ inline int16_t FloatToBf16Bits(float v) {\n    uint32_t u;\n    std::memcpy(&u, &v, sizeof(u));\n"
           "    return int16_t((u + 0x8000u) >> 16);\n}\n\n";
}

std::string hostExpression(const eval::Task& task, const std::string& v) {
    std::string out;
    for (size_t i = 0; i < v.size();) {
        if (std::isalpha(static_cast<unsigned char>(v[i])) || v[i] == '_') {
            size_t j = i;
            while (j < v.size() && (std::isalnum(static_cast<unsigned char>(v[j])) || v[j] == '_')) ++j;
            std::string id = v.substr(i, j - i);
            out += task.attrs.count(id) ? "ctx.attr(\"" + id + "\")" : "ctx.dim(\"" + id + "\")";
            i = j;
        } else {
            out += v[i++];
        }
    }
    return out;
}

std::vector<std::string> addAttrAndDimFields(Frame& f) {
    for (const auto& [a, v] : f.task.attrs) f.addField("draftAttr_" + a, "float", f.attrHostValue(a));
    std::set<std::string> dims;
    for (const auto* list : {&f.task.inputs, &f.task.outputs})
        for (const auto& d : *list)
            for (const auto& s : d.shape)
                for (size_t i = 0; i < s.size();) {
                    if (!std::isalpha(static_cast<unsigned char>(s[i])) && s[i] != '_') {
                        ++i;
                        continue;
                    }
                    size_t j = i;
                    while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
                    const std::string id = s.substr(i, j - i);
                    if (!f.task.attrs.count(id)) dims.insert(id);
                    i = j;
                }
    for (const auto& d : dims) f.addField("draftDim_" + d, "uint32_t", "ctx.dim(\"" + d + "\")");
    return {dims.begin(), dims.end()};
}

std::string shapeText(const std::vector<std::string>& shape) {
    std::string s = "[";
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + shape[i];
    return s + "]";
}

std::string Frame::kernelParams() const {
    std::string s;
    for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + std::string("GM_ADDR gm_") + args[i];
    return s;
}

std::string Frame::launch(const std::string& blockDim) const {
    std::string s = "    ICPU_RUN_KF(" + entry + ", " + blockDim;
    for (const auto& a : args) {
        auto it = argValue.find(a);
        s += ", " + (it != argValue.end() ? it->second : "ctx.gm(" + hostTensor(a) + ")");
    }
    return s + ");\n";
}

void passWorkspace(Frame& f) {
    f.args.insert(std::find(f.args.begin(), f.args.end(), "tiling"), "workspace");
    f.argValue["workspace"] = "ws";
}

std::string combineKernel(const Frame& f, const std::vector<std::string>& sums, const std::vector<CombineOutput>& outputs,
                          const std::vector<std::string>& body, const std::vector<bool>& isMax) {
    const std::string n = std::to_string(sums.size() * 8);
    std::string k = "\n// Second launch, one core: adds up the cores' partials and writes the outputs.\n"
                    "extern \"C\" __global__ __aicore__ void " + f.entry + "_combine(GM_ADDR gm_workspace, ";
    for (const auto& o : outputs) k += "GM_ADDR gm_" + o.name + ", ";
    k += "GM_ADDR gm_tiling) {\n    GET_TILING_DATA_WITH_STRUCT(" + f.tilingStruct + ", t, gm_tiling);\n";
    k += "    GlobalTensor<float> wsGm_;\n    wsGm_.SetGlobalBuffer((__gm__ float*)gm_workspace, (uint64_t)BLOCK_DIM * " + n + ");\n";
    for (const auto& o : outputs)
        k += "    GlobalTensor<" + o.type + "> " + o.name + "Gm_;\n    " + o.name + "Gm_.SetGlobalBuffer((__gm__ " + o.type +
             "*)gm_" + o.name + ", 1);\n";
    k += "    TPipe pipe_;\n    TQue<TPosition::VECIN, 1> inQ_;\n    pipe_.InitBuffer(inQ_, 1, BLOCK_DIM * " + n + " * sizeof(float));\n"
         "    LocalTensor<float> p = inQ_.AllocTensor<float>();\n    DataCopy(p, wsGm_, BLOCK_DIM * " + n + ");\n"
         "    inQ_.EnQue(p);\n    p = inQ_.DeQue<float>();\n";
    for (size_t i = 0; i < sums.size(); ++i) {
        const std::string part = "p.GetValue(b * " + n + " + " + std::to_string(i * 8) + ")";
        if (i < isMax.size() && isMax[i])
            k += "    float " + sums[i] + " = -INFINITY;\n    for (uint32_t b = 0; b < BLOCK_DIM; ++b) " + sums[i] + " = std::fmax(" + sums[i] +
                 ", " + part + ");\n";
        else k += "    float " + sums[i] + " = 0.0f;\n    for (uint32_t b = 0; b < BLOCK_DIM; ++b) " + sums[i] + " += " + part + ";\n";
    }
    for (const auto& line : body) k += "    " + line + "\n";
    return k + "    inQ_.FreeTensor(p);\n}\n";
}

std::string storePartials(const std::vector<std::string>& sums) {
    const std::string n = std::to_string(sums.size() * 8);
    std::string k = "        // This core's partial sums, 32 bytes each, into the workspace.\n"
                    "        LocalTensor<float> part = partQ_.AllocTensor<float>();\n";
    for (size_t i = 0; i < sums.size(); ++i) k += "        Duplicate(part[" + std::to_string(i * 8) + "], " + sums[i] + ", 8);\n";
    return k + "        partQ_.EnQue(part);\n        part = partQ_.DeQue<float>();\n"
               "        DataCopy(wsGm_[(uint64_t)GetBlockIdx() * " + n + "], part, " + n + ");\n        partQ_.FreeTensor(part);\n";
}

std::string combineLaunch(const Frame& f, size_t sums, const std::vector<CombineOutput>& outputs) {
    std::string h = "    GM_ADDR ws = ctx.workspace((uint64_t)BLOCK_DIM * " + std::to_string(sums * 32) + ");\n";
    h += f.launch("BLOCK_DIM");
    h += "    ICPU_RUN_KF(" + f.entry + "_combine, 1, ws, ";
    for (const auto& o : outputs) h += "ctx.gm(" + f.hostTensor(o.name) + "), ";
    return h + "ctx.tiling(t));\n";
}

std::string Frame::tilingDecl() const {
    std::string s = "struct " + tilingStruct + " {\n";
    for (const auto& fl : fields) s += "    " + fl.type + " " + fl.name + ";\n";
    return s + "};\n";
}

std::string Frame::hostFill(const std::string& var) const {
    std::string s = "    " + tilingStruct + " " + var + "{};\n";
    for (const auto& fl : fields) s += "    " + var + "." + fl.name + " = (" + fl.type + ")(" + fl.hostValue + ");\n";
    return s;
}

std::string perMember(const std::string& countDim, const std::string& var, const std::string& body) {
    std::string indented;
    size_t at = 0;
    while (at < body.size()) {
        const size_t end = body.find('\n', at);
        const std::string line = body.substr(at, end == std::string::npos ? std::string::npos : end - at + 1);
        indented += (line == "\n" ? "" : "    ") + line;
        at = end == std::string::npos ? body.size() : end + 1;
    }
    return "    // Tensor lists: one launch per member, member i of every list (<name>_i).\n"
           "    const int64_t members = ctx.dim(\"" + countDim + "\");\n"
           "    for (int64_t i = 0; i < members; ++i) {\n"
           "        const std::string " + var + " = \"_\" + std::to_string(i);\n" + indented + "    }\n";
}

namespace {

std::string structName(const std::string& task) {
    std::string s;
    bool up = true;
    for (char c : task) {
        if (c == '_') {
            up = true;
            continue;
        }
        s += up ? char(std::toupper(static_cast<unsigned char>(c))) : c;
        up = false;
    }
    return s + "DraftTiling";
}

} // namespace
} // namespace draft

DraftResult composeDraft(const eval::Task& task, const npu::DeviceProfile& device,
                         const std::vector<memory::ScoredExperience>& retrieved) {
    if (task.bench && task.compute.present)  // a CANN Bench operator: a variant per case variant
        return draft::composeBenchDraft(task, [&](const eval::Task& variant) {
            return composeDraft(variant, device, retrieved);
        });
    DraftResult r;
    const std::string file = task.bench ? task.dir : task.dir.empty() ? task.name + "/task.json" : task.dir + "/task.json";
    try {
        if (!task.compute.present && task.bench)  // a CANN Bench operator: what it needs, not a task.json field
            throw draft::DraftError("the built-in draft cannot write " + task.name + " yet: " + task.computeGap +
                                    " (docs/cann-bench.md); start from your own kernel with --kernel");
        if (!task.compute.present)
            throw draft::DraftError("field 'compute': missing; the built-in draft composes the kernel from the task's "
                                    "compute spec (docs/tasks.md, \"How to add a task\")");
        draft::DraftKnowledge knowledge(device, retrieved);
        const draft::HostLets hoisted = draft::hoistHostLets(task);
        draft::Frame f{hoisted.task, device, knowledge, {}, {}, {}, {}, {}, {}, hoisted.hostValue, {}};
        if (!task.listMembers.empty()) {
            if ((task.compute.kind != "elementwise" && task.compute.kind != "reduce_all") || !task.compute.split.empty())
                throw draft::DraftError("field 'view': tensor lists are drafted for elementwise and reduce_all specs, one launch per member");
            f.member = "member";
        }
        if (task.launch.present) {
            f.entry = task.launch.entry;
            f.args = task.launch.args;
            f.tilingStruct = task.tilingStruct.empty() ? draft::structName(task.name) : task.tilingStruct;
            for (size_t i = 0; i < task.launch.tiling.size(); ++i)
                f.addField(task.launch.tilingNames[i], task.launch.tiling[i].first,
                           draft::hostExpression(task, task.launch.tiling[i].second));
        } else {
            f.entry = task.name + "_kernel";
            for (const auto& d : task.inputs) f.args.push_back(d.name);
            for (const auto& d : task.outputs) f.args.push_back(d.name);
            f.args.push_back("tiling");
            f.tilingStruct = draft::structName(task.name);
        }
        f.argValue["tiling"] = "ctx.tiling(t)";
        f.argValue["workspace"] = "ctx.workspace(32)";
        if (std::find(f.args.begin(), f.args.end(), "tiling") == f.args.end())
            throw draft::DraftError("field 'launch.args': the draft passes its tiling struct, so the launch needs a \"tiling\" argument");
        const std::string& kind = task.compute.kind;
        draft::SkeletonCode code;
        if (kind == "elementwise") code = task.compute.split.empty() ? draft::composeElementwise(f) : draft::composeSplit(f);
        else if (kind == "rowwise") code = draft::composeRowwise(f);
        else if (kind == "reduce_all") code = draft::composeReduceAll(f);
        else if (kind == "axis") code = draft::composeAxis(f);
        else if (kind == "window") code = draft::composeWindow(f);
        else code = draft::composeMatmul(f);

        std::string s = "// Drafted by sage's kernel composer from the compute spec of task '" + task.name + "'\n" +
                        "// (skeleton " + kind + ", device " + device.id + "). Correct first: one core, simple tiles.\n" +
                        "#include \"kernel_operator.h\"\n#include <cmath>\n#include <cstring>\n" +
                        (f.member.empty() ? "" : "#include <string>  // the host names each tensor-list member\n") + "using namespace AscendC;\n\n";
        s += f.tilingDecl() + "\n" + code.kernel + "\nSAGE_HOST(ctx) {\n" +
             (f.member.empty() ? f.hostFill() + code.host : draft::perMember(task.listMembers, f.member, f.hostFill() + code.host)) + "}\n";
        r.ok = true;
        r.source = s;
        r.adoptedIds = knowledge.adoptedIds();
        r.move = "draft: " + kind + " skeleton from the compute spec";
        r.rationale = "Composed from the task's compute spec with the " + kind + " skeleton for " + device.id + ".";
        for (const auto& n : f.notes) r.rationale += " " + n;
        if (!r.adoptedIds.empty())
            r.rationale += " Used " + std::to_string(r.adoptedIds.size()) + " draft entr" +
                           (r.adoptedIds.size() == 1 ? "y" : "ies") + " from memory.";
        r.action = {{"type", "draft"}, {"skeleton", kind}, {"device", device.id}, {"knowledge", knowledge.used()}};
    } catch (const std::exception& e) {
        r = DraftResult{};
        r.error = file + ": " + e.what();
    }
    return r;
}

} // namespace sage::agent
