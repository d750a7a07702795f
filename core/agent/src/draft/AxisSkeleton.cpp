// Skeleton "axis": tensors are [outer.., R, inner..] with R the spec's `axis`; the row reductions
// (row_sum/max/min/mean, row_argmax/argmin) reduce along R for every (outer, inner) position. The
// inner axes are walked in chunks of whole 32-byte units (the last chunk ends at the inner end,
// overlapping the one before, so no DataCopyPad is needed); for each chunk, each level of
// reductions is one pass over R that folds rows into vector accumulators (Add/Max/Min, argmax by
// Compare + Select of the value and of the row index), then outputs of the full shape are written
// row by row and reduced outputs ([outer.., inner..] or with a 1 at the axis) once. (outer, chunk)
// units are dealt to BLOCK_DIM cores by GetBlockIdx().
#include "draft/RowPlan.h"
#include "draft/Skeletons.h"
#include "sage_npu/DeviceProfile.h"

#include <set>

namespace sage::agent::draft {
namespace {

using eval::Expr;

struct Tensor {
    const eval::TensorDecl* decl;
    std::string it;
    bool full;  // else reduced
    bool input;
};

class Axis {
public:
    Axis(Frame& f) : f_(f), task_(f.task), plan_(RowPlan::of(f.task.compute)) {}

    SkeletonCode compose() {
        f_.knowledge.skeleton("axis");
        f_.knowledge.idiom("row_reduce");
        classify();
        if (!plan_.scans.empty() || !plan_.totals.empty())
            throw DraftError("field 'compute.out': scans and all_sum/all_mean belong to a rowwise spec, not an axis spec");
        addFields();
        for (size_t p = 0; p < plan_.passes.size(); ++p) passes_.push_back(reductionPass(p));
        bool anyFull = false;
        for (const auto& t : tensors_) anyFull |= !t.input && t.full;
        if (anyFull) last_ = outputStage(true);
        reduced_ = outputStage(false);
        std::string k = "constexpr uint32_t BLOCK_DIM = 1;   // cores the (outer, chunk) units are dealt to\n"
                        "constexpr uint32_t TILE_ELEMS = " + std::to_string(chooseTile()) + ";  // inner elements per chunk\n"
                        "constexpr uint32_t ALIGN = " + std::to_string(alignElems()) + ";  // elements in 32 bytes\n\n";
        k += kernelClass() + entry();
        f_.notes.push_back("Reductions along axis " + std::to_string(task_.compute.axis) +
                           " folded into vector accumulators over chunks of the inner axes; units dealt to BLOCK_DIM cores.");
        return {k, f_.launch("BLOCK_DIM")};
    }

private:
    void classify() {
        if (task_.inputs.empty()) throw DraftError("field 'inputs': an axis spec needs an input");
        shape_ = task_.inputs.front().shape;
        const size_t axis = size_t(task_.compute.axis);
        if (axis >= shape_.size())
            throw DraftError("field 'compute.axis': axis " + std::to_string(axis) + " but '" + task_.inputs.front().name +
                             "' has rank " + std::to_string(shape_.size()));
        std::vector<std::string> dropped = shape_, kept = shape_;
        dropped.erase(dropped.begin() + std::ptrdiff_t(axis));
        kept[axis] = "1";
        std::vector<const eval::TensorDecl*> floats;
        for (const auto* list : {&task_.inputs, &task_.outputs})
            for (const auto& d : *list) {
                const bool input = list == &task_.inputs;
                const bool full = d.shape == shape_;
                if (!full && (input || (d.shape != dropped && d.shape != kept)))
                    throw DraftError("field 'compute.kind': \"axis\" takes inputs of shape " + shapeText(shape_) +
                                     " and outputs of that shape, " + shapeText(dropped) + " or " + shapeText(kept) + "; '" +
                                     d.name + "' is " + shapeText(d.shape));
                tensors_.push_back({&d, cxxType(d.dtype), full, input});
                if (d.dtype == "bfloat16" && !f_.device.bfloat16)
                    throw DraftError("field 'compute': bfloat16 in an axis spec on " + f_.device.id + " is not drafted yet");
                if (d.dtype != "int64") floats.push_back(&d);
            }
        ct_ = computeType(task_, floats);
        refuseShortInnerAxes(axis);
    }

