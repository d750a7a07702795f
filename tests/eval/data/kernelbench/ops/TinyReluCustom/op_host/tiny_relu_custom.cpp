// Test fixture written for SAGE: y = max(x, 0), split evenly over up to 4 blocks.
#include "tiny_relu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TinyReluTilingFunc(gert::TilingContext* context) {
    const uint32_t total = uint32_t(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    const uint32_t blocks = total >= 4096 ? 4 : 1;
    TinyReluTiling tiling;
    tiling.set_total(total);
    tiling.set_perBlock((total + blocks - 1) / blocks);
    context->SetBlockDim(blocks);
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class TinyReluCustom : public OpDef {
public:
    explicit TinyReluCustom(const char* name) : OpDef(name) {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TinyReluTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TinyReluCustom);
} // namespace ops
