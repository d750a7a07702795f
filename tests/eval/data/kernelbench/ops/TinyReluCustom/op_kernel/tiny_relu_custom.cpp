// Test fixture written for SAGE: the kernel of TinyReluCustom, one element at a time (every element,
// the tail included).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void tiny_relu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA(t, tiling);
    const uint32_t start = GetBlockIdx() * t.perBlock;
    if (start >= t.total) return;
    const uint32_t count = t.total - start < t.perBlock ? t.total - start : t.perBlock;
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x + start, count);
    yg.SetGlobalBuffer((__gm__ float*)y + start, count);
    for (uint32_t i = 0; i < count; ++i) {
        const float v = xg.GetValue(i);
        yg.SetValue(i, v > 0.0f ? v : 0.0f);
    }
}
