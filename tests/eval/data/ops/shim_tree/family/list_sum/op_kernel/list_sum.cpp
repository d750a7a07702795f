// Test fixture written for SAGE: the kernel of ListSum. The list arrives as one argument, a tensor
// list description read with ListTensorDesc.
#include "kernel_operator.h"
#include "kernel_operator_list_tensor_intf.h"
#include "list_sum_tiling_data.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void list_sum(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(ListSumTilingData, t, tiling);
    ListTensorDesc list(reinterpret_cast<__gm__ void*>(x));
    ASSERT(list.GetSize() == t.count);
    GlobalTensor<float> zg;
    zg.SetGlobalBuffer((__gm__ float*)z, t.elements);
    for (uint32_t e = 0; e < t.elements; ++e) {
        float sum = 0;
        for (uint32_t i = 0; i < t.count; ++i) {
            GlobalTensor<float> xg;
            xg.SetGlobalBuffer(list.GetDataPtr<float>(i), t.elements);
            sum += xg.GetValue(e);
        }
        zg.SetValue(e, sum);
    }
}
