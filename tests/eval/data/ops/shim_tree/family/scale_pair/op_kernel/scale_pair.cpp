// Test fixture written for SAGE: the kernel of ScalePair, z = x * factor.
#include "kernel_operator.h"
#include "scale_pair_tiling_data.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void scale_pair(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(ScalePairTilingData, t, tiling);
    const uint32_t start = GetBlockIdx() * t.perBlock;
    if (start >= t.total) return;
    const uint32_t count = t.total - start < t.perBlock ? t.total - start : t.perBlock;
    GlobalTensor<float> xg, zg;
    xg.SetGlobalBuffer((__gm__ float*)x + start, count);
    zg.SetGlobalBuffer((__gm__ float*)z + start, count);
    for (uint32_t i = 0; i < count; ++i) zg.SetValue(i, xg.GetValue(i) * t.factor);
}
