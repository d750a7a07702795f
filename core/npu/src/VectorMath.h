// The functional semantics of vector instructions, independent of checks and timing.
// half and bfloat16 are computed in float and rounded back after every instruction, which is
// correctly rounded for + - * / and matches the hardware's per-instruction rounding.
#pragma once

#include "kernel_runtime.h"

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace sage::npu::vecmath {

// The activation formulas the vector instructions and the library functions share, in the
// computation type C (float for the vector ops, double for the mixed-operand library).
template <typename C> C sigmoid(C x) { return C(1) / (C(1) + std::exp(-x)); }
// GELU in its tanh form: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
template <typename C> C geluTanh(C x) {
    const C k = C(0.7978845608028654);  // sqrt(2/pi)
    return C(0.5) * x * (C(1) + std::tanh(k * (x + C(0.044715) * x * x * x)));
}

// dst[i] = op(a[i], b[i] or scalar) for n contiguous elements. `b` is null for unary and
// tensor-scalar ops. Buffers may alias exactly (dst == a).
void elementwise(VecOp op, DType t, uint8_t* dst, const uint8_t* a, const uint8_t* b, double scalar, size_t n);
void cast(DType dt, DType st, uint8_t* dst, const uint8_t* src, int roundMode, size_t n);
// Reduces n elements: a binary tree inside each group of `groupElems`, then the group results
// either by the same tree or, with `sequentialGroups`, one after another (ReduceSum's count form
// on 910B). Returns the value in double; `index` gets the first arg-max/min position.
double reduce(ReduceOp op, DType t, const uint8_t* src, size_t n, size_t groupElems, uint32_t* index,
              bool sequentialGroups = false);
void storeScalar(DType t, uint8_t* dst, double v);
void storeIndex(DType t, uint8_t* dst, uint32_t index);
double loadScalar(DType t, const uint8_t* src);
// n contiguous elements as float, written to dst[0], dst[stride], ...: the same value as
// float(loadScalar(t, ...)) for each, with one type dispatch instead of one call per element.
void loadFloats(DType t, const uint8_t* src, size_t n, float* dst, size_t stride = 1);
// dst[i] = (prev ? prev[i] : 0) + acc[i] for n contiguous elements of type t, each computed in
// double and stored as storeScalar does; prev may alias dst.
void addFloatsAndStore(DType t, uint8_t* dst, const uint8_t* prev, const float* acc, size_t n);
void accumulate(DType t, uint8_t* dst, const uint8_t* src, size_t n, int mode);  // mode: 1 add, 2 max, 3 min
// dst gets one bit per element.
void compare(DType t, uint8_t* dstBits, const uint8_t* a, const uint8_t* b, double scalar, int cmpMode, size_t n);
// dst[i] = bit i of `bits` ? a[i] : (b ? b[i] : scalar). A non-zero `bitPeriod` reuses the first
// bitPeriod bits for every group of that many elements (Select mode 0, VSEL_CMPMASK_SPR).
void select(DType t, uint8_t* dst, const uint8_t* bits, const uint8_t* a, const uint8_t* b, double scalar, size_t n,
            size_t bitPeriod = 0);

} // namespace sage::npu::vecmath
