// Skeleton "window": convolution, transposed convolution and pooling over the trailing 1-3 axes,
// as direct vector code in two launches.
//
// 1. Pad launch: writes the input into workspace GM as xp [N, C, PD, PH, pitch] with its padding
//    (and, for a transposed convolution, the stride's zeros between elements and the
//    d(k-1)-p border), so that the window never leaves xp: one Gather per row with a precomputed
//    offset table places the elements, every other slot gets the pad value.
// 2. Window launch: per output row tile (n, od, oh, tw columns) and group, each input row of the
//    window is loaded once, its kw taps are gathered (stride and dilation as byte offsets) into
//    [K][TW] tap rows, and every output channel of the group accumulates them: Axpy with the
//    weight (conv), Max or Add (pooling). A transposed convolution is the plain one over the
//    dilated input with the kernel flipped and the weight read as [Cin, Cout/groups, k...].
// Rows are spread over the vector cores; every item writes its own output rows.
#include "draft/Skeletons.h"
#include "sage_npu/DeviceProfile.h"

#include <cmath>

namespace sage::agent::draft {

namespace {

struct Geometry {
    int axes = 0;
    bool transposed = false, pool = false;
    std::string op;
    // Normalised to 3 axes (D, H, W); a missing leading axis has k 1, s 1, p 0, d 1.
    int64_t k[3] = {1, 1, 1}, s[3] = {1, 1, 1}, p[3] = {0, 0, 0}, d[3] = {1, 1, 1}, op_[3] = {0, 0, 0};
    int64_t groups = 1;
    int64_t taps() const { return k[0] * k[1] * k[2]; }
    int64_t lead(int a) const { return transposed ? d[a] * (k[a] - 1) - p[a] : p[a]; }  // xp index of x[0]
    int64_t padStride(int a) const { return transposed ? s[a] : 1; }                       // xp step per x element
    int64_t convStride(int a) const { return transposed ? 1 : s[a]; }
};

int64_t geometryNumber(const eval::Task& task, const std::string& v, const std::string& field, int64_t min) {
    double x = 0;
    auto it = task.attrs.find(v);
    if (it != task.attrs.end()) x = it->second;
    else x = std::stod(v);  // the parser admitted an attr name or an integer literal
    if (x != std::floor(x) || x < double(min) || x > 1e6)
        throw DraftError("field '" + field + "': '" + v + "' is " + std::to_string(x) + "; it must be an integer >= " +
                         std::to_string(min));
    return int64_t(x);
}

Geometry resolveGeometry(const eval::Task& task) {
    const eval::WindowSpec& w = task.compute.window;
    Geometry g;
    g.op = w.op;
    g.transposed = w.op == "conv_transpose";
    g.pool = w.op == "max_pool" || w.op == "avg_pool";
    g.axes = int(w.kernel.size());
    const std::string f = "compute.window.";
    for (int i = 0; i < g.axes; ++i) {
        const int a = 3 - g.axes + i;
        const std::string at = "[" + std::to_string(i) + "]";
        g.k[a] = geometryNumber(task, w.kernel[i], f + "kernel" + at, 1);
        g.s[a] = geometryNumber(task, w.stride[i], f + "stride" + at, 1);
        g.p[a] = geometryNumber(task, w.padding[i], f + "padding" + at, 0);
        g.d[a] = geometryNumber(task, w.dilation[i], f + "dilation" + at, 1);
        g.op_[a] = geometryNumber(task, w.outputPadding[i], f + "output_padding" + at, 0);
        if (g.transposed && g.lead(a) < 0)
            throw DraftError("field '" + f + "padding" + at + "': the draft needs padding <= dilation * (kernel - 1) "
                             "for a transposed convolution (got " + std::to_string(g.p[a]) + ")");
        if (g.pool && 2 * g.p[a] > g.k[a])
            throw DraftError("field '" + f + "padding" + at + "': a pooling padding must be at most half the window");
    }
    if (!g.pool) g.groups = geometryNumber(task, w.groups, f + "groups", 1);
    return g;
}

void checkTensors(const eval::Task& task, const Geometry& g) {
    const eval::WindowSpec& w = task.compute.window;
    const size_t rank = size_t(2 + g.axes);
    if (task.outputs.size() != 1) throw DraftError("field 'compute.out': the window skeleton writes one output");
    const eval::TensorDecl& y = task.outputs.front();
    const eval::Expr& e = task.compute.outputs.front().expr;
    if (!task.compute.lets.empty() || e.op != eval::Expr::Op::Ref || e.name != "acc")
        throw DraftError("field 'compute.out." + y.name + "': the window skeleton writes the window result itself: "
                         "write \"acc\" (no epilogue, no let)");
    auto need = [&](const std::string& name, size_t r, const std::string& field) {
        const eval::TensorDecl* t = findTensor(task, name);
        if (t->shape.size() != r)
            throw DraftError("field '" + field + "': '" + name + "' must have " + std::to_string(r) + " axes for a " +
                             std::to_string(g.axes) + "-D window, it is " + shapeText(t->shape));
        if (t->dtype != "float32")
            throw DraftError("field '" + field + "': the window skeleton computes float32 ('" + name + "' is " + t->dtype + ")");
    };
    need(w.input, rank, "compute.window.input");
    need(y.name, rank, "compute.out." + y.name);
    if (!w.weight.empty()) need(w.weight, rank, "compute.window.weight");
    if (!w.bias.empty()) need(w.bias, 1, "compute.window.bias");
}

// C++ over the host context for axis a (0..2 = D, H, W) of tensor `name`; 1 for a missing axis.
std::string axisExpr(const Geometry& g, const std::string& name, int a) {
    if (a < 3 - g.axes) return "1";
    return "ctx.shape(\"" + name + "\", " + std::to_string(2 + a - (3 - g.axes)) + ")";
}

std::string paddedExpr(const Geometry& g, const std::string& in, int a) {
    const std::string n = axisExpr(g, in, a);
    if (!g.transposed) return n + " + " + std::to_string(2 * g.p[a]);
    return "(" + n + " - 1) * " + std::to_string(g.s[a]) + " + 1 + " + std::to_string(2 * g.lead(a) + g.op_[a]);
}

// Tap rows, accumulators and two input segments must fit the UB (40000 floats of it).
std::string tileExpr(const Geometry& g, const std::string& coutG, const std::string& y) {
    const int64_t fixed = 2 * ((g.k[2] - 1) * g.d[2] + 16);
    return "[&] { const int64_t cap = (" + std::to_string(40000 - fixed) + " / (" + coutG + " + " +
           std::to_string(g.taps() + 2 * g.convStride(2) + 1) + ")) / 8 * 8, row = (ctx.shape(\"" + y + "\", " +
           std::to_string(1 + g.axes) + ") + 7) / 8 * 8; return cap < 8 ? 8 : cap < row ? cap : row; }()";
}

std::string constants(const Geometry& g, const std::string& padValue) {
    std::string c = "constexpr int32_t";
    const char* ax = "DHW";
    for (int a = 0; a < 3; ++a) {
        const std::string A(1, ax[a]);
        c += std::string(a ? "," : "") + " K" + A + " = " + std::to_string(g.k[a]) + ", S" + A + " = " +
             std::to_string(g.convStride(a)) + ", DL" + A + " = " + std::to_string(g.d[a]) + ", L" + A + " = " +
             std::to_string(g.lead(a)) + ", PS" + A + " = " + std::to_string(g.padStride(a));
    }
    c += ", TAPS = KD * KH * KW;\nconstexpr float PAD_VALUE = " + padValue + ";\n";
    return c;
}

std::string padKernel(const Frame& f) {
    std::string k = "extern \"C\" __global__ __aicore__ void " + f.entry + "_pad(GM_ADDR gm_x, GM_ADDR gm_xp, GM_ADDR gm_tiling) {\n";
    k += "    GET_TILING_DATA_WITH_STRUCT(" + f.tilingStruct + ", t, gm_tiling);\n";
    k += R"(    const uint32_t W = t.wInW, WA = (W + 7) / 8 * 8, PITCH = (t.wPadW + 7) / 8 * 8;
    const uint64_t xNumel = (uint64_t)t.wN * t.wCin * t.wInD * t.wInH * W;
    GlobalTensor<float> xGm, xpGm;
    xGm.SetGlobalBuffer((__gm__ float*)gm_x, xNumel);
    xpGm.SetGlobalBuffer((__gm__ float*)gm_xp);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> offBuf, rowBuf;
    pipe.InitBuffer(inQ, 2, WA * sizeof(float));
    pipe.InitBuffer(outQ, 2, PITCH * sizeof(float));
    pipe.InitBuffer(offBuf, PITCH * sizeof(uint32_t));
    pipe.InitBuffer(rowBuf, (WA + 16) * sizeof(float));
    // Where each xp column comes from: x element (j - LW) / PSW, or the pad slot after the row.
    LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
    for (uint32_t j = 0; j < PITCH; ++j) {
        const int32_t q = int32_t(j) - LW;
        const bool hit = q >= 0 && q % PSW == 0 && q / PSW < int32_t(W);
        off.SetValue(j, hit ? uint32_t(q / PSW) * 4u : WA * 4u);
    }
    LocalTensor<float> row = rowBuf.Get<float>();
    Duplicate(row[WA], PAD_VALUE, 16);
    const uint32_t rows = t.wN * t.wCin * t.wPadD * t.wPadH;
    for (uint32_t r = GetBlockIdx(); r < rows; r += GetBlockNum()) {
        const uint32_t ph = r % t.wPadH, pd = (r / t.wPadH) % t.wPadD, nc = r / (t.wPadH * t.wPadD);
        const int32_t qd = int32_t(pd) - LD, qh = int32_t(ph) - LH;
        const bool hit = qd >= 0 && qd % PSD == 0 && qd / PSD < int32_t(t.wInD) && qh >= 0 && qh % PSH == 0 &&
                         qh / PSH < int32_t(t.wInH);
        LocalTensor<float> out = outQ.AllocTensor<float>();
        if (hit) {
            const uint64_t src = ((uint64_t)nc * t.wInD + qd / PSD) * t.wInH * W + uint64_t(qh / PSH) * W;
            // Whole 32-byte units; the last row's window ends at the end of x (shifted back).
            const uint32_t shift = src + WA > xNumel ? WA - W : 0;
            LocalTensor<float> in = inQ.AllocTensor<float>();
            DataCopy(in, xGm[src - shift], WA);
            inQ.EnQue(in);
            in = inQ.DeQue<float>();
            DataCopy(row, in, WA);
            inQ.FreeTensor(in);
            Gather(out, row, off, shift * 4u, PITCH);
        } else {
            Duplicate(out, PAD_VALUE, PITCH);
        }
        outQ.EnQue(out);
        out = outQ.DeQue<float>();
        DataCopy(xpGm[(uint64_t)r * PITCH], out, PITCH);
        outQ.FreeTensor(out);
    }
}
)";
    return k;
}

