// Skeleton "matmul": C = A x B on the cube unit, one core, output tiles of tile_m x tile_n,
// K in chunks of tile_k accumulated in L0C: GM -> L1 (DataCopy with Nd2NzParams) -> L0A/L0B
// (LoadData) -> Mmad -> Fixpipe -> GM. An epilogue other than "acc" (bias, activation) runs as a
// second launch: the rowwise skeleton over the fp32 product kept in workspace GM.
#include "draft/Skeletons.h"
#include "sage_npu/DeviceProfile.h"

namespace sage::agent::draft {

namespace {

// What the cube launch multiplies: shapes, layouts, and whether float32 operands are first
// converted to float16 in workspace (the prep launch, which also applies a triangle).
struct MatmulPlan {
    const eval::TensorDecl *a = nullptr, *b = nullptr;
    bool transA = false, transB = false, batchedB = false, prep = false;
    std::string triangular;
    bool symmetric = false;
    std::string m, k, n, batch;  // host C++ over ctx
    std::vector<std::string> outShape;
};

std::string shapeOf(const std::string& t, size_t axis) { return "ctx.shape(\"" + t + "\", " + std::to_string(axis) + ")"; }

MatmulPlan planMatmul(const eval::Task& task) {
    const eval::ComputeSpec& spec = task.compute;
    MatmulPlan p;
    p.a = findTensor(task, spec.a);
    p.b = findTensor(task, spec.b);
    p.transA = spec.layout.transposeA;
    p.transB = spec.layout.transposeB;
    p.triangular = spec.layout.triangular;
    p.symmetric = spec.layout.symmetric;
    const auto &as = p.a->shape, &bs = p.b->shape;
    const std::string A = p.a->name, B = p.b->name;
    auto refuse = [&](const std::string& want) {
        throw DraftError("field 'compute.a': the matmul needs " + want + "; got a " + shapeText(as) + " and b " + shapeText(bs));
    };
    p.batch = "1";
    std::string ka, kb;
    if (bs.size() == 3 && !p.transB) {  // batched: a [B, M, K] x b [B, K, N]
        if (as.size() != 3 || p.transA || as[0] != bs[0]) refuse("a [B, M, K] with a batched b [B, K, N]");
        p.batchedB = true;
        p.batch = shapeOf(A, 0);
        p.m = shapeOf(A, 1);
        ka = as[2];
        kb = bs[1];
        p.n = shapeOf(B, 2);
        p.outShape = {as[0], as[1], bs[2]};
    } else {
        if (bs.size() != 2) refuse("b [K, N] (or [N, K] transposed, or [B, K, N] batched)");
        if (p.transA && as.size() != 2) refuse("a stored [K, M] when transposed");
        if (as.size() < 2) refuse("a [..., M, K]");
        p.m = p.transA ? shapeOf(A, 1) : shapeOf(A, 0);
        for (size_t i = 1; !p.transA && i + 1 < as.size(); ++i) p.m += " * " + shapeOf(A, i);  // leading axes flatten into M
        ka = p.transA ? as[0] : as.back();
        kb = p.transB ? bs[1] : bs[0];
        p.n = p.transB ? shapeOf(B, 0) : shapeOf(B, 1);
        p.outShape = p.transA ? std::vector<std::string>{as[1]} : std::vector<std::string>(as.begin(), as.end() - 1);
        p.outShape.push_back(p.transB ? bs[0] : bs[1]);
    }
    if (ka != kb) refuse("a and b to share the reduction axis");
    p.k = p.transA ? shapeOf(A, 0) : shapeOf(A, as.size() - 1);
    const bool half = p.a->dtype == "float16" && p.b->dtype == "float16";
    const bool f32 = p.a->dtype == "float32" && p.b->dtype == "float32";
    if (!half && !f32)
        throw DraftError("field 'compute.a': the matmul skeleton takes float16 operands, or float32 ones it converts "
                         "(got " + p.a->dtype + ", " + p.b->dtype + ")");
    if (f32 && spec.computeDtype == "float32")
        throw DraftError("field 'compute.compute_dtype': the cube path multiplies in float16; use \"float16\"");
    const bool square = !p.triangular.empty() || p.symmetric;  // rows of a square matrix in the prep
    if (square && (as.size() != 2 || as != bs || as[0] != as[1]))
        refuse("square a and b of one shape for a triangular or symmetric product");
    if (square && !f32)
        throw DraftError("field 'compute.layout': a triangle or a symmetric view is applied while converting float32 operands");
    p.prep = f32;
    return p;
}

// The symmetric view's parts of the prep (see prepKernel): the column read, the merging Gather,
// the extra parameters and arguments of the piece function and the buffers they use.
struct SymmetricParts {
    std::string read, gather, params, args, setup;
};

SymmetricParts symmetricParts(bool pad) {
    // Symmetric (n <= SYM_MAX): row i = column i above the diagonal (A[k][i], k < i, one 4-byte
    // block per row, each in its own 32-byte slot after the row) then row i from the diagonal on;
    // one Gather merges them, its offsets from per-row int32 arithmetic on two fixed tables.
    SymmetricParts sp;
    // Columns c0 .. min(i, c0 + cc) - 1 lie above the diagonal: A[k][i] into slot k - c0.
    sp.read = pad ? R"(    if (i > c0)
        DataCopyPad(in[SYM_MAX], sGm[(uint64_t)(r - i + c0) * cols + i],
                    DataCopyExtParams{uint16_t((i < c0 + cc ? i : c0 + cc) - c0), 4u, (cols - 1) * 4u, 0, 0},
                    DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
)"
                  : R"(    // Without DataCopyPad: the 8 elements from A[k][i] on per slot, the first counts (inside A for k < i when n >= 8).
    for (uint32_t k = c0; k < i && k < c0 + cc; ++k) DataCopy(in[SYM_MAX + (k - c0) * 8], sGm[(uint64_t)(r - i + k) * cols + i], 8);
)";
    sp.gather = R"(    ArithProgression(sel, int32_t(c0) - int32_t(i), 1, int32_t(cc));  // column - i
    Mins(sel, sel, 0, int32_t(cc));
    Maxs(sel, sel, -1, int32_t(cc));  // -1 above the diagonal, else 0
    Mul(sel, sel, symStep, int32_t(cc));
    Add(sel, sel, symBase, int32_t(cc));
    Gather(merged, in, sel.ReinterpretCast<uint32_t>(), 0, cc);
    row = merged;
)";
    sp.params = ",\n                                      LocalTensor<int32_t> sel, LocalTensor<int32_t> symBase, "
                "LocalTensor<int32_t> symStep, LocalTensor<float> merged";
    sp.args = ", sel, symBase, symStep, merged";
    sp.setup = R"(    TBuf<TPosition::VECCALC> selBuf, baseBuf, stepBuf, mergedBuf;
    pipe.InitBuffer(selBuf, SYM_MAX * 4);
    pipe.InitBuffer(baseBuf, SYM_MAX * 4);
    pipe.InitBuffer(stepBuf, SYM_MAX * 4);
    pipe.InitBuffer(mergedBuf, SYM_MAX * 4);
    LocalTensor<int32_t> sel = selBuf.Get<int32_t>(), symBase = baseBuf.Get<int32_t>(), symStep = stepBuf.Get<int32_t>();
    LocalTensor<float> merged = mergedBuf.Get<float>();
    ArithProgression(symBase, 0, 4, int32_t(SYM_MAX));                          // row element k at byte 4k
    ArithProgression(symStep, -int32_t(SYM_MAX * 4), -28, int32_t(SYM_MAX));    // minus (column slot k - 4k)
)";
    return sp;
}

