// Test fixture written for SAGE: the tiling of TinyAxpyTpl, written against the host API of CANN's
// current op repositories (typed GetTilingData, OP_CHECK_IF / OP_LOGE, Ops::Base helpers).
// alpha = -1 is refused on purpose, with a log line.
#include "log/log.h"
#include "register/op_impl_registry.h"
#include "util/math_util.h"
#include "util/platform_util.h"
#include "../op_kernel/tiny_axpy_tpl_tiling_data.h"

namespace optiling {
struct TinyAxpyTplCompileInfo {};

static ge::graphStatus TinyAxpyTplTilingFunc(gert::TilingContext* context)
{
    OP_CHECK_NULL_WITH_CONTEXT(context, context->GetAttrs());
    const float alpha = *context->GetAttrs()->GetFloat(0);
    OP_CHECK_IF(alpha == -1.0f, OP_LOGE(context, "alpha %.1f is refused", alpha), return ge::GRAPH_FAILED);
    TinyAxpyTplTilingData* t = context->GetTilingData<TinyAxpyTplTilingData>();
    OP_CHECK_NULL_WITH_CONTEXT(context, t);
    const uint32_t total = uint32_t(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    const uint32_t perBlockUnit = Ops::Base::GetUbBlockSize(context) / sizeof(float);
    const uint32_t cores = Ops::Base::GetAivCoreNum(context);
    uint32_t blocks = std::min<uint32_t>(cores, Ops::Base::CeilDiv<uint32_t>(total, 1024));
    if (blocks == 0) blocks = 1;
    t->total = total;
    t->perBlock = Ops::Base::CeilAlign<uint32_t>(Ops::Base::CeilDiv<uint32_t>(total, blocks), perBlockUnit);
    t->alpha = alpha;
    context->SetBlockDim(blocks);
    context->SetTilingKey(0);
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus TinyAxpyTplTilingParse([[maybe_unused]] gert::TilingParseContext* context)
{
    return ge::GRAPH_SUCCESS;
}

IMPL_OP_OPTILING(TinyAxpyTpl).Tiling(TinyAxpyTplTilingFunc).TilingParse<TinyAxpyTplCompileInfo>(TinyAxpyTplTilingParse);
} // namespace optiling
