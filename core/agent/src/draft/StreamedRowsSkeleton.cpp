// Skeleton "rowwise", streamed: tensors are viewed as [rows, cols] where a row is the last
// `row_axes` axes (default 1). Each row is walked in chunks of TILE_ELEMS elements, once per
// level of row reductions (softmax: max, then the sum of exp(x - max), then the output), so rows
// of any length fit; a row that fits in one chunk is loaded once and kept for every pass. Rows
// are dealt to the cores in contiguous blocks (GetBlockIdx), BLOCK_DIM = 1 in the draft. Running
// scans are a scalar loop over each chunk in the last pass (without DataCopyPad, the window at a row's
// end takes its first values from the scan's history). Per-row values summed over all rows
// (all_sum, all_mean) leave one partial per core in a workspace, and a second one-core launch
// adds them up and writes the [1] output. Unaligned chunks are copied with DataCopyPad.
#include "draft/RowPlan.h"
#include "draft/Skeletons.h"
#include "sage_npu/DeviceProfile.h"

#include <set>

namespace sage::agent::draft {
namespace {

using eval::Expr;

enum class Role { Row, Bcast, PerRow, Total };

struct Io {
    const eval::TensorDecl* decl;
    std::string it;  // element type in GM
    Role role;
    bool input;
};

struct Layout {
    // With row_lead_axes a row is also spread over leading axes (batch norm over [N, C, H, W]: a
    // row per channel, N segments of H*W elements, C*H*W apart in GM); bcastShape is then one
    // segment's shape and leadShape the leading axes.
    std::vector<std::string> rowShape, bcastShape, perRowShape, leadShape;
    std::vector<Io> io;
    std::string ct;
};

Layout classify(Frame& f, bool bf16Bits) {
    const eval::Task& task = f.task;
    const size_t axes = size_t(task.compute.rowAxes);
    Layout l;
    for (const auto* list : {&task.inputs, &task.outputs})
        for (const auto& d : *list)
            if (l.rowShape.empty() && d.shape.size() >= axes && d.shape.size() > 1) l.rowShape = d.shape;
    if (l.rowShape.empty()) l.rowShape = task.inputs.empty() ? std::vector<std::string>{} : task.inputs.front().shape;
    if (l.rowShape.size() < axes)
        throw DraftError("field 'compute.row_axes': " + std::to_string(axes) + " row axes, but no tensor has that many");
    const size_t lead = size_t(task.compute.rowLeadAxes);
    if (lead > 0 && l.rowShape.size() <= axes + lead)
        throw DraftError("field 'compute.row_lead_axes': " + std::to_string(lead) + " leading and " + std::to_string(axes) +
                         " trailing row axes leave no axis of " + shapeText(l.rowShape) + " to index the rows");
    l.bcastShape.assign(l.rowShape.end() - std::ptrdiff_t(axes), l.rowShape.end());
    l.leadShape.assign(l.rowShape.begin(), l.rowShape.begin() + std::ptrdiff_t(lead));
    l.perRowShape.assign(l.rowShape.begin() + std::ptrdiff_t(lead), l.rowShape.end() - std::ptrdiff_t(axes));
    std::vector<const eval::TensorDecl*> floats;
    for (const auto* list : {&task.inputs, &task.outputs})
        for (const auto& d : *list) {
            const bool input = list == &task.inputs;
            Role r;
            if (d.shape == l.rowShape) r = Role::Row;
            else if (d.shape == l.bcastShape && lead == 0) r = Role::Bcast;
            else if (!l.perRowShape.empty() && d.shape == l.perRowShape) r = Role::PerRow;
            else if (!input && d.shape == std::vector<std::string>{"1"}) r = Role::Total;
            else
                throw DraftError("field 'compute.kind': \"rowwise\" takes tensors of shape " + shapeText(l.rowShape) + ", " +
                                 shapeText(l.bcastShape) + ", " + shapeText(l.perRowShape) + " or an output [1]; '" + d.name +
                                 "' is " + shapeText(d.shape));
            if (r == Role::PerRow && input && d.dtype != "int32")
                throw DraftError("field 'compute': a per-row input ('" + d.name + "') must be an int32 index for gather");
            l.io.push_back({&d, bf16Bits && d.dtype == "bfloat16" ? std::string("int16_t") : cxxType(d.dtype), r, input});
            if (!(r == Role::PerRow && input)) floats.push_back(&d);
        }
    l.ct = computeType(task, floats);
    return l;
}

// The generated code of one pass: the vector lines per chunk and the buffers they use.
struct PassCode {
    std::vector<std::string> lines;
    std::vector<std::string> buffers;
    std::set<std::string> inputs;  // row/broadcast inputs the pass reads
};

class StreamedRows {
public:
    StreamedRows(Frame& f, Layout l) : f_(f), task_(f.task), l_(std::move(l)), plan_(RowPlan::of(task_.compute)) {}