// Without DataCopyPad, columns [from, to) of a row shorter than one 16-element unit, element by
// element with the same triangle or symmetric view as the vector pieces.
std::string prepScalarCode(const MatmulPlan& p) {
    std::string v = p.symmetric ? "c < i ? sGm.GetValue((uint64_t)(r - i + c) * cols + i) : sGm.GetValue((uint64_t)r * cols + c)"
                                : "sGm.GetValue((uint64_t)r * cols + c)";
    if (p.triangular == "upper") v = "c < i ? 0.0f : " + v;
    if (p.triangular == "lower") v = "c > i ? 0.0f : " + v;
    return "__aicore__ inline void DraftPrepScalar(GlobalTensor<float>& sGm, GlobalTensor<half>& dGm, uint32_t r, uint32_t cols,\n"
           "                                       uint32_t from, uint32_t to) {\n"
           "    const uint32_t i = r % cols;\n    (void)i;\n"
           "    for (uint32_t c = from; c < to; ++c) dGm.SetValue((uint64_t)r * cols + c, half(float(" + v + ")));\n}\n\n";
}

// The prep launch: each float32 operand row to float16 in workspace, spread over the cores; a
// triangular layout zeroes the other triangle (rows of a square matrix, in chunks). `pad`: the
// device has DataCopyPad and a chunk is one piece of any length; without it (310P) a chunk is
// its whole 16-element units plus, for a ragged end, one 16-element window ending at the row's
// end that overlaps the units before it and writes the same values there.
std::string prepKernel(const Frame& f, const MatmulPlan& p, bool pad) {
    std::string mask;
    if (p.triangular == "upper")
        mask = "    if (i > c0) Duplicate(in, 0.0f, int32_t(i - c0 < cc ? i - c0 : cc));  // j < i\n";
    else if (p.triangular == "lower")
        mask = R"(    const uint32_t s = i + 1 > c0 ? i + 1 - c0 : 0, al = (s + 7) / 8 * 8;  // j > i
    for (uint32_t q = s; q < al && q < cc; ++q) in.SetValue(q, 0.0f);
    if (al < cc) Duplicate(in[al], 0.0f, int32_t(cc - al));
)";
    const SymmetricParts sp = p.symmetric ? symmetricParts(pad) : SymmetricParts{};
    const std::string &sym = sp.read, &symGather = sp.gather, &symParams = sp.params, &symArgs = sp.args, &symSetup = sp.setup;
    const std::string read = pad ? "    DataCopyPad(in, sGm[(uint64_t)r * cols + c0], DataCopyExtParams{1, cc * 4u, 0, 0, 0},\n"
                                   "                DataCopyPadExtParams<float>{false, 0, 0, 0.0f});\n"
                                 : "    DataCopy(in, sGm[(uint64_t)r * cols + c0], cc);\n";
    const std::string write = pad ? "    DataCopyPad(dGm[(uint64_t)r * cols + c0], out, DataCopyExtParams{1, cc * 2u, 0, 0, 0});\n"
                                  : "    DataCopy(dGm[(uint64_t)r * cols + c0], out, cc);\n";
    // The pieces of chunk [c0, c0 + cc) of row r.
    const std::string pieces = pad ? "        DraftPrepPiece(inQ, outQ, sGm, dGm, r, cols, c0, cc" + symArgs + ");\n"
                                   : "        const uint32_t whole = cc / PREP_UNIT * PREP_UNIT;\n"
                                     "        if (whole > 0) DraftPrepPiece(inQ, outQ, sGm, dGm, r, cols, c0, whole" + symArgs + ");\n"
                                     "        if (whole < cc && cols >= PREP_UNIT)  // the row's end as one window over its own elements\n"
                                     "            DraftPrepPiece(inQ, outQ, sGm, dGm, r, cols, c0 + cc - PREP_UNIT, PREP_UNIT" + symArgs + ");\n"
                                     "        else  // a row shorter than one unit: element by element\n"
                                     "            DraftPrepScalar(sGm, dGm, r, cols, c0 + whole, c0 + cc);\n";
    std::string k = std::string(p.symmetric ? "constexpr uint32_t PREP_CHUNK = 2048, SYM_MAX = 2048" : "constexpr uint32_t PREP_CHUNK = 8192") +
                    ", PREP_UNIT = 16;  // PREP_UNIT: whole 32-byte units of float and half\n" +
                    R"(
