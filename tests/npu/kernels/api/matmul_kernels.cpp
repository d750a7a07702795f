// Kernels for test_npu_api_matmul: the high-level Matmul API (lib/matmul_intf.h) and the math
// library functions. Written for the test.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "lib/math/kernel_operator_sin_intf.h"

using namespace AscendC;

using AType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>;
using BType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>;
using CType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BiasType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
constexpr MatmulConfig kMdl = GetMDLConfig(true, false, 0, false, false, false, true);

// C = A x B (+ bias): each block takes rows [idx * rowsPerCore, ...) of A and C; the last block's
// share may be shorter (SetTail). B is K x N, or N x K when transB.
extern "C" __global__ __aicore__ void matmul_all_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                        GM_ADDR tilingGm, uint32_t transB, uint32_t useIterate)
{
    TCubeTiling tiling;
    std::memcpy(&tiling, tilingGm, sizeof(tiling));
    TPipe pipe;
    matmul::Matmul<AType, BType, CType, BiasType, kMdl> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    const int idx = int(GetBlockIdx());
    const int rows = std::min(tiling.singleCoreM, tiling.M - idx * tiling.singleCoreM);
    if (rows <= 0) return;
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> cg, biasg;
    ag.SetGlobalBuffer((__gm__ half*)a, uint64_t(tiling.M) * tiling.Ka);
    bg.SetGlobalBuffer((__gm__ half*)b, uint64_t(tiling.Kb) * tiling.N);
    cg.SetGlobalBuffer((__gm__ float*)c, uint64_t(tiling.M) * tiling.N);
    biasg.SetGlobalBuffer((__gm__ float*)bias, tiling.N);
    mm.SetTensorA(ag[uint64_t(idx) * tiling.singleCoreM * tiling.Ka]);
    mm.SetTensorB(bg, transB != 0);
    if (tiling.isBias) mm.SetBias(biasg);
    if (rows < tiling.singleCoreM) mm.SetTail(rows);
    GlobalTensor<float> out = cg[uint64_t(idx) * tiling.singleCoreM * tiling.N];
    if (useIterate) {
        while (mm.Iterate()) mm.GetTensorC(out);
    } else {
        mm.IterateAll(out);
    }
    mm.End();
}

// C block into UB through GetTensorC, then a vector op on it and out to GM: the library's call
// is synchronous, so the vector unit may read C right away.
extern "C" __global__ __aicore__ void matmul_ub_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm)
{
    TCubeTiling tiling;
    std::memcpy(&tiling, tilingGm, sizeof(tiling));
    TPipe pipe;
    matmul::MatmulImpl<AType, BType, matmul::MatmulType<TPosition::VECIN, CubeFormat::ND, float>> mm;
    mm.Init(&tiling, &pipe);
    TBuf<TPosition::VECCALC> cb;
    pipe.InitBuffer(cb, tiling.M * tiling.N * sizeof(float));
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> cg;
    ag.SetGlobalBuffer((__gm__ half*)a, uint64_t(tiling.M) * tiling.Ka);
    bg.SetGlobalBuffer((__gm__ half*)b, uint64_t(tiling.Kb) * tiling.N);
    cg.SetGlobalBuffer((__gm__ float*)c, uint64_t(tiling.M) * tiling.N);
    LocalTensor<float> cl = cb.Get<float>();
    mm.SetTensorA(ag);
    mm.SetTensorB(bg);
    mm.IterateAll(cl);
    Muls(cl, cl, 2.0f, tiling.M * tiling.N);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(cg, cl, tiling.M * tiling.N);
    mm.End();
}

// Iterate without SetTensorA: the simulator must say what is missing.
extern "C" __global__ __aicore__ void matmul_missing_a_kernel(GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm)
{
    TCubeTiling tiling;
    std::memcpy(&tiling, tilingGm, sizeof(tiling));
    TPipe pipe;
    matmul::Matmul<AType, BType, CType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    GlobalTensor<half> bg;
    GlobalTensor<float> cg;
    bg.SetGlobalBuffer((__gm__ half*)b);
    cg.SetGlobalBuffer((__gm__ float*)c);
    mm.SetTensorB(bg);
    mm.IterateAll(cg);  // MISSING_A
}

// The math library: out[0..n) = f(x) for each function, and the three forms of Power.
extern "C" __global__ __aicore__ void math_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR out, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bo, tmp;
    pipe.InitBuffer(bx, n * sizeof(float));
    pipe.InitBuffer(by, n * sizeof(float));
    pipe.InitBuffer(bo, 8 * n * sizeof(float));
    pipe.InitBuffer(tmp, 1024);
    GlobalTensor<float> xg, yg, og;
    xg.SetGlobalBuffer((__gm__ float*)x, n);
    yg.SetGlobalBuffer((__gm__ float*)y, n);
    og.SetGlobalBuffer((__gm__ float*)out, 8 * n);
    LocalTensor<float> lx = bx.Get<float>(), ly = by.Get<float>(), lo = bo.Get<float>();
    LocalTensor<uint8_t> lt = tmp.Get<uint8_t>();
    DataCopy(lx, xg, n);
    DataCopy(ly, yg, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Sin(lo, lx, n);
    Cos<float, false>(lo[n], lx, lt, n);
    Asin(lo[2 * n], lx, n);
    Atan(lo[3 * n], lx, n);
    Erf(lo[4 * n], lx, n);
    Power(lo[5 * n], ly, lx, n);
    Power(lo[6 * n], ly, 3.0f, lt, n);
    Power(lo[7 * n], 2.0f, lx, n);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(og, lo, 8 * n);
}