// The per-input-row body of the window launch: gather the taps, then combine them per channel.
std::string combineCode(const Geometry& g) {
    std::string c;
    if (g.pool) {
        c = std::string("            for (int32_t tap = 0; tap < TAPS; ++tap)\n                ") +
            (g.op == "max_pool" ? "Max" : "Add") + "(acc, acc, taps[tap * TW], TW);\n";
        return c;
    }
    const std::string widx = g.transposed ? "((uint64_t)ci * COUTG + co) * TAPS + (TAPS - 1 - tap)"
                                          : "((uint64_t)(g * COUTG + co) * CING + cl) * TAPS + tap";
    c = "            for (uint32_t co = 0; co < COUTG; ++co)\n"
        "                for (int32_t tap = 0; tap < TAPS; ++tap)\n"
        "                    Axpy(acc[co * TW], taps[tap * TW], wGm.GetValue(" + widx + "), TW);\n";
    return c;
}

std::string windowKernel(const Frame& f, const Geometry& g) {
    const eval::WindowSpec& w = f.task.compute.window;
    const std::string y = f.task.outputs.front().name;
    std::string params = "GM_ADDR gm_xp, ";
    if (!g.pool) params += "GM_ADDR gm_" + w.weight + ", ";
    if (!w.bias.empty()) params += "GM_ADDR gm_" + w.bias + ", ";
    params += "GM_ADDR gm_" + y + ", GM_ADDR gm_tiling";
    std::string k = "extern \"C\" __global__ __aicore__ void " + f.entry + "(" + params + ") {\n";
    k += "    GET_TILING_DATA_WITH_STRUCT(" + f.tilingStruct + ", t, gm_tiling);\n";
    k += R"(    const uint32_t GROUPS = t.wGroups, COUTG = t.wCout / GROUPS, CING = t.wCin / GROUPS, TW = t.wTile;
    const uint32_t PITCH = (t.wPadW + 7) / 8 * 8, SEGA = ((TW - 1) * SW + (KW - 1) * DLW + 1 + 7) / 8 * 8;
    const uint32_t OD = t.wOutD, OH = t.wOutH, OW = t.wOutW, tiles = (OW + TW - 1) / TW;
    const uint64_t plane = (uint64_t)OD * OH * OW;
    GlobalTensor<float> xpGm, yGm;
    xpGm.SetGlobalBuffer((__gm__ float*)gm_xp);
)";
    k += "    yGm.SetGlobalBuffer((__gm__ float*)gm_" + y + ", (uint64_t)t.wN * t.wCout * plane);\n";
    if (!g.pool)
        k += "    GlobalTensor<float> wGm;\n    wGm.SetGlobalBuffer((__gm__ float*)gm_" + w.weight +
             ", (uint64_t)t.wCin * (t.wCout / GROUPS) * TAPS);\n";
    if (!w.bias.empty())
        k += "    GlobalTensor<float> bGm;\n    bGm.SetGlobalBuffer((__gm__ float*)gm_" + w.bias + ", t.wCout);\n";
    k += R"(    TPipe pipe;
    TQue<TPosition::VECIN, 2> segQ;
    TQue<TPosition::VECOUT, 1> accQ;
    TBuf<TPosition::VECCALC> tapBuf, offBuf;
    pipe.InitBuffer(segQ, 2, SEGA * sizeof(float));
    pipe.InitBuffer(accQ, 1, COUTG * TW * sizeof(float));
    pipe.InitBuffer(tapBuf, TAPS * TW * sizeof(float));
    pipe.InitBuffer(offBuf, TW * sizeof(int32_t));
    LocalTensor<int32_t> offI = offBuf.Get<int32_t>();
    ArithProgression(offI, 0, SW * 4, TW);  // byte offset of output column j in an input segment
    LocalTensor<uint32_t> off = offI.ReinterpretCast<uint32_t>();
    LocalTensor<float> taps = tapBuf.Get<float>();
    const uint32_t items = t.wN * OD * OH * tiles * GROUPS;
    for (uint32_t it = GetBlockIdx(); it < items; it += GetBlockNum()) {
        uint32_t rest = it;
        const uint32_t g = rest % GROUPS;
        rest /= GROUPS;
        const uint32_t tile = rest % tiles;
        rest /= tiles;
        const uint32_t oh = rest % OH, od = (rest / OH) % OD, n = rest / (OH * OD);
        const uint32_t ow0 = tile * TW, tw = OW - ow0 < TW ? OW - ow0 : TW;
        LocalTensor<float> acc = accQ.AllocTensor<float>();
)";
    if (!w.bias.empty())
        k += "        for (uint32_t co = 0; co < COUTG; ++co) Duplicate(acc[co * TW], bGm.GetValue(g * COUTG + co), TW);\n";
    else
        k += std::string("        Duplicate(acc, ") + (g.op == "max_pool" ? "PAD_VALUE" : "0.0f") + ", COUTG * TW);\n";
    k += R"(        for (uint32_t cl = 0; cl < CING; ++cl) {
            const uint32_t ci = g * CING + cl;
            for (int32_t kd = 0; kd < KD; ++kd)
                for (int32_t kh = 0; kh < KH; ++kh) {
                    const uint64_t xr = (((uint64_t)n * t.wCin + ci) * t.wPadD + od * SD + kd * DLD) * t.wPadH + oh * SH + kh * DLH;
                    LocalTensor<float> seg = segQ.AllocTensor<float>();
                    DataCopy(seg, xpGm[xr * PITCH + (uint64_t)ow0 * SW], SEGA);
                    segQ.EnQue(seg);
                    seg = segQ.DeQue<float>();
                    for (int32_t kw = 0; kw < KW; ++kw)
                        Gather(taps[((kd * KH + kh) * KW + kw) * TW], seg, off, uint32_t(kw * DLW * 4), TW);
                    segQ.FreeTensor(seg);
                }
)";
    k += combineCode(g) + "        }\n";
    if (g.op == "avg_pool") k += "        Muls(acc, acc, 1.0f / float(TAPS), TW);\n";
    k += R"(        accQ.EnQue(acc);
        acc = accQ.DeQue<float>();
        const uint64_t dst = ((uint64_t)n * t.wCout + g * COUTG) * plane + ((uint64_t)od * OH + oh) * OW + ow0;
        DataCopyPad(yGm[dst], acc, DataCopyExtParams{uint16_t(COUTG), tw * 4u, (TW - (tw + 7) / 8 * 8) / 8, uint32_t((plane - tw) * 4), 0});
        accQ.FreeTensor(acc);
    }
}
)";
    return k;
}