// Columns [c0, c0 + cc) of row r (r % cols: the row within its square matrix, for a triangle).
__aicore__ inline void DraftPrepPiece(TQue<TPosition::VECIN, 1>& inQ, TQue<TPosition::VECOUT, 1>& outQ, GlobalTensor<float>& sGm,
                                      GlobalTensor<half>& dGm, uint32_t r, uint32_t cols, uint32_t c0, uint32_t cc)" + symParams + R"() {
    const uint32_t i = r % cols;
    (void)i;
    LocalTensor<float> in = inQ.AllocTensor<float>();
)" + read + sym + R"(    inQ.EnQue(in);
    in = inQ.DeQue<float>();
    LocalTensor<float> row = in;
)" + mask + symGather + R"(    LocalTensor<half> out = outQ.AllocTensor<half>();
    Cast(out, row, RoundMode::CAST_NONE, cc);
    inQ.FreeTensor(in);
    outQ.EnQue(out);
    out = outQ.DeQue<half>();
)" + write + R"(    outQ.FreeTensor(out);
}

)" + (pad ? std::string() : prepScalarCode(p)) + R"(__aicore__ inline void DraftPrepRows(TQue<TPosition::VECIN, 1>& inQ, TQue<TPosition::VECOUT, 1>& outQ, GM_ADDR src,
                                     GM_ADDR dst, uint32_t rows, uint32_t cols)" + symParams + R"() {
    GlobalTensor<float> sGm;
    GlobalTensor<half> dGm;
    sGm.SetGlobalBuffer((__gm__ float*)src, (uint64_t)rows * cols);
    dGm.SetGlobalBuffer((__gm__ half*)dst, (uint64_t)rows * cols);
    const uint32_t chunks = (cols + PREP_CHUNK - 1) / PREP_CHUNK;
    for (uint32_t item = GetBlockIdx(); item < rows * chunks; item += GetBlockNum()) {
        const uint32_t r = item / chunks, c0 = item % chunks * PREP_CHUNK;
        const uint32_t cc = cols - c0 < PREP_CHUNK ? cols - c0 : PREP_CHUNK;
)" + pieces + R"(    }
}

)";
    k += "extern \"C\" __global__ __aicore__ void " + f.entry +
         "_prep(GM_ADDR gm_a, GM_ADDR gm_b, GM_ADDR gm_ah, GM_ADDR gm_bh, GM_ADDR gm_tiling) {\n";
    k += "    GET_TILING_DATA_WITH_STRUCT(" + f.tilingStruct + ", tilingData, gm_tiling);\n";
    k += R"(    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, PREP_CHUNK * sizeof(float)";
    k += p.symmetric ? ") + SYM_MAX * 32);\n" : "));\n";  // the raw string ends inside "sizeof(float"
    k += "    pipe.InitBuffer(outQ, 1, PREP_CHUNK * sizeof(half));\n" + symSetup;
    k += "    DraftPrepRows(inQ, outQ, gm_a, gm_ah, tilingData.prepRowsA, tilingData.prepColsA" + symArgs + ");\n";
    k += "    DraftPrepRows(inQ, outQ, gm_b, gm_bh, tilingData.prepRowsB, tilingData.prepColsB" + symArgs + ");\n}\n\n";
    return k;
}

