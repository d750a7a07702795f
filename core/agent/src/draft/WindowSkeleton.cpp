// Skeleton "window": convolution, transposed convolution and pooling over the trailing 1-3 axes,
// as direct vector code in two launches.
//
// 1. Pad launch: writes the input into workspace GM as xp [N, C, PD, PH, pitch] with its padding
//    (and, for a transposed convolution, the stride's zeros between elements and the
//    d(k-1)-p border), so that the window never leaves xp: one Gather per row with a precomputed
//    offset table places the elements, every other slot gets the pad value.
// 2. Window launch: per output chunk (n, a flat run of at least 8 outputs of one (od) slice of
//    the output plane, or of a block of slices when a slice has fewer than 8) and group, the
//    input rows under the window are loaded once per (input channel, kd) as one segment; each of
//    the kh x kw taps is one Gather over the whole chunk (an offset table per chunk; stride and
//    dilation are byte offsets) and every output channel of the group takes it in: Axpy with the
//    weight from a per-channel weight slice in UB (conv), Max or Add (pooling). A transposed
//    convolution is the plain one over the dilated input with the kernel flipped and the weight
//    read as [Cin, Cout/groups, k...].
// Chunks are spread over the vector cores; every item writes its own outputs. Without DataCopyPad
// (310P) a chunk's channel is written as whole 32-byte units plus its last 8 outputs as one unit
// (they overlap the units before it), and the weight rows are read as whole units too.
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
        const std::string at = std::string(1, '[').append(std::to_string(i)).append("]");  // not "[" + ...: GCC 12 -Wrestrict false positive
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

// Host side of the draft: the output chunk (a flat run of one output plane) whose accumulators,
// offset scratch, weight slice, tail units and two input segments fit 44000 floats of the UB.
// which: 0 the chunk length, 1 the od slices per block (several when a slice has fewer than 8
// outputs: then a chunk is a whole block), 2 the segment length (xp elements under a chunk).
std::string tileHelper() {
    return R"(static int64_t draftWindowTile(int64_t coutG, int64_t padW, int64_t padH, int64_t od, int64_t oh, int64_t ow, int which) {
    const int64_t pitch = (padW + 7) / 8 * 8, ka = (TAPS + 7) / 8 * 8, area = oh * ow;
    const int64_t ob = area >= 8 ? 1 : std::min<int64_t>(od, (8 + area - 1) / area);
    const int64_t slices = od < ob ? od : ob + od % ob;  // the last block takes the rest
    const int64_t window = (KH - 1) * DLH * pitch + (KW - 1) * DLW + 1;
    auto seg = [&](int64_t len) {  // first output's window start to the last one's window end
        const int64_t reach = ob > 1 ? (slices - 1) * SD * padH * pitch + (oh - 1) * SH * pitch + (ow - 1) * SW
                                     : (len - 1 + ow - 1) / ow * SH * pitch + (std::min<int64_t>(len, ow) - 1) * SW;
        return (reach + window + 7) / 8 * 8;
    };
    auto need = [&](int64_t c) { return c * (coutG + 5) + 2 * seg(c) + coutG * (ka + 16) + 96; };
    int64_t c = (slices * area + 7) / 8 * 8;
    while (ob == 1 && c > 8 && need(c) > 44000) c -= 8;
    return which == 0 ? c : which == 1 ? ob : seg(c);
}
)";
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

// Per gathered tap: every output channel of the group takes it in (weights from the UB slice).
std::string combineCode(const Geometry& g) {
    if (g.pool)
        return std::string("                        ") + (g.op == "max_pool" ? "Max" : "Add") + "(acc, acc, tap, TF);\n";
    const std::string widx = g.transposed ? "co * KA + (TAPS - 1 - tp)" : "co * KA + tp";
    return "                        for (uint32_t co = 0; co < COUTG; ++co)\n"
           "                            Axpy(acc[co * TF], tap, wl.GetValue(" + widx + "), TF);\n";
}

