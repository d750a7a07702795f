// ScaledRelu for SAGE's CANN Bench layout test: one kernel source for every case. The dtype comes
// from DTYPE_X (one binary per dtype), the formula from the string attribute (ATTR_MODE_RELU),
// alpha from the case at run time.
#include "kernel_operator.h"
using namespace AscendC;

using T = DTYPE_X;
constexpr uint32_t TILE = 1024;

struct ScaledReluTiling {
    uint32_t total;
    float alpha;
};

extern "C" __global__ __aicore__ void scaled_relu_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(ScaledReluTiling, t, tiling);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> in;
    TQue<TPosition::VECOUT, 1> out;
    GlobalTensor<T> xg, yg;
    xg.SetGlobalBuffer((__gm__ T*)x, t.total);
    yg.SetGlobalBuffer((__gm__ T*)y, t.total);
    pipe.InitBuffer(in, 1, TILE * sizeof(T));
    pipe.InitBuffer(out, 1, TILE * sizeof(T));
    for (uint32_t off = 0; off < t.total; off += TILE) {
        const uint32_t n = t.total - off < TILE ? t.total - off : TILE;
        LocalTensor<T> a = in.AllocTensor<T>();
        DataCopyPad(a, xg[off], DataCopyExtParams{1, n * (uint32_t)sizeof(T), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, T(0)});
        in.EnQue(a);
        a = in.DeQue<T>();
        LocalTensor<T> b = out.AllocTensor<T>();
#ifdef ATTR_MODE_RELU
        Relu(b, a, n);
        Muls(b, b, T(t.alpha), n);
#else
        Muls(b, a, T(-t.alpha), n);
#endif
        out.EnQue(b);
        in.FreeTensor(a);
        b = out.DeQue<T>();
        DataCopyPad(yg[off], b, DataCopyExtParams{1, n * (uint32_t)sizeof(T), 0, 0, 0});
        out.FreeTensor(b);
    }
}

SAGE_HOST(ctx) {
    ScaledReluTiling t{(uint32_t)ctx.numel("x"), (float)ctx.attr("alpha")};
    ICPU_RUN_KF(scaled_relu_kernel, 1, ctx.gm("x"), ctx.gm("y"), ctx.tiling(t));
}