std::string loadParams(const std::string& start, const std::string& repeat, const std::string& stride, bool transpose) {
    const std::string in = "                    ";
    return in + "p.startIndex = " + start + ";\n" + in + "p.repeatTimes = uint8_t(" + repeat + ");\n" + in + "p.srcStride = " +
           stride + ";\n" + in + "p.ifTranspose = " + (transpose ? "true" : "false") + ";\n";
}

// GM (row-major) -> L1 NZ -> L0A/L0B for one K chunk; a transposed operand is read as stored
// (its fractals transposed on the way to L0A, or already in L0B's order).
std::string operandLoads(const MatmulPlan& p) {
    std::string s;
    s += p.transA ? "                DataCopy(a1, aGm[aOff + (uint64_t)k0 * M + m0], Nd2NzParams(1, kk, mm, 0, M, kBlocks * 16, 1, 0));\n"
                  : "                DataCopy(a1, aGm[aOff + (uint64_t)m0 * K + k0], Nd2NzParams(1, mm, kk, 0, K, mBlocks * 16, 1, 0));\n";
    s += p.transB ? "                DataCopy(b1, bGm[bOff + (uint64_t)n0 * K + k0], Nd2NzParams(1, nn, kk, 0, K, nBlocks * 16, 1, 0));\n"
                  : "                DataCopy(b1, bGm[bOff + (uint64_t)k0 * N + n0], Nd2NzParams(1, kk, nn, 0, N, kBlocks * 16, 1, 0));\n";
    s += R"(                qA1.EnQue(a1);
                qB1.EnQue(b1);
                LocalTensor<half> l1a = qA1.DeQue<half>();
                LocalTensor<half> l1b = qB1.DeQue<half>();
                // L1 -> L0A: per 16-row block, its k fractals side by side.
                LocalTensor<half> a2 = qA2.AllocTensor<half>();
                for (uint16_t i = 0; i < mBlocks; ++i) {
                    LoadData2DParams p;
)";
    s += p.transA ? loadParams("i * kBlocks", "kBlocks", "1", true) : loadParams("i", "kBlocks", "mBlocks", false);
    s += R"(                    LoadData(a2[i * kBlocks * 256], l1a, p);
                }
                // L1 -> L0B: per 16-deep k block, its n fractals (k x n, transposed inside).
                LocalTensor<half> b2 = qB2.AllocTensor<half>();
                for (uint16_t kb = 0; kb < kBlocks; ++kb) {
                    LoadData2DParams p;
)";
    s += p.transB ? loadParams("kb * nBlocks", "nBlocks", "1", false) : loadParams("kb", "nBlocks", "kBlocks", true);
    s += "                    LoadData(b2[kb * nBlocks * 256], l1b, p);\n                }\n";
    return s;
}

