// Test fixture written for SAGE: ArchScale's TilingFunc for a 910B. It reads the device through
// platform/soc_spec.h and PlatformAscendC, as ops-nn's tilings do, and reports what it read: one
// block per vector core, the UB size as workspace, the architecture in the tiling.
#include "arch_scale_tiling.h"
#include "platform/soc_spec.h"
#include "register/op_impl_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus ArchScaleTilingFunc(gert::TilingContext* context) {
    // Asked through a const context, as ops-nn's common/inc/op_host/tiling_util.h does.
    const gert::TilingContext* asked = context;
    auto platform = platform_ascendc::PlatformAscendC(asked->GetPlatformInfo());
    if (platform.GetCurNpuArch() != NpuArch::DAV_2201) return ge::GRAPH_FAILED;  // arch22 is the 910B's folder
    const uint32_t total = uint32_t(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    const uint32_t blocks = platform.GetCoreNumAiv();
    uint64_t ub = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    ArchScaleTiling tiling;
    tiling.set_total(total);
    tiling.set_perBlock(((total + blocks - 1) / blocks + 7) / 8 * 8);
    tiling.set_scale(*context->GetAttrs()->GetFloat(0));
    tiling.set_npuArch(static_cast<uint32_t>(platform.GetCurNpuArch()));
    context->SetBlockDim(blocks);
    context->SetTilingKey(1);
    context->GetWorkspaceSizes(1)[0] = ub;
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_OPTILING(ArchScale).Tiling(ArchScaleTilingFunc);
} // namespace optiling