// Output j of a chunk (clamped to its last) reads the segment at byte 4 * (dOd * SD*PH*PITCH +
// (oh - oh0) * SH*PITCH + (ow - ow0) * SW), where rem + j = dOd * AREA + oh * OW + ow: two float
// floors per chunk (exact: the values stay far below 2^24).
const char* offsetTableCode() {
    return R"(        LocalTensor<float> u = tapBuf.Get<float>(), t1 = scrBuf.Get<float>(), t2 = scrBuf.Get<float>()[TF];
        LocalTensor<int32_t> ti = idxBuf.Get<int32_t>();
        LocalTensor<float> tf = ti.ReinterpretCast<float>();
        ArithProgression(u, float(rem), 1.0f, int32_t(TF));
        Mins(u, u, float(rem + len - 1), int32_t(TF));  // the vector's padding repeats the last output
        Adds(t1, u, 0.5f, int32_t(TF));
        Muls(t1, t1, 1.0f / float(AREA), int32_t(TF));
        Cast(ti, t1, RoundMode::CAST_FLOOR, TF);
        Cast(t2, ti, RoundMode::CAST_NONE, TF);  // dOd
        Muls(t1, t2, float(AREA), int32_t(TF));
        Sub(u, u, t1, int32_t(TF));  // oh * OW + ow
        Muls(t2, t2, float(SD * t.wPadH * PITCH), int32_t(TF));
        Adds(t1, u, 0.5f, int32_t(TF));
        Muls(t1, t1, 1.0f / float(OW), int32_t(TF));
        Cast(ti, t1, RoundMode::CAST_FLOOR, TF);
        Cast(t1, ti, RoundMode::CAST_NONE, TF);  // oh
        Muls(tf, t1, float(OW), int32_t(TF));
        Sub(u, u, tf, int32_t(TF));  // ow
        Muls(t1, t1, float(SH * PITCH), int32_t(TF));
        Add(t2, t2, t1, int32_t(TF));
        Muls(u, u, float(SW), int32_t(TF));
        Add(t2, t2, u, int32_t(TF));
        Adds(t2, t2, -float(oh0 * SH * PITCH + ow0 * SW), int32_t(TF));
        Muls(t2, t2, 4.0f, int32_t(TF));
        Cast(offI, t2, RoundMode::CAST_ROUND, TF);
)";
}

std::string weightSliceCode(const Geometry& g, bool pad) {
    if (g.pool) return "";
    // conv: weight[g * COUTG + co][cl][tap], COUTG rows CING * TAPS apart; transposed: weight[ci][co][tap].
    const std::string start = g.transposed ? "(uint64_t)ci * COUTG * TAPS" : "((uint64_t)g * COUTG * CING + cl) * TAPS";
    const std::string gap = g.transposed ? "0" : "(CING - 1) * TAPS * 4";
    std::string k = "            LocalTensor<float> wl = wQ.AllocTensor<float>();\n";
    if (pad)
        return k + "            DataCopyPad(wl, wGm[" + start + "], DataCopyExtParams{uint16_t(COUTG), uint32_t(TAPS * 4), uint32_t(" + gap +
               "), 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});\n"
               "            wQ.EnQue(wl);\n            wl = wQ.DeQue<float>();\n";
    const std::string stride = g.transposed ? "TAPS" : "CING * TAPS";
    // Whole 32-byte units per row; a row within KA of the weight's end is read as the unit window
    // ending there, and its taps are moved to the slot's front.
    k += "            const uint64_t wAt = " + start + ";\n";
    k += "            for (uint32_t co = 0; co < COUTG; ++co) {\n"
         "                const uint64_t at = wAt + (uint64_t)co * " + stride + ";\n"
         "                DataCopy(wl[co * KA], wGm[at + KA > wNumel ? wNumel - KA : at], KA);\n"
         "            }\n"
         "            wQ.EnQue(wl);\n            wl = wQ.DeQue<float>();\n"
         "            for (uint32_t co = COUTG; co-- > 0 && wAt + (uint64_t)co * " + stride + " + KA > wNumel;) {\n"
         "                const uint32_t sh = uint32_t(wAt + (uint64_t)co * " + stride + " + KA - wNumel);\n"
         "                for (uint32_t q = 0; q < TAPS; ++q) wl.SetValue(co * KA + q, wl.GetValue(co * KA + sh + q));\n"
         "            }\n";
    return k;
}

