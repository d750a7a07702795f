// atvoss/util/vec.h: the vector operations a DAG binds (Ops::Base::Vec). Each is a struct whose
// constructor does the work on one tile: Op(dst, args..., count), where a tensor argument is a
// LocalTensor in UB and a scalar argument (Var, MAKE_CONST, scalar input) a value. Data types the
// count-form vector instructions take run on them (PIPE_V); others element by element on the
// scalar unit (vec_scalar.h). An op's own operation derives from ElemwiseUnaryOP<Dst, Src> (or the
// Binary/Ternary/Quaternary forms) and has the same constructor shape.
#pragma once

#include "atvoss/util/vec_scalar.h"

namespace Ops::Base::Vec {

using AscendC::LocalTensor;
namespace sc = atvoss_scalar;

enum class OpRole { Compute, CopyIn, CopyInBrc, CopyOut, Reduce };

// Data movement: the schedule carries these out (GM <-> UB, with broadcasting for CopyInBrc).
template <class T> struct CopyIn {
    using DstType = T;
    static constexpr OpRole role = OpRole::CopyIn;
};
template <class T> struct CopyInBrc {
    using DstType = T;
    static constexpr OpRole role = OpRole::CopyInBrc;
};
template <class T> struct CopyOut {
    using DstType = T;
    static constexpr OpRole role = OpRole::CopyOut;
};

template <class Dst> struct ComputeOp {
    using DstType = Dst;
    static constexpr OpRole role = OpRole::Compute;
};
template <class D, class S> struct ElemwiseUnaryOP : ComputeOp<D> {};
template <class D, class S1, class S2> struct ElemwiseBinaryOP : ComputeOp<D> {};
template <class D, class S1, class S2, class S3> struct ElemwiseTernaryOP : ComputeOp<D> {};
template <class D, class S1, class S2, class S3, class S4> struct ElemwiseQuaternaryOP : ComputeOp<D> {};

template <class T, class... L> constexpr bool oneOf() { return (std::is_same_v<T, L> || ...); }
template <class T> constexpr bool kVecArith = oneOf<T, half, float, int16_t, int32_t>();
template <class T> constexpr bool kVecFloat = oneOf<T, half, float>();

// dst = a op b (tensors), on the vector unit where the type allows.
#define ATVOSS_BINARY(Name, Native, NativeOk, expr)                                                      \
    template <class T> struct Name : ComputeOp<T> {                                                      \
        template <class A, class B>                                                                      \
        __aicore__ inline Name(const LocalTensor<T>& dst, const A& a, const B& b, uint32_t count) {      \
            if constexpr (NativeOk && std::is_same_v<A, LocalTensor<T>> && std::is_same_v<B, LocalTensor<T>>) \
                AscendC::Native(dst, a, b, int32_t(count));                                              \
            else                                                                                         \
                sc::map(dst, count, [](auto x, auto y) { return expr; }, a, b);                          \
        }                                                                                                \
    };
ATVOSS_BINARY(Add, Add, kVecArith<T>, x + y)
ATVOSS_BINARY(Sub, Sub, kVecArith<T>, x - y)
ATVOSS_BINARY(Mul, Mul, kVecArith<T>, x * y)
ATVOSS_BINARY(Div, Div, kVecFloat<T>, x / y)
ATVOSS_BINARY(DivHighPrecision, Div, kVecFloat<T>, x / y)
ATVOSS_BINARY(Max, Max, kVecArith<T>, (x > y ? x : y))
ATVOSS_BINARY(Min, Min, kVecArith<T>, (x < y ? x : y))
ATVOSS_BINARY(And, And, (oneOf<T, int16_t, uint16_t>()), (x & y))
ATVOSS_BINARY(Or, Or, (oneOf<T, int16_t, uint16_t>()), (x | y))
ATVOSS_BINARY(FmodHighPrecision, Add, false, __builtin_fmod(double(x), double(y)))
#undef ATVOSS_BINARY

// dst = src op scalar.
#define ATVOSS_SCALAR(Name, expr)                                                                        \
    template <class T> struct Name : ComputeOp<T> {                                                      \
        template <class S>                                                                               \
        __aicore__ inline Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const S& s, uint32_t count) { \
            if constexpr (kVecArith<T>)                                                                  \
                AscendC::Name(dst, src, sc::convert<T>(s), int32_t(count));                              \
            else                                                                                         \
                sc::map(dst, count, [](auto x, auto y) { return expr; }, src, sc::Calc<T>(s));           \
        }                                                                                                \
    };
ATVOSS_SCALAR(Adds, x + y)
ATVOSS_SCALAR(Muls, x * y)
ATVOSS_SCALAR(Maxs, (x > y ? x : y))
ATVOSS_SCALAR(Mins, (x < y ? x : y))
#undef ATVOSS_SCALAR

// dst = f(src).
#define ATVOSS_UNARY(Name, Native, NativeOk, expr)                                                       \
    template <class T> struct Name : ComputeOp<T> {                                                      \
        __aicore__ inline Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {   \
            if constexpr (NativeOk)                                                                      \
                AscendC::Native(dst, src, int32_t(count));                                               \
            else                                                                                         \
                sc::map(dst, count, [](auto x) { return expr; }, src);                                   \
        }                                                                                                \
    };
