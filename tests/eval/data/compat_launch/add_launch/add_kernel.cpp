// Test fixture written here: a kernel file whose launch wrapper (`<<<>>>`) sits next to it, as
// kernel-invocation samples write it. Only the kernel is compiled.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void twice(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 64);
    yGm.SetGlobalBuffer((__gm__ float*)y, 64);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm, 64);
    PipeBarrier<PIPE_ALL>();
    Muls(t, t, 2.0f, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, t, 64);
}

void twice_do(uint32_t blockDim, void* stream, uint8_t* x, uint8_t* y)
{
    twice<<<blockDim, nullptr, stream>>>(x, y);
}
