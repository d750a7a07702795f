// Test fixture written for SAGE: ScalePair's TilingFunc. It is one translation unit of several:
// scale_pair_sign.cpp defines the same file-local INPUT_X and the function SignOf this file calls,
// and PairTilingBase comes from the pair_helper op's host code. A flags list that does not hold
// two values is refused with OP_LOGE_FOR_INVALID_VALUE_WITH_REASON.
#include "../op_graph/scale_pair_proto.h"
#include "../op_kernel/scale_pair_tiling_data.h"
#include "graph/operator.h"
#include "log/log.h"
#include "pair_tiling_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
static const uint32_t INPUT_X = 0;
float SignOf(const gert::TilingContext* context);  // scale_pair_sign.cpp

class ScalePairTiling : public PairTilingBase {
public:
    using PairTilingBase::PairTilingBase;
    ge::graphStatus Run() {
        const gert::ContinuousVector* flags = context_->GetAttrs()->GetAttrPointer<gert::ContinuousVector>(1);
        if (flags == nullptr || flags->GetSize() != 2) {
            OP_LOGE_FOR_INVALID_VALUE_WITH_REASON(context_->GetNodeName(), "flags",
                                                  std::to_string(flags ? flags->GetSize() : 0).c_str(),
                                                  "flags must hold two values");
            return ge::GRAPH_FAILED;
        }
        const uint32_t total = uint32_t(context_->GetInputShape(INPUT_X)->GetStorageShape().GetShapeSize());
        ScalePairTilingData* t = context_->GetTilingData<ScalePairTilingData>();
        const uint32_t blocks = Blocks(total);
        t->total = total;
        t->perBlock = ((total + blocks - 1) / blocks + 7) / 8 * 8;
        t->factor = *context_->GetAttrs()->GetFloat(0) * SignOf(context_);
        context_->SetBlockDim(blocks);
        context_->SetTilingKey(0);
        context_->GetWorkspaceSizes(1)[0] = 0;
        return ge::GRAPH_SUCCESS;
    }
};

static ge::graphStatus ScalePairTilingFunc(gert::TilingContext* context) { return ScalePairTiling(context).Run(); }
IMPL_OP_OPTILING(ScalePair).Tiling(ScalePairTilingFunc);
} // namespace optiling
