// Test fixture written for SAGE: the kernel of TinyScaleAdd (see op_host/tiny_scale_add.cpp).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void tiny_scale_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                     GM_ADDR tiling) {
    GET_TILING_DATA(t, tiling);
    // The array field arrives intact: a wrong layout stops the run here.
    ASSERT(t.marks[0] == 7 && t.marks[1] == 8 && t.marks[2] == 9 && t.marks[3] == GetBlockNum());
    const uint32_t start = GetBlockIdx() * t.perBlock;
    if (start >= t.total) return;
    const uint32_t count = t.total - start < t.perBlock ? t.total - start : t.perBlock;
    GlobalTensor<float> xg, yg, zg, wg;
    xg.SetGlobalBuffer((__gm__ float*)x + start, count);
    yg.SetGlobalBuffer((__gm__ float*)y + start, count);
    zg.SetGlobalBuffer((__gm__ float*)z + start, count);
    for (uint32_t i = 0; i < count; ++i) {
        const float v = xg.GetValue(i) + t.alpha * yg.GetValue(i);
        if (TILING_KEY_IS(1)) {
            zg.SetValue(i, v);
        } else if (TILING_KEY_IS(2)) {
            // Staged through this block's share of the user workspace the host asked for.
            wg.SetGlobalBuffer((__gm__ float*)GetUserWorkspace(workspace) + GetBlockIdx() * t.perBlock, t.perBlock);
            wg.SetValue(i, v);
            zg.SetValue(i, wg.GetValue(i));
        }
    }
}
