// Test fixture written for SAGE: the definition of TinyAxpyTpl (its own file, as in CANN's current
// op repositories).
#include "register/op_def_registry.h"

namespace ops {
class TinyAxpyTpl : public OpDef {
public:
    explicit TinyAxpyTpl(const char* name) : OpDef(name) {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("alpha").AttrType(OPTIONAL).Float(1.0);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TinyAxpyTpl);
} // namespace ops
