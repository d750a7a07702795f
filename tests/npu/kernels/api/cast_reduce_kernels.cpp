// Cast, reductions, Compare and Select kernels for test_npu_api.
#include "kernel_operator.h"

using namespace AscendC;

// dst[0..n) = Cast<D>(src[0..n), mode). n * sizeof(S) and n * sizeof(D) are 32-byte multiples.
template <typename D, typename S>
__aicore__ inline void cast_kernel(GM_ADDR src, GM_ADDR dst, uint32_t n, RoundMode mode)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> qi;
    TQue<QuePosition::VECOUT, 1> qo;
    pipe.InitBuffer(qi, 1, n * sizeof(S));
    pipe.InitBuffer(qo, 1, n * sizeof(D));
    GlobalTensor<S> sGm;
    GlobalTensor<D> dGm;
    sGm.SetGlobalBuffer((__gm__ S*)src, n);
    dGm.SetGlobalBuffer((__gm__ D*)dst, n);
    LocalTensor<S> a = qi.AllocTensor<S>();
    DataCopy(a, sGm, n);
    qi.EnQue(a);
    LocalTensor<S> x = qi.DeQue<S>();
    LocalTensor<D> y = qo.AllocTensor<D>();
    Cast(y, x, mode, n);
    qo.EnQue(y);
    qi.FreeTensor(x);
    LocalTensor<D> z = qo.DeQue<D>();
    DataCopy(dGm, z, n);
    qo.FreeTensor(z);
}

// ReduceSum/Max/Min (count form) of src[0..n) into dst[0] (and dst[1] = index when calIndex).
// dst receives one 32-byte block.
template <typename T>
__aicore__ inline void reduce_kernel(GM_ADDR src, GM_ADDR dst, uint32_t n, int op, bool calIndex)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> qi;
    TQue<QuePosition::VECOUT, 1> qo;
    TBuf<TPosition::VECCALC> tmp;
    const uint32_t perRepeat = 256 / sizeof(T);
    const uint32_t repeats = (n + perRepeat - 1) / perRepeat;
    pipe.InitBuffer(qi, 1, n * sizeof(T));
    pipe.InitBuffer(qo, 1, 32);
    pipe.InitBuffer(tmp, repeats * sizeof(T));
    GlobalTensor<T> sGm, dGm;
    sGm.SetGlobalBuffer((__gm__ T*)src, n);
    dGm.SetGlobalBuffer((__gm__ T*)dst, 32 / sizeof(T));
    LocalTensor<T> a = qi.AllocTensor<T>();
    DataCopy(a, sGm, n);
    qi.EnQue(a);
    LocalTensor<T> x = qi.DeQue<T>();
    LocalTensor<T> y = qo.AllocTensor<T>();
    LocalTensor<T> w = tmp.Get<T>();
    Duplicate(y, T(0), int32_t(32 / sizeof(T)));
    if (op == 0) ReduceSum(y, x, w, int32_t(n));
    else if (op == 1) ReduceMax(y, x, w, int32_t(n), calIndex);
    else ReduceMin(y, x, w, int32_t(n), calIndex);
    qo.EnQue(y);
    qi.FreeTensor(x);
    LocalTensor<T> z = qo.DeQue<T>();
    DataCopy(dGm, z, 32 / sizeof(T));
    qo.FreeTensor(z);
}

enum WrOp : int { WR_SUM, WR_MAX, WR_MIN, BR_SUM, BR_MAX };

struct WholeJob {
    int op;
    int32_t mask, repeat, dstRep, srcBlk, srcRep;
    ReduceOrder order;
    uint32_t inLen, outLen;  // elements of src and of dst (dst is prefilled from GM)
};