    SkeletonCode compose() {
        f_.knowledge.skeleton("rowwise");
        const std::string tail = f_.knowledge.idiom("tail_copy").value("method", "");
        window_ = tail != "datacopy_pad";
        f_.knowledge.idiom("row_reduce");
        for (const auto& pass : plan_.passes)
            for (const auto& r : pass) nanCheck_ |= task_.specialValues && (r.expr->name == "row_max" || r.expr->name == "row_min");
        if (segmented() && !plan_.scans.empty())
            throw DraftError("field 'compute.row_lead_axes': a running scan over a row spread over leading axes is not drafted yet");
        if (!plan_.totals.empty() && task_.launch.present)
            throw DraftError("field 'launch': all_sum/all_mean need a workspace and a second launch; a task with a fixed "
                             "launch cannot have them");
        addFields();
        for (size_t p = 0; p < plan_.passes.size(); ++p) passes_.push_back(reductionPass(p));
        final_ = finalPass();
        perRow_ = perRowStage();
        if (!plan_.totals.empty()) combine_ = combineStage();
        tileElems_ = chooseTile();
        std::string k = "constexpr uint32_t BLOCK_DIM = 1;   // cores the rows are dealt to\n"
                        "constexpr uint32_t TILE_ELEMS = " + std::to_string(tileElems_) + ";  // elements of a row per chunk\n"
                        "constexpr uint32_t ROWS_PER_TILE = 8;  // rows per copy when a row fits in a tile\n";
        if (window_)
            k += "// Without DataCopyPad a row's last partial 32-byte unit is read as one window of WINDOW elements ending\n"
                 "// at the row's end; the elements it shares with the chunk before are skipped by the reductions.\n"
                 "constexpr uint32_t WINDOW = " + std::to_string(windowElems()) + ";\n";
        k += "\n";
        for (const auto& io : l_.io)
            if (io.it == "int16_t" && io.decl->dtype == "bfloat16") {
                k += bf16BitsHelpers();
                break;
            }
        k += kernelClass() + entry();
        if (!plan_.totals.empty()) k += combineKernel();
        f_.notes.push_back("Rows streamed in chunks, one pass per level of row reductions (" +
                           std::to_string(plan_.passes.size()) + "), a row that fits one chunk loaded once; rows dealt "
                           "to BLOCK_DIM cores.");
        return {k, host()};
    }

private:
    bool segmented() const { return !l_.leadShape.empty(); }
    // Where element c0 of a row starts in GM.
    std::string rowOffset(const std::string& row, const std::string& c0) const {
        return segmented() ? "SegOffset(" + row + ", " + c0 + ")" : "(uint64_t)" + row + " * cols_ + " + c0;
    }
    // Every row and broadcast input is loaded with each chunk (a pass may read any of them).
    static bool streamed(const Io& io) { return io.input && (io.role == Role::Row || io.role == Role::Bcast); }
    const Io* find(const std::string& name) const {
        for (const auto& io : l_.io)
            if (io.decl->name == name) return &io;
        return nullptr;
    }

    void addFields() {
        std::string rows = "1";
        for (const auto& s : l_.perRowShape) rows += " * (" + hostExpression(task_, s) + ")";
        std::string cols = "1";
        for (const auto& s : l_.bcastShape) cols += " * (" + hostExpression(task_, s) + ")";
        const std::string seg = cols;
        for (const auto& s : l_.leadShape) cols += " * (" + hostExpression(task_, s) + ")";
        f_.addField("draftRows", "uint32_t", rows);
        f_.addField("draftCols", "uint32_t", cols);
        if (segmented()) f_.addField("draftSeg", "uint32_t", seg);
        dims_ = addAttrAndDimFields(f_);
    }

    // The emitter's view of names: attrs and dims are scalars; row and broadcast inputs are the
    // loaded chunk (cast to the compute type once per pass when stored in another type).
    VectorEmitter::Env env(const std::string& prefix, PassCode& code, bool chunk) {
        VectorEmitter::Env e;
        e.ct = l_.ct;
        e.count = "len";
        e.bufPrefix = prefix;
        e.ref = [this, &code, chunk, prefix](const std::string& n) -> std::optional<Val> {
            if (task_.attrs.count(n)) return Val{false, "attr_" + n + "_"};
            if (std::find(dims_.begin(), dims_.end(), n) != dims_.end()) return Val{false, "(float)dim_" + n + "_"};
            const Io* io = find(n);
            if (!io || !io->input) return std::nullopt;
            if (io->role == Role::PerRow) return Val{false, "(float)" + n + "Gm_.GetValue(row)"};
            // Outside the chunk loop a row is no value: the stage reports it as a row left unreduced.
            if (!chunk) return Val{true, "row_" + n + "_"};
            code.inputs.insert(n);
            const std::string held = (io->role == Role::Row ? "row_" : "bc_") + n + "_";
            if (io->it == l_.ct) return Val{true, held};
            auto it = casts_.find(prefix + n);
            if (it != casts_.end()) return Val{true, it->second};
            return std::nullopt;  // resolved by castInput below
        };
        return e;
    }

    // Emits the cast of every non-compute-type input a pass reads, ahead of its lines.
    void castInputs(VectorEmitter& em, const std::string& prefix) {
        for (const auto& io : l_.io) {
            if (!streamed(io) || io.it == l_.ct) continue;
            const std::string held = std::string(io.role == Role::Row ? "row_" : "bc_") + io.decl->name + "_";
            if (io.it == "int16_t" && io.decl->dtype == "bfloat16") {
                casts_[prefix + io.decl->name] = widenBf16Bits(em, held);
                continue;
            }
            const std::string b = em.newBuffer();
            em.line("Cast(" + b + ", " + held + ", RoundMode::CAST_NONE, len);");
            casts_[prefix + io.decl->name] = b;
        }
    }

    std::optional<Val> reducedValue(const Expr& e, size_t pass) const {
        const std::string kind = functionKind(e);
        if (kind != "row_reduce") return std::nullopt;
        auto it = plan_.passOf.find(e.text());
        if (it == plan_.passOf.end() || it->second >= pass) return std::nullopt;
        return Val{false, plan_.varOf.at(e.text())};
    }

