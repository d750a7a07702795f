// vadd synchronised by hand with flags instead of queues: TBuf buffers, MTE2 -> V before the
// add, V -> MTE3 before the copy out, and V -> MTE2 / MTE3 -> V before a buffer is reused.
// RACE_ON_INPUT 1 leaves the MTE2 -> V edge out: the add reads the tile before it arrived.
#include "kernel_operator.h"
using namespace AscendC;
constexpr uint32_t TILE = 1024;
#ifndef RACE_ON_INPUT
#define RACE_ON_INPUT 0
#endif

extern "C" __global__ __aicore__ void vadd(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {
    uint32_t n = *reinterpret_cast<uint32_t*>(tiling);
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bz;
    pipe.InitBuffer(bx, TILE * sizeof(float));
    pipe.InitBuffer(by, TILE * sizeof(float));
    pipe.InitBuffer(bz, TILE * sizeof(float));
    GlobalTensor<float> gx, gy, gz;
    gx.SetGlobalBuffer((__gm__ float*)x, n);
    gy.SetGlobalBuffer((__gm__ float*)y, n);
    gz.SetGlobalBuffer((__gm__ float*)z, n);
    LocalTensor<float> a = bx.Get<float>(), b = by.Get<float>(), c = bz.Get<float>();
    for (uint32_t off = 0; off < n; off += TILE) {
        uint32_t len = n - off < TILE ? n - off : TILE;
        DataCopyExtParams p{1, len * 4, 0, 0, 0};
        if (off > 0) WaitFlag<HardEvent::V_MTE2>(EVENT_ID2);
        DataCopyPad(a, gx[off], p, DataCopyPadExtParams<float>{});
        DataCopyPad(b, gy[off], p, DataCopyPadExtParams<float>{});
        if (!RACE_ON_INPUT) {
            SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
            WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        }
        if (off > 0) WaitFlag<HardEvent::MTE3_V>(EVENT_ID3);
        Add(c, a, b, len);
        if (off + TILE < n) SetFlag<HardEvent::V_MTE2>(EVENT_ID2);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
        DataCopyPad(gz[off], c, p);
        if (off + TILE < n) SetFlag<HardEvent::MTE3_V>(EVENT_ID3);
    }
}

SAGE_HOST(ctx) {
    uint32_t n = (uint32_t)ctx.numel("x");
    ICPU_RUN_KF(vadd, 1, ctx.gm("x"), ctx.gm("y"), ctx.gm("z"), ctx.tiling(n));
}
