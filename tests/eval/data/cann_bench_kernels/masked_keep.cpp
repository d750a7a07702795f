// MaskedKeep for SAGE's CANN Bench layout test: inputs of two dtypes (DTYPE_X, DTYPE_MASK), read
// element by element through the scalar unit.
#include "kernel_operator.h"
using namespace AscendC;

struct MaskedKeepTiling {
    uint32_t total;
};

extern "C" __global__ __aicore__ void masked_keep_kernel(GM_ADDR x, GM_ADDR mask, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(MaskedKeepTiling, t, tiling);
    GlobalTensor<DTYPE_X> xg, yg;
    GlobalTensor<DTYPE_MASK> mg;
    xg.SetGlobalBuffer((__gm__ DTYPE_X*)x, t.total);
    mg.SetGlobalBuffer((__gm__ DTYPE_MASK*)mask, t.total);
    yg.SetGlobalBuffer((__gm__ DTYPE_X*)y, t.total);
    for (uint32_t i = 0; i < t.total; ++i) yg.SetValue(i, mg.GetValue(i) != 0 ? xg.GetValue(i) : DTYPE_X(0));
}

SAGE_HOST(ctx) {
    MaskedKeepTiling t{(uint32_t)ctx.numel("x")};
    ICPU_RUN_KF(masked_keep_kernel, 1, ctx.gm("x"), ctx.gm("mask"), ctx.gm("y"), ctx.tiling(t));
}