void addFields(Frame& f, const Geometry& g) {
    const eval::WindowSpec& w = f.task.compute.window;
    const std::string y = f.task.outputs.front().name;
    f.addField("wN", "uint32_t", "ctx.shape(\"" + w.input + "\", 0)");
    f.addField("wCin", "uint32_t", "ctx.shape(\"" + w.input + "\", 1)");
    f.addField("wCout", "uint32_t", "ctx.shape(\"" + y + "\", 1)");
    f.addField("wGroups", "uint32_t", g.pool ? "ctx.shape(\"" + w.input + "\", 1)" : std::to_string(g.groups));
    const char* ax = "DHW";
    for (int a = 0; a < 3; ++a) f.addField(std::string("wIn") + ax[a], "uint32_t", axisExpr(g, w.input, a));
    for (int a = 0; a < 3; ++a) f.addField(std::string("wPad") + ax[a], "uint32_t", paddedExpr(g, w.input, a));
    for (int a = 0; a < 3; ++a) f.addField(std::string("wOut") + ax[a], "uint32_t", axisExpr(g, y, a));
    const std::string coutG = g.pool ? "1" : "ctx.shape(\"" + y + "\", 1) / " + std::to_string(g.groups);
    f.addField("wTile", "uint32_t", tileExpr(g, coutG, y));
}

} // namespace