std::string windowSetup(const Frame& f, const Geometry& g, bool pad) {
    const eval::WindowSpec& w = f.task.compute.window;
    const std::string y = f.task.outputs.front().name;
    std::string k = "    GET_TILING_DATA_WITH_STRUCT(" + f.tilingStruct + ", t, gm_tiling);\n";
    k += R"(    const uint32_t GROUPS = t.wGroups, COUTG = t.wCout / GROUPS, CING = t.wCin / GROUPS;
    const uint32_t CH = t.wChunk, TF = CH, KA = (TAPS + 7) / 8 * 8, SEGA = t.wSeg;
    const uint32_t PITCH = (t.wPadW + 7) / 8 * 8, OD = t.wOutD, OH = t.wOutH, OW = t.wOutW, AREA = OH * OW;
    const uint32_t OB = t.wSlices, BLOCKS = OD / OB > 0 ? OD / OB : 1;
    const uint32_t CPB = ((OD < 2 * OB ? OD : OB + OD % OB) * AREA + CH - 1) / CH;  // chunks per block (the last block is the longest)
    const uint64_t plane = (uint64_t)OD * AREA;
    GlobalTensor<float> xpGm, yGm;
    xpGm.SetGlobalBuffer((__gm__ float*)gm_xp);
)";
    k += "    yGm.SetGlobalBuffer((__gm__ float*)gm_" + y + ", (uint64_t)t.wN * t.wCout * plane);\n";
    if (!g.pool)
        k += "    const uint64_t wNumel = (uint64_t)t.wCin * COUTG * TAPS;\n    GlobalTensor<float> wGm;\n"
             "    wGm.SetGlobalBuffer((__gm__ float*)gm_" + w.weight + ", wNumel);\n";
    if (!w.bias.empty())
        k += "    GlobalTensor<float> bGm;\n    bGm.SetGlobalBuffer((__gm__ float*)gm_" + w.bias + ", t.wCout);\n";
    k += R"(    TPipe pipe;
    TQue<TPosition::VECIN, 2> segQ;
    TQue<TPosition::VECIN, 1> wQ;
    TQue<TPosition::VECOUT, 1> accQ;
    TBuf<TPosition::VECCALC> tapBuf, offBuf, idxBuf, scrBuf;
    pipe.InitBuffer(segQ, 2, SEGA * sizeof(float));
    pipe.InitBuffer(idxBuf, TF * sizeof(int32_t));
    pipe.InitBuffer(wQ, 1, COUTG * KA * sizeof(float));
    pipe.InitBuffer(accQ, 1, (COUTG * (TF + 8) + 8) * sizeof(float));  // + the channels' last 8 outputs
    pipe.InitBuffer(tapBuf, TF * sizeof(float));
    pipe.InitBuffer(offBuf, TF * sizeof(int32_t));
    pipe.InitBuffer(scrBuf, 2 * TF * sizeof(float));
    LocalTensor<int32_t> offI = offBuf.Get<int32_t>();
    LocalTensor<uint32_t> off = offI.ReinterpretCast<uint32_t>();
)";
    if (!pad)
        k += R"(    // Channel co's last 8 outputs (from byte 4 * (len - 8) on) gather into slots 8 apart. A plane of
    // fewer than 8 outputs is one chunk: the group's channels, contiguous in GM, are packed into one
    // run (its whole units, then its last 8 outputs) and written as one; a run shorter than a unit
    // is stored element by element.
    const bool packed = plane < 8;
    const uint32_t total = COUTG * uint32_t(plane), total8 = total / 8 * 8;
    TBuf<TPosition::VECCALC> tailBuf;
    pipe.InitBuffer(tailBuf, (COUTG * 8 + 8) * sizeof(uint32_t));
    LocalTensor<uint32_t> tailOff = tailBuf.Get<uint32_t>();
    for (uint32_t q = 0; q < COUTG * 8 + 8; ++q) {
        uint32_t p = q < total8 ? q : total - 8 + (q - total8);  // past total8: the run's last 8
        p = p < total ? p : total - 1;
        tailOff.SetValue(q, packed ? (p / uint32_t(plane) * TF + p % uint32_t(plane)) * 4u : (q / 8 * TF + q % 8) * 4u);
    }
)";
    return k;
}

