// Test fixture written for SAGE: z = x + alpha * y. The host picks tiling key 1 when the length
// is a multiple of 8 (direct path) and key 2 otherwise (a path that stages through the user
// workspace, whose size it requests). alpha = -1 makes the TilingFunc fail on purpose.
#include "tiny_scale_add_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TinyScaleAddTilingFunc(gert::TilingContext* context) {
    const uint32_t total = uint32_t(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    const float alpha = *context->GetAttrs()->GetFloat(0);
    if (alpha == -1.0f) return ge::GRAPH_FAILED;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t blocks = std::min<uint32_t>(platform.GetCoreNumAiv(), (total + 1023) / 1024);
    if (blocks == 0) blocks = 1;
    const uint32_t perBlock = ((total + blocks - 1) / blocks + 7) / 8 * 8;
    TinyScaleAddTiling tiling;
    tiling.set_total(total);
    tiling.set_perBlock(perBlock);
    tiling.set_alpha(alpha);
    const uint32_t marks[4] = {7, 8, 9, blocks};
    tiling.set_marks(marks);
    context->SetBlockDim(blocks);
    const bool aligned = total % 8 == 0;
    context->SetTilingKey(aligned ? 1 : 2);
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize() + (aligned ? 0 : size_t(blocks) * perBlock * sizeof(float));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class TinyScaleAdd : public OpDef {
public:
    explicit TinyScaleAdd(const char* name) : OpDef(name) {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("alpha").AttrType(OPTIONAL).Float(1.0);
        this->AICore().SetTiling(optiling::TinyScaleAddTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TinyScaleAdd);
} // namespace ops
