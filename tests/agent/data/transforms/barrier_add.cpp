// One-core add through TBuf buffers (no queues), ordered by PipeBarrier<PIPE_ALL> between the
// copy-in, the add and the copy-out: precise_sync narrows the first two barriers.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t TILE = 1024;

extern "C" __global__ __aicore__ void barrier_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {
    uint32_t n = *reinterpret_cast<uint32_t*>(tiling);
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bz;
    pipe.InitBuffer(bx, TILE * sizeof(half));
    pipe.InitBuffer(by, TILE * sizeof(half));
    pipe.InitBuffer(bz, TILE * sizeof(half));
    GlobalTensor<half> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, n);
    yGm.SetGlobalBuffer((__gm__ half*)y, n);
    zGm.SetGlobalBuffer((__gm__ half*)z, n);
    LocalTensor<half> a = bx.Get<half>();
    LocalTensor<half> b = by.Get<half>();
    LocalTensor<half> c = bz.Get<half>();
    for (uint32_t off = 0; off < n; off += TILE) {
        uint32_t len = n - off < TILE ? n - off : TILE;
        DataCopyExtParams p{1, len * (uint32_t)sizeof(half), 0, 0, 0};
        DataCopyPad(a, xGm[off], p, DataCopyPadExtParams<half>{false, 0, 0, half(0)});
        DataCopyPad(b, yGm[off], p, DataCopyPadExtParams<half>{false, 0, 0, half(0)});
        PipeBarrier<PIPE_ALL>();
        Add(c, a, b, len);
        PipeBarrier<PIPE_ALL>();
        DataCopyPad(zGm[off], c, p);
        PipeBarrier<PIPE_ALL>();
    }
}

SAGE_HOST(ctx) {
    uint32_t n = (uint32_t)ctx.numel("x");
    ICPU_RUN_KF(barrier_add, 1, ctx.gm("x"), ctx.gm("y"), ctx.gm("z"), ctx.tiling(n));
}
