// Test fixture written here: a kernel header shared by a family of ops; the scalar's type comes
// from the op definition (DTYPE_SCALAR), declared through a family macro the scanner cannot read.
#pragma once
#include "kernel_operator.h"
using namespace AscendC;
template <typename T> __aicore__ inline void FamScale(GM_ADDR x, GM_ADDR y, uint32_t n) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, n * sizeof(T));
    GlobalTensor<T> xg, yg;
    xg.SetGlobalBuffer((__gm__ T*)x, n);
    yg.SetGlobalBuffer((__gm__ T*)y, n);
    LocalTensor<T> t = buf.Get<T>();
    DataCopy(t, xg, n);
    PipeBarrier<PIPE_ALL>();
    Muls(t, t, static_cast<T>(DTYPE_SCALAR(-1)), int32_t(n));
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, t, n);
}