SkeletonCode composeWindow(Frame& f) {
    const eval::Task& task = f.task;
    const eval::WindowSpec& w = task.compute.window;
    const Geometry g = resolveGeometry(task);
    checkTensors(task, g);
    if (f.knowledge.idiom("tail_copy").value("method", "") != "datacopy_pad")
        throw DraftError("field 'compute.kind': the window skeleton writes output rows with DataCopyPad, which " +
                         f.device.id + " does not have");
    if (!g.pool && g.groups > 1 && task.attrs.count("Cin") && int64_t(task.attrs.at("Cin")) % g.groups != 0)
        throw DraftError("field 'compute.window.groups': Cin is not a multiple of groups");
    addFields(f, g);
    const std::string padValue = g.op == "max_pool" ? "-3.0e38f" : "0.0f";
    std::string kernel = constants(g, padValue) + "\n" + padKernel(f) + "\n" + windowKernel(f, g);
    const std::string cores = std::to_string(std::max(1, f.device.vectorCores));
    std::string host = "    const uint64_t wPitch = (t.wPadW + 7) / 8 * 8;\n"
                       "    GM_ADDR xp = ctx.workspace(size_t((uint64_t)t.wN * t.wCin * t.wPadD * t.wPadH * wPitch + "
                       "(uint64_t)t.wTile * " + std::to_string(g.convStride(2)) + " + " +
                       std::to_string((g.k[2] - 1) * g.d[2] + 64) + ") * sizeof(float));\n";
    host += "    ICPU_RUN_KF(" + f.entry + "_pad, " + cores + ", ctx.gm(\"" + w.input + "\"), xp, ctx.tiling(t));\n";
    host += "    ICPU_RUN_KF(" + f.entry + ", " + cores + ", xp";
    if (!g.pool) host += ", ctx.gm(\"" + w.weight + "\")";
    if (!w.bias.empty()) host += ", ctx.gm(\"" + w.bias + "\")";
    host += ", ctx.gm(\"" + task.outputs.front().name + "\"), ctx.tiling(t));\n";
    f.notes.push_back("Window as direct vector code: a pad launch writes the padded (and, transposed, dilated) input "
                      "to workspace; per output row tile the taps are gathered once and every output channel "
                      "accumulates them; rows spread over " + cores + " cores.");
    return {kernel, host};
}

} // namespace sage::agent::draft
