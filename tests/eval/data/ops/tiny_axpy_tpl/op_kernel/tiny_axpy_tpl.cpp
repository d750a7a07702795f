// Test fixture written for SAGE: z = x + alpha * y with a templated entry, as CANN's current op
// repositories write kernels. The instantiation that runs must be the first declared one.
#include "kernel_operator.h"
#include "tiny_axpy_tpl_tiling_data.h"
#include "tiny_axpy_tpl_tiling_key.h"
using namespace AscendC;

template <uint32_t mode>
__global__ __aicore__ void tiny_axpy_tpl(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(TinyAxpyTplTilingData);
    GET_TILING_DATA_WITH_STRUCT(TinyAxpyTplTilingData, t, tiling);
    ASSERT(mode == 3);
    const uint32_t start = GetBlockIdx() * t.perBlock;
    if (start >= t.total) return;
    const uint32_t count = t.total - start < t.perBlock ? t.total - start : t.perBlock;
    GlobalTensor<float> xg, yg, zg;
    xg.SetGlobalBuffer((__gm__ float*)x + start, count);
    yg.SetGlobalBuffer((__gm__ float*)y + start, count);
    zg.SetGlobalBuffer((__gm__ float*)z + start, count);
    for (uint32_t i = 0; i < count; ++i) zg.SetValue(i, xg.GetValue(i) + t.alpha * yg.GetValue(i));
}