ATVOSS_UNARY(Exp, Exp, kVecFloat<T>, __builtin_exp(double(x)))
ATVOSS_UNARY(Log, Ln, kVecFloat<T>, __builtin_log(double(x)))
ATVOSS_UNARY(Abs, Abs, kVecFloat<T>, (x < 0 ? -x : x))
ATVOSS_UNARY(Sqrt, Sqrt, kVecFloat<T>, __builtin_sqrt(double(x)))
ATVOSS_UNARY(Rsqrt, Rsqrt, kVecFloat<T>, 1.0 / __builtin_sqrt(double(x)))
ATVOSS_UNARY(Reciprocal, Reciprocal, kVecFloat<T>, 1.0 / double(x))
ATVOSS_UNARY(Relu, Relu, kVecFloat<T>, (x > 0 ? x : 0))
ATVOSS_UNARY(Not, Not, (oneOf<T, int16_t, uint16_t>()), (~x))
ATVOSS_UNARY(Neg, Abs, false, (-x))
ATVOSS_UNARY(Erf, Abs, false, __builtin_erf(double(x)))
ATVOSS_UNARY(Erfc, Abs, false, __builtin_erfc(double(x)))
ATVOSS_UNARY(AtanPolyApprox, Abs, false, __builtin_atan(double(x)))
ATVOSS_UNARY(Copy, Abs, false, x)
#undef ATVOSS_UNARY

// Sqrt0ULP<Storage, Compute>: a correctly rounded square root in the compute type (the storage
// type names the op's data type; the result has the compute type).
template <class S, class C = S> struct Sqrt0ULP : ComputeOp<C> {
    __aicore__ inline Sqrt0ULP(const LocalTensor<C>& dst, const LocalTensor<C>& src, uint32_t count) {
        if constexpr (kVecFloat<C>) AscendC::Sqrt(dst, src, int32_t(count));
        else sc::map(dst, count, [](auto x) { return __builtin_sqrt(double(x)); }, src);
    }
};

template <class T> struct Duplicate : ComputeOp<T> {
    template <class S> __aicore__ inline Duplicate(const LocalTensor<T>& dst, const S& s, uint32_t count) {
        if constexpr (oneOf<T, half, float, int16_t, uint16_t, int32_t, uint32_t>())
            AscendC::Duplicate(dst, sc::convert<T>(s), int32_t(count));
        else
            sc::map(dst, count, [](auto v) { return v; }, sc::Calc<T>(s));
    }
};

// Cast<Dst, Src, roundMode>: roundMode is the AscendC RoundMode number (0 none, 1 rint, 2 floor,
// 3 ceil, 4 round, 5 trunc, 6 odd). Every pair of vector data types converts on the vector unit
// (except what the 310P profile lacks: bfloat16_t and int64_t, converted on the scalar unit).
template <class T> constexpr bool kCastable =
    oneOf<T, half, float, bfloat16_t, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t>() &&
    !(__NPU_ARCH__ == 2002 && oneOf<T, bfloat16_t, int64_t>());
template <class D, class S, int mode = 0> struct Cast : ComputeOp<D> {
    __aicore__ inline Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src, uint32_t count) {
        if constexpr (std::is_same_v<D, S>) {
            sc::map(dst, count, [](auto v) { return v; }, src);
        } else if constexpr (kCastable<D> && kCastable<S>) {
            AscendC::Cast(dst, src, static_cast<AscendC::RoundMode>(mode), count);
        } else if constexpr (!sc::isFloatLike<D>() && sc::isFloatLike<S>()) {
            sc::map(dst, count, [](auto v) { return sc::roundBy(mode, double(v)); }, src);
        } else {
            sc::map(dst, count, [](auto v) { return v; }, src);
        }
    }
};

// Truncate<T, mode>: rounds floating values to integral values (T stays the type).
template <class T, int mode = 5> struct Truncate : ComputeOp<T> {
    __aicore__ inline Truncate(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
        sc::map(dst, count, [](auto v) { return sc::roundBy(mode, double(v)); }, src);
    }
};

// dst = a * b + c.
template <class T> struct FusedMulAdd : ComputeOp<T> {
    template <class A, class B, class C>
    __aicore__ inline FusedMulAdd(const LocalTensor<T>& dst, const A& a, const B& b, const C& c, uint32_t count) {
        sc::map(dst, count, [](auto x, auto y, auto z) { return x * y + z; }, a, b, c);
    }
};

// dst = a + b * s.
template <class T> struct Axpy : ComputeOp<T> {
    template <class S>
    __aicore__ inline Axpy(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b, const S& s,
                           uint32_t count) {
        if constexpr (kVecFloat<T>) {
            AscendC::Muls(dst, b, sc::convert<T>(s), int32_t(count));
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Add(dst, dst, a, int32_t(count));
        } else {
            sc::map(dst, count, [](auto x, auto y, auto z) { return x + y * z; }, a, b, sc::Calc<T>(s));
        }
    }
};

} // namespace Ops::Base::Vec

#include "atvoss/util/vec_mask.h"
#include "atvoss/util/vec_reduce.h"
