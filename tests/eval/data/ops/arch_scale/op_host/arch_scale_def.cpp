// Test fixture written for SAGE: z = x * scale, laid out as CANN's current op repositories lay out
// an op (ops-nn's mse_loss_v2): the definition at the top of op_host/, the tiling struct and the
// TilingFunc only in the architecture's folder (arch22 for a 910B; arch35 must not be compiled).
#include "register/op_def_registry.h"

namespace ops {
class ArchScale : public OpDef {
public:
    explicit ArchScale(const char* name) : OpDef(name) {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ArchScale);
} // namespace ops