// The chunk's outputs of the group's channels, channel planes apart in GM.
std::string storeCode(bool pad) {
    if (pad)
        return R"(        accQ.EnQue(acc);
        acc = accQ.DeQue<float>();
        DataCopyPad(yGm[dst], acc, DataCopyExtParams{uint16_t(COUTG), len * 4u, (TF - (len + 7) / 8 * 8) / 8, uint32_t((plane - len) * 4), 0});
)";
    return R"(        const uint32_t whole = len / 8 * 8;
        if (packed) {
            if (total >= 8) Gather(acc[COUTG * TF], acc, tailOff, 0, total8 + 8);
        } else if (whole < len && len >= 8) {
            Gather(acc[COUTG * TF], acc, tailOff, (len - 8) * 4u, COUTG * 8);
        }
        accQ.EnQue(acc);
        acc = accQ.DeQue<float>();
        if (packed && total >= 8) {
            if (total8 > 0) DataCopy(yGm[dst], acc[COUTG * TF], total8);
            DataCopy(yGm[dst + total - 8], acc[COUTG * TF + total8], 8);
        } else if (packed) {  // fewer than 8 outputs in the run: element by element
            for (uint32_t q = 0; q < total; ++q) yGm.SetValue(dst + q, acc.GetValue(q / uint32_t(plane) * TF + q % uint32_t(plane)));
        }
        for (uint32_t co = 0; co < COUTG && !packed; ++co) {
            const uint64_t at = dst + (uint64_t)co * plane;
            if (whole > 0) DataCopy(yGm[at], acc[co * TF], whole);
            if (whole < len && len >= 8) DataCopy(yGm[at + len - 8], acc[COUTG * TF + co * 8], 8);
        }
)";
}

std::string windowKernel(const Frame& f, const Geometry& g, bool pad) {
    const eval::WindowSpec& w = f.task.compute.window;
    std::string params = "GM_ADDR gm_xp, ";
    if (!g.pool) params += "GM_ADDR gm_" + w.weight + ", ";
    if (!w.bias.empty()) params += "GM_ADDR gm_" + w.bias + ", ";
    params += "GM_ADDR gm_" + f.task.outputs.front().name + ", GM_ADDR gm_tiling";
    std::string k = "extern \"C\" __global__ __aicore__ void " + f.entry + "(" + params + ") {\n" + windowSetup(f, g, pad);
    k += R"(    const uint32_t items = t.wN * BLOCKS * CPB * GROUPS;
    for (uint32_t it = GetBlockIdx(); it < items; it += GetBlockNum()) {
        uint32_t rest = it;
        const uint32_t g = rest % GROUPS;
        rest /= GROUPS;
        const uint32_t c = rest % CPB;
        rest /= CPB;
        const uint32_t b = rest % BLOCKS, n = rest / BLOCKS;
        const uint32_t bEnd = (b + 1 == BLOCKS ? OD : (b + 1) * OB) * AREA;
        uint32_t s = b * OB * AREA + c * CH;
        if (s >= bEnd) continue;
        const uint32_t e = s + CH < bEnd ? s + CH : bEnd;
        if (e - s < 8 && e >= 8) s = e - 8;  // a short last chunk reaches back over its block's outputs (same values)
        const uint32_t len = e - s, od0 = s / AREA, rem = s % AREA, oh0 = rem / OW, ow0 = rem % OW;
)";
    k += offsetTableCode();
    k += "        LocalTensor<float> tap = tapBuf.Get<float>();\n        LocalTensor<float> acc = accQ.AllocTensor<float>();\n";
    if (!w.bias.empty())
        k += "        for (uint32_t co = 0; co < COUTG; ++co) Duplicate(acc[co * TF], bGm.GetValue(g * COUTG + co), int32_t(TF));\n";
    else
        k += std::string("        Duplicate(acc, ") + (g.op == "max_pool" ? "PAD_VALUE" : "0.0f") + ", int32_t(COUTG * TF));\n";
    k += "        for (uint32_t cl = 0; cl < CING; ++cl) {\n            const uint32_t ci = g * CING + cl;\n";
    k += weightSliceCode(g, pad);
    k += R"(            for (int32_t kd = 0; kd < KD; ++kd) {
                const uint64_t xr = (((uint64_t)n * t.wCin + ci) * t.wPadD + od0 * SD + kd * DLD) * t.wPadH + (uint64_t)oh0 * SH;
                LocalTensor<float> seg = segQ.AllocTensor<float>();
                DataCopy(seg, xpGm[xr * PITCH + (uint64_t)ow0 * SW], SEGA);
                segQ.EnQue(seg);
                seg = segQ.DeQue<float>();
                for (int32_t kh = 0; kh < KH; ++kh)
                    for (int32_t kw = 0; kw < KW; ++kw) {
                        const int32_t tp = (kd * KH + kh) * KW + kw;
                        Gather(tap, seg, off, uint32_t((kh * DLH * PITCH + kw * DLW) * 4), TF);
)";
    k += combineCode(g);
    k += "                    }\n                segQ.FreeTensor(seg);\n            }\n";
    if (!g.pool) k += "            wQ.FreeTensor(wl);\n";
    k += "        }\n";
    if (g.op == "avg_pool") k += "        Muls(acc, acc, 1.0f / float(TAPS), int32_t(COUTG * TF));\n";
    k += "        const uint64_t dst = ((uint64_t)n * t.wCout + g * COUTG) * plane + s;\n";
    k += storeCode(pad);
    k += "        accQ.FreeTensor(acc);\n    }\n}\n";
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
    const char* names[] = {"wChunk", "wSlices", "wSeg"};
    for (int which = 0; which < 3; ++which)
        f.addField(names[which], "uint32_t",
                   "draftWindowTile(" + coutG + ", " + paddedExpr(g, w.input, 2) + ", " + paddedExpr(g, w.input, 1) + ", " +
                       axisExpr(g, y, 0) + ", " + axisExpr(g, y, 1) + ", " + axisExpr(g, y, 2) + ", " + std::to_string(which) + ")");
}

} // namespace