    // The kernel reads the axes after `axis` in whole 32-byte blocks. A case whose inner extent is
    // shorter than one block and not a multiple of it cannot be served (it would stop at run time on
    // an assertion); say so before any evaluation, with the spec that fits.
    void refuseShortInnerAxes(size_t axis) const {
        const size_t align = alignElems();
        for (const auto& c : task_.cases) {
            std::vector<int64_t> extents;
            try {
                extents = task_.shapeOf(task_.inputs.front(), c);
            } catch (const std::exception&) {
                continue;  // a case whose shape does not evaluate is reported by the evaluation
            }
            int64_t inner = 1;
            for (size_t i = axis + 1; i < extents.size(); ++i) inner *= extents[i];
            if (inner % int64_t(align) != 0 && inner < int64_t(align))
                throw DraftError("field 'compute.axis': in case '" + c.name + "' the axes after axis " + std::to_string(axis) + " hold " +
                                 std::to_string(inner) + " element(s), less than one 32-byte block, which the axis draft reads whole; " +
                                 (axis + 1 == extents.size() ? "a reduction over the last axis is a \"rowwise\" spec"
                                                             : "move the reduced axis last and use a \"rowwise\" spec"));
        }
    }

    void addFields() {
        const size_t axis = size_t(task_.compute.axis);
        std::string outer = "1", inner = "1";
        for (size_t i = 0; i < shape_.size(); ++i)
            if (i < axis) outer += " * (" + hostExpression(task_, shape_[i]) + ")";
            else if (i > axis) inner += " * (" + hostExpression(task_, shape_[i]) + ")";
        f_.addField("draftOuter", "uint32_t", outer);
        f_.addField("draftR", "uint32_t", hostExpression(task_, shape_[axis]));
        f_.addField("draftInner", "uint32_t", inner);
        dims_ = addAttrAndDimFields(f_);
    }

    const Tensor* find(const std::string& n) const {
        for (const auto& t : tensors_)
            if (t.decl->name == n) return &t;
        return nullptr;
    }

    std::string accOf(const Expr& r) const {
        const std::string var = plan_.varOf.at(r.text());
        return r.name == "row_argmax" || r.name == "row_argmin" ? "idx_" + var : "acc_" + var;
    }

    // Names for the emitter: attrs and dims are scalars; inputs the loaded row chunk (cast to the
    // compute type when stored in another); reductions of earlier passes their accumulators.
    VectorEmitter::Env env(const std::string& prefix, size_t pass, bool rows) {
        VectorEmitter::Env e;
        e.ct = ct_;
        e.count = "len";
        e.bufPrefix = prefix;
        e.ref = [this, prefix, rows](const std::string& n) -> std::optional<Val> {
            if (task_.attrs.count(n)) return Val{false, "attr_" + n + "_"};
            if (std::find(dims_.begin(), dims_.end(), n) != dims_.end()) return Val{false, "(float)dim_" + n + "_"};
            const Tensor* t = find(n);
            if (!t || !t->input || !rows) return std::nullopt;
            auto it = casts_.find(prefix + n);
            return Val{true, it != casts_.end() ? it->second : "in_" + n + "_"};
        };
        e.special = [this, pass](const Expr& x, VectorEmitter& em) -> std::optional<Val> {
            if (functionKind(x) != "row_reduce") return std::nullopt;
            auto it = plan_.passOf.find(x.text());
            if (it == plan_.passOf.end() || it->second >= pass) em.fail("internal: " + x.name + " used before its pass");
            return Val{true, accOf(x)};
        };
        return e;
    }

