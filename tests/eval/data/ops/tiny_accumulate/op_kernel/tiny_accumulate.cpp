// Test fixture written for SAGE: the kernel of TinyAccumulate (see op_host/tiny_accumulate.cpp).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void tiny_accumulate(GM_ADDR acc, GM_ADDR step, GM_ADDR accRef, GM_ADDR workspace,
                                                      GM_ADDR tiling) {
    GET_TILING_DATA(t, tiling);
    GlobalTensor<float> in, out;
    GlobalTensor<int64_t> s;
    in.SetGlobalBuffer((__gm__ float*)acc, t.total);
    out.SetGlobalBuffer((__gm__ float*)accRef, t.total);
    s.SetGlobalBuffer((__gm__ int64_t*)step, 1);
    const float add = float(s.GetValue(0));
    for (uint32_t i = 0; i < t.total; ++i) out.SetValue(i, in.GetValue(i) + add);
}
