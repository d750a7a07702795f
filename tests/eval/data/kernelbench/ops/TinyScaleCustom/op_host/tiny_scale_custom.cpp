// Test fixture written for SAGE: c = a * s[0], the scalar s a one-element input tensor.
#include "tiny_scale_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TinyScaleTilingFunc(gert::TilingContext* context) {
    const uint32_t total = uint32_t(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    TinyScaleTiling tiling;
    tiling.set_total(total);
    tiling.set_perBlock(total);
    context->SetBlockDim(1);
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class TinyScaleCustom : public OpDef {
public:
    explicit TinyScaleCustom(const char* name) : OpDef(name) {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("s").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TinyScaleTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TinyScaleCustom);
} // namespace ops
