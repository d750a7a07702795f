// Kernels for test_npu_fidelity: each one exercises one place where the simulator used to differ
// from the device (issue 13, part 4). Written for the test; sizes are the smallest that show it.
#include "kernel_operator.h"

using namespace AscendC;

// Source lines of the statements whose diagnostics the tests check (set as the kernel runs).
inline uint32_t g_getLine = 0, g_pastEndLine = 0, g_readUbLine = 0;

// C[16 x 16] = bias + A[16 x 32] . B[32 x 16] with all-ones A and B (so the fractal layout does
// not matter). mode 0: bias with cmatrixInitVal = false (C = bias + A.B); mode 1: bias with
// cmatrixInitVal = true (C starts from zero); mode 2: mode 0 then a second plain Mmad that
// accumulates (C = bias + 2 A.B).
extern "C" __global__ __aicore__ void mmad_bias_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, int mode)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    TPipe pipe;
    TBuf<TPosition::A1> a1;
    TBuf<TPosition::B1> b1;
    TBuf<TPosition::A2> a2;
    TBuf<TPosition::B2> b2;
    TBuf<TPosition::CO1> co1;
    TBuf<TPosition::C1> biasL1;
    TBuf<TPosition::C2> biasTable;
    pipe.InitBuffer(a1, 16 * 32 * sizeof(half));
    pipe.InitBuffer(b1, 32 * 16 * sizeof(half));
    pipe.InitBuffer(a2, 16 * 32 * sizeof(half));
    pipe.InitBuffer(b2, 32 * 16 * sizeof(half));
    pipe.InitBuffer(co1, 16 * 16 * sizeof(float));
    pipe.InitBuffer(biasL1, 16 * sizeof(float));
    pipe.InitBuffer(biasTable, 16 * sizeof(float));
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> biasGm, cGm;
    aGm.SetGlobalBuffer((__gm__ half*)a, 16 * 32);
    bGm.SetGlobalBuffer((__gm__ half*)b, 32 * 16);
    biasGm.SetGlobalBuffer((__gm__ float*)bias, 16);
    cGm.SetGlobalBuffer((__gm__ float*)c, 16 * 16);

    LocalTensor<half> la1 = a1.Get<half>(), lb1 = b1.Get<half>(), la2 = a2.Get<half>(), lb2 = b2.Get<half>();
    LocalTensor<float> lc = co1.Get<float>(), lbias1 = biasL1.Get<float>(), lbt = biasTable.Get<float>();
    DataCopy(la1, aGm, 16 * 32);
    DataCopy(lb1, bGm, 32 * 16);
    DataCopy(lbias1, biasGm, 16);
    PipeBarrier<PIPE_ALL>();
    LoadData(la2, la1, LoadData2DParams(0, 2, 1, 0, 0, false, 0));
    LoadData(lb2, lb1, LoadData2DParams(0, 2, 1, 0, 0, true, 0));
    DataCopy(lbt, lbias1, 16);  // L1 -> bias table
    PipeBarrier<PIPE_ALL>();
    MmadParams p;
    p.m = 16;
    p.n = 16;
    p.k = 32;
    p.cmatrixInitVal = mode == 1;
    Mmad(lc, la2, lb2, lbt, p);
    if (mode == 2) {
        p.cmatrixInitVal = false;
        Mmad(lc, la2, lb2, p);
    }
    PipeBarrier<PIPE_ALL>();
    FixpipeParamsV220 fp;
    fp.nSize = 16;
    fp.mSize = 16;
    fp.srcStride = 16;
    fp.dstStride = 16;
    Fixpipe(cGm, lc, fp);
}

// Fills a TBuf of `bytes` bytes (the whole usable UB when bytes is the profile's limit).
extern "C" __global__ __aicore__ void ub_budget_kernel(GM_ADDR, uint32_t bytes)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> all;
    pipe.InitBuffer(all, bytes);
    LocalTensor<float> t = all.Get<float>();
    Duplicate(t, 1.0f, 64);
}

// y = x + 1 through one TBuf; `scratch` is fetched but never set up or used (a kernel's float
// path that skips its cast buffer does this).
extern "C" __global__ __aicore__ void tbuf_unused_kernel(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> work, scratch;
    pipe.InitBuffer(work, 64 * sizeof(float));
    g_getLine = __LINE__ + 1;
    LocalTensor<float> unused = scratch.Get<float>();
    (void)unused;
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x, 64);
    yg.SetGlobalBuffer((__gm__ float*)y, 64);
    LocalTensor<float> t = work.Get<float>();
    DataCopy(t, xg, 64);
    PipeBarrier<PIPE_ALL>();
    Adds(t, t, 1.0f, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, t, 64);
}

// int64 -> float and int32 -> int64 -> int32 on the vector unit (910B).
extern "C" __global__ __aicore__ void cast_int64_kernel(GM_ADDR x, GM_ADDR yf, GM_ADDR yi)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> b64, bf, b32;
    pipe.InitBuffer(b64, 32 * sizeof(int64_t));
    pipe.InitBuffer(bf, 32 * sizeof(float));
    pipe.InitBuffer(b32, 32 * sizeof(int32_t));
    GlobalTensor<int64_t> xg;
    GlobalTensor<float> fg;
    GlobalTensor<int32_t> ig;
    xg.SetGlobalBuffer((__gm__ int64_t*)x, 32);
    fg.SetGlobalBuffer((__gm__ float*)yf, 32);
    ig.SetGlobalBuffer((__gm__ int32_t*)yi, 32);
    LocalTensor<int64_t> l64 = b64.Get<int64_t>();
    LocalTensor<float> lf = bf.Get<float>();
    LocalTensor<int32_t> l32 = b32.Get<int32_t>();
    DataCopy(l64, xg, 32);
    PipeBarrier<PIPE_ALL>();
    Cast(lf, l64, RoundMode::CAST_RINT, 32);
    Cast(l32, l64, RoundMode::CAST_NONE, 32);
    PipeBarrier<PIPE_ALL>();
    DataCopy(fg, lf, 32);
    DataCopy(ig, l32, 32);
}

// Copies `count` halfs from a GlobalTensor that holds `limit` of them.
extern "C" __global__ __aicore__ void gm_past_end_kernel(GM_ADDR x, uint32_t limit, uint32_t count)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> t;
    pipe.InitBuffer(t, 256 * sizeof(half));
    GlobalTensor<half> g;
    g.SetGlobalBuffer((__gm__ half*)x, limit);
    LocalTensor<half> l = t.Get<half>();
    g_pastEndLine = __LINE__ + 1;
    DataCopy(l, g, count);
}

// Adds on UB nobody wrote (fill = false) or after a Duplicate (fill = true).
extern "C" __global__ __aicore__ void ub_uninit_kernel(GM_ADDR y, bool fill)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> t;
    pipe.InitBuffer(t, 64 * sizeof(float));
    GlobalTensor<float> yg;
    yg.SetGlobalBuffer((__gm__ float*)y, 64);
    LocalTensor<float> l = t.Get<float>();
    if (fill) Duplicate(l, 2.0f, 64);
    PipeBarrier<PIPE_V>();
    g_readUbLine = __LINE__ + 1;
    Adds(l, l, 1.0f, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, l, 64);
}