std::string cubeKernel(const Frame& f, const MatmulPlan& p, const nlohmann::json& sk, const std::string& params,
                       const std::string& aArg, const std::string& bArg, const std::string& cArg, const std::string& cType) {
    auto num = [&](const char* key, int def) { return std::to_string(std::clamp(sk.value(key, def), 16, 128) / 16 * 16); };
    std::string k = "constexpr uint32_t TILE_M = " + num("tile_m", 128) + ", TILE_N = " + num("tile_n", 128) +
                    ", TILE_K = " + num("tile_k", 128) + ";\n\n";
    k += "extern \"C\" __global__ __aicore__ void " + f.entry + "(" + params + ") {\n";
    k += "    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);\n";
    k += "    GET_TILING_DATA_WITH_STRUCT(" + f.tilingStruct + ", tilingData, gm_tiling);\n";
    k += "    const uint32_t M = tilingData.draftM, K = tilingData.draftK, N = tilingData.draftN, BATCH = tilingData.draftBatch;\n";
    k += "    GlobalTensor<half> aGm, bGm;\n    GlobalTensor<" + cType + "> cGm;\n";
    k += "    aGm.SetGlobalBuffer((__gm__ half*)gm_" + aArg + ", (uint64_t)BATCH * M * K);\n";
    k += "    bGm.SetGlobalBuffer((__gm__ half*)gm_" + bArg + ", (uint64_t)" + (p.batchedB ? "BATCH * " : "") + "K * N);\n";
    k += "    cGm.SetGlobalBuffer((__gm__ " + cType + "*)gm_" + cArg + ", (uint64_t)BATCH * M * N);\n";
    k += R"(    TPipe pipe;
    TQue<TPosition::A1, 1> qA1;
    TQue<TPosition::B1, 1> qB1;
    TQue<TPosition::A2, 1> qA2;
    TQue<TPosition::B2, 1> qB2;
    TQue<TPosition::CO1, 1> qC;
    pipe.InitBuffer(qA1, 1, TILE_M * TILE_K * sizeof(half));
    pipe.InitBuffer(qB1, 1, TILE_K * TILE_N * sizeof(half));
    pipe.InitBuffer(qA2, 1, TILE_M * TILE_K * sizeof(half));
    pipe.InitBuffer(qB2, 1, TILE_K * TILE_N * sizeof(half));
    pipe.InitBuffer(qC, 1, TILE_M * TILE_N * sizeof(float));
    for (uint32_t bt = 0; bt < BATCH; ++bt) {
)";
    k += std::string("    const uint64_t aOff = (uint64_t)bt * M * K, bOff = ") + (p.batchedB ? "(uint64_t)bt * K * N" : "0") +
         ", cOff = (uint64_t)bt * M * N;\n";
    k += R"(    for (uint32_t m0 = 0; m0 < M; m0 += TILE_M) {
        for (uint32_t n0 = 0; n0 < N; n0 += TILE_N) {
            // Output tiles dealt round-robin over the cores the launch runs (one in the draft).
            if (((m0 / TILE_M) * ((N + TILE_N - 1) / TILE_N) + n0 / TILE_N) % GetBlockNum() != GetBlockIdx()) continue;
            const uint32_t mm = M - m0 < TILE_M ? M - m0 : TILE_M;
            const uint32_t nn = N - n0 < TILE_N ? N - n0 : TILE_N;
            const uint16_t mBlocks = uint16_t((mm + 15) / 16), nBlocks = uint16_t((nn + 15) / 16);
            LocalTensor<float> co1 = qC.AllocTensor<float>();
            for (uint32_t k0 = 0; k0 < K; k0 += TILE_K) {
                const uint32_t kk = K - k0 < TILE_K ? K - k0 : TILE_K;
                const uint16_t kBlocks = uint16_t((kk + 15) / 16);
                // GM (row-major) -> L1 in NZ layout: column blocks of 16, rows padded to 16.
                LocalTensor<half> a1 = qA1.AllocTensor<half>();
                LocalTensor<half> b1 = qB1.AllocTensor<half>();
)";
    k += operandLoads(p);
    k += R"(                qA2.EnQue(a2);
                qB2.EnQue(b2);
                qA1.FreeTensor(l1a);
                qB1.FreeTensor(l1b);
                LocalTensor<half> l0a = qA2.DeQue<half>();
                LocalTensor<half> l0b = qB2.DeQue<half>();
                MmadParams mp;
                mp.m = uint16_t(mm);
                mp.n = uint16_t(nn);
                mp.k = uint16_t(kk);
                mp.cmatrixInitVal = k0 == 0;  // the first K chunk starts the sum, later ones add to it
                Mmad(co1, l0a, l0b, mp);
                qA2.FreeTensor(l0a);
                qB2.FreeTensor(l0b);
            }
            qC.EnQue(co1);
            LocalTensor<float> l0c = qC.DeQue<float>();
            FixpipeParamsV220 fp;
            fp.nSize = uint16_t(nn);
            fp.mSize = uint16_t(mm);
            fp.srcStride = mBlocks * 16;
            fp.dstStride = N;
)";
    if (cType == "half") k += "            fp.quantPre = QuantMode_t::F322F16;\n";
    k += R"(            Fixpipe(cGm[cOff + (uint64_t)m0 * N + n0], l0c, fp);
            qC.FreeTensor(l0c);
        }
    }
    }
}
)";
    return k;
}

} // namespace

