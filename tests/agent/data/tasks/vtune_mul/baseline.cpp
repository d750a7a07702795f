// Agent test kernel, the twin of vtune with a product: a lesson learned on vtune (which knob or
// transform paid off for an elementwise kernel) should carry over to it.
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 1;      // @tunable buffer_num {1, 2}
constexpr uint32_t TILE_LENGTH = 1024; // @tunable tile_length {1024, 4096, 16384}
constexpr uint32_t BLOCK_DIM = 1;      // @tunable block_dim {1, 4}

extern "C" __global__ __aicore__ void vtune_mul(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {
    uint32_t n = *reinterpret_cast<uint32_t*>(tiling);
    uint32_t per = (n + GetBlockNum() - 1) / GetBlockNum();
    uint32_t start = per * GetBlockIdx();
    uint32_t end = start + per < n ? start + per : n;
    TPipe pipe;
    TQue<TPosition::VECIN, 2> qx, qy;
    TQue<TPosition::VECOUT, 2> qz;
    pipe.InitBuffer(qx, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(qy, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(qz, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    GlobalTensor<float> gx, gy, gz;
    gx.SetGlobalBuffer((__gm__ float*)x, n);
    gy.SetGlobalBuffer((__gm__ float*)y, n);
    gz.SetGlobalBuffer((__gm__ float*)z, n);
    for (uint32_t off = start; off < end; off += TILE_LENGTH) {
        uint32_t len = end - off < TILE_LENGTH ? end - off : TILE_LENGTH;
        DataCopyExtParams p{1, len * 4, 0, 0, 0};
        LocalTensor<float> a = qx.AllocTensor<float>(), b = qy.AllocTensor<float>();
        DataCopyPad(a, gx[off], p, DataCopyPadExtParams<float>{});
        DataCopyPad(b, gy[off], p, DataCopyPadExtParams<float>{});
        qx.EnQue(a);
        qy.EnQue(b);
        a = qx.DeQue<float>();
        b = qy.DeQue<float>();
        LocalTensor<float> c = qz.AllocTensor<float>();
        Mul(c, a, b, len);
        qz.EnQue(c);
        qx.FreeTensor(a);
        qy.FreeTensor(b);
        c = qz.DeQue<float>();
        DataCopyPad(gz[off], c, p);
        qz.FreeTensor(c);
    }
}

SAGE_HOST(ctx) {
    uint32_t n = (uint32_t)ctx.numel("x");
    ICPU_RUN_KF(vtune_mul, BLOCK_DIM, ctx.gm("x"), ctx.gm("y"), ctx.gm("z"), ctx.tiling(n));
}