    void castInputs(VectorEmitter& em, const std::string& prefix) {
        for (const auto& t : tensors_) {
            if (!t.input || t.it == ct_) continue;
            const std::string b = em.newBuffer();
            em.line("Cast(" + b + ", in_" + t.decl->name + "_, RoundMode::CAST_NONE, len);");
            casts_[prefix + t.decl->name] = b;
        }
    }

    struct Code {
        std::vector<std::string> lines, buffers;
    };

    Code reductionPass(size_t pass) {
        const std::string prefix = "p" + std::to_string(pass) + "_";
        VectorEmitter em(env(prefix, pass, true), f_.knowledge, "compute.out");
        castInputs(em, prefix);
        for (const auto& r : plan_.passes[pass]) {
            Val v = em.emit(r.expr->args[0]);
            if (!v.vec) {
                const std::string b = em.newBuffer();
                em.line("Duplicate(" + b + ", (" + ct_ + ")(" + v.ref + "), len);");
                v = {true, b};
            }
            const std::string& n = r.expr->name;
            const std::string acc = "acc_" + r.var;
            if (n == "row_argmax" || n == "row_argmin") {
                const std::string mode = n == "row_argmax" ? "CMPMODE::GT" : "CMPMODE::LT";  // strict: the first wins ties
                em.line("Compare(mask_, " + v.ref + ", " + acc + ", " + mode + ", len);");
                em.line("Select(" + acc + ", mask_, " + v.ref + ", " + acc + ", SELMODE::VSEL_TENSOR_TENSOR_MODE, len);");
                em.line("Duplicate(rowIndex_, (" + ct_ + ")r, len);");
                em.line("Select(idx_" + r.var + ", mask_, rowIndex_, idx_" + r.var + ", SELMODE::VSEL_TENSOR_TENSOR_MODE, len);");
            } else {
                const std::string api = n == "row_max" ? "Max" : n == "row_min" ? "Min" : "Add";
                em.line(api + "(" + acc + ", " + acc + ", " + v.ref + ", len);");
            }
        }
        return {em.lines(), em.buffers()};
    }

    // Outputs of the full shape (written per row, in the last pass) or of the reduced shape.
    Code outputStage(bool full) {
        const std::string prefix = full ? "fin_" : "red_";
        VectorEmitter em(env(prefix, plan_.passes.size(), full), f_.knowledge, "compute.out");
        if (full) castInputs(em, prefix);
        for (size_t i = 0; i < task_.outputs.size(); ++i) {
            const Tensor& o = *find(task_.outputs[i].name);
            if (o.full != full) continue;
            em.setField(task_.compute.outputs[i].field);
            const std::string ol = "out_" + o.decl->name;
            if (o.it == ct_) {
                em.emitInto(plan_.outputs[i], ol);
                continue;
            }
            Val v = em.emit(plan_.outputs[i]);
            if (!v.vec) {
                const std::string b = em.newBuffer();
                em.line("Duplicate(" + b + ", (" + ct_ + ")(" + v.ref + "), len);");
                v = {true, b};
            }
            if (o.it == "int64_t")
                em.line("for (uint32_t i = 0; i < len; ++i) " + o.decl->name + "Gm_.SetValue(base + i, (int64_t)" + v.ref +
                        ".GetValue(i));");
            else em.line("Cast(" + ol + ", " + v.ref + ", RoundMode::CAST_RINT, len);");
        }
        return {em.lines(), em.buffers()};
    }

    size_t alignElems() const {
        size_t narrow = 4;
        for (const auto& t : tensors_) narrow = std::min(narrow, dtypeBytes(t.decl->dtype));
        return 32 / narrow;
    }

    std::vector<std::string> allBuffers() const {
        std::vector<std::string> b = last_.buffers;
        b.insert(b.end(), reduced_.buffers.begin(), reduced_.buffers.end());
        for (const auto& p : passes_) b.insert(b.end(), p.buffers.begin(), p.buffers.end());
        return b;
    }

