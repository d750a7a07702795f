// Skeleton "elementwise": every tensor has the same shape; the flat element range is cut into
// tiles, each CopyIn -> Compute -> CopyOut through VECIN/VECOUT queues (the queues order the
// pipes). The last partial tile uses the device's tail idiom: DataCopyPad (910B) or an aligned
// window ending at the last element that overlaps the previous tile (310P, no DataCopyPad).
#include "draft/Skeletons.h"
#include "sage_npu/DeviceProfile.h"

#include <algorithm>
#include <cctype>

namespace sage::agent::draft {

void emitLets(VectorEmitter& em, const eval::ComputeSpec& spec) {
    for (const auto& l : spec.lets) {
        em.setField(l.field);
        Val v = em.emit(l.expr);
        const bool named = std::all_of(v.ref.begin(), v.ref.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
        if (!v.vec && !named) v.ref = em.scalarVar(v.ref);  // computed once per tile or row
        em.bindLet(l.name, v);
    }
}

namespace {

struct Io {
    const eval::TensorDecl* decl;
    std::string it;  // kernel element type in GM
};

// The parts of the kernel class after Process, from what composeElementwise worked out.
struct ElementwiseParts {
    const eval::Task& task;
    const std::vector<Io>& ins;
    const std::vector<Io>& outs;
    const std::vector<TileValue>& tileIns;
    const std::vector<TileValue>& tileOuts;
    std::vector<std::string> lines, buffers, scalarTail;
    bool pad;
};

// CopyIn, Compute, CopyOut, the scalar tail (no DataCopyPad) and the members.
std::string privatePart(const ElementwiseParts& p) {
    std::string k = "    }\n\nprivate:\n    __aicore__ inline void CopyIn(uint32_t off, uint32_t n) {\n";
    for (const auto& i : p.ins) {
        const std::string& n = i.decl->name;
        k += "        LocalTensor<" + i.it + "> in_" + n + " = inQ_" + n + ".AllocTensor<" + i.it + ">();\n";
        if (p.pad)
            k += "        if (n % ALIGN == 0) DataCopy(in_" + n + ", " + n + "Gm_[off], n);\n        else DataCopyPad(in_" + n +
                 ", " + n + "Gm_[off], DataCopyExtParams{1, uint32_t(n * sizeof(" + i.it + ")), 0, 0, 0}, DataCopyPadExtParams<" +
                 i.it + ">{false, 0, 0, static_cast<" + i.it + ">(0.0f)});\n";
        else k += "        DataCopy(in_" + n + ", " + n + "Gm_[off], n);\n";
        k += "        inQ_" + n + ".EnQue(in_" + n + ");\n";
    }
    k += "    }\n" + tileComputeFunction(p.tileIns, p.tileOuts, p.lines);
    k += "    __aicore__ inline void CopyOut(uint32_t off, uint32_t n) {\n";
    for (const auto& o : p.outs) {
        const std::string& n = o.decl->name;
        k += "        LocalTensor<" + o.it + "> out_" + n + " = outQ_" + n + ".DeQue<" + o.it + ">();\n";
        if (p.pad)
            k += "        if (n % ALIGN == 0) DataCopy(" + n + "Gm_[off], out_" + n + ", n);\n        else DataCopyPad(" + n +
                 "Gm_[off], out_" + n + ", DataCopyExtParams{1, uint32_t(n * sizeof(" + o.it + ")), 0, 0, 0});\n";
        else k += "        DataCopy(" + n + "Gm_[off], out_" + n + ", n);\n";
        k += "        outQ_" + n + ".FreeTensor(out_" + n + ");\n";
    }
    k += "    }\n";
    if (!p.pad) {
        k += "    // Fewer elements than one 32-byte unit: scalar reads and writes.\n"
             "    __aicore__ inline void ScalarTail() {\n        for (uint32_t i = 0; i < total_; ++i) {\n";
        for (const auto& l : p.scalarTail) k += "            " + l + "\n";
        k += "        }\n    }\n";
    }
    k += "\n    TPipe pipe_;\n";
    for (const auto& i : p.ins) k += "    TQue<TPosition::VECIN, 1> inQ_" + i.decl->name + ";\n";
    for (const auto& o : p.outs) k += "    TQue<TPosition::VECOUT, 1> outQ_" + o.decl->name + ";\n";
    for (const auto& b : p.buffers) k += "    TBuf<TPosition::VECCALC> " + b + ";\n";
    for (const auto* list : {&p.ins, &p.outs})
        for (const auto& i : *list) k += "    GlobalTensor<" + i.it + "> " + i.decl->name + "Gm_;\n";
    for (const auto& [a, v] : p.task.attrs) k += "    float attr_" + a + "_ = 0;\n";
    k += "    uint32_t total_ = 0;\n};\n\n";
    return k;
}

// The compute program on scalars, element i, for a tensor shorter than one 32-byte unit on a
// device without DataCopyPad: reads with GetValue, writes with SetValue.
std::vector<std::string> scalarTailOf(Frame& f, const VectorEmitter::Env& env, const std::map<std::string, std::string>& inVar,
                                      const std::vector<Io>& outs, bool bfBits) {
    const eval::Task& task = f.task;
    VectorEmitter::Env senv = env;
    senv.bufPrefix = "tail";
    senv.ref = [&](const std::string& n) -> std::optional<Val> {
        if (task.attrs.count(n)) return Val{false, "attr_" + n + "_"};
        if (inVar.count(n)) {
            const eval::TensorDecl* d = findTensor(task, n);
            if (bfBits && d->dtype == "bfloat16") return Val{false, "Bf16BitsToFloat(" + n + "Gm_.GetValue(i))"};
            return Val{false, "(float)" + n + "Gm_.GetValue(i)"};
        }
        return std::nullopt;
    };
    VectorEmitter se(senv, f.knowledge, "compute.out");
    emitLets(se, task.compute);
    for (size_t k = 0; k < outs.size(); ++k) {
        Val v = se.emit(task.compute.outputs[k].expr);
        if (v.vec) throw DraftError("field '" + task.compute.outputs[k].field + "': needs a vector in the scalar tail");
        if (bfBits && outs[k].decl->dtype == "bfloat16")
            se.line(outs[k].decl->name + "Gm_.SetValue(i, FloatToBf16Bits(" + v.ref + "));");
        else se.line(outs[k].decl->name + "Gm_.SetValue(i, (" + outs[k].it + ")(" + v.ref + "));");
    }
    return se.lines();
}

// TILE_LENGTH from the UB budget (queues x buffers plus one VECCALC buffer per vector step),
// with the tile lengths that still fit with double buffering as its @tunable set; BUFFER_NUM; ALIGN.
} // namespace

std::string tileConstants(const Frame& f, const nlohmann::json& sk, size_t calcBuffers,
                          const std::vector<const eval::TensorDecl*>& all, const std::string& ct, int bufferNum, int align) {
    // Tile length from the UB budget: queues x buffers plus one VECCALC buffer per vector step.
    size_t bytesPerElem = calcBuffers * (ct == "half" ? 2 : 4);
    for (const auto* d : all) bytesPerElem += size_t(bufferNum) * dtypeBytes(d->dtype);
    size_t tile = std::min<size_t>(size_t(sk.value("tile_bytes", 16384)) / 2,
                                   size_t(f.device.ubUsableBytes) * 3 / 4 / bytesPerElem);
    tile = std::max<size_t>(tile / 128 * 128, 128);

    // The optimiser's hints: tile lengths that still fit the UB with double buffering.
    size_t bytesDouble = calcBuffers * (ct == "half" ? 2 : 4);
    for (const auto* d : all) bytesDouble += 2 * dtypeBytes(d->dtype);
    const size_t maxTile = size_t(f.device.ubUsableBytes) * 9 / 10 / bytesDouble;
    std::string allowed;
    for (size_t v = 512; v <= maxTile && v <= 32768; v *= 2) allowed += (allowed.empty() ? "" : ", ") + std::to_string(v);
    if (allowed.find(std::to_string(tile)) == std::string::npos) allowed = std::to_string(tile) + (allowed.empty() ? "" : ", " + allowed);
    return "constexpr uint32_t TILE_LENGTH = " + std::to_string(tile) + ";  // @tunable tile_length {" + allowed + "}\n" +
           "constexpr int32_t BUFFER_NUM = " + std::to_string(bufferNum) + ";  // @tunable buffer_num {1, 2}\n" +
           "constexpr uint32_t ALIGN = " + std::to_string(align) + ";  // elements per 32 bytes of the narrowest tensor\n\n";
}

namespace {

// Process(): the tiles in order; without DataCopyPad, the last partial tile as one aligned window
// ending at the last element (or scalars when the tensor is shorter than one unit).
std::string processBody(bool pad) {
    if (pad)
        return "        for (uint32_t off = 0; off < total_; off += TILE_LENGTH) {\n"
               "            uint32_t n = total_ - off < TILE_LENGTH ? total_ - off : TILE_LENGTH;\n"
               "            CopyIn(off, n);\n            Compute(n);\n            CopyOut(off, n);\n        }\n";
    return "        // 310P has no DataCopyPad: whole 32-byte units only. The last partial tile is\n"
           "        // recomputed as one aligned window ending at the last element (it overlaps the\n"
           "        // previous tile and writes the same values there).\n"
           "        uint32_t mainLen = total_ / ALIGN * ALIGN;\n"
           "        for (uint32_t off = 0; off < mainLen; off += TILE_LENGTH) {\n"
           "            uint32_t n = mainLen - off < TILE_LENGTH ? mainLen - off : TILE_LENGTH;\n"
           "            CopyIn(off, n);\n            Compute(n);\n            CopyOut(off, n);\n        }\n"
           "        if (mainLen < total_) {\n"
           "            if (total_ >= ALIGN) {\n"
           "                CopyIn(total_ - ALIGN, ALIGN);\n                Compute(ALIGN);\n"
           "                CopyOut(total_ - ALIGN, ALIGN);\n"
           "            } else {\n                ScalarTail();\n            }\n        }\n";
}

} // namespace

std::string tileComputeFunction(const std::vector<TileValue>& ins, const std::vector<TileValue>& outs,
                                const std::vector<std::string>& lines) {
    std::string k = "    __aicore__ inline void Compute(uint32_t n) {\n";
    for (const auto& t : ins) k += "        LocalTensor<" + t.gmType + "> " + t.local + " = inQ_" + t.name + ".DeQue<" + t.gmType + ">();\n";
    for (const auto& t : outs) k += "        LocalTensor<" + t.gmType + "> " + t.local + " = outQ_" + t.name + ".AllocTensor<" + t.gmType + ">();\n";
    for (const auto& l : lines) k += "        " + l + "\n";
    for (const auto& t : outs) k += "        outQ_" + t.name + ".EnQue(" + t.local + ");\n";
    for (const auto& t : ins) k += "        inQ_" + t.name + ".FreeTensor(" + t.local + ");\n";
    return k + "    }\n";
}

VectorEmitter::Env tileEnv(const eval::Task& task, const std::string& ct, std::map<std::string, std::string>& inVar) {
    VectorEmitter::Env env;
    env.ct = ct;
    env.count = "n";
    env.ref = [&task, &inVar](const std::string& n) -> std::optional<Val> {
        if (task.attrs.count(n)) return Val{false, "attr_" + n + "_"};
        auto it = inVar.find(n);
        if (it != inVar.end()) return Val{true, it->second};
        return std::nullopt;
    };
    return env;
}

void emitTileCompute(VectorEmitter& em, const eval::ComputeSpec& spec, const std::vector<TileValue>& ins,
                     const std::vector<TileValue>& outs, std::map<std::string, std::string>& inVar) {
    const std::string ct = em.ct(), n = em.count();
    for (const auto& i : ins) {
        if (i.gmType == ct) inVar[i.name] = i.local;
        else if (i.gmType == "int16_t" && i.dtype == "bfloat16") {
            inVar[i.name] = widenBf16Bits(em, i.local);
        } else {
            std::string b = em.newBuffer();
            em.line("Cast(" + b + ", " + i.local + ", RoundMode::CAST_NONE, " + n + ");");
            inVar[i.name] = b;
        }
    }
    emitLets(em, spec);
    for (size_t k = 0; k < outs.size(); ++k) {
        const auto& step = spec.outputs[k];
        em.setField(step.field);
        const std::string& o = outs[k].local;
        if (outs[k].gmType == ct) em.emitInto(step.expr, o);
        else {
            Val v = em.emit(step.expr);
            if (!v.vec) {
                std::string b = em.newBuffer();
                em.line("Duplicate(" + b + ", (" + ct + ")(" + v.ref + "), " + n + ");");
                v = {true, b};
            }
            if (outs[k].gmType == "int16_t" && outs[k].dtype == "bfloat16") {
                narrowToBf16Bits(em, v.ref, o);
            } else {
                em.line("Cast(" + o + ", " + v.ref + ", RoundMode::CAST_RINT, " + n + ");");
            }
        }
    }
}

SkeletonCode composeElementwise(Frame& f) {
    const eval::Task& task = f.task;
    const nlohmann::json& sk = f.knowledge.skeleton("elementwise");
    const auto& outShape = task.outputs.front().shape;
    std::vector<Io> ins, outs;
    std::vector<const eval::TensorDecl*> all;
    for (const auto* list : {&task.inputs, &task.outputs})
        for (const auto& d : *list) {
            if (d.shape != outShape)
                throw DraftError("field 'compute.kind': \"elementwise\" needs every tensor of one shape; '" + d.name + "' is " +
                                 shapeText(d.shape) + ", '" + task.outputs.front().name + "' is " + shapeText(outShape));
            all.push_back(&d);
        }
    const std::string ct = computeType(task, all);
    bool bf16 = false;
    for (const auto* d : all) bf16 |= d->dtype == "bfloat16";
    // bfloat16 without device support: the GM data moves as int16 bits and is widened to float
    // with integer ops (an API substitution: Cast int16 -> int32, ShiftLeft 16, reinterpret).
    const bool bfBits = bf16 && f.knowledge.idiom("bfloat16_io").value("method", "") == "int16_bits";
    auto gmType = [&](const eval::TensorDecl& d) { return bfBits && d.dtype == "bfloat16" ? std::string("int16_t") : cxxType(d.dtype); };
    for (const auto& d : task.inputs) ins.push_back({&d, gmType(d)});
    for (const auto& d : task.outputs) outs.push_back({&d, gmType(d)});
    const std::string tail = f.knowledge.idiom("tail_copy").value("method", "");
    const bool pad = tail == "datacopy_pad";
    if (!pad && tail != "overlap_window") throw DraftError("unknown tail_copy method '" + tail + "'");
    size_t minBytes = 4;
    for (const auto* d : all) minBytes = std::min(minBytes, dtypeBytes(d->dtype));
    const int align = int(32 / minBytes);
    const int bufferNum = std::clamp(sk.value("buffer_num", 1), 1, 2);

    f.addField("draftTotal", "uint32_t", "ctx.numel(" + f.hostTensor(task.outputs.front().name) + ")");
    for (const auto& [a, v] : task.attrs) f.addField("draftAttr_" + a, "float", f.attrHostValue(a));

    // Compute body (vector) and, for the 310P short tail, the same program on scalars.
    std::map<std::string, std::string> inVar;
    const VectorEmitter::Env env = tileEnv(task, ct, inVar);
    VectorEmitter em(env, f.knowledge, "compute.out");
    std::vector<TileValue> tileIns, tileOuts;
    for (const auto& i : ins) tileIns.push_back({i.decl->name, "in_" + i.decl->name, i.it, i.decl->dtype});
    for (const auto& o : outs) tileOuts.push_back({o.decl->name, "out_" + o.decl->name, o.it, o.decl->dtype});
    emitTileCompute(em, task.compute, tileIns, tileOuts, inVar);
    const std::vector<std::string> scalarTail = pad ? std::vector<std::string>{} : scalarTailOf(f, env, inVar, outs, bfBits);

    std::string k = tileConstants(f, sk, em.buffers().size(), all, ct, bufferNum, align);
    if (bfBits && !pad)
        k += bf16BitsHelpers();
    k += "class DraftKernel {\npublic:\n    __aicore__ inline void Init(";
    for (const auto* d : all) k += "GM_ADDR gm_" + d->name + ", ";
    k += "const " + f.tilingStruct + "& t) {\n        total_ = t.draftTotal;\n";
    for (const auto& [a, v] : task.attrs) k += "        attr_" + a + "_ = t.draftAttr_" + a + ";\n";
    for (const auto* list : {&ins, &outs})
        for (const auto& i : *list)
            k += "        " + i.decl->name + "Gm_.SetGlobalBuffer((__gm__ " + i.it + "*)gm_" + i.decl->name + ", total_);\n";
    for (const auto& i : ins)
        k += "        pipe_.InitBuffer(inQ_" + i.decl->name + ", BUFFER_NUM, TILE_LENGTH * sizeof(" + i.it + "));\n";
    for (const auto& o : outs)
        k += "        pipe_.InitBuffer(outQ_" + o.decl->name + ", BUFFER_NUM, TILE_LENGTH * sizeof(" + o.it + "));\n";
    for (const auto& b : em.buffers()) k += "        pipe_.InitBuffer(" + b + ", TILE_LENGTH * sizeof(" + ct + "));\n";
    k += "    }\n    __aicore__ inline void Process() {\n";
    k += processBody(pad);
    k += privatePart({task, ins, outs, tileIns, tileOuts, em.lines(), em.buffers(), scalarTail, pad});

    k += "extern \"C\" __global__ __aicore__ void " + f.entry + "(" + f.kernelParams() + ") {\n" +
         "    GET_TILING_DATA_WITH_STRUCT(" + f.tilingStruct + ", tilingData, gm_tiling);\n    DraftKernel op;\n    op.Init(";
    for (const auto* d : all) k += "gm_" + d->name + ", ";
    k += "tilingData);\n    op.Process();\n}\n";
    f.notes.push_back(std::string("Tail: ") + (pad ? "DataCopyPad for the last partial tile." :
                                                      "an aligned window overlapping the previous tile (no DataCopyPad on this device)."));
    return {k, f.launch("1")};
}

} // namespace sage::agent::draft