template <typename T>
__aicore__ inline void whole_reduce_kernel(GM_ADDR src, GM_ADDR dst, WholeJob j)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bi, bo;
    pipe.InitBuffer(bi, j.inLen * sizeof(T));
    pipe.InitBuffer(bo, j.outLen * sizeof(T));
    GlobalTensor<T> sGm, dGm;
    sGm.SetGlobalBuffer((__gm__ T*)src, j.inLen);
    dGm.SetGlobalBuffer((__gm__ T*)dst, j.outLen);
    LocalTensor<T> x = bi.Get<T>();
    LocalTensor<T> y = bo.Get<T>();
    DataCopy(x, sGm, j.inLen);
    DataCopy(y, dGm, j.outLen);
    PipeBarrier<PIPE_ALL>();
    switch (j.op) {
    case WR_SUM: WholeReduceSum(y, x, j.mask, j.repeat, j.dstRep, j.srcBlk, j.srcRep); break;
    case WR_MAX: WholeReduceMax(y, x, j.mask, j.repeat, j.dstRep, j.srcBlk, j.srcRep, j.order); break;
    case WR_MIN: WholeReduceMin(y, x, j.mask, j.repeat, j.dstRep, j.srcBlk, j.srcRep, j.order); break;
    case BR_SUM: BlockReduceSum(y, x, j.repeat, j.mask, j.dstRep, j.srcBlk, j.srcRep); break;
    case BR_MAX: BlockReduceMax(y, x, j.repeat, j.mask, j.dstRep, j.srcBlk, j.srcRep); break;
    default: ASSERT(false && "unknown reduce op");
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(dGm, y, j.outLen);
}

struct CmpSelJob {
    uint32_t n;
    CMPMODE mode;
    bool useScalar;  // CompareScalar(a, scalar) + Select(a, scalar) instead of tensor-tensor
    float scalar;
    SELMODE selMode;
};

// bits = Compare(a, b or scalar); out = Select(bits, a, b or scalar). n is a multiple of 256.
template <typename T>
__aicore__ inline void cmpsel_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR bits, GM_ADDR out, CmpSelJob j)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb, bm, bo;
    pipe.InitBuffer(ba, j.n * sizeof(T));
    pipe.InitBuffer(bb, j.n * sizeof(T));
    pipe.InitBuffer(bm, j.n / 8);
    pipe.InitBuffer(bo, j.n * sizeof(T));
    GlobalTensor<T> aGm, bGm, oGm;
    GlobalTensor<uint8_t> mGm;
    aGm.SetGlobalBuffer((__gm__ T*)a, j.n);
    bGm.SetGlobalBuffer((__gm__ T*)b, j.n);
    mGm.SetGlobalBuffer((__gm__ uint8_t*)bits, j.n / 8);
    oGm.SetGlobalBuffer((__gm__ T*)out, j.n);
    LocalTensor<T> x = ba.Get<T>(), y = bb.Get<T>(), z = bo.Get<T>();
    LocalTensor<uint8_t> m = bm.Get<uint8_t>();
    DataCopy(x, aGm, j.n);
    DataCopy(y, bGm, j.n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID1);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID1);
    if (j.useScalar) {
        CompareScalar(m, x, T(j.scalar), j.mode, j.n);
        Select(z, m, x, T(j.scalar), SELMODE::VSEL_TENSOR_SCALAR_MODE, j.n);
    } else {
        Compare(m, x, y, j.mode, j.n);
        Select(z, m, x, y, j.selMode, j.n);
    }
    SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
    DataCopy(mGm, m, j.n / 8);
    DataCopy(oGm, z, j.n);
}

// Select only, with a selection mask given by the test (to check how each mode consumes it).
template <typename T>
__aicore__ inline void select_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR bits, GM_ADDR out, uint32_t n, SELMODE mode)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb, bm, bo;
    pipe.InitBuffer(ba, n * sizeof(T));
    pipe.InitBuffer(bb, n * sizeof(T));
    pipe.InitBuffer(bm, n / 8);
    pipe.InitBuffer(bo, n * sizeof(T));
    GlobalTensor<T> aGm, bGm, oGm;
    GlobalTensor<uint8_t> mGm;
    aGm.SetGlobalBuffer((__gm__ T*)a, n);
    bGm.SetGlobalBuffer((__gm__ T*)b, n);
    mGm.SetGlobalBuffer((__gm__ uint8_t*)bits, n / 8);
    oGm.SetGlobalBuffer((__gm__ T*)out, n);
    LocalTensor<T> x = ba.Get<T>(), y = bb.Get<T>(), z = bo.Get<T>();
    LocalTensor<uint8_t> m = bm.Get<uint8_t>();
    DataCopy(x, aGm, n);
    DataCopy(y, bGm, n);
    DataCopy(m, mGm, n / 8);
    PipeBarrier<PIPE_ALL>();
    Select(z, m, x, y, mode, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(oGm, z, n);
}
