// Test fixture written here: y = x * factor, tiling from the op_host header, DTYPE_X from the
// op definition, a local header for the chunk size.
#include "kernel_operator.h"
#include "scale_op_common.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void scale_op(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, SCALE_OP_CHUNK * sizeof(DTYPE_X));
    GlobalTensor<DTYPE_X> xg;
    GlobalTensor<DTYPE_Y> yg;
    xg.SetGlobalBuffer((__gm__ DTYPE_X*)x, t.length);
    yg.SetGlobalBuffer((__gm__ DTYPE_Y*)y, t.length);
    LocalTensor<DTYPE_X> l = buf.Get<DTYPE_X>();
    for (uint32_t at = t.chunkStarts[0]; at < t.length; at += SCALE_OP_CHUNK) {
        DataCopy(l, xg[at], SCALE_OP_CHUNK);
        PipeBarrier<PIPE_ALL>();
        Muls(l, l, DTYPE_X(t.factor), SCALE_OP_CHUNK);
        PipeBarrier<PIPE_ALL>();
        DataCopy(yg[at], l, SCALE_OP_CHUNK);
        PipeBarrier<PIPE_ALL>();
    }
}
