// Vector kernels for test_npu_api: one kernel per form (count, mask + repeat, counter mode),
// selecting the instruction at run time so that one kernel covers a whole API group.
#include "kernel_operator.h"

#include <type_traits>

using namespace AscendC;

enum VOp : int {
    V_ADD, V_SUB, V_MUL, V_DIV, V_MAX, V_MIN,                       // binary
    V_EXPR_ADD, V_EXPR_SUB, V_EXPR_MUL, V_EXPR_DIV,                  // c = a op b
    V_ADDS, V_MULS, V_MAXS, V_MINS, V_LEAKY,                         // tensor-scalar
    V_EXP, V_LN, V_ABS, V_RELU, V_SQRT, V_RSQRT, V_RECIP, V_NEG,     // unary
    V_DUP,                                                           // Duplicate
    V_SIGMOID, V_TANH, V_GELU,                                       // advanced API
};

struct VecJob {
    int op;
    uint32_t n;       // elements computed (count form)
    uint32_t len;     // elements per tensor (buffer length), >= n, 32-byte multiple
    float scalar;     // scalar operand for float types
    int32_t iscalar;  // scalar operand for int32
};

template <typename T> __aicore__ inline T scalarOf(const VecJob& j)
{
    if constexpr (std::is_integral_v<T>) return T(j.iscalar); else return T(j.scalar);
}

// c[0..n) = op(a, b) in the count form. Three queues, EnQue/DeQue between the pipes.
template <typename T>
__aicore__ inline void vec_count_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c, VecJob j)
{
    constexpr bool isFloat = std::is_same_v<T, half> || std::is_same_v<T, float>;
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> qa, qb;
    TQue<QuePosition::VECOUT, 1> qc;
    pipe.InitBuffer(qa, 1, j.len * sizeof(T));
    pipe.InitBuffer(qb, 1, j.len * sizeof(T));
    pipe.InitBuffer(qc, 1, j.len * sizeof(T));
    GlobalTensor<T> aGm, bGm, cGm;
    aGm.SetGlobalBuffer((__gm__ T*)a, j.len);
    bGm.SetGlobalBuffer((__gm__ T*)b, j.len);
    cGm.SetGlobalBuffer((__gm__ T*)c, j.len);

    LocalTensor<T> la = qa.AllocTensor<T>();
    LocalTensor<T> lb = qb.AllocTensor<T>();
    DataCopy(la, aGm, j.len);
    DataCopy(lb, bGm, j.len);
    qa.EnQue(la);
    qb.EnQue(lb);
    LocalTensor<T> x = qa.DeQue<T>();
    LocalTensor<T> y = qb.DeQue<T>();
    LocalTensor<T> z = qc.AllocTensor<T>();
    const int32_t n = int32_t(j.n);
    const T s = scalarOf<T>(j);
    switch (j.op) {
    case V_ADD: Add(z, x, y, n); break;
    case V_SUB: Sub(z, x, y, n); break;
    case V_MUL: Mul(z, x, y, n); break;
    case V_MAX: Max(z, x, y, n); break;
    case V_MIN: Min(z, x, y, n); break;
    case V_EXPR_ADD: z = x + y; break;
    case V_EXPR_SUB: z = x - y; break;
    case V_EXPR_MUL: z = x * y; break;
    case V_ADDS: Adds(z, x, s, n); break;
    case V_MULS: Muls(z, x, s, n); break;
    case V_MAXS: Maxs(z, x, s, n); break;
    case V_MINS: Mins(z, x, s, n); break;
    case V_RELU: Relu(z, x, n); break;
    case V_NEG: Neg(z, x, uint32_t(n)); break;
    case V_DUP: Duplicate(z, s, n); break;
    default:
        if constexpr (isFloat) {
            switch (j.op) {
            case V_DIV: Div(z, x, y, n); break;
            case V_EXPR_DIV: z = x / y; break;
            case V_LEAKY: LeakyRelu(z, x, s, n); break;
            case V_EXP: Exp(z, x, n); break;
            case V_LN: Ln(z, x, n); break;
            case V_ABS: Abs(z, x, n); break;
            case V_SQRT: Sqrt(z, x, n); break;
            case V_RSQRT: Rsqrt(z, x, n); break;
            case V_RECIP: Reciprocal(z, x, n); break;
            case V_SIGMOID: Sigmoid(z, x, uint32_t(n)); break;
            case V_TANH: Tanh(z, x, uint32_t(n)); break;
            case V_GELU: Gelu(z, x, uint32_t(n)); break;
            default: ASSERT(false && "op not supported for this type"); break;
            }
        } else {
            ASSERT(false && "op not supported for this type");
        }
    }
    qc.EnQue(z);
    qa.FreeTensor(x);
    qb.FreeTensor(y);
    LocalTensor<T> out = qc.DeQue<T>();
    DataCopy(cGm, out, j.len);
    qc.FreeTensor(out);
}

