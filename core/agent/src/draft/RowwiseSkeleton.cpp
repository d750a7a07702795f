// Skeleton "rowwise": tensors are [rows, cols] (a row each), [cols] (broadcast over rows, loaded
// once) or [rows] (one value per row: a gather index, or an output written by the scalar unit).
// One row per step: CopyIn -> Compute (vector ops over cols elements, reductions with the count
// form of ReduceSum/ReduceMax/ReduceMin into a 32-byte result read by the scalar unit) -> CopyOut.
// Rows that are not a multiple of 32 bytes are copied with DataCopyPad, so the device needs it.
#include "draft/Skeletons.h"
#include "sage_npu/DeviceProfile.h"

namespace sage::agent::draft {

namespace {

enum class Role { Row, Bcast, PerRow };

struct Io {
    const eval::TensorDecl* decl;
    std::string it;
    Role role;
};

} // namespace

SkeletonCode composeRowwise(Frame& f) {
    const eval::Task& task = f.task;
    f.knowledge.skeleton("rowwise");
    // The row shape: the first tensor of rank >= 2.
    std::vector<std::string> rowShape;
    for (const auto* list : {&task.inputs, &task.outputs})
        for (const auto& d : *list)
            if (rowShape.empty() && d.shape.size() >= 2) rowShape = d.shape;
    if (rowShape.empty()) throw DraftError("field 'compute.kind': \"rowwise\" needs a tensor of rank 2 or more ([rows, cols])");
    const std::vector<std::string> bcastShape{rowShape.back()};
    const std::vector<std::string> perRowShape(rowShape.begin(), rowShape.end() - 1);
    std::vector<Io> ins, outs;
    std::vector<const eval::TensorDecl*> floats;
    bool anyUnaligned = true;  // cols is a run-time value: assume rows may be unaligned
    for (const auto* list : {&task.inputs, &task.outputs})
        for (const auto& d : *list) {
            Role r;
            if (d.shape == rowShape) r = Role::Row;
            else if (d.shape == bcastShape) r = Role::Bcast;
            else if (d.shape == perRowShape) r = Role::PerRow;
            else
                throw DraftError("field 'compute.kind': \"rowwise\" takes tensors of shape " + shapeText(rowShape) + ", " +
                                 shapeText(bcastShape) + " or " + shapeText(perRowShape) + "; '" + d.name + "' is " +
                                 shapeText(d.shape));
            (list == &task.inputs ? ins : outs).push_back({&d, cxxType(d.dtype), r});
            if (r != Role::PerRow || list == &task.outputs) floats.push_back(&d);
        }
    for (const auto& i : ins)
        if (i.role == Role::PerRow && (i.it != "int32_t"))
            throw DraftError("field 'compute': a per-row input ('" + i.decl->name + "') must be an int32 index for gather");
    const std::string ct = computeType(task, floats);
    bool bf16 = false;
    for (const auto* d : floats) bf16 |= d->dtype == "bfloat16";
    if (bf16) f.knowledge.idiom("bfloat16_io");
    const std::string tail = f.knowledge.idiom("tail_copy").value("method", "");
    if (anyUnaligned && tail != "datacopy_pad")
        throw DraftError("field 'compute.kind': the rowwise skeleton copies rows of any length with DataCopyPad, which " +
                         f.device.id + " does not have; not drafted for this device yet");
    f.knowledge.idiom("row_reduce");

    std::string rowsExpr = "1";
    for (const auto& s : perRowShape) rowsExpr += " * ctx.dim(\"" + s + "\")";
    auto dimExpr = [&](const std::string& s) {
        bool number = !s.empty() && std::isdigit(static_cast<unsigned char>(s[0]));
        return number ? s : "ctx.dim(\"" + s + "\")";
    };
    rowsExpr = "1";
    for (const auto& s : perRowShape) rowsExpr += " * " + dimExpr(s);
    f.addField("draftRows", "uint32_t", rowsExpr);
    f.addField("draftCols", "uint32_t", dimExpr(rowShape.back()));
    for (const auto& [a, v] : task.attrs) f.addField("draftAttr_" + a, "float", "ctx.attr(\"" + a + "\")");

    VectorEmitter::Env env;
    env.ct = ct;
    env.count = "cols_";
    std::map<std::string, std::string> vecVar;
    env.ref = [&](const std::string& n) -> std::optional<Val> {
        if (task.attrs.count(n)) return Val{false, "attr_" + n + "_"};
        auto it = vecVar.find(n);
        if (it != vecVar.end()) return Val{true, it->second};
        for (const auto& i : ins)
            if (i.decl->name == n && i.role == Role::PerRow) return Val{false, "(float)" + n + "Gm_.GetValue(row)"};
        return std::nullopt;
    };
    env.special = [&](const eval::Expr& e, VectorEmitter& em) -> std::optional<Val> {
        const eval::FunctionInfo* fn = eval::findFunction(e.name);
        if (!fn) return std::nullopt;
        if (fn->kind == "row_reduce") {
            Val v = em.emit(e.args[0]);
            if (!v.vec) em.fail(e.name + " needs a row, got a per-row value");
            std::string api = e.name == "row_max" ? "ReduceMax" : e.name == "row_min" ? "ReduceMin" : "ReduceSum";
            em.line(api + "(red_, " + v.ref + ", work_, cols_);");
            std::string s = "(float)red_.GetValue(0)";
            if (e.name == "row_mean") s += " / (float)cols_";
            return Val{false, em.scalarVar(s)};
        }
        if (fn->kind == "gather") {
            const std::string& x = e.args[0].name;
            const std::string& idx = e.args[1].name;
            return Val{false, em.scalarVar("(float)" + x + "Gm_.GetValue((uint64_t)row * cols_ + (uint32_t)" + idx +
                                          "Gm_.GetValue(row))")};
        }
        return std::nullopt;
    };
    VectorEmitter em(env, f.knowledge, "compute.out");
    // Broadcast inputs: cast once in Init's load (kept in their own buffers), rows: per step.
    std::vector<std::string> bcastCasts;
    for (const auto& i : ins) {
        if (i.role == Role::PerRow) continue;
        const std::string local = (i.role == Role::Row ? "in_" : "bc_") + i.decl->name;
        if (i.it == ct) vecVar[i.decl->name] = local + (i.role == Role::Bcast ? "_" : "");
        else if (i.role == Role::Row) {
            std::string b = em.newBuffer();
            em.line("Cast(" + b + ", " + local + ", RoundMode::CAST_NONE, cols_);");
            vecVar[i.decl->name] = b;
        } else {
            vecVar[i.decl->name] = "bcc_" + i.decl->name + "_";
        }
    }
    emitLets(em, task.compute);
    for (size_t k = 0; k < outs.size(); ++k) {
        const auto& step = task.compute.outputs[k];
        const auto& o = outs[k];
        em.setField(step.field);
        const std::string ol = "out_" + o.decl->name;
        if (o.role == Role::PerRow) {
            Val v = em.emit(step.expr);
            if (v.vec) em.fail("output '" + o.decl->name + "' has one value per row; reduce the row (row_sum, row_max, ...)");
            em.line(o.decl->name + "Gm_.SetValue(row, (" + o.it + ")(" + v.ref + "));");
        } else if (o.role == Role::Bcast) {
            em.fail("output '" + o.decl->name + "' of shape [cols] is not supported by the rowwise skeleton");
        } else if (o.it == ct) {
            em.emitInto(step.expr, ol);
        } else {
            Val v = em.emit(step.expr);
            if (!v.vec) {
                std::string b = em.newBuffer();
                em.line("Duplicate(" + b + ", (" + ct + ")(" + v.ref + "), cols_);");
                v = {true, b};
            }
            em.line("Cast(" + ol + ", " + v.ref + ", RoundMode::CAST_RINT, cols_);");
        }
    }

    auto rowBytes = [](const std::string& type) { return "(cols_ * sizeof(" + type + ") + 31) / 32 * 32"; };
    std::string k = "class DraftKernel {\npublic:\n    __aicore__ inline void Init(";
    for (const auto* list : {&ins, &outs})
        for (const auto& i : *list) k += "GM_ADDR gm_" + i.decl->name + ", ";
    k += "const " + f.tilingStruct + "& t) {\n        rows_ = t.draftRows;\n        cols_ = t.draftCols;\n";
    for (const auto& [a, v] : task.attrs) k += "        attr_" + a + "_ = t.draftAttr_" + a + ";\n";
    for (const auto* list : {&ins, &outs})
        for (const auto& i : *list) {
            std::string size = i.role == Role::Row ? "(uint64_t)rows_ * cols_" : i.role == Role::Bcast ? "cols_" : "rows_";
            k += "        " + i.decl->name + "Gm_.SetGlobalBuffer((__gm__ " + i.it + "*)gm_" + i.decl->name + ", " + size + ");\n";
        }
    size_t perColBytes = 0;
    for (const auto* list : {&ins, &outs})
        for (const auto& i : *list) {
            if (i.role == Role::PerRow) continue;
            std::string q = (list == &ins ? (i.role == Role::Row ? "inQ_" : "bcQ_") : "outQ_") + i.decl->name;
            k += "        pipe_.InitBuffer(" + q + ", 1, " + rowBytes(i.it) + ");\n";
            perColBytes += dtypeBytes(i.decl->dtype);
            if (i.role == Role::Bcast && i.it != ct) {
                k += "        pipe_.InitBuffer(bcBuf_" + i.decl->name + ", " + rowBytes(ct) + ");\n";
                perColBytes += ct == "half" ? 2 : 4;
            }
        }
    for (const auto& b : em.buffers()) k += "        pipe_.InitBuffer(" + b + ", " + rowBytes(ct) + ");\n";
    perColBytes += (em.buffers().size() + 1) * (ct == "half" ? 2 : 4);
    k += "        pipe_.InitBuffer(workBuf_, " + rowBytes(ct) + ");\n        pipe_.InitBuffer(redBuf_, 64);\n";
    k += "        red_ = redBuf_.Get<" + ct + ">();\n        work_ = workBuf_.Get<" + ct + ">();\n";
    k += "    }\n    __aicore__ inline void Process() {\n";
    k += "        // A whole row sits in UB: " + std::to_string(perColBytes) + " bytes per column.\n";
    k += "        ASSERT(cols_ * " + std::to_string(perColBytes) + "u + 64u <= " + std::to_string(f.device.ubUsableBytes) +
         "u && \"rows too long for one row per tile\");\n";
    for (const auto& i : ins) {
        if (i.role != Role::Bcast) continue;
        const std::string& n = i.decl->name;
        k += "        LocalTensor<" + i.it + "> bl_" + n + " = bcQ_" + n + ".AllocTensor<" + i.it + ">();\n";
        k += "        CopyRow(bl_" + n + ", " + n + "Gm_, 0);\n        bcQ_" + n + ".EnQue(bl_" + n + ");\n";
        k += "        bc_" + n + "_ = bcQ_" + n + ".DeQue<" + i.it + ">();\n";
        if (i.it != ct) {
            k += "        bcc_" + n + "_ = bcBuf_" + n + ".Get<" + ct + ">();\n";
            k += "        Cast(bcc_" + n + "_, bc_" + n + "_, RoundMode::CAST_NONE, cols_);\n";
        }
    }
    k += "        for (uint32_t row = 0; row < rows_; ++row) {\n            CopyIn(row);\n            Compute(row);\n"
         "            CopyOut(row);\n        }\n";
    for (const auto& i : ins)
        if (i.role == Role::Bcast) k += "        bcQ_" + i.decl->name + ".FreeTensor(bc_" + i.decl->name + "_);\n";
    k += "    }\n\nprivate:\n";
    k += "    // One row of any length: DataCopy when it is whole 32-byte units, else DataCopyPad.\n"
         "    template <typename T>\n    __aicore__ inline void CopyRow(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint64_t off) {\n"
         "        if ((cols_ * sizeof(T)) % 32 == 0) DataCopy(dst, src[off], cols_);\n"
         "        else DataCopyPad(dst, src[off], DataCopyExtParams{1, uint32_t(cols_ * sizeof(T)), 0, 0, 0},\n"
         "                         DataCopyPadExtParams<T>{false, 0, 0, static_cast<T>(0.0f)});\n    }\n";
    k += "    __aicore__ inline void CopyIn(uint32_t row) {\n";
    for (const auto& i : ins) {
        if (i.role != Role::Row) continue;
        const std::string& n = i.decl->name;
        k += "        LocalTensor<" + i.it + "> in_" + n + " = inQ_" + n + ".AllocTensor<" + i.it + ">();\n";
        k += "        CopyRow(in_" + n + ", " + n + "Gm_, (uint64_t)row * cols_);\n        inQ_" + n + ".EnQue(in_" + n + ");\n";
    }
    k += "    }\n    __aicore__ inline void Compute(uint32_t row) {\n";
    for (const auto& i : ins)
        if (i.role == Role::Row)
            k += "        LocalTensor<" + i.it + "> in_" + i.decl->name + " = inQ_" + i.decl->name + ".DeQue<" + i.it + ">();\n";
    for (const auto& o : outs)
        if (o.role == Role::Row)
            k += "        LocalTensor<" + o.it + "> out_" + o.decl->name + " = outQ_" + o.decl->name + ".AllocTensor<" + o.it + ">();\n";
    for (const auto& l : em.lines()) k += "        " + l + "\n";
    for (const auto& o : outs)
        if (o.role == Role::Row) k += "        outQ_" + o.decl->name + ".EnQue(out_" + o.decl->name + ");\n";
    for (const auto& i : ins)
        if (i.role == Role::Row) k += "        inQ_" + i.decl->name + ".FreeTensor(in_" + i.decl->name + ");\n";
    k += "    }\n    __aicore__ inline void CopyOut(uint32_t row) {\n";
    for (const auto& o : outs) {
        if (o.role != Role::Row) continue;
        const std::string& n = o.decl->name;
        k += "        LocalTensor<" + o.it + "> out_" + n + " = outQ_" + n + ".DeQue<" + o.it + ">();\n";
        k += "        if ((cols_ * sizeof(" + o.it + ")) % 32 == 0) DataCopy(" + n + "Gm_[(uint64_t)row * cols_], out_" + n +
             ", cols_);\n        else DataCopyPad(" + n + "Gm_[(uint64_t)row * cols_], out_" + n +
             ", DataCopyExtParams{1, uint32_t(cols_ * sizeof(" + o.it + ")), 0, 0, 0});\n";
        k += "        outQ_" + n + ".FreeTensor(out_" + n + ");\n";
    }
    k += "    }\n\n    TPipe pipe_;\n";
    for (const auto& i : ins) {
        if (i.role == Role::Row) k += "    TQue<TPosition::VECIN, 1> inQ_" + i.decl->name + ";\n";
        if (i.role == Role::Bcast) {
            k += "    TQue<TPosition::VECIN, 1> bcQ_" + i.decl->name + ";\n";
            k += "    LocalTensor<" + i.it + "> bc_" + i.decl->name + "_;\n";
            if (i.it != ct)
                k += "    TBuf<TPosition::VECCALC> bcBuf_" + i.decl->name + ";\n    LocalTensor<" + ct + "> bcc_" +
                     i.decl->name + "_;\n";
        }
    }
    for (const auto& o : outs)
        if (o.role == Role::Row) k += "    TQue<TPosition::VECOUT, 1> outQ_" + o.decl->name + ";\n";
    for (const auto& b : em.buffers()) k += "    TBuf<TPosition::VECCALC> " + b + ";\n";
    k += "    TBuf<TPosition::VECCALC> workBuf_, redBuf_;\n    LocalTensor<" + ct + "> work_, red_;\n";
    for (const auto* list : {&ins, &outs})
        for (const auto& i : *list) k += "    GlobalTensor<" + i.it + "> " + i.decl->name + "Gm_;\n";
    for (const auto& [a, v] : task.attrs) k += "    float attr_" + a + "_ = 0;\n";
    k += "    uint32_t rows_ = 0, cols_ = 0;\n};\n\n";
    k += "extern \"C\" __global__ __aicore__ void " + f.entry + "(" + f.kernelParams() + ") {\n" +
         "    GET_TILING_DATA_WITH_STRUCT(" + f.tilingStruct + ", tilingData, gm_tiling);\n    DraftKernel op;\n    op.Init(";
    for (const auto* list : {&ins, &outs})
        for (const auto& i : *list) k += "gm_" + i.decl->name + ", ";
    k += "tilingData);\n    op.Process();\n}\n";
    f.notes.push_back("One row per step; rows copied with DataCopyPad when not whole 32-byte units; reductions with the "
                      "count form of ReduceSum/ReduceMax read back by the scalar unit.");
    return {k, f.launch("1")};
}

} // namespace sage::agent::draft
