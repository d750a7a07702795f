// Test fixture written for SAGE: z = the element-wise sum of a tensor list x (a dynamic input),
// as ops-nn's foreach ops take their lists.
#include "register/op_def_registry.h"

namespace ops {
class ListSum : public OpDef {
public:
    explicit ListSum(const char* name) : OpDef(name) {
        this->Input("x").ParamType(DYNAMIC).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ListSum);
} // namespace ops