    std::optional<Val> gatherValue(const Expr& e, VectorEmitter& em) const {
        if (functionKind(e) != "gather") return std::nullopt;
        const std::string& x = e.args[0].name;
        const std::string& idx = e.args[1].name;
        const Io* xi = find(x);
        if (!xi || xi->role != Role::Row) em.fail("gather(x, index) needs x of the row shape");
        if (segmented()) em.fail("gather(x, index) over a row spread over leading axes (row_lead_axes) is not drafted yet");
        // A held row is already in the UB: reading the picked element there costs a UB access instead of
        // a scalar GM read that misses the data cache on every row.
        const std::string at = "(uint32_t)" + idx + "Gm_.GetValue(row)";
        return Val{false, em.scalarVar("(rowHeld_ ? (float)row_" + x + "_.GetValue(" + at + ") : (float)" + x +
                                      "Gm_.GetValue((uint64_t)row * cols_ + " + at + "))")};
    }

    PassCode reductionPass(size_t pass) {
        PassCode code;
        const std::string prefix = "p" + std::to_string(pass) + "_";
        VectorEmitter::Env e = env(prefix, code, true);
        e.special = [this, pass](const Expr& x, VectorEmitter& em) -> std::optional<Val> {
            if (auto v = reducedValue(x, pass)) return v;
            if (auto v = gatherValue(x, em)) return v;
            if (functionKind(x) == "row_reduce") em.fail("internal: " + x.name + " used before its pass");
            return std::nullopt;
        };
        VectorEmitter em(e, f_.knowledge, "compute.out");
        needsCasts(em, prefix, code);
        for (const auto& r : plan_.passes[pass]) {
            Val v = em.emit(r.expr->args[0]);
            if (!v.vec) {
                const std::string b = em.newBuffer();
                em.line("Duplicate(" + b + ", (" + l_.ct + ")(" + v.ref + "), len);");
                v = {true, b};
            }
            const std::string& n = r.expr->name;
            const std::string api = n == "row_max" ? "ReduceMax" : n == "row_min" ? "ReduceMin" : "ReduceSum";
            const bool nan = nanCheck_ && n != "row_sum" && n != "row_mean";
            auto combine = [&](const std::string& got) {
                const std::string f = n == "row_max" ? "std::fmax" : "std::fmin";
                if (nan) return r.var + " = std::isnan(" + r.var + ") || std::isnan(" + got + ") ? NAN : " + f + "(" + r.var + ", " + got + ");";
                if (n == "row_max" || n == "row_min") return r.var + " = " + f + "(" + r.var + ", " + got + ");";
                return r.var + " += " + got + ";";
            };
            if (window_) em.line("if (skip == 0) {");
            if (nan) {  // PyTorch's max propagates NaN, the vector unit's skips it: a NaN in the chunk makes the value NaN
                em.line("Compare(mask_, " + v.ref + ", " + v.ref + ", CMPMODE::EQ, len);");
                em.line("Select(nan_, mask_, zero_, (" + l_.ct + ")NAN, SELMODE::VSEL_TENSOR_SCALAR_MODE, len);");
                em.line("ReduceSum(red_, nan_, work_, len);");
                em.line("const float nanIn" + r.var + " = (float)red_.GetValue(0);");
            }
            em.line(api + "(red_, " + v.ref + ", work_, len);");
            em.line(combine(nan ? "(std::isnan(nanIn" + r.var + ") ? NAN : (float)red_.GetValue(0))" : "(float)red_.GetValue(0)"));
            if (window_) {
                em.line("} else {  // a window: only its last len - skip elements are new");
                em.line("for (uint32_t i = skip; i < len; ++i) " + combine("(float)" + v.ref + ".GetValue(i)"));
                em.line("}");
            }
        }
        code.lines = em.lines();
        code.buffers = em.buffers();
        return code;
    }

    // Emits the casts of inputs stored in another type than the compute type, once per chunk.
    void needsCasts(VectorEmitter& em, const std::string& prefix, PassCode&) { castInputs(em, prefix); }

    std::optional<Val> scanValue(const Expr& e, VectorEmitter& em) {
        if (functionKind(e) != "row_scan") return std::nullopt;
        Val v = em.emit(e.args[0]);
        if (!v.vec) em.fail(e.name + " scans a row; its argument is one value per row");
        const std::string var = plan_.varOf.at(e.text());
        const std::string d = em.newBuffer();
        const std::string loop = plan_.reverse ? "for (uint32_t i = len; i-- > 0;) {" : "for (uint32_t i = 0; i < len; ++i) {";
        const std::string step = "(" + var + (e.name == "row_scan_prod" ? " *= " : " += ") + "(float)" + v.ref + ".GetValue(i))";
        if (!window_) {
            em.line(loop + " " + step + "; " + d + ".SetValue(i, (" + l_.ct + ")" + var + "); }");
            return Val{true, d};
        }
        // A window's first `skip` elements belong to the neighbouring aligned chunk. Walking forward
        // that chunk came first: its values are kept in the last WINDOW positions' history. Walking
        // backward it comes next and rewrites them, so the window stores a placeholder there.
        if (plan_.reverse) {
            em.line(loop + " float v_ = i < skip ? " + var + " : " + step + "; " + d + ".SetValue(i, (" + l_.ct + ")v_); }");
        } else {
            const std::string h = var + "hist[(c0 + i) % WINDOW]";
            em.line(loop + " float v_ = i < skip ? " + h + " : " + step + "; " + h + " = v_; " + d + ".SetValue(i, (" + l_.ct +
                    ")v_); }");
        }
        return Val{true, d};
    }

