// Test fixture written here: only the op definition part that `sage compat` reads (data types).
namespace ops {
class ScaleOp : public OpDef {
public:
    explicit ScaleOp(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
    }
};
} // namespace ops
