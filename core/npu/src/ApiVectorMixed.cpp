// The library's element-wise functions with operands of mixed kinds (vecLibrary): tensors of their
// own types or scalars, up to three. Checks, cost on PIPE_V and race bookkeeping as for the other
// vector instructions; the value is computed in double and rounded once to the destination type
// (the device's instruction sequence rounds after each step, so half results may differ in the
// last bit).
#include "SimImpl.h"
#include "VectorIssue.h"
#include "VectorMath.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace sage::npu {
namespace {

const char* libName(LibOp op) {
    static const char* names[] = {"Fma",  "Clamp", "Where",  "Fmod",       "Frac",       "Rint",      "IsFinite",
                                  "Swish", "SwiGLU", "GeGLU", "BitwiseAnd", "Xor", "LogicalAnd"};
    return names[size_t(op)];
}

int operandsOf(LibOp op) {
    switch (op) {
    case LibOp::Fma: case LibOp::Clamp: case LibOp::Where: return 3;
    case LibOp::Fmod: case LibOp::SwiGLU: case LibOp::GeGLU: case LibOp::BitwiseAnd: case LibOp::BitwiseXor:
    case LibOp::LogicalAnd:
        return 2;
    default: return 1;
    }
}

// The transcendental ones are polynomial sequences like the math library's; the rest a few simple
// instructions.
double cyclesPerRepeatOf(const DeviceProfile& p, LibOp op) {
    switch (op) {
    case LibOp::Fmod: case LibOp::Swish: case LibOp::SwiGLU: case LibOp::GeGLU: return p.cyclesPerRepeatComposite;
    default: return 2 * p.cyclesPerRepeatSimple;
    }
}

double valueOf(LibOp op, const double* x, double beta) {
    switch (op) {
    case LibOp::Fma: return x[0] * x[1] + x[2];
    case LibOp::Clamp: return std::min(std::max(x[0], x[1]), x[2]);
    case LibOp::Where: return x[2] != 0 ? x[0] : x[1];
    case LibOp::Fmod: return std::fmod(x[0], x[1]);
    case LibOp::Frac: return x[0] - std::trunc(x[0]);
    case LibOp::Rint: return std::nearbyint(x[0]);
    case LibOp::IsFinite: return std::isfinite(x[0]) ? 1 : 0;
    case LibOp::Swish: return x[0] * vecmath::sigmoid(beta * x[0]);
    case LibOp::SwiGLU: return x[0] * x[1] * vecmath::sigmoid(beta * x[1]);
    case LibOp::GeGLU: return x[0] * vecmath::geluTanh(x[1]);
    case LibOp::BitwiseAnd: return double(int64_t(x[0]) & int64_t(x[1]));
    case LibOp::BitwiseXor: return double(int64_t(x[0]) ^ int64_t(x[1]));
    case LibOp::LogicalAnd: return x[0] != 0 && x[1] != 0 ? 1 : 0;
    }
    return 0;
}

} // namespace

namespace rt {

void vecLibrary(LibOp op, DType dt, const LocalRef& dst, const LibOperand* operands, int operandCount, double beta,
                uint64_t count, Loc loc) {
    auto& s = activeImpl();
    CoreContext& c = s.ctx();
    const char* name = libName(op);
    if (operandCount != operandsOf(op)) {
        s.report("unsupported", std::string(name) + " takes " + std::to_string(operandsOf(op)) + " operands, not " +
                                     std::to_string(operandCount) + " (a simulator API error: report it).",
                 loc, true);
        return;
    }
    const uint64_t dstBytes = count * dtypeSize(dt);
    uint64_t widest = dstBytes;
    s.checkLocal(dst, dstBytes, name, loc);
    for (int k = 0; k < operandCount; ++k) {
        if (!operands[k].tensor) continue;
        const uint64_t bytes = count * dtypeSize(operands[k].type);
        s.checkLocal(*operands[k].tensor, bytes, name, loc);
        if (operands[k].type == dt) checkOverlap(s, dst, *operands[k].tensor, bytes, name, loc);
        widest = std::max(widest, bytes);
    }
    if (count == 0) return s.scalarCost(s.prof.scalarIssueCycles, loc);
    IssueResult at = issueVector(s, name, repeatsFor(widest, s.prof), cyclesPerRepeatOf(s.prof, op), widest, loc);
    // Every operand is read before dst is written, so an operand may alias dst exactly.
    std::vector<double> values(static_cast<size_t>(count));
    for (uint64_t i = 0; i < count; ++i) {
        double x[3] = {0, 0, 0};
        for (int k = 0; k < operandCount; ++k) {
            const LibOperand& o = operands[k];
            x[k] = o.tensor ? vecmath::loadScalar(o.type, c.localPtr(*o.tensor) + i * dtypeSize(o.type)) : o.value;
        }
        values[static_cast<size_t>(i)] = valueOf(op, x, beta);
    }
    uint8_t* d = c.localPtr(dst);
    for (uint64_t i = 0; i < count; ++i) vecmath::storeScalar(dt, d + i * dtypeSize(dt), values[static_cast<size_t>(i)]);
    for (int k = 0; k < operandCount; ++k)
        if (operands[k].tensor)
            s.access(PipeId::V, *operands[k].tensor, uint32_t(count * dtypeSize(operands[k].type)), false, at, loc);
    s.access(PipeId::V, dst, uint32_t(dstBytes), true, at, loc);
}

} // namespace rt
} // namespace sage::npu