    PassCode finalPass() {
        PassCode code;
        const size_t pass = plan_.passes.size();
        VectorEmitter::Env e = env("fin_", code, true);
        e.special = [this, pass](const Expr& x, VectorEmitter& em) -> std::optional<Val> {
            if (auto v = reducedValue(x, pass)) return v;
            if (auto v = gatherValue(x, em)) return v;
            return scanValue(x, em);
        };
        VectorEmitter em(e, f_.knowledge, "compute.out");
        needsCasts(em, "fin_", code);
        for (size_t k = 0; k < l_.io.size(); ++k) {
            const Io& o = l_.io[k];
            if (o.input || o.role != Role::Row) continue;
            const size_t idx = outputIndex(o);
            em.setField(task_.compute.outputs[idx].field);
            const std::string ol = "out_" + o.decl->name;
            if (o.it == l_.ct) {
                em.emitInto(plan_.outputs[idx], ol);
                continue;
            }
            Val v = em.emit(plan_.outputs[idx]);
            if (!v.vec) {
                const std::string b = em.newBuffer();
                em.line("Duplicate(" + b + ", (" + l_.ct + ")(" + v.ref + "), len);");
                v = {true, b};
            }
            if (o.it == "int16_t" && o.decl->dtype == "bfloat16") narrowToBf16Bits(em, v.ref, ol);
            else em.line("Cast(" + ol + ", " + v.ref + ", RoundMode::CAST_RINT, len);");
        }
        code.lines = em.lines();
        code.buffers = em.buffers();
        return code;
    }

    size_t outputIndex(const Io& o) const {
        for (size_t i = 0; i < task_.outputs.size(); ++i)
            if (task_.outputs[i].name == o.decl->name) return i;
        return 0;
    }

    static std::string scalarStore(const Io& o, const std::string& value) {
        if (o.it == "int16_t" && o.decl->dtype == "bfloat16") return "FloatToBf16Bits(" + value + ")";
        return "(" + o.it + ")(" + value + ")";
    }

    // Outputs of one value (per row, or in all) written by the scalar unit at `index`.
    void storeScalarOutputs(VectorEmitter& em, Role role, const std::string& index, const std::string& ifRow) {
        for (const auto& o : l_.io) {
            if (o.input || o.role != role) continue;
            const size_t idx = outputIndex(o);
            em.setField(task_.compute.outputs[idx].field);
            Val v = em.emit(plan_.outputs[idx]);
            if (v.vec) em.fail("output '" + o.decl->name + "' " + ifRow);
            em.line(o.decl->name + "Gm_.SetValue(" + index + ", " + scalarStore(o, v.ref) + ");");
        }
    }

    // After the passes: outputs with one value per row, and the per-row terms of the totals.
    PassCode perRowStage() {
        PassCode code;
        const size_t pass = plan_.passes.size();
        VectorEmitter::Env e = env("row_", code, false);
        e.special = [this, pass](const Expr& x, VectorEmitter& em) -> std::optional<Val> {
            if (auto v = reducedValue(x, pass)) return v;
            return gatherValue(x, em);
        };
        VectorEmitter em(e, f_.knowledge, "compute.out");
        storeScalarOutputs(em, Role::PerRow, "row", "has one value per row; reduce the row (row_sum, row_max, ...)");
        for (const Expr* t : plan_.totals) {
            Val v = em.emit(t->args[0]);
            if (v.vec) em.fail(t->name + " sums one value per row over the rows; reduce the row first (row_sum, row_mean, ...)");
            em.line(plan_.varOf.at(t->text()) + " += " + v.ref + ";");
        }
        code.lines = em.lines();
        return code;
    }

    // The second launch: every core's partials added up, the [1] outputs written.
    PassCode combineStage() {
        PassCode code;
        VectorEmitter::Env e = env("cmb_", code, false);
        e.special = [this](const Expr& x, VectorEmitter& em) -> std::optional<Val> {
            if (functionKind(x) != "rows_total") {
                if (!functionKind(x).empty() && functionKind(x) != "elementwise")
                    em.fail(x.name + " inside an output of shape [1] must sit inside all_sum or all_mean");
                return std::nullopt;
            }
            const std::string var = plan_.varOf.at(x.text());
            return Val{false, x.name == "all_mean" ? "(" + var + " / (float)rows_)" : var};
        };
        VectorEmitter em(e, f_.knowledge, "compute.out");
        storeScalarOutputs(em, Role::Total, "0", "of shape [1] must be a value summed over the rows (all_sum, all_mean)");
        for (const auto& o : l_.io)
            if (o.role == Role::Row && !o.input) em.fail("an output of shape [1] and row outputs in one spec are not drafted yet");
        code.lines = em.lines();
        return code;
    }

    // Elements in 32 bytes of the narrowest streamed type: a window every tensor can copy whole.
    size_t windowElems() const {
        size_t narrow = 4;
        for (const auto& io : l_.io)
            if (io.role == Role::Row || io.role == Role::Bcast) narrow = std::min(narrow, dtypeBytes(io.decl->dtype));
        return 32 / narrow;
    }

    uint32_t chooseTile() const {
        size_t perElem = (l_.ct == "half" ? 2 : 4);  // work_
        for (const auto& io : l_.io)
            if ((io.role == Role::Row || io.role == Role::Bcast)) perElem += dtypeBytes(io.decl->dtype);
        size_t buffers = final_.buffers.size();
        for (const auto& p : passes_) buffers += p.buffers.size();
        if (nanCheck_) buffers += 2;  // nan_ and zero_ (and a mask bit per element, within `fixed`'s slack below)
        perElem += buffers * (l_.ct == "half" ? 2 : 4);
        const size_t fixed = 64 + 32 * plan_.totals.size() + 1024 + (nanCheck_ ? 32768 / 8 + 32 : 0);
        const size_t ub = f_.device.ubUsableBytes > fixed ? f_.device.ubUsableBytes - fixed : 0;
        size_t tile = ub / perElem / 64 * 64;
        if (tile < 64) throw DraftError("field 'compute': the spec needs " + std::to_string(perElem) +
                                        " bytes of UB per element; not even 64 elements fit");
        tile = std::min<size_t>(tile, 32768);
        if (window_) tile = tile / windowElems() * windowElems();
        return uint32_t(tile);
    }

