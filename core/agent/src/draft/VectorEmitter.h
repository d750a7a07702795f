// Turns a compute-spec expression into AscendC vector calls over one tile (count form), or into
// plain C++ float arithmetic where every operand is a scalar. Each vector result gets its own
// VECCALC buffer (correct first: no reuse), so a tile's UB cost is buffers() x tile bytes.
#pragma once

#include "draft/DraftKnowledge.h"
#include "sage_eval/ComputeSpec.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sage::agent::draft {

struct Val {
    bool vec = false;
    std::string ref;  // vec: a LocalTensor<CT> variable; scalar: a float C++ expression
};

class VectorEmitter {
public:
    struct Env {
        std::string ct = "float";  // compute type
        std::string count = "n";   // elements of the tile
        std::string bufPrefix = "calc";
        // Inputs and attrs by name; nullopt = unknown.
        std::function<std::optional<Val>(const std::string&)> ref;
        // Reductions and gather (row_*, sum, mean, gather); nullopt = not handled here.
        std::function<std::optional<Val>(const eval::Expr&, VectorEmitter&)> special;
    };
    VectorEmitter(Env env, DraftKnowledge& knowledge, std::string field)
        : env_(std::move(env)), k_(knowledge), field_(std::move(field)) {}

    Val emit(const eval::Expr& e);
    // Emits e into the existing tensor `dst` (of the compute type), e.g. an output queue tensor.
    void emitInto(const eval::Expr& e, const std::string& dst);
    void bindLet(const std::string& name, Val v) { lets_[name] = std::move(v); }
    std::string newBuffer();             // a fresh VECCALC tensor variable; its Get is in lines()
    std::string scalarVar(const std::string& expr);  // float sN = expr;
    void line(const std::string& s) { lines_.push_back(s); }
    void setField(const std::string& f) { field_ = f; }

    const std::vector<std::string>& lines() const { return lines_; }
    const std::vector<std::string>& buffers() const { return buffers_; }  // TBuf member names
    std::string ct() const { return env_.ct; }
    const std::string& count() const { return env_.count; }
    [[noreturn]] void fail(const std::string& what) const;

private:
    Val binary(eval::Expr::Op op, const Val& a, const Val& b, const std::string& dst);
    Val call(const eval::Expr& e, const std::string& dst);
    Val unaryVec(const std::string& op, const Val& a, const std::string& dst);
    std::string cast(const std::string& scalar) const { return "(" + env_.ct + ")(" + scalar + ")"; }
    std::string out(const std::string& dst) { return dst.empty() ? newBuffer() : dst; }

    Env env_;
    DraftKnowledge& k_;
    std::string field_;
    std::map<std::string, Val> lets_;
    std::vector<std::string> lines_, buffers_;
    int scalars_ = 0;
};

// bfloat16 moved as int16 bits on a device without bfloat16 arithmetic: widen a tile of bits to
// float (Cast int16 -> int32, ShiftLeft 16), returning the new buffer; narrow a float tile into an
// int16 tile, rounding half up at bit 16.
std::string widenBf16Bits(VectorEmitter& em, const std::string& bits);
void narrowToBf16Bits(VectorEmitter& em, const std::string& floats, const std::string& bitsDst);

// Scalar C++ for an elementwise function of scalar arguments (std:: math on float).
std::string scalarFunction(const std::string& fn, const std::vector<std::string>& args);

} // namespace sage::agent::draft
