// Test fixture written for SAGE: ListSum's TilingFunc reads the list through the node's instance
// information and the dynamic-input accessors, and refuses lists whose tensors differ in size.
#include "../op_kernel/list_sum_tiling_data.h"
#include "log/log.h"
#include "register/op_impl_registry.h"

namespace optiling {
static ge::graphStatus ListSumTilingFunc(gert::TilingContext* context) {
    const gert::AnchorInstanceInfo* list = context->GetComputeNodeInfo()->GetInputInstanceInfo(0);
    OP_CHECK_IF(list == nullptr || context->GetComputeNodeInfo()->GetIrInputsNum() != 1,
                OP_LOGE(context, "ListSum has one (dynamic) input"), return ge::GRAPH_FAILED);
    const uint32_t count = uint32_t(list->GetInstanceNum());
    const uint64_t elements = context->GetDynamicInputShape(0, 0)->GetStorageShape().GetShapeSize();
    for (uint32_t i = 1; i < count; ++i)
        OP_CHECK_IF(context->GetDynamicInputTensor(0, i)->GetShapeSize() != int64_t(elements),
                    OP_LOGE(context, "list tensor %u holds another number of elements than tensor 0", i),
                    return ge::GRAPH_FAILED);
    ListSumTilingData* t = context->GetTilingData<ListSumTilingData>();
    t->count = count;
    t->elements = uint32_t(elements);
    context->SetBlockDim(1);
    context->SetTilingKey(0);
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_OPTILING(ListSum).Tiling(ListSumTilingFunc);
} // namespace optiling