    std::string kernelClass() const;
    std::string processCode() const;
    std::string holdRule() const;
    std::string heldRowLoop() const;
    std::string passFunction(const std::string& name, const PassCode& code, const std::string& body,
                             bool reverse) const;
    std::string loadRelease() const;
    std::string entry() const;
    std::string combineKernel() const;
    std::vector<CombineOutput> totalOutputs() const;
    std::string host() const;

    Frame& f_;
    const eval::Task& task_;
    Layout l_;
    RowPlan plan_;
    std::vector<std::string> dims_;
    std::map<std::string, std::string> casts_;
    std::vector<PassCode> passes_;
    PassCode final_, perRow_, combine_;
    uint32_t tileElems_ = 0;
    bool window_ = false;          // no DataCopyPad: a row's unaligned end is read as an overlapping window
    bool nanCheck_ = false;        // NaN may reach a row_max/row_min (Task::specialValues): propagate it
    mutable std::string chunks_;   // the <pass>Chunk functions, collected while the passes are written
};


std::string StreamedRows::loadRelease() const {
    std::string k = "    // One chunk of every row input (and of the broadcast inputs unless they are held whole).\n"
                    "    __aicore__ inline void Load(uint32_t row, uint32_t c0, uint32_t len) {\n";
    for (const auto& io : l_.io) {
        if (!streamed(io)) continue;
        const std::string& n = io.decl->name;
        const bool row = io.role == Role::Row;
        const std::string q = (row ? "inQ_" : "bcQ_") + n, held = (row ? "in_" : "bc_") + n + "_";
        const std::string off = row ? rowOffset("row", "c0") : "c0";
        std::string body = "LocalTensor<" + io.it + "> t_" + n + " = " + q + ".AllocTensor<" + io.it + ">(); CopyChunk(t_" + n +
                           ", " + n + "Gm_, " + off + ", len); " + q + ".EnQue(t_" + n + "); " + held + " = " + q + ".DeQue<" +
                           io.it + ">();" + (row ? " row_" + n + "_ = " + held + ";" : "");
        k += row ? "        " + body + "\n" : "        if (!bcastHeld_) { " + body + " }\n";
    }
    k += "    }\n    __aicore__ inline void Release() {\n";
    for (const auto& io : l_.io) {
        if (!streamed(io)) continue;
        const std::string& n = io.decl->name;
        if (io.role == Role::Row) k += "        inQ_" + n + ".FreeTensor(in_" + n + "_);\n";
        else k += "        if (!bcastHeld_) bcQ_" + n + ".FreeTensor(bc_" + n + "_);\n";
    }
    k += "    }\n";
    if (window_)
        return k + "    // Every chunk is whole 32-byte units (the row's end is read as a window): plain DataCopy.\n"
                   "    template <typename T>\n"
                   "    __aicore__ inline void CopyChunk(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint64_t off, uint32_t len) {\n"
                   "        DataCopy(dst, src[off], len);\n    }\n"
                   "    template <typename T>\n"
                   "    __aicore__ inline void StoreChunk(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint64_t off, uint32_t len) {\n"
                   "        DataCopy(dst[off], src, len);\n    }\n";
    k += "    // A chunk of any length: DataCopy when it is whole 32-byte units, else DataCopyPad.\n"
         "    template <typename T>\n"
         "    __aicore__ inline void CopyChunk(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint64_t off, uint32_t len) {\n"
         "        if ((len * sizeof(T)) % 32 == 0) DataCopy(dst, src[off], len);\n"
         "        else DataCopyPad(dst, src[off], DataCopyExtParams{1, uint32_t(len * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, static_cast<T>(0.0f)});\n    }\n"
         "    template <typename T>\n"
         "    __aicore__ inline void StoreChunk(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint64_t off, uint32_t len) {\n"
         "        if ((len * sizeof(T)) % 32 == 0) DataCopy(dst[off], src, len);\n"
         "        else DataCopyPad(dst[off], src, DataCopyExtParams{1, uint32_t(len * sizeof(T)), 0, 0, 0});\n    }\n";
    return k;
}

std::string StreamedRows::passFunction(const std::string& name, const PassCode& code, const std::string& body,
                                       bool reverse) const {
    // The walk over the row's chunks, then one chunk's work in <name>Chunk.
    std::string k = "    __aicore__ inline void " + name + "(uint32_t row) {\n" + body;
    const std::string whole = window_ && !segmented() ? "cols_ / WINDOW * WINDOW" : "cols_";
    k += "        const uint32_t whole = " + whole + ";\n";
    const std::string call = "            " + name + "Chunk(row, c0, whole - c0 < TILE_ELEMS ? whole - c0 : TILE_ELEMS, 0);\n";
    const std::string windowCall = window_ ? "        if (whole < cols_) " + name + "Chunk(row, cols_ - WINDOW, WINDOW, WINDOW - (cols_ - whole));\n" : "";
    if (segmented()) {  // segment by segment; without DataCopyPad each segment's end is a window
        k += "        for (uint32_t s0 = 0; s0 < whole; s0 += seg_) {\n"
             "            const uint32_t body = " + std::string(window_ ? "seg_ / WINDOW * WINDOW" : "seg_") + ";\n"
             "            for (uint32_t c = 0; c < body; c += TILE_ELEMS) " + name +
             "Chunk(row, s0 + c, body - c < TILE_ELEMS ? body - c : TILE_ELEMS, 0);\n";
        if (window_) k += "            if (body < seg_) " + name + "Chunk(row, s0 + seg_ - WINDOW, WINDOW, WINDOW - (seg_ - body));\n";
        k += "        }\n";
    } else if (reverse) k += windowCall + "        for (uint32_t c = (whole + TILE_ELEMS - 1) / TILE_ELEMS; c-- > 0;) {\n"
                                   "            uint32_t c0 = c * TILE_ELEMS;\n" + call + "        }\n";
    else k += "        for (uint32_t c0 = 0; c0 < whole; c0 += TILE_ELEMS) {\n" + call + "        }\n" + windowCall;
    const bool last = &code == &final_;
    bool rowOutput = false;
    for (const auto& o : l_.io) rowOutput |= !o.input && o.role == Role::Row;
    // A pass with nothing to compute (the last pass of a task whose outputs are per-row values)
    // must not stream the row in once more just to release it.
    const bool works = !code.lines.empty() || (last && rowOutput);
    std::string chunk = "    __aicore__ inline void " + name + "Chunk(uint32_t row, uint32_t c0, uint32_t len, uint32_t skip) {\n"
                        "        (void)skip;\n" + std::string(works ? "        if (!rowHeld_) Load(row, c0, len);\n"
                                                                 : "        (void)row, (void)c0, (void)len;\n");
    for (const auto& o : l_.io)
        if (!o.input && o.role == Role::Row && last)
            chunk += "        LocalTensor<" + o.it + "> out_" + o.decl->name + " = rowHeld_ ? outTile_" + o.decl->name +
                     "_[(row - group0_) * cols_] : outQ_" + o.decl->name + ".AllocTensor<" + o.it + ">();\n";
    for (const auto& line : code.lines) chunk += "        " + line + "\n";
    for (const auto& o : l_.io)
        if (!o.input && o.role == Role::Row && last) {
            const std::string& n = o.decl->name;
            chunk += "        if (!rowHeld_) {  // held rows are stored with their tile\n";
            chunk += "            outQ_" + n + ".EnQue(out_" + n + ");\n            LocalTensor<" + o.it + "> done_" + n + " = outQ_" + n +
                     ".DeQue<" + o.it + ">();\n";
            chunk += "            StoreChunk(" + n + "Gm_, done_" + n + ", " + rowOffset("row", "c0") + ", len);\n";
            chunk += "            outQ_" + n + ".FreeTensor(done_" + n + ");\n        }\n";
        }
    if (works) chunk += "        if (!rowHeld_) Release();\n";
    chunks_ += chunk + "    }\n";
    return k;
}

// The walk over this core's rows. Rows that fit in a tile are loaded ROWS_PER_TILE at a time with
// one copy and their outputs stored with one copy (when a row is whole 32-byte units, so that
// every row of the tile starts aligned); the passes then compute on each row's view of the tile.
std::string StreamedRows::heldRowLoop() const {
    std::string k = "        const uint32_t fit = rowHeld_ && cols_ % 16 == 0 ? TILE_ELEMS / cols_ : 1;\n"
                    "        const uint32_t group = ROWS_PER_TILE < fit ? ROWS_PER_TILE : fit;\n"
                    "        for (uint32_t g = r0; g < r1; g += group) {\n"
                    "            const uint32_t nr = r1 - g < group ? r1 - g : group;\n"
                    "            if (rowHeld_) {\n                Load(g, 0, nr * cols_);\n                group0_ = g;\n";
    std::vector<const Io*> rowIns, rowOuts;
    for (const auto& io : l_.io)
        if (io.role == Role::Row) (io.input ? rowIns : rowOuts).push_back(&io);
    for (const Io* o : rowOuts)
        k += "                outTile_" + o->decl->name + "_ = outQ_" + o->decl->name + ".AllocTensor<" + o->it + ">();\n";
    k += "            }\n            for (uint32_t row = g; row < g + nr; ++row) {\n";
    for (const Io* i : rowIns)
        k += "                if (rowHeld_) row_" + i->decl->name + "_ = in_" + i->decl->name + "_[(row - g) * cols_];\n";
    for (size_t p = 0; p < passes_.size(); ++p) k += "                Pass" + std::to_string(p) + "(row);\n";
    k += "                LastPass(row);\n";
    for (const auto& line : perRow_.lines) k += "                " + line + "\n";
    k += "            }\n            if (rowHeld_) {\n";
    for (const Io* o : rowOuts) {
        const std::string& n = o->decl->name;
        k += "                outQ_" + n + ".EnQue(outTile_" + n + "_);\n                LocalTensor<" + o->it + "> done_" + n + " = outQ_" +
             n + ".DeQue<" + o->it + ">();\n                StoreChunk(" + n + "Gm_, done_" + n + ", (uint64_t)g * cols_, nr * cols_);\n"
             "                outQ_" + n + ".FreeTensor(done_" + n + ");\n";
    }
    return k + "                Release();\n            }\n        }\n";
}

// Which rows are held in the UB for every pass (rowHeld_), checked once per launch.
std::string StreamedRows::holdRule() const {
    if (segmented())
        return std::string(window_ ? "        ASSERT((seg_ % WINDOW == 0 || seg_ >= WINDOW) && \"row segments shorter than one window\");\n" : "") +
               "        rowHeld_ = false;  // a row's segments lie apart in GM: streamed chunk by chunk\n";
    if (window_)
        return "        ASSERT((cols_ % WINDOW == 0 || cols_ >= WINDOW) && \"rows shorter than one window\");\n"
               "        // Rows of whole 32-byte units are held like on any device; others are read in windows.\n"
               "        rowHeld_ = cols_ <= TILE_ELEMS && cols_ % WINDOW == 0;\n";
    return "        rowHeld_ = cols_ <= TILE_ELEMS;\n";
}

std::string StreamedRows::processCode() const {
    std::string k = "    __aicore__ inline void Process() {\n"
                    "        uint32_t per = (rows_ + GetBlockNum() - 1) / GetBlockNum();\n"
                    "        uint32_t r0 = GetBlockIdx() * per < rows_ ? GetBlockIdx() * per : rows_;\n"
                    "        uint32_t r1 = r0 + per < rows_ ? r0 + per : rows_;\n"
                    + holdRule() +
                    "        bcastHeld_ = rowHeld_;\n";
    bool anyBcast = false;
    for (const auto& io : l_.io) anyBcast |= streamed(io) && io.role == Role::Bcast;
    if (anyBcast) {
        k += "        if (bcastHeld_) {  // the broadcast inputs, loaded once\n";
        for (const auto& io : l_.io) {
            if (!streamed(io) || io.role != Role::Bcast) continue;
            const std::string& n = io.decl->name;
            k += "            LocalTensor<" + io.it + "> t_" + n + " = bcQ_" + n + ".AllocTensor<" + io.it + ">(); CopyChunk(t_" + n +
                 ", " + n + "Gm_, 0, cols_); bcQ_" + n + ".EnQue(t_" + n + "); bc_" + n + "_ = bcQ_" + n + ".DeQue<" + io.it + ">();\n";
        }
        k += "        }\n";
    }
    for (const Expr* t : plan_.totals) k += "        " + plan_.varOf.at(t->text()) + " = 0.0f;\n";
    k += heldRowLoop();
    for (const auto& io : l_.io)
        if (streamed(io) && io.role == Role::Bcast) k += "        if (bcastHeld_) bcQ_" + io.decl->name + ".FreeTensor(bc_" + io.decl->name + "_);\n";
    if (!plan_.totals.empty()) {
        std::vector<std::string> sums;
        for (const Expr* t : plan_.totals) sums.push_back(plan_.varOf.at(t->text()));
        k += storePartials(sums);
    }
    return k + "    }\n";
}

std::string StreamedRows::kernelClass() const {
    std::string k = "class DraftKernel {\npublic:\n    __aicore__ inline void Init(";
    for (const auto& io : l_.io)
        if (io.role != Role::Total) k += "GM_ADDR gm_" + io.decl->name + ", ";
    if (!plan_.totals.empty()) k += "GM_ADDR gm_workspace, ";
    k += "const " + f_.tilingStruct + "& t) {\n        rows_ = t.draftRows;\n        cols_ = t.draftCols;\n";
    if (segmented()) k += "        seg_ = t.draftSeg;\n";
    for (const auto& [a, v] : task_.attrs) k += "        attr_" + a + "_ = t.draftAttr_" + a + ";\n";
    for (const auto& d : dims_) k += "        dim_" + d + "_ = t.draftDim_" + d + ";\n";
    for (const auto& io : l_.io) {
        if (io.role == Role::Total) continue;
        const std::string size = io.role == Role::Row ? "(uint64_t)rows_ * cols_" : io.role == Role::Bcast ? "cols_" : "rows_";
        k += "        " + io.decl->name + "Gm_.SetGlobalBuffer((__gm__ " + io.it + "*)gm_" + io.decl->name + ", " + size + ");\n";
    }
    const std::string tileBytes = [&] { return std::string("TILE_ELEMS * sizeof(") ; }();
    for (const auto& io : l_.io) {
        if (io.role != Role::Row && io.role != Role::Bcast) continue;
        const std::string q = (!io.input ? "outQ_" : io.role == Role::Row ? "inQ_" : "bcQ_") + io.decl->name;
        k += "        pipe_.InitBuffer(" + q + ", 1, " + tileBytes + io.it + "));\n";
    }
    std::vector<std::string> bufs = final_.buffers;
    for (const auto& p : passes_) bufs.insert(bufs.end(), p.buffers.begin(), p.buffers.end());
    for (const auto& b : bufs) k += "        pipe_.InitBuffer(" + b + ", " + tileBytes + l_.ct + "));\n";
    k += "        pipe_.InitBuffer(workBuf_, " + tileBytes + l_.ct + "));\n        pipe_.InitBuffer(redBuf_, 64);\n";
    k += "        red_ = redBuf_.Get<" + l_.ct + ">();\n        work_ = workBuf_.Get<" + l_.ct + ">();\n";
    if (nanCheck_)
        k += "        pipe_.InitBuffer(nanBuf_, " + tileBytes + l_.ct + "));\n        pipe_.InitBuffer(zeroBuf_, " + tileBytes + l_.ct +
             "));\n        pipe_.InitBuffer(maskBuf_, (TILE_ELEMS / 8 + 31) / 32 * 32);\n        nan_ = nanBuf_.Get<" + l_.ct +
             ">();\n        zero_ = zeroBuf_.Get<" + l_.ct + ">();\n        mask_ = maskBuf_.Get<uint8_t>();\n"
             "        Duplicate(zero_, (" + l_.ct + ")0, TILE_ELEMS);\n";
    if (!plan_.totals.empty()) {
        const std::string n = std::to_string(plan_.totals.size() * 8);
        k += "        wsGm_.SetGlobalBuffer((__gm__ float*)gm_workspace, (uint64_t)BLOCK_DIM * " + n + ");\n";
        k += "        pipe_.InitBuffer(partQ_, 1, " + n + " * sizeof(float));\n";
    }
    k += "    }\n" + processCode() + "\nprivate:\n";
    for (size_t p = 0; p < passes_.size(); ++p) {
        std::string init;
        for (const auto& r : plan_.passes[p]) {
            const std::string& n = r.expr->name;
            init += "        " + r.var + " = " + (n == "row_max" ? "-3.402823466e38f" : n == "row_min" ? "3.402823466e38f" : "0.0f") + ";\n";
        }
        k += passFunction("Pass" + std::to_string(p), passes_[p], init, false);
        for (const auto& r : plan_.passes[p])
            if (r.expr->name == "row_mean") k += "        " + r.var + " = " + r.var + " / (float)cols_;\n";
        k += "    }\n";
    }
    std::string scanInit;
    for (const Expr* s : plan_.scans)
        scanInit += "        " + plan_.varOf.at(s->text()) + " = " + (s->name == "row_scan_prod" ? "1.0f" : "0.0f") + ";\n";
    k += passFunction("LastPass", final_, scanInit, plan_.reverse) + "    }\n" + chunks_ + loadRelease();
    if (segmented())
        k += "    // A row is segments of seg_ elements, one per index of the leading axes, rows_ * seg_ apart.\n"
             "    __aicore__ inline uint64_t SegOffset(uint32_t row, uint32_t c0) const {\n"
             "        return (uint64_t)(c0 / seg_) * rows_ * seg_ + (uint64_t)row * seg_ + c0 % seg_;\n    }\n";
    k += "\n    TPipe pipe_;\n";
    for (const auto& io : l_.io) {
        if (io.role != Role::Row && io.role != Role::Bcast) continue;
        const std::string& n = io.decl->name;
        if (!io.input && io.role == Role::Row)
            k += "    TQue<TPosition::VECOUT, 1> outQ_" + n + ";\n    LocalTensor<" + io.it + "> outTile_" + n + "_;  // held rows' outputs\n";
        else if (!io.input) k += "    TQue<TPosition::VECOUT, 1> outQ_" + n + ";\n";
        else if (io.role == Role::Row)
            k += "    TQue<TPosition::VECIN, 1> inQ_" + n + ";\n    LocalTensor<" + io.it + "> in_" + n + "_, row_" + n +
                 "_;  // the loaded tile, the row being computed\n";
        else k += "    TQue<TPosition::VECIN, 1> bcQ_" + n + ";\n    LocalTensor<" + io.it + "> bc_" + n + "_;\n";
    }
    for (const auto& b : bufs) k += "    TBuf<TPosition::VECCALC> " + b + ";\n";
    k += "    TBuf<TPosition::VECCALC> workBuf_, redBuf_;\n    LocalTensor<" + l_.ct + "> work_, red_;\n";
    if (nanCheck_)
        k += "    TBuf<TPosition::VECCALC> nanBuf_, zeroBuf_, maskBuf_;  // NaN propagation of row_max/row_min\n    LocalTensor<" + l_.ct +
             "> nan_, zero_;\n    LocalTensor<uint8_t> mask_;\n";
    for (const auto& io : l_.io)
        if (io.role != Role::Total) k += "    GlobalTensor<" + io.it + "> " + io.decl->name + "Gm_;\n";
    if (!plan_.totals.empty()) k += "    GlobalTensor<float> wsGm_;\n    TQue<TPosition::VECOUT, 1> partQ_;\n";
    for (const auto& [a, v] : task_.attrs) k += "    float attr_" + a + "_ = 0;\n";
    for (const auto& d : dims_) k += "    uint32_t dim_" + d + "_ = 0;\n";
    for (const auto& [text, var] : plan_.varOf) k += "    float " + var + " = 0;\n";
    if (window_ && !plan_.reverse)
        for (const Expr* sc : plan_.scans) k += "    float " + plan_.varOf.at(sc->text()) + "hist[WINDOW] = {};  // the last WINDOW scan values\n";
    if (segmented()) k += "    uint32_t seg_ = 0;  // elements of a row segment\n";
    return k + "    uint32_t rows_ = 0, cols_ = 0, group0_ = 0;\n    bool rowHeld_ = false, bcastHeld_ = false;\n};\n\n";
}

std::string StreamedRows::entry() const {
    std::string k = "extern \"C\" __global__ __aicore__ void " + f_.entry + "(" + f_.kernelParams() + ") {\n" +
                    "    GET_TILING_DATA_WITH_STRUCT(" + f_.tilingStruct + ", tilingData, gm_tiling);\n    DraftKernel op;\n    op.Init(";
    for (const auto& io : l_.io)
        if (io.role != Role::Total) k += "gm_" + io.decl->name + ", ";
    if (!plan_.totals.empty()) k += "gm_workspace, ";
    return k + "tilingData);\n    op.Process();\n}\n";
}

std::vector<CombineOutput> StreamedRows::totalOutputs() const {
    std::vector<CombineOutput> outs;
    for (const auto& io : l_.io)
        if (io.role == Role::Total) outs.push_back({io.decl->name, io.it});
    return outs;
}

std::string StreamedRows::combineKernel() const {
    std::vector<std::string> sums, body = {"uint32_t rows_ = t.draftRows;", "(void)rows_;"};
    for (const Expr* t : plan_.totals) sums.push_back(plan_.varOf.at(t->text()));
    for (const auto& [a, v] : task_.attrs) body.push_back("float attr_" + a + "_ = t.draftAttr_" + a + "; (void)attr_" + a + "_;");
    for (const auto& d : dims_) body.push_back("uint32_t dim_" + d + "_ = t.draftDim_" + d + "; (void)dim_" + d + "_;");
    body.insert(body.end(), combine_.lines.begin(), combine_.lines.end());
    return draft::combineKernel(f_, sums, totalOutputs(), body);
}

std::string StreamedRows::host() const {
    if (plan_.totals.empty()) return f_.launch("BLOCK_DIM");
    return combineLaunch(f_, plan_.totals.size(), totalOutputs());
}

} // namespace

SkeletonCode composeRowwise(Frame& f) {
    if (!RowPlan::of(f.task.compute).totals.empty() && !f.task.launch.present) passWorkspace(f);
    bool bf16 = false;
    for (const auto* list : {&f.task.inputs, &f.task.outputs})
        for (const auto& d : *list) bf16 |= d.dtype == "bfloat16";
    const bool bits = bf16 && f.knowledge.idiom("bfloat16_io").value("method", "") == "int16_bits";
    Layout l = classify(f, bits);
    StreamedRows s(f, std::move(l));
    return s.compose();
}

} // namespace sage::agent::draft
