// Matmul layout "diagonal_a": acc = diag(a) x b, i.e. row i of b [M, N] scaled by a[i] (a [M]).
// No product to form: vector code, one Muls per row chunk, rows spread over the vector cores.
#include "draft/Skeletons.h"
#include "sage_npu/DeviceProfile.h"

namespace sage::agent::draft {

SkeletonCode composeRowScale(Frame& f) {
    const eval::Task& task = f.task;
    const eval::ComputeSpec& spec = task.compute;
    const eval::TensorDecl* a = findTensor(task, spec.a);
    const eval::TensorDecl* b = findTensor(task, spec.b);
    if (a->shape.size() != 1 || b->shape.size() != 2 || a->shape[0] != b->shape[0])
        throw DraftError("field 'compute.layout.diagonal_a': needs a [M] and b [M, N]; got a " + shapeText(a->shape) + " and b " +
                         shapeText(b->shape));
    if (task.outputs.size() != 1) throw DraftError("field 'compute.out': the matmul skeleton writes one output");
    const eval::TensorDecl& out = task.outputs.front();
    const eval::Expr& e = spec.outputs.front().expr;
    if (!spec.lets.empty() || e.op != eval::Expr::Op::Ref || e.name != "acc")
        throw DraftError("field 'compute.out." + out.name + "': a diagonal product is written as \"acc\" (no epilogue)");
    if (out.shape != b->shape || a->dtype != b->dtype || out.dtype != b->dtype || (b->dtype != "float32" && b->dtype != "float16"))
        throw DraftError("field 'compute.out." + out.name + "': diag(a) x b has b's shape and float type (a, b and the output "
                         "of one type)");
    // Without DataCopyPad (310P) a chunk is its whole 32-byte units plus, for a ragged row end, one
    // unit-long window ending at the row's end: it overlaps the units before it and writes the same values.
    const bool pad = f.knowledge.idiom("tail_copy").value("method", "") == "datacopy_pad";
    const std::string T = cxxType(b->dtype), bytes = std::to_string(dtypeBytes(b->dtype));
    f.addField("rsRows", "uint32_t", "ctx.shape(\"" + b->name + "\", 0)");
    f.addField("rsCols", "uint32_t", "ctx.shape(\"" + b->name + "\", 1)");
    std::string k = "constexpr uint32_t RS_CHUNK = 8192, RS_UNIT = 32 / sizeof(" + T + ");\n\n";
    k += "// Elements [at, at + n) of b, all in row r, scaled into c.\n";
    k += "__aicore__ inline void DraftRowScalePiece(TQue<TPosition::VECIN, 2>& inQ, TQue<TPosition::VECOUT, 2>& outQ, GlobalTensor<" +
         T + ">& bGm,\n                                          GlobalTensor<" + T + ">& cGm, " + T +
         " scale, uint64_t at, uint32_t n) {\n";
    k += "    LocalTensor<" + T + "> in = inQ.AllocTensor<" + T + ">();\n";
    k += pad ? "    DataCopyPad(in, bGm[at], DataCopyExtParams{1, n * " + bytes + "u, 0, 0, 0}, DataCopyPadExtParams<" + T +
                   ">{false, 0, 0, " + T + "(0)});\n"
             : "    DataCopy(in, bGm[at], n);\n";
    k += "    inQ.EnQue(in);\n    in = inQ.DeQue<" + T + ">();\n";
    k += "    LocalTensor<" + T + "> o = outQ.AllocTensor<" + T + ">();\n";
    k += "    Muls(o, in, scale, int32_t(n));\n    inQ.FreeTensor(in);\n";
    k += "    outQ.EnQue(o);\n    o = outQ.DeQue<" + T + ">();\n";
    k += pad ? "    DataCopyPad(cGm[at], o, DataCopyExtParams{1, n * " + bytes + "u, 0, 0, 0});\n" : "    DataCopy(cGm[at], o, n);\n";
    k += "    outQ.FreeTensor(o);\n}\n\n";
    k += "extern \"C\" __global__ __aicore__ void " + f.entry + "(GM_ADDR gm_a, GM_ADDR gm_b, GM_ADDR gm_c, GM_ADDR gm_tiling) {\n";
    k += "    GET_TILING_DATA_WITH_STRUCT(" + f.tilingStruct + ", t, gm_tiling);\n";
    k += "    GlobalTensor<" + T + "> aGm, bGm, cGm;\n";
    k += "    aGm.SetGlobalBuffer((__gm__ " + T + "*)gm_a, t.rsRows);\n";
    k += "    bGm.SetGlobalBuffer((__gm__ " + T + "*)gm_b, (uint64_t)t.rsRows * t.rsCols);\n";
    k += "    cGm.SetGlobalBuffer((__gm__ " + T + "*)gm_c, (uint64_t)t.rsRows * t.rsCols);\n";
    k += "    TPipe pipe;\n    TQue<TPosition::VECIN, 2> inQ;\n    TQue<TPosition::VECOUT, 2> outQ;\n";
    k += "    pipe.InitBuffer(inQ, 2, RS_CHUNK * " + bytes + ");\n    pipe.InitBuffer(outQ, 2, RS_CHUNK * " + bytes + ");\n";
    k += "    for (uint32_t r = GetBlockIdx(); r < t.rsRows; r += GetBlockNum()) {\n";
    k += "        const " + T + " scale = aGm.GetValue(r);\n";
    k += "        for (uint32_t c0 = 0; c0 < t.rsCols; c0 += RS_CHUNK) {\n";
    k += "            const uint32_t cc = t.rsCols - c0 < RS_CHUNK ? t.rsCols - c0 : RS_CHUNK;\n";
    k += "            const uint64_t at = (uint64_t)r * t.rsCols + c0;\n";
    k += pad ? "            DraftRowScalePiece(inQ, outQ, bGm, cGm, scale, at, cc);\n"
             : "            const uint32_t whole = cc / RS_UNIT * RS_UNIT;\n"
               "            if (whole > 0) DraftRowScalePiece(inQ, outQ, bGm, cGm, scale, at, whole);\n"
               "            if (whole < cc && t.rsCols >= RS_UNIT) DraftRowScalePiece(inQ, outQ, bGm, cGm, scale, at + cc - RS_UNIT, RS_UNIT);\n"
               "            else  // a row shorter than one unit: element by element\n"
               "                for (uint32_t q = whole; q < cc; ++q) cGm.SetValue(at + q, " + T + "(float(bGm.GetValue(at + q)) * float(scale)));\n";
    k += "        }\n    }\n}\n";
    const std::string cores = std::to_string(std::max(1, f.device.vectorCores));
    std::string host = "    ICPU_RUN_KF(" + f.entry + ", " + cores + ", ctx.gm(\"" + a->name + "\"), ctx.gm(\"" + b->name +
                       "\"), ctx.gm(\"" + out.name + "\"), ctx.tiling(t));\n";
    f.notes.push_back("diag(a) x b as a row scaling: one Muls per row chunk, rows over " + cores + " cores.");
    return {k, host};
}

} // namespace sage::agent::draft