SkeletonCode composeMatmul(Frame& f) {
    const eval::Task& task = f.task;
    const eval::ComputeSpec& spec = task.compute;
    if (spec.layout.diagonalA) return composeRowScale(f);
    const MatmulPlan p = planMatmul(task);
    const eval::TensorDecl* a = p.a;
    const eval::TensorDecl* b = p.b;
    if (task.outputs.size() != 1) throw DraftError("field 'compute.out': the matmul skeleton writes one output");
    const eval::TensorDecl& out = task.outputs.front();
    if (out.shape != p.outShape)
        throw DraftError("field 'compute.out." + out.name + "': the product is " + shapeText(p.outShape) + ", the output " +
                         shapeText(out.shape));
    const eval::Expr& e = spec.outputs.front().expr;
    const bool direct = spec.lets.empty() && e.op == eval::Expr::Op::Ref && e.name == "acc";
    if (direct && out.dtype != "float32" && out.dtype != "float16")
        throw DraftError("field 'compute.out." + out.name + "': the product is written as float32 or float16");
    f.addField("draftM", "uint32_t", p.m);
    f.addField("draftK", "uint32_t", p.k);
    f.addField("draftN", "uint32_t", p.n);
    f.addField("draftBatch", "uint32_t", p.batch);
    if (p.prep) {
        // A triangle needs the rows of the square matrix; otherwise the operand converts as one flat row.
        for (const auto* d : {a, b}) {
            const std::string side = d == a ? "A" : "B", cols = shapeOf(d->name, d->shape.size() - 1);
            const std::string numel = "ctx.numel(\"" + d->name + "\")";
            const bool flat = p.triangular.empty() && !p.symmetric;
            f.addField("prepRows" + side, "uint32_t", flat ? "1" : numel + " / " + cols);
            f.addField("prepCols" + side, "uint32_t", flat ? numel : cols);
        }
    }
    const std::string cType = direct && out.dtype == "float16" ? "half" : "float";
    // Plain float16 operands keep the task's own launch (entry and argument order).
    const bool ownLaunch = direct && !p.prep;
    const std::string aArg = p.prep ? "ah" : a->name, bArg = p.prep ? "bh" : b->name, cArg = direct ? out.name : "acc";
    const std::string params = ownLaunch ? f.kernelParams()
                                         : "GM_ADDR gm_" + aArg + ", GM_ADDR gm_" + bArg + ", GM_ADDR gm_" + cArg + ", GM_ADDR gm_tiling";
    const bool pad = f.knowledge.idiom("tail_copy").value("method", "") == "datacopy_pad";
    std::string k = (p.prep ? prepKernel(f, p, pad) : std::string()) +
                    cubeKernel(f, p, f.knowledge.skeleton("matmul"), params, aArg, bArg, cArg, cType);
    std::string host;
    if (p.prep) {
        const std::string cores = std::to_string(std::max(1, f.device.vectorCores));
        host += "    GM_ADDR ah = ctx.workspace(ctx.numel(\"" + a->name + "\") * 2), bh = ctx.workspace(ctx.numel(\"" + b->name + "\") * 2);\n";
        host += "    ICPU_RUN_KF(" + f.entry + "_prep, " + cores + ", ctx.gm(\"" + a->name + "\"), ctx.gm(\"" + b->name +
                "\"), ah, bh, ctx.tiling(t));\n";
        f.notes.push_back("float32 operands converted to float16 in workspace by a prep launch over " + cores + " cores" +
                          (p.triangular.empty() ? std::string(".") : ", the " + p.triangular + " triangle kept."));
    }
    if (direct && !p.prep) {
        f.notes.push_back("Cube path with K accumulated in L0C; Fixpipe writes the result.");
        return {k, f.launch("1")};
    }
    if (direct) {
        host += "    ICPU_RUN_KF(" + f.entry + ", 1, ah, bh, ctx.gm(\"" + out.name + "\"), ctx.tiling(t));\n";
        f.notes.push_back("Cube path with K accumulated in L0C; Fixpipe writes the result.");
        return {k, host};
    }
    // The epilogue as a rowwise task over acc = a x b (fp32, in workspace GM).
    eval::Task epi = task;
    epi.inputs.clear();
    epi.inputs.push_back({"acc", "float32", out.shape});
    for (const auto& d : task.inputs)
        if (d.name != a->name && d.name != b->name) epi.inputs.push_back(d);
    epi.compute.kind = "rowwise";
    epi.compute.computeDtype = "float32";
    Frame ef{epi, f.device, f.knowledge, task.name + "_epilogue", f.tilingStruct + "Epilogue", {}, {}, {}, {}, f.attrHost, {}};
    for (const auto& d : epi.inputs) ef.args.push_back(d.name);
    ef.args.push_back(out.name);
    ef.args.push_back("tiling");
    ef.argValue["acc"] = "acc";
    ef.argValue["tiling"] = "ctx.tiling(te)";
    SkeletonCode ec = composeRowwise(ef);
    std::string kernel = k + "\n// Epilogue: " + spec.outputs.front().expr.text() + ", row by row over the product.\n" +
                         ef.tilingDecl() + "\n" + ec.kernel;
    const std::string aIn = p.prep ? "ah" : "ctx.gm(\"" + a->name + "\")", bIn = p.prep ? "bh" : "ctx.gm(\"" + b->name + "\")";
    host += "    GM_ADDR acc = ctx.workspace(size_t(ctx.numel(\"" + out.name + "\")) * sizeof(float));\n" +
            "    ICPU_RUN_KF(" + f.entry + ", BLOCK_DIM, " + aIn + ", " + bIn + ", acc, ctx.tiling(t));\n" + ef.hostFill("te") + ec.host;
    f.notes.push_back("Cube path with K accumulated in L0C into fp32 workspace, then the epilogue as a second, rowwise launch; "
                      "both launches run BLOCK_DIM cores.");
    return {kernel, host};
}

} // namespace sage::agent::draft