SkeletonCode composeWindow(Frame& f) {
    const eval::Task& task = f.task;
    const eval::WindowSpec& w = task.compute.window;
    const Geometry g = resolveGeometry(task);
    checkTensors(task, g);
    const bool pad = f.knowledge.idiom("tail_copy").value("method", "") == "datacopy_pad";
    if (!g.pool && g.groups > 1 && task.attrs.count("Cin") && int64_t(task.attrs.at("Cin")) % g.groups != 0)
        throw DraftError("field 'compute.window.groups': Cin is not a multiple of groups");
    addFields(f, g);
    const std::string padValue = g.op == "max_pool" ? "-3.0e38f" : "0.0f";
    std::string kernel = constants(g, padValue) + "\n" + tileHelper() + "\n" + padKernel(f) + "\n" + windowKernel(f, g, pad);
    const std::string cores = std::to_string(std::max(1, f.device.vectorCores));
    // xp plus the slack the last chunk's segment reads past the last row.
    std::string host = "    const uint64_t wPitch = (t.wPadW + 7) / 8 * 8;\n"
                       "    GM_ADDR xp = ctx.workspace(size_t((uint64_t)t.wN * t.wCin * t.wPadD * t.wPadH * wPitch + t.wSeg + 64) * sizeof(float));\n";
    host += "    ICPU_RUN_KF(" + f.entry + "_pad, " + cores + ", ctx.gm(\"" + w.input + "\"), xp, ctx.tiling(t));\n";
    host += "    ICPU_RUN_KF(" + f.entry + ", " + cores + ", xp";
    if (!g.pool) host += ", ctx.gm(\"" + w.weight + "\")";
    if (!w.bias.empty()) host += ", ctx.gm(\"" + w.bias + "\")";
    host += ", ctx.gm(\"" + task.outputs.front().name + "\"), ctx.tiling(t));\n";
    f.notes.push_back("Window as direct vector code: a pad launch writes the padded (and, transposed, dilated) input "
                      "to workspace; per output chunk the taps are gathered once and every output channel "
                      "accumulates them; chunks spread over " + cores + " cores" +
                      (pad ? std::string(".") : "; ragged chunk ends written as overlapping 32-byte units (no DataCopyPad)."));
    return {kernel, host};
}

} // namespace sage::agent::draft
