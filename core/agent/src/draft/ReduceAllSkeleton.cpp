// Skeleton "reduce_all": every input has one shape, each output one element. Tiles as in the
// elementwise skeleton; each sum()/mean() argument is computed per tile, reduced with ReduceSum
// (count form) and accumulated in a float by the scalar unit (amax(): ReduceMax and the larger). Tail: DataCopyPad where the device
// has it, else whole 32-byte units plus a scalar loop over the last few elements (an overlapping
// window would count them twice). The elements are dealt to BLOCK_DIM cores in contiguous blocks;
// each core leaves its partial sums in a workspace and a second one-core launch adds them up and
// writes the outputs. A task with a fixed launch has no workspace: its draft stays on one core and
// writes the outputs at the end of the one launch.
#include "draft/Skeletons.h"
#include "sage_npu/DeviceProfile.h"

#include <algorithm>
#include <functional>
#include <map>

namespace sage::agent::draft {
namespace {


// What composeReduceAll has worked out, for the functions that write the kernel text.
struct ReduceAllParts {
    Frame& f;
    std::vector<const eval::TensorDecl*> all;  // inputs, then outputs
    std::vector<std::string> lines, buffers;    // per tile (vector)
    std::vector<std::string> tailLines;         // the last elements (scalar), without DataCopyPad
    std::vector<std::string> finalLines;        // the outputs from the sums
    std::vector<std::string> sums;              // acc0_, acc1_, ...
    std::vector<bool> isMax;                    // per accumulator: amax (else a sum)
    std::string ct, slots;
    size_t tile = 0;
    int align = 8, accs = 0;
    bool pad = false, split = false;
};

// The constants, Init and Process: each core's block of tiles, the tail, the partials or outputs.
std::string classHead(const ReduceAllParts& p) {
    const std::string& slots = p.slots;
    std::string k = "constexpr uint32_t BLOCK_DIM = 1;   // cores the elements are dealt to\n"
                    "constexpr uint32_t TILE_LENGTH = " + std::to_string(p.tile) + ";\nconstexpr uint32_t ALIGN = " +
                    std::to_string(p.align) + ";\n\nclass DraftKernel {\npublic:\n    __aicore__ inline void Init(";
    for (const auto* d : p.all) k += "GM_ADDR gm_" + d->name + ", ";
    if (p.split) k += "GM_ADDR gm_workspace, ";
    k += "const " + p.f.tilingStruct + "& t) {\n        total_ = t.draftTotal;\n";
    for (const auto& [a, v] : p.f.task.attrs) k += "        attr_" + a + "_ = t.draftAttr_" + a + ";\n";
    for (const auto& d : p.f.task.inputs)
        k += "        " + d.name + "Gm_.SetGlobalBuffer((__gm__ " + cxxType(d.dtype) + "*)gm_" + d.name + ", total_);\n" +
             "        pipe_.InitBuffer(inQ_" + d.name + ", 1, TILE_LENGTH * sizeof(" + cxxType(d.dtype) + "));\n";
    for (const auto& d : p.f.task.outputs)
        k += "        " + d.name + "Gm_.SetGlobalBuffer((__gm__ " + cxxType(d.dtype) + "*)gm_" + d.name + ", 1);\n";
    for (const auto& b : p.buffers) k += "        pipe_.InitBuffer(" + b + ", TILE_LENGTH * sizeof(" + p.ct + "));\n";
    k += "        pipe_.InitBuffer(workBuf_, TILE_LENGTH * sizeof(" + p.ct + "));\n        pipe_.InitBuffer(redBuf_, 64);\n";
    if (p.split)
        k += "        wsGm_.SetGlobalBuffer((__gm__ float*)gm_workspace, (uint64_t)BLOCK_DIM * " + slots + ");\n"
             "        pipe_.InitBuffer(partQ_, 1, " + slots + " * sizeof(float));\n";
    k += "        red_ = redBuf_.Get<" + p.ct + ">();\n        work_ = workBuf_.Get<" + p.ct + ">();\n    }\n";
    k += "    __aicore__ inline void Process() {\n";
    k += p.pad ? "        const uint32_t mainLen = total_;\n" : "        const uint32_t mainLen = total_ / ALIGN * ALIGN;\n";
    k += "        // This core's contiguous block of whole ALIGN units.\n"
         "        const uint32_t per = ((mainLen + ALIGN - 1) / ALIGN + GetBlockNum() - 1) / GetBlockNum() * ALIGN;\n"
         "        const uint32_t b0 = GetBlockIdx() * per < mainLen ? GetBlockIdx() * per : mainLen;\n"
         "        const uint32_t b1 = b0 + per < mainLen ? b0 + per : mainLen;\n"
         "        for (uint32_t off = b0; off < b1; off += TILE_LENGTH) {\n"
         "            uint32_t n = b1 - off < TILE_LENGTH ? b1 - off : TILE_LENGTH;\n"
         "            CopyIn(off, n);\n            Compute(n);\n        }\n";
    if (!p.pad) {
        k += "        if (GetBlockIdx() + 1 == GetBlockNum())\n"
             "            for (uint32_t i = mainLen; i < total_; ++i) {  // the last elements, on the scalar unit\n";
        for (const auto& l : p.tailLines) k += "                " + l + "\n";
        k += "            }\n";
    }
    if (p.split) {
        k += storePartials(p.sums);
    } else {
        for (const auto& l : p.finalLines) k += "        " + l + "\n";
    }
    return k;
}

// CopyIn, Compute and the members.
std::string classBody(const ReduceAllParts& p) {
    std::string k = "    }\n\nprivate:\n    __aicore__ inline void CopyIn(uint32_t off, uint32_t n) {\n";
    for (const auto& d : p.f.task.inputs) {
        const std::string it = cxxType(d.dtype), n = d.name;
        k += "        LocalTensor<" + it + "> in_" + n + " = inQ_" + n + ".AllocTensor<" + it + ">();\n";
        if (p.pad)
            k += "        if (n % ALIGN == 0) DataCopy(in_" + n + ", " + n + "Gm_[off], n);\n        else DataCopyPad(in_" + n +
                 ", " + n + "Gm_[off], DataCopyExtParams{1, uint32_t(n * sizeof(" + it + ")), 0, 0, 0}, DataCopyPadExtParams<" +
                 it + ">{false, 0, 0, static_cast<" + it + ">(0.0f)});\n";
        else k += "        DataCopy(in_" + n + ", " + n + "Gm_[off], n);\n";
        k += "        inQ_" + n + ".EnQue(in_" + n + ");\n";
    }
    k += "    }\n    __aicore__ inline void Compute(uint32_t n) {\n";
    for (const auto& d : p.f.task.inputs)
        k += "        LocalTensor<" + cxxType(d.dtype) + "> in_" + d.name + " = inQ_" + d.name + ".DeQue<" + cxxType(d.dtype) + ">();\n";
    for (const auto& l : p.lines) k += "        " + l + "\n";
    for (const auto& d : p.f.task.inputs) k += "        inQ_" + d.name + ".FreeTensor(in_" + d.name + ");\n";
    k += "    }\n\n    TPipe pipe_;\n";
    for (const auto& d : p.f.task.inputs) k += "    TQue<TPosition::VECIN, 1> inQ_" + d.name + ";\n";
    for (const auto& b : p.buffers) k += "    TBuf<TPosition::VECCALC> " + b + ";\n";
    k += "    TBuf<TPosition::VECCALC> workBuf_, redBuf_;\n    LocalTensor<" + p.ct + "> work_, red_;\n";
    if (p.split) k += "    TQue<TPosition::VECOUT, 1> partQ_;\n    GlobalTensor<float> wsGm_;\n";
    for (const auto* d : p.all) k += "    GlobalTensor<" + cxxType(d->dtype) + "> " + d->name + "Gm_;\n";
    for (const auto& [a, v] : p.f.task.attrs) k += "    float attr_" + a + "_ = 0;\n";
    for (int i = 0; i < p.accs; ++i) k += "    float acc" + std::to_string(i) + "_ = " + (p.isMax[size_t(i)] ? "-INFINITY" : "0.0f") + ";\n";
    k += "    uint32_t total_ = 0;\n};\n\n";
    return k;
}

std::string entryPoint(const ReduceAllParts& p) {
    std::string k = "extern \"C\" __global__ __aicore__ void " + p.f.entry + "(" + p.f.kernelParams() + ") {\n" +
         "    GET_TILING_DATA_WITH_STRUCT(" + p.f.tilingStruct + ", tilingData, gm_tiling);\n    DraftKernel op;\n    op.Init(";
    for (const auto* d : p.all) k += "gm_" + d->name + ", ";
    if (p.split) k += "gm_workspace, ";
    k += "tilingData);\n    op.Process();\n}\n";
    return k;
}

using NameRef = std::function<std::optional<Val>(const std::string&)>;

// sum(), mean() and amax() over every element: each has an accumulator (amax's starts at -inf and
// takes the larger value, on the device's maxNum terms: NaN is skipped).
bool isAllReduce(const std::string& fn) { return fn == "sum" || fn == "mean" || fn == "amax"; }

// The program over the last elements (no DataCopyPad: fewer than one 32-byte unit), on the
// scalar unit: each sum()/mean() argument added to its accumulator, element i.
std::vector<std::string> scalarTailLines(Frame& f, const std::string& ct, const NameRef& attrRef,
                                         const std::map<std::string, std::string>& inVar) {
    VectorEmitter::Env senv;
    senv.ct = ct;
    senv.bufPrefix = "tail";
    senv.ref = [&](const std::string& n) -> std::optional<Val> {
        if (auto a = attrRef(n)) return a;
        if (inVar.count(n)) return Val{false, "(float)" + n + "Gm_.GetValue(i)"};
        return std::nullopt;
    };
    int next = 0;
    senv.special = [&](const eval::Expr& e, VectorEmitter& se) -> std::optional<Val> {
        if (!isAllReduce(e.name)) return std::nullopt;
        Val v = se.emit(e.args[0]);
        const std::string a = "acc" + std::to_string(next++) + "_";
        se.line(e.name == "amax" ? a + " = std::fmax(" + a + ", " + v.ref + ");" : a + " += " + v.ref + ";");
        return Val{false, "0.0f"};
    };
    VectorEmitter se(senv, f.knowledge, "compute.out");
    emitLets(se, f.task.compute);
    for (const auto& o : f.task.compute.outputs) se.emit(o.expr);
    return se.lines();
}

// The outputs from the accumulated sums (mean divides by the element count), one SetValue each.
std::vector<std::string> outputLines(Frame& f, const std::string& ct, const NameRef& attrRef) {
    const eval::Task& task = f.task;
    VectorEmitter::Env fenv;
    fenv.ct = ct;
    fenv.bufPrefix = "fin";
    fenv.ref = attrRef;
    int next = 0;
    fenv.special = [&](const eval::Expr& e, VectorEmitter&) -> std::optional<Val> {
        if (!isAllReduce(e.name)) return std::nullopt;
        std::string a = "acc" + std::to_string(next++) + "_";
        return Val{false, e.name == "mean" ? "(" + a + " / (float)total_)" : a};
    };
    VectorEmitter fe(fenv, f.knowledge, "compute.out");
    for (const auto& [a, v] : task.attrs) fe.line("(void)attr_" + a + "_;");
    for (size_t k = 0; k < task.outputs.size(); ++k) {
        fe.setField(task.compute.outputs[k].field);
        Val v = fe.emit(task.compute.outputs[k].expr);
        if (v.vec) fe.fail("a reduce_all output must be a scalar of sum()/mean() results");
        fe.line(task.outputs[k].name + "Gm_.SetValue(0, (" + cxxType(task.outputs[k].dtype) + ")(" + v.ref + "));");
    }
    return fe.lines();
}

} // namespace

SkeletonCode composeReduceAll(Frame& f) {
    const eval::Task& task = f.task;
    const nlohmann::json& sk = f.knowledge.skeleton("reduce_all");
    const auto& inShape = task.inputs.front().shape;
    std::vector<const eval::TensorDecl*> all;
    for (const auto& d : task.inputs) {
        if (d.shape != inShape)
            throw DraftError("field 'compute.kind': \"reduce_all\" needs every input of one shape; '" + d.name + "' is " +
                             shapeText(d.shape));
        all.push_back(&d);
    }
    for (const auto& d : task.outputs) {
        bool one = std::all_of(d.shape.begin(), d.shape.end(), [](const std::string& s) { return s == "1"; });
        if (!one) throw DraftError("field 'compute.kind': \"reduce_all\" writes one element per output; '" + d.name + "' is " + shapeText(d.shape));
        all.push_back(&d);
    }
    const std::string ct = computeType(task, all);
    bool bf16 = false;
    for (const auto* d : all) bf16 |= d->dtype == "bfloat16";
    if (bf16) f.knowledge.idiom("bfloat16_io");
    const bool pad = f.knowledge.idiom("tail_copy").value("method", "") == "datacopy_pad";
    size_t minBytes = 4;
    for (const auto& d : task.inputs) minBytes = std::min(minBytes, dtypeBytes(d.dtype));
    const int align = int(32 / minBytes);

    f.addField("draftTotal", "uint32_t", "ctx.numel(" + f.hostTensor(task.inputs.front().name) + ")");
    for (const auto& [a, v] : task.attrs) f.addField("draftAttr_" + a, "float", f.attrHostValue(a));

    // The same program three times: per tile (vector), over the short tail (scalar), at the end.
    int accs = 0;
    auto attrRef = [&](const std::string& n) -> std::optional<Val> {
        if (task.attrs.count(n)) return Val{false, "attr_" + n + "_"};
        return std::nullopt;
    };
    int next = 0;
    VectorEmitter::Env env;
    env.ct = ct;
    env.count = "n";
    std::map<std::string, std::string> inVar;
    env.ref = [&](const std::string& n) -> std::optional<Val> {
        if (auto a = attrRef(n)) return a;
        if (inVar.count(n)) return Val{true, inVar[n]};
        return std::nullopt;
    };
    std::vector<bool> isMax;
    env.special = [&](const eval::Expr& e, VectorEmitter& em) -> std::optional<Val> {
        if (!isAllReduce(e.name)) return std::nullopt;
        Val v = em.emit(e.args[0]);
        if (!v.vec) em.fail(e.name + " needs elements to reduce");
        const std::string a = "acc" + std::to_string(next++) + "_";
        isMax.push_back(e.name == "amax");
        if (isMax.back()) {
            em.line("ReduceMax(red_, " + v.ref + ", work_, n);");
            em.line(a + " = std::fmax(" + a + ", (float)red_.GetValue(0));");
        } else {
            em.line("ReduceSum(red_, " + v.ref + ", work_, n);");
            em.line(a + " += (float)red_.GetValue(0);");
        }
        return Val{false, "0.0f"};
    };
    VectorEmitter em(env, f.knowledge, "compute.out");
    for (const auto& d : task.inputs) {
        const std::string local = "in_" + d.name;
        if (cxxType(d.dtype) == ct) inVar[d.name] = local;
        else {
            std::string b = em.newBuffer();
            em.line("Cast(" + b + ", " + local + ", RoundMode::CAST_NONE, n);");
            inVar[d.name] = b;
        }
    }
    emitLets(em, task.compute);
    for (const auto& o : task.compute.outputs) {
        em.setField(o.field);
        em.emit(o.expr);
    }
    accs = next;
    if (accs == 0) throw DraftError("field 'compute.out': \"reduce_all\" needs sum(), mean() or amax() in an output");

    const std::vector<std::string> tailLines = pad ? std::vector<std::string>{} : scalarTailLines(f, ct, attrRef, inVar);
    const std::vector<std::string> finalLines = outputLines(f, ct, attrRef);

    size_t bytesPerElem = (em.buffers().size() + 1) * (ct == "half" ? 2 : 4);
    for (const auto& d : task.inputs) bytesPerElem += dtypeBytes(d.dtype);
    size_t tile = std::min<size_t>(size_t(sk.value("tile_bytes", 16384)) / 2, size_t(f.device.ubUsableBytes) * 3 / 4 / bytesPerElem);
    tile = std::max<size_t>(tile / 128 * 128, 128);

    const bool split = !task.launch.present;
    if (split) passWorkspace(f);
    const std::string slots = std::to_string(accs * 8);  // one 32-byte slot per partial sum
    std::vector<std::string> sums;
    for (int i = 0; i < accs; ++i) sums.push_back("acc" + std::to_string(i) + "_");
    ReduceAllParts p{f, all, em.lines(), em.buffers(), tailLines, finalLines, sums, isMax, ct, slots, tile, align, accs, pad, split};
    std::string k = classHead(p) + classBody(p) + entryPoint(p);
    f.notes.push_back("Partial sums per tile with ReduceSum, accumulated in float on the scalar unit" +
                      std::string(split ? "; elements dealt to BLOCK_DIM cores, their partials combined by a second launch." : "."));
    if (!split) return {k, f.launch("1")};
    std::vector<CombineOutput> outs;
    for (const auto& d : task.outputs) outs.push_back({d.name, cxxType(d.dtype)});
    std::vector<std::string> body = {"uint32_t total_ = t.draftTotal;", "(void)total_;"};
    for (const auto& [a, v] : task.attrs) body.push_back("float attr_" + a + "_ = t.draftAttr_" + a + ";");
    body.insert(body.end(), finalLines.begin(), finalLines.end());
    k += combineKernel(f, sums, outs, body, isMax);
    return {k, combineLaunch(f, size_t(accs), outs)};
}

} // namespace sage::agent::draft