    uint32_t chooseTile() const {
        const size_t cb = ct_ == "half" ? 2 : 4;
        size_t perElem = cb;  // rowIndex_
        for (const auto& t : tensors_) perElem += t.it == "int64_t" ? 0 : dtypeBytes(t.decl->dtype);
        perElem += plan_.varOf.size() * cb * 2;  // an accumulator and an index per reduction
        perElem += allBuffers().size() * cb + 1;                        // calc buffers, mask bits (rounded up)
        const size_t ub = f_.device.ubUsableBytes > 2048 ? f_.device.ubUsableBytes - 2048 : 0;
        size_t tile = std::min<size_t>(ub / perElem / 64 * 64, 16384);
        if (tile < 64) throw DraftError("field 'compute': an axis spec this large does not fit the Unified Buffer");
        return uint32_t(tile);
    }

    std::string kernelClass() const;
    std::string processCode() const;
    std::string rowLoop(const std::string& name, const Code& code, const std::string& before, const std::string& after,
                        bool store) const;
    std::string entry() const;

    Frame& f_;
    const eval::Task& task_;
    RowPlan plan_;
    std::vector<std::string> shape_, dims_;
    std::vector<Tensor> tensors_;
    std::string ct_;
    std::map<std::string, std::string> casts_;
    std::vector<Code> passes_;
    Code last_, reduced_;
};

std::string Axis::rowLoop(const std::string& name, const Code& code, const std::string& before, const std::string& after,
                          bool store) const {
    std::string k = "    __aicore__ inline void " + name + "(uint32_t o, uint32_t c0, uint32_t len) {\n" + before +
                    "        for (uint32_t r = 0; r < r_; ++r) {\n            const uint64_t base = ((uint64_t)o * r_ + r) * inner_ + c0;\n";
    for (const auto& t : tensors_)
        if (t.input) {
            const std::string& n = t.decl->name;
            k += "            { LocalTensor<" + t.it + "> t = inQ_" + n + ".AllocTensor<" + t.it + ">(); DataCopy(t, " + n +
                 "Gm_[base], len); inQ_" + n + ".EnQue(t); in_" + n + "_ = inQ_" + n + ".DeQue<" + t.it + ">(); }\n";
        }
    for (const auto& t : tensors_)
        if (store && !t.input && t.full && t.it != "int64_t")
            k += "            LocalTensor<" + t.it + "> out_" + t.decl->name + " = outQ_" + t.decl->name + ".AllocTensor<" + t.it + ">();\n";
    for (const auto& l : code.lines) k += "            " + l + "\n";
    for (const auto& t : tensors_)
        if (store && !t.input && t.full && t.it != "int64_t") {
            const std::string& n = t.decl->name;
            k += "            outQ_" + n + ".EnQue(out_" + n + ");\n            out_" + n + " = outQ_" + n + ".DeQue<" + t.it +
                 ">();\n            DataCopy(" + n + "Gm_[base], out_" + n + ", len);\n            outQ_" + n + ".FreeTensor(out_" + n + ");\n";
        }
    for (const auto& t : tensors_)
        if (t.input) k += "            inQ_" + t.decl->name + ".FreeTensor(in_" + t.decl->name + "_);\n";
    return k + "        }\n" + after + "    }\n";
}

std::string Axis::processCode() const {
    std::string k = "    __aicore__ inline void Process() {\n"
                    "        ASSERT((inner_ % ALIGN == 0 || inner_ >= ALIGN) && \"inner axes shorter than 32 bytes\");\n"
                    "        // Fewer (outer, chunk) units than cores (a reduction over the first axes): shorter\n"
                    "        // chunks, whole 32-byte units, so that every core gets one.\n"
                    "        uint32_t tile = TILE_ELEMS;\n"
                    "        const uint32_t wanted = (GetBlockNum() + outer_ - 1) / outer_;\n"
                    "        if (wanted > 1) {\n"
                    "            const uint32_t shorter = ((inner_ + wanted - 1) / wanted + ALIGN - 1) / ALIGN * ALIGN;\n"
                    "            if (shorter < tile) tile = shorter > ALIGN ? shorter : ALIGN;\n"
                    "        }\n"
                    "        const uint32_t chunks = (inner_ + tile - 1) / tile;\n"
                    "        const uint32_t units = outer_ * chunks;\n"
                    "        const uint32_t per = (units + GetBlockNum() - 1) / GetBlockNum();\n"
                    "        const uint32_t u0 = GetBlockIdx() * per < units ? GetBlockIdx() * per : units;\n"
                    "        const uint32_t u1 = u0 + per < units ? u0 + per : units;\n"
                    "        for (uint32_t u = u0; u < u1; ++u) {\n"
                    "            const uint32_t o = u / chunks;\n"
                    "            uint32_t c0 = (u % chunks) * tile;\n"
                    "            const uint32_t len = inner_ - c0 < tile ? inner_ - c0 : tile;\n"
                    "            const uint32_t whole = len / ALIGN * ALIGN;  // whole 32-byte units\n"
                    "            if (whole > 0) Unit(o, c0, whole);\n"
                    "            if (whole < len) Unit(o, inner_ - ALIGN, ALIGN);  // the end as one window, overlapping\n"
                    "        }\n    }\n"
                    "    __aicore__ inline void Unit(uint32_t o, uint32_t c0, uint32_t len) {\n";
    for (size_t p = 0; p < passes_.size(); ++p) k += "        Pass" + std::to_string(p) + "(o, c0, len);\n";
    if (!last_.lines.empty()) k += "        LastPass(o, c0, len);\n";
    return k + "        Reduced(o, c0, len);\n    }\n";
}

std::string Axis::kernelClass() const {
    std::string k = "class DraftKernel {\npublic:\n    __aicore__ inline void Init(";
    for (const auto& t : tensors_) k += "GM_ADDR gm_" + t.decl->name + ", ";
    k += "const " + f_.tilingStruct + "& t) {\n        outer_ = t.draftOuter;\n        r_ = t.draftR;\n        inner_ = t.draftInner;\n";
    for (const auto& [a, v] : task_.attrs) k += "        attr_" + a + "_ = t.draftAttr_" + a + ";\n";
    for (const auto& d : dims_) k += "        dim_" + d + "_ = t.draftDim_" + d + ";\n";
    for (const auto& t : tensors_)
        k += "        " + t.decl->name + "Gm_.SetGlobalBuffer((__gm__ " + t.it + "*)gm_" + t.decl->name + ", (uint64_t)outer_ * " +
             (t.full ? "r_ * " : "") + "inner_);\n";
    for (const auto& t : tensors_) {
        if (t.it == "int64_t") continue;
        k += "        pipe_.InitBuffer(" + std::string(t.input ? "inQ_" : "outQ_") + t.decl->name + ", 1, TILE_ELEMS * sizeof(" +
             t.it + "));\n";
    }
    std::vector<std::string> bufs = allBuffers();
    for (const auto& [text, var] : plan_.varOf) bufs.push_back("accBuf_" + var), bufs.push_back("idxBuf_" + var);
    for (const auto& b : bufs) k += "        pipe_.InitBuffer(" + b + ", TILE_ELEMS * sizeof(" + ct_ + "));\n";
    k += "        pipe_.InitBuffer(maskBuf_, (TILE_ELEMS / 8 + 31) / 32 * 32);\n        pipe_.InitBuffer(rowIndexBuf_, TILE_ELEMS * sizeof(" +
         ct_ + "));\n        mask_ = maskBuf_.Get<uint8_t>();\n        rowIndex_ = rowIndexBuf_.Get<" + ct_ + ">();\n";
    for (const auto& [text, var] : plan_.varOf)
        k += "        acc_" + var + " = accBuf_" + var + ".Get<" + ct_ + ">();\n        idx_" + var + " = idxBuf_" + var + ".Get<" + ct_ + ">();\n";
    k += "    }\n" + processCode() + "\nprivate:\n";
    for (size_t p = 0; p < passes_.size(); ++p) {
        std::string before, after;
        for (const auto& r : plan_.passes[p]) {
            const std::string& n = r.expr->name;
            const std::string init = n == "row_max" || n == "row_argmax" ? "-3.402823466e38f"
                                     : n == "row_min" || n == "row_argmin" ? "3.402823466e38f" : "0.0f";
            before += "        Duplicate(acc_" + r.var + ", (" + ct_ + ")" + init + ", len);\n";
            if (n == "row_argmax" || n == "row_argmin") before += "        Duplicate(idx_" + r.var + ", (" + ct_ + ")0.0f, len);\n";
            if (n == "row_mean") after += "        Muls(acc_" + r.var + ", acc_" + r.var + ", (" + ct_ + ")(1.0f / (float)r_), len);\n";
        }
        k += rowLoop("Pass" + std::to_string(p), passes_[p], before, after, false);
    }
    if (!last_.lines.empty()) k += rowLoop("LastPass", last_, "", "", true);
    k += "    __aicore__ inline void Reduced(uint32_t o, uint32_t c0, uint32_t len) {\n"
         "        const uint64_t base = (uint64_t)o * inner_ + c0;\n        (void)base;\n";
    for (const auto& t : tensors_)
        if (!t.input && !t.full && t.it != "int64_t")
            k += "        LocalTensor<" + t.it + "> out_" + t.decl->name + " = outQ_" + t.decl->name + ".AllocTensor<" + t.it + ">();\n";
    for (const auto& l : reduced_.lines) k += "        " + l + "\n";
    for (const auto& t : tensors_)
        if (!t.input && !t.full && t.it != "int64_t") {
            const std::string& n = t.decl->name;
            k += "        outQ_" + n + ".EnQue(out_" + n + ");\n        out_" + n + " = outQ_" + n + ".DeQue<" + t.it +
                 ">();\n        DataCopy(" + n + "Gm_[base], out_" + n + ", len);\n        outQ_" + n + ".FreeTensor(out_" + n + ");\n";
        }
    k += "    }\n\n    TPipe pipe_;\n";
    for (const auto& t : tensors_) {
        if (t.it == "int64_t") continue;
        if (t.input) k += "    TQue<TPosition::VECIN, 1> inQ_" + t.decl->name + ";\n    LocalTensor<" + t.it + "> in_" + t.decl->name + "_;\n";
        else k += "    TQue<TPosition::VECOUT, 1> outQ_" + t.decl->name + ";\n";
    }
    for (const auto& b : bufs) k += "    TBuf<TPosition::VECCALC> " + b + ";\n";
    k += "    TBuf<TPosition::VECCALC> maskBuf_, rowIndexBuf_;\n    LocalTensor<uint8_t> mask_;\n    LocalTensor<" + ct_ + "> rowIndex_;\n";
    for (const auto& [text, var] : plan_.varOf) k += "    LocalTensor<" + ct_ + "> acc_" + var + ", idx_" + var + ";\n";
    for (const auto& t : tensors_) k += "    GlobalTensor<" + t.it + "> " + t.decl->name + "Gm_;\n";
    for (const auto& [a, v] : task_.attrs) k += "    float attr_" + a + "_ = 0;\n";
    for (const auto& d : dims_) k += "    uint32_t dim_" + d + "_ = 0;\n";
    return k + "    uint32_t outer_ = 0, r_ = 0, inner_ = 0;\n};\n\n";
}

std::string Axis::entry() const {
    std::string k = "extern \"C\" __global__ __aicore__ void " + f_.entry + "(" + f_.kernelParams() + ") {\n" +
                    "    GET_TILING_DATA_WITH_STRUCT(" + f_.tilingStruct + ", tilingData, gm_tiling);\n    DraftKernel op;\n    op.Init(";
    for (const auto& t : tensors_) k += "gm_" + t.decl->name + ", ";
    return k + "tilingData);\n    op.Process();\n}\n";
}

} // namespace

SkeletonCode composeAxis(Frame& f) { return Axis(f).compose(); }

} // namespace sage::agent::draft
