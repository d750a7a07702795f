// Kernels for test_npu_api_math_mixed: the math and activation library functions whose operands
// are of mixed kinds (kernel_vec_math_mixed.h), each written once into its own slice of `out`.
#include "kernel_operator.h"

using namespace AscendC;

// Float functions of x, y, z (n each) into 12 slices of out (n floats each).
extern "C" __global__ __aicore__ void mixed_float_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR out, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bz, bo, bc, tmp;
    pipe.InitBuffer(bx, n * sizeof(float));
    pipe.InitBuffer(by, n * sizeof(float));
    pipe.InitBuffer(bz, n * sizeof(float));
    pipe.InitBuffer(bo, 12 * n * sizeof(float));
    pipe.InitBuffer(bc, n);
    pipe.InitBuffer(tmp, 1024);
    GlobalTensor<float> xg, yg, zg, og;
    xg.SetGlobalBuffer((__gm__ float*)x, n);
    yg.SetGlobalBuffer((__gm__ float*)y, n);
    zg.SetGlobalBuffer((__gm__ float*)z, n);
    og.SetGlobalBuffer((__gm__ float*)out, 12 * n);
    LocalTensor<float> lx = bx.Get<float>(), ly = by.Get<float>(), lz = bz.Get<float>(), lo = bo.Get<float>();
    LocalTensor<bool> cond = bc.Get<bool>();
    LocalTensor<uint8_t> lt = tmp.Get<uint8_t>();
    DataCopy(lx, xg, n);
    DataCopy(ly, yg, n);
    DataCopy(lz, zg, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    for (uint32_t i = 0; i < n; ++i) cond.SetValue(i, i % 3 == 0);
    Fma(lo, lx, ly, lz, n);
    Clamp(lo[n], lx, ly, 0.25f, n);
    Clamp(lo[2 * n], lx, -0.5f, lz, n);
    Where<float>(lo[3 * n], lx, 7.0f, cond, n);
    Fmod<float, false, DEFAULT_FMOD_CONFIG>(lo[4 * n], lx, ly, lt, n);
    Frac<float, false>(lo[5 * n], lx, n);
    Rint(lo[6 * n], lx, lt, n);
    Swish(lo[7 * n], lx, n, 1.5f);
    SwiGLU(lo[8 * n], lx, ly, 0.75f);
    GeGLU<float, false>(lo[9 * n], lx, ly, n);
    ClampMin<float, false>(lo[10 * n], lx, lt, 0.1f, n);
    Arange<float>(lo[11 * n], 2.0f, 0.5f, n);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(og, lo, 12 * n);
}

// Integer and predicate functions: Xor and BitwiseAnd of a and b, LogicalAnd of a and b into
// bytes, IsFinite of f into bytes; out holds 2 * n int32 then 2 * n bytes.
extern "C" __global__ __aicore__ void mixed_int_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR f, GM_ADDR out, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb, bf, bo, bp;
    pipe.InitBuffer(ba, n * sizeof(int32_t));
    pipe.InitBuffer(bb, n * sizeof(int32_t));
    pipe.InitBuffer(bf, n * sizeof(float));
    pipe.InitBuffer(bo, 2 * n * sizeof(int32_t));
    pipe.InitBuffer(bp, 2 * n);
    GlobalTensor<int32_t> ag, bg, og;
    GlobalTensor<float> fg;
    GlobalTensor<uint8_t> pg;
    ag.SetGlobalBuffer((__gm__ int32_t*)a, n);
    bg.SetGlobalBuffer((__gm__ int32_t*)b, n);
    fg.SetGlobalBuffer((__gm__ float*)f, n);
    og.SetGlobalBuffer((__gm__ int32_t*)out, 2 * n);
    pg.SetGlobalBuffer((__gm__ uint8_t*)out + 2 * n * sizeof(int32_t), 2 * n);
    LocalTensor<int32_t> la = ba.Get<int32_t>(), lb = bb.Get<int32_t>(), lo = bo.Get<int32_t>();
    LocalTensor<float> lf = bf.Get<float>();
    LocalTensor<bool> both = bp.Get<bool>();
    LocalTensor<uint8_t> finite = bp.Get<uint8_t>()[n];
    DataCopy(la, ag, n);
    DataCopy(lb, bg, n);
    DataCopy(lf, fg, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Xor<int32_t, false>(lo, la, lb, n);
    BitwiseAnd(lo[n], la, lb, n);
    LogicalAnd(both, la, lb, n);
    IsFinite(finite, lf, n);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(og, lo, 2 * n);
    DataCopy(pg, bp.Get<uint8_t>(), 2 * n);
}

// A Fma whose operands hold fewer elements than the count: the bounds check must name it.
extern "C" __global__ __aicore__ void mixed_overrun_kernel(GM_ADDR out, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> small, big;
    pipe.InitBuffer(small, n * sizeof(float));
    pipe.InitBuffer(big, 4 * n * sizeof(float));
    LocalTensor<float> s = small.Get<float>(), d = big.Get<float>();
    Duplicate(s, 1.0f, int32_t(n));
    Fma(d, s, s, s, 4 * n);
}
