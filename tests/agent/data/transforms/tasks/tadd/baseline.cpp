// Any-length add on one core for the repair tests: count-form DataCopy of the clipped last tile
// (wrong on a tail that is not a multiple of 16 halves until it becomes DataCopyPad), a literal
// buffer count in InitBuffer, and the tile size from a runtime value passed by the host.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t TILE = 1024;

class TailAdd {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n) {
        n_ = n;
        xGm.SetGlobalBuffer((__gm__ half*)x, n);
        yGm.SetGlobalBuffer((__gm__ half*)y, n);
        zGm.SetGlobalBuffer((__gm__ half*)z, n);
        pipe.InitBuffer(qx, 1, TILE * sizeof(half));
        pipe.InitBuffer(qy, 1, TILE * sizeof(half));
        pipe.InitBuffer(qz, 1, TILE * sizeof(half));
    }
    __aicore__ inline void Process() {
        for (uint32_t off = 0; off < n_; off += TILE) {
            uint32_t len = n_ - off < TILE ? n_ - off : TILE;
            LocalTensor<half> a = qx.AllocTensor<half>();
            LocalTensor<half> b = qy.AllocTensor<half>();
            DataCopy(a, xGm[off], len);
            DataCopy(b, yGm[off], len);
            qx.EnQue(a);
            qy.EnQue(b);
            a = qx.DeQue<half>();
            b = qy.DeQue<half>();
            LocalTensor<half> c = qz.AllocTensor<half>();
            Add(c, a, b, len);
            qz.EnQue(c);
            qx.FreeTensor(a);
            qy.FreeTensor(b);
            c = qz.DeQue<half>();
            DataCopy(zGm[off], c, len);
            qz.FreeTensor(c);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> qx, qy;
    TQue<QuePosition::VECOUT, 1> qz;
    GlobalTensor<half> xGm, yGm, zGm;
    uint32_t n_ = 0;
};

extern "C" __global__ __aicore__ void tail_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {
    uint32_t n = *reinterpret_cast<uint32_t*>(tiling);
    TailAdd op;
    op.Init(x, y, z, n);
    op.Process();
}

SAGE_HOST(ctx) {
    uint32_t n = (uint32_t)ctx.numel("x");
    ICPU_RUN_KF(tail_add, 1, ctx.gm("x"), ctx.gm("y"), ctx.gm("z"), ctx.tiling(n));
}
