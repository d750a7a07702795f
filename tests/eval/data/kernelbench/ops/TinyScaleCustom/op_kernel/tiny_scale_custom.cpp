// Test fixture written for SAGE: the kernel of TinyScaleCustom with a deliberate bug: it stops at the
// last multiple of 8 elements and leaves an unaligned tail unwritten (the harness must say so).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void tiny_scale_custom(GM_ADDR a, GM_ADDR s, GM_ADDR c, GM_ADDR workspace,
                                                        GM_ADDR tiling) {
    GET_TILING_DATA(t, tiling);
    GlobalTensor<float> ag, sg, cg;
    ag.SetGlobalBuffer((__gm__ float*)a, t.total);
    sg.SetGlobalBuffer((__gm__ float*)s, 1);
    cg.SetGlobalBuffer((__gm__ float*)c, t.total);
    const float scale = sg.GetValue(0);
    const uint32_t aligned = t.total / 8 * 8;
    for (uint32_t i = 0; i < aligned; ++i) cg.SetValue(i, ag.GetValue(i) * scale);
}
