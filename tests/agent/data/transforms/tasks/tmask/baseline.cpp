// Masked keep on one core for the multi-core test: a float16 input, an int8 mask, a float16 output
// bound to GM with one length, moved element by element through the scalar unit.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t BLOCK_DIM = 1;  // @tunable block_dim {1, 2, 4, 8, 16, 24, 32, 48}

extern "C" __global__ __aicore__ void tmask_kernel(GM_ADDR x, GM_ADDR mask, GM_ADDR y, GM_ADDR tiling) {
    uint32_t total = *reinterpret_cast<uint32_t*>(tiling);
    GlobalTensor<half> xg, yg;
    GlobalTensor<int8_t> mg;
    xg.SetGlobalBuffer((__gm__ half*)x, total);
    mg.SetGlobalBuffer((__gm__ int8_t*)mask, total);
    yg.SetGlobalBuffer((__gm__ half*)y, total);
    for (uint32_t i = 0; i < total; ++i) yg.SetValue(i, mg.GetValue(i) != 0 ? xg.GetValue(i) : half(0.0f));
}

SAGE_HOST(ctx) {
    uint32_t n = (uint32_t)ctx.numel("x");
    ICPU_RUN_KF(tmask_kernel, BLOCK_DIM, ctx.gm("x"), ctx.gm("mask"), ctx.gm("y"), ctx.tiling(n));
}