enum RepMode : int {
    R_ADD_MASK_ARRAY,   // Add(dst, a, b, mask[2], repeat, BinaryRepeatParams)
    R_ADD_MASK_COUNT,   // Add(dst, a, b, uint64_t mask, repeat, BinaryRepeatParams)
    R_ADD_COUNTER,      // SetMaskCount + SetVectorMask<T>(0, n) + Add<T, false>(..., MASK_PLACEHOLDER, ...)
    R_ADD_NORM_REG,     // SetVectorMask<T>(hi, lo) + Add<T, false>(..., MASK_PLACEHOLDER, ...)
    R_MULS_MASK_COUNT,  // Muls(dst, a, s, uint64_t mask, repeat, UnaryRepeatParams)
    R_EXP_MASK_ARRAY,   // Exp(dst, a, mask[2], repeat, UnaryRepeatParams)
    R_DUP_MASK_COUNT,   // Duplicate(dst, s, mask, repeat, dstBlkStride, dstRepStride)
};

struct RepJob {
    int mode;
    uint32_t len;  // elements per tensor
    uint64_t mask0, mask1;
    uint64_t maskCount;  // contiguous mask, or counter-mode element count
    uint8_t repeat;
    uint8_t dstBlk, s0Blk, s1Blk, dstRep, s0Rep, s1Rep;
    float scalar;
};

// dst starts as a copy of c (so the test sees which elements the instruction left alone).
template <typename T>
__aicore__ inline void vec_repeat_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c, RepJob j)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 3 * j.len * sizeof(T));
    GlobalTensor<T> aGm, bGm, cGm;
    aGm.SetGlobalBuffer((__gm__ T*)a, j.len);
    bGm.SetGlobalBuffer((__gm__ T*)b, j.len);
    cGm.SetGlobalBuffer((__gm__ T*)c, j.len);
    LocalTensor<T> all = buf.Get<T>();
    LocalTensor<T> x = all[0];
    LocalTensor<T> y = all[j.len];
    LocalTensor<T> z = all[2 * j.len];
    x.SetSize(j.len);
    y.SetSize(j.len);
    DataCopy(x, aGm, j.len);
    DataCopy(y, bGm, j.len);
    DataCopy(z, cGm, j.len);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    BinaryRepeatParams bp(j.dstBlk, j.s0Blk, j.s1Blk, j.dstRep, j.s0Rep, j.s1Rep);
    UnaryRepeatParams up(j.dstBlk, j.s0Blk, j.dstRep, j.s0Rep);
    uint64_t mask[2] = {j.mask0, j.mask1};
    switch (j.mode) {
    case R_ADD_MASK_ARRAY: Add(z, x, y, mask, j.repeat, bp); break;
    case R_ADD_MASK_COUNT: Add(z, x, y, j.maskCount, j.repeat, bp); break;
    case R_ADD_COUNTER:
        SetMaskCount();
        SetVectorMask<T, 0>(0, j.maskCount);
        Add<T, false>(z, x, y, MASK_PLACEHOLDER, 1, bp);
        SetMaskNorm();
        ResetMask();
        break;
    case R_ADD_NORM_REG:
        SetVectorMask<T, 0>(j.mask1, j.mask0);
        Add<T, false>(z, x, y, MASK_PLACEHOLDER, j.repeat, bp);
        ResetMask();
        break;
    case R_MULS_MASK_COUNT: Muls(z, x, T(j.scalar), j.maskCount, j.repeat, up); break;
    case R_EXP_MASK_ARRAY: Exp(z, x, mask, j.repeat, up); break;
    case R_DUP_MASK_COUNT: Duplicate(z, T(j.scalar), j.maskCount, j.repeat, j.dstBlk, j.dstRep); break;
    default: ASSERT(false && "unknown repeat mode");
    }
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(cGm, z, j.len);
}
