// Test fixture written for SAGE: z = x * scale, negated when flags[0]. The second configuration
// lists 8-bit float types of newer devices, which a 910B never selects.
#include "register/op_def_registry.h"

namespace ops {
class ScalePair : public OpDef {
public:
    explicit ScalePair(const char* name) : OpDef(name) {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_HIFLOAT8}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT8_E4M3FN}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0);
        this->Attr("flags").AttrType(OPTIONAL).ListBool({false, false});
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ScalePair);
} // namespace ops
