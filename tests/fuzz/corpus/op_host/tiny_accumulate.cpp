// Test fixture written for SAGE: acc += step, in place (the output "acc" is the input "acc"), with
// an int64 step tensor, and the tiling registered through IMPL_OP_OPTILING instead of SetTiling.
#include "tiny_accumulate_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TinyAccumulateTiling_(gert::TilingContext* context) {
    if (context->GetInputDesc(1)->GetDataType() != ge::DT_INT64) return ge::GRAPH_FAILED;
    TinyAccumulateTiling tiling;
    tiling.set_total(uint32_t(context->GetInputShape(0)->GetStorageShape().GetShapeSize()));
    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_OPTILING(TinyAccumulate).Tiling(TinyAccumulateTiling_);
} // namespace optiling

namespace ops {
class TinyAccumulate : public OpDef {
public:
    explicit TinyAccumulate(const char* name) : OpDef(name) {
        this->Input("acc").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
        this->Input("step").ParamType(REQUIRED).DataType({ge::DT_INT64});
        this->Output("acc").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    }
};
OP_ADD(TinyAccumulate);
} // namespace ops
