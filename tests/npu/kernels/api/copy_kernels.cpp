// Data-copy kernels for test_npu_api: count form, DataCopyParams with gaps, DataCopyPad in both
// directions, UB -> UB copies and atomic accumulation into GM.
#include "kernel_operator.h"

using namespace AscendC;

// GM -> UB (count form) -> UB -> UB copy -> GM, through TQue so that every hand-over is synced.
template <typename T>
__aicore__ inline void copy_count_kernel(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T*)x, n);
    yGm.SetGlobalBuffer((__gm__ T*)y, n);
    pipe.InitBuffer(inQ, 1, n * sizeof(T));
    pipe.InitBuffer(outQ, 1, n * sizeof(T));
    LocalTensor<T> a = inQ.AllocTensor<T>();
    DataCopy(a, xGm, n);
    inQ.EnQue(a);
    LocalTensor<T> b = inQ.DeQue<T>();
    LocalTensor<T> c = outQ.AllocTensor<T>();
    DataCopy(c, b, n);  // UB -> UB
    outQ.EnQue(c);
    inQ.FreeTensor(b);
    LocalTensor<T> d = outQ.DeQue<T>();
    DataCopy(yGm, d, n);
    outQ.FreeTensor(d);
}

struct GapCopyArgs {
    uint16_t blockCount, blockLen, srcStride, dstStride;  // DataCopyParams, in 32-byte blocks
    uint32_t ubElems;                                     // UB region written back in full
    half sentinel;
};

// Fills a UB region with a sentinel, copies GM -> UB with DataCopyParams (gaps on both sides),
// then writes the whole UB region back so the test sees data and untouched gaps.
extern "C" __global__ __aicore__ void copy_gap_kernel(GM_ADDR x, GM_ADDR y, GapCopyArgs a)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, a.ubElems * sizeof(half));
    GlobalTensor<half> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ half*)x);
    yGm.SetGlobalBuffer((__gm__ half*)y, a.ubElems);
    LocalTensor<half> ub = buf.Get<half>();
    Duplicate(ub, a.sentinel, int32_t(a.ubElems));
    PipeBarrier<PIPE_ALL>();
    DataCopy(ub, xGm, DataCopyParams(a.blockCount, a.blockLen, a.srcStride, a.dstStride));
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, ub, a.ubElems);
}

// The reverse: a compact UB tile scattered into GM rows with a gap (DataCopyParams UB -> GM).
extern "C" __global__ __aicore__ void copy_gap_out_kernel(GM_ADDR x, GM_ADDR y, GapCopyArgs a)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, a.ubElems * sizeof(half));
    GlobalTensor<half> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, a.ubElems);
    yGm.SetGlobalBuffer((__gm__ half*)y);
    LocalTensor<half> ub = buf.Get<half>();
    DataCopy(ub, xGm, a.ubElems);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, ub, DataCopyParams(a.blockCount, a.blockLen, a.srcStride, a.dstStride));
}

template <typename T> struct PadCopyArgs {
    uint16_t blockCount;
    uint32_t blockLenBytes, srcStrideBytes, dstStrideBlocks;
    bool isPad;
    uint8_t left, right;
    T value;
    uint32_t ubElems;
    T sentinel;
};

// DataCopyPad GM -> UB with padding, then the whole UB region back to GM.
template <typename T>
__aicore__ inline void copy_pad_in_kernel(GM_ADDR x, GM_ADDR y, PadCopyArgs<T> a)
{
    TPipe pipe;
    TBuf<TPosition::VECIN> buf;
    pipe.InitBuffer(buf, a.ubElems * sizeof(T));
    GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T*)x);
    yGm.SetGlobalBuffer((__gm__ T*)y, a.ubElems);
    LocalTensor<T> ub = buf.Get<T>();
    Duplicate(ub, a.sentinel, int32_t(a.ubElems));
    PipeBarrier<PIPE_ALL>();
    DataCopyExtParams p{a.blockCount, a.blockLenBytes, a.srcStrideBytes, a.dstStrideBlocks, 0};
    DataCopyPadExtParams<T> pad{a.isPad, a.left, a.right, a.value};
    DataCopyPad(ub, xGm, p, pad);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, ub, a.ubElems);
}

// DataCopyPad UB -> GM: rows of an unaligned byte length out of 32-byte-padded UB rows.
extern "C" __global__ __aicore__ void copy_pad_out_kernel(GM_ADDR x, GM_ADDR y, uint16_t rows, uint32_t rowBytes,
                                                          uint32_t ubElems, uint32_t gmGapBytes)
{
    TPipe pipe;
    TQue<QuePosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 1, ubElems * sizeof(half));
    GlobalTensor<half> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, ubElems);
    yGm.SetGlobalBuffer((__gm__ half*)y);
    LocalTensor<half> t = q.AllocTensor<half>();
    DataCopy(t, xGm, ubElems);
    PipeBarrier<PIPE_ALL>();
    q.EnQue(t);
    LocalTensor<half> u = q.DeQue<half>();
    DataCopyPad(yGm, u, DataCopyExtParams{rows, rowBytes, 0, gmGapBytes, 0});
    q.FreeTensor(u);
}

// Every block adds (blockIdx + 1) * x into the same GM tile with SetAtomicAdd.
extern "C" __global__ __aicore__ void atomic_add_kernel(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, n * sizeof(float));
    pipe.InitBuffer(outQ, 1, n * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, n);
    yGm.SetGlobalBuffer((__gm__ float*)y, n);
    LocalTensor<float> a = inQ.AllocTensor<float>();
    DataCopy(a, xGm, n);
    inQ.EnQue(a);
    LocalTensor<float> b = inQ.DeQue<float>();
    LocalTensor<float> c = outQ.AllocTensor<float>();
    Muls(c, b, float(GetBlockIdx() + 1), int32_t(n));
    outQ.EnQue(c);
    inQ.FreeTensor(b);
    LocalTensor<float> d = outQ.DeQue<float>();
    SetAtomicAdd<float>();
    DataCopy(yGm, d, n);
    SetAtomicNone();
    outQ.FreeTensor(d);
}
