// Skeleton "matmul": C = A x B on the cube unit, one core, output tiles of tile_m x tile_n,
// K in chunks of tile_k accumulated in L0C: GM -> L1 (DataCopy with Nd2NzParams) -> L0A/L0B
// (LoadData) -> Mmad -> Fixpipe -> GM. An epilogue other than "acc" (bias, activation) runs as a
// second launch: the rowwise skeleton over the fp32 product kept in workspace GM.
#include "draft/Skeletons.h"
#include "sage_npu/DeviceProfile.h"

namespace sage::agent::draft {

SkeletonCode composeMatmul(Frame& f) {
    const eval::Task& task = f.task;
    const nlohmann::json& sk = f.knowledge.skeleton("matmul");
    const eval::ComputeSpec& spec = task.compute;
    const eval::TensorDecl* a = findTensor(task, spec.a);
    const eval::TensorDecl* b = findTensor(task, spec.b);
    if (a->shape.size() != 2 || b->shape.size() != 2 || a->shape[1] != b->shape[0])
        throw DraftError("field 'compute.a': the matmul needs a [M, K] and b [K, N]; got " + shapeText(a->shape) + " and " +
                         shapeText(b->shape));
    if (a->dtype != "float16" || b->dtype != "float16")
        throw DraftError("field 'compute.a': the matmul skeleton takes float16 operands (got " + a->dtype + ", " + b->dtype + ")");
    if (task.outputs.size() != 1) throw DraftError("field 'compute.out': the matmul skeleton writes one output");
    const eval::TensorDecl& out = task.outputs.front();
    if (out.shape != std::vector<std::string>{a->shape[0], b->shape[1]})
        throw DraftError("field 'compute.out." + out.name + "': the product is [" + a->shape[0] + ", " + b->shape[1] + "], the output " +
                         shapeText(out.shape));
    const eval::Expr& e = spec.outputs.front().expr;
    const bool direct = spec.lets.empty() && e.op == eval::Expr::Op::Ref && e.name == "acc";
    if (direct && out.dtype != "float32" && out.dtype != "float16")
        throw DraftError("field 'compute.out." + out.name + "': the product is written as float32 or float16");
    auto num = [&](const char* key, int def) { return std::to_string(std::clamp(sk.value(key, def), 16, 128) / 16 * 16); };

    f.addField("draftM", "uint32_t", "ctx.shape(\"" + a->name + "\", 0)");
    f.addField("draftK", "uint32_t", "ctx.shape(\"" + a->name + "\", 1)");
    f.addField("draftN", "uint32_t", "ctx.shape(\"" + b->name + "\", 1)");
    const std::string cType = direct && out.dtype == "float16" ? "half" : "float";
    const std::string cParam = direct ? out.name : "acc";
    std::string params;
    if (direct) params = f.kernelParams();
    else params = "GM_ADDR gm_" + a->name + ", GM_ADDR gm_" + b->name + ", GM_ADDR gm_acc, GM_ADDR gm_tiling";

    std::string k = "constexpr uint32_t TILE_M = " + num("tile_m", 128) + ", TILE_N = " + num("tile_n", 128) +
                    ", TILE_K = " + num("tile_k", 128) + ";\n\n";
    k += "extern \"C\" __global__ __aicore__ void " + f.entry + "(" + params + ") {\n";
    k += "    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);\n";
    k += "    GET_TILING_DATA_WITH_STRUCT(" + f.tilingStruct + ", tilingData, gm_tiling);\n";
    k += "    const uint32_t M = tilingData.draftM, K = tilingData.draftK, N = tilingData.draftN;\n";
    k += "    GlobalTensor<half> aGm, bGm;\n    GlobalTensor<" + cType + "> cGm;\n";
    k += "    aGm.SetGlobalBuffer((__gm__ half*)gm_" + a->name + ", (uint64_t)M * K);\n";
    k += "    bGm.SetGlobalBuffer((__gm__ half*)gm_" + b->name + ", (uint64_t)K * N);\n";
    k += "    cGm.SetGlobalBuffer((__gm__ " + cType + "*)gm_" + cParam + ", (uint64_t)M * N);\n";
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
    for (uint32_t m0 = 0; m0 < M; m0 += TILE_M) {
        for (uint32_t n0 = 0; n0 < N; n0 += TILE_N) {
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
                DataCopy(a1, aGm[(uint64_t)m0 * K + k0], Nd2NzParams(1, mm, kk, 0, K, mBlocks * 16, 1, 0));
                DataCopy(b1, bGm[(uint64_t)k0 * N + n0], Nd2NzParams(1, kk, nn, 0, N, kBlocks * 16, 1, 0));
                qA1.EnQue(a1);
                qB1.EnQue(b1);
                LocalTensor<half> l1a = qA1.DeQue<half>();
                LocalTensor<half> l1b = qB1.DeQue<half>();
                // L1 -> L0A: per 16-row block, its k fractals side by side.
                LocalTensor<half> a2 = qA2.AllocTensor<half>();
                for (uint16_t i = 0; i < mBlocks; ++i) {
                    LoadData2DParams p;
                    p.startIndex = i;
                    p.repeatTimes = uint8_t(kBlocks);
                    p.srcStride = mBlocks;
                    p.ifTranspose = false;
                    LoadData(a2[i * kBlocks * 256], l1a, p);
                }
                // L1 -> L0B: per 16-deep k block, its n fractals, each transposed.
                LocalTensor<half> b2 = qB2.AllocTensor<half>();
                for (uint16_t kb = 0; kb < kBlocks; ++kb) {
                    LoadData2DParams p;
                    p.startIndex = kb;
                    p.repeatTimes = uint8_t(nBlocks);
                    p.srcStride = kBlocks;
                    p.ifTranspose = true;
                    LoadData(b2[kb * nBlocks * 256], l1b, p);
                }
                qA2.EnQue(a2);
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
    k += R"(            Fixpipe(cGm[(uint64_t)m0 * N + n0], l0c, fp);
            qC.FreeTensor(l0c);
        }
    }
}
)";
    if (direct) {
        f.notes.push_back("Cube path with K accumulated in L0C; Fixpipe writes the result.");
        return {k, f.launch("1")};
    }

    // The epilogue as a rowwise task over acc = a x b (fp32, in workspace GM).
    eval::Task epi = task;
    epi.inputs.clear();
    epi.inputs.push_back({"acc", "float32", out.shape});
    for (const auto& d : task.inputs)
        if (d.name != a->name && d.name != b->name) epi.inputs.push_back(d);
    epi.compute.kind = "rowwise";
    epi.compute.computeDtype = "float32";
    Frame ef{epi, f.device, f.knowledge, task.name + "_epilogue", f.tilingStruct + "Epilogue", {}, {}, {}, {}};
    for (const auto& d : epi.inputs) ef.args.push_back(d.name);
    ef.args.push_back(out.name);
    ef.args.push_back("tiling");
    ef.argValue["acc"] = "acc";
    ef.argValue["tiling"] = "ctx.tiling(te)";
    SkeletonCode ec = composeRowwise(ef);
    std::string kernel = k + "\n// Epilogue: " + spec.outputs.front().expr.text() + ", row by row over the product.\n" +
                         ef.tilingDecl() + "\n" + ec.kernel;
    std::string host = "    GM_ADDR acc = ctx.workspace(size_t(ctx.numel(\"" + out.name + "\")) * sizeof(float));\n" +
                       "    ICPU_RUN_KF(" + f.entry + ", 1, ctx.gm(\"" + a->name + "\"), ctx.gm(\"" + b->name +
                       "\"), acc, ctx.tiling(t));\n" + ef.hostFill("te") + ec.host;
    f.notes.push_back("Cube path with K accumulated in L0C into fp32 workspace, then the epilogue as a second, rowwise launch.");
    return {kernel, host};
}

} // namespace sage::agent::draft
