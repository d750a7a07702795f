// atvoss/util/vec_reduce.h: the reduction operations a reduce DAG binds (Vec::ReduceSumOp<T> and
// kin). The reduce schedule folds a tile of the reduced axis into one value with `reduceTile`
// and merges tiles with `combine`; `identity` starts the fold.
#pragma once

#include "atvoss/util/vec.h"  // OpRole and the scalar path (vec.h includes this file at its end)

namespace Ops::Base::Vec {

template <class T, class Fold> struct ReduceOpBase {
    using DstType = T;
    static constexpr OpRole role = OpRole::Reduce;
    using Acc = sc::Calc<T>;
    // Folds src[0, count) into acc on the scalar unit, except where a vector reduction exists.
    __aicore__ static inline Acc reduceTile(Acc acc, const AscendC::LocalTensor<T>& src, uint32_t count) {
        for (uint32_t i = 0; i < count; ++i) acc = Fold::combine(acc, sc::at(src, i));
        return acc;
    }
};

struct SumFold {
    template <class A> static constexpr A identity() { return A(0); }
    template <class A> static constexpr A combine(A a, A b) { return a + b; }
};
struct ProdFold {
    template <class A> static constexpr A identity() { return A(1); }
    template <class A> static constexpr A combine(A a, A b) { return a * b; }
};
struct MaxFold {
    template <class A> static constexpr A identity() { return std::numeric_limits<A>::lowest(); }
    template <class A> static constexpr A combine(A a, A b) { return b > a || b != b ? b : a; }
};
struct MinFold {
    template <class A> static constexpr A identity() { return std::numeric_limits<A>::max(); }
    template <class A> static constexpr A combine(A a, A b) { return b < a || b != b ? b : a; }
};
struct AnyFold {
    template <class A> static constexpr A identity() { return A(0); }
    template <class A> static constexpr A combine(A a, A b) { return (a != A(0) || b != A(0)) ? A(1) : A(0); }
};
struct AllFold {
    template <class A> static constexpr A identity() { return A(1); }
    template <class A> static constexpr A combine(A a, A b) { return (a != A(0) && b != A(0)) ? A(1) : A(0); }
};
struct NansumFold {
    template <class A> static constexpr A identity() { return A(0); }
    template <class A> static constexpr A combine(A a, A b) { return b != b ? a : a + b; }
};

// log(sum(exp(x))) folded pairwise around the larger value, so large inputs do not overflow.
struct LogSumExpFold {
    template <class A> static constexpr A identity() { return -std::numeric_limits<A>::infinity(); }
    template <class A> static A combine(A a, A b) {
        const A hi = a > b ? a : b, lo = a > b ? b : a;
        if (lo == -std::numeric_limits<A>::infinity()) return hi;
        return A(double(hi) + __builtin_log1p(__builtin_exp(double(lo) - double(hi))));
    }
};

template <class T> struct ReduceSumOp : ReduceOpBase<T, SumFold>, SumFold {};
template <class T> struct ReduceProdOp : ReduceOpBase<T, ProdFold>, ProdFold {};
template <class T> struct ReduceMaxOp : ReduceOpBase<T, MaxFold>, MaxFold {};
template <class T> struct ReduceMinOp : ReduceOpBase<T, MinFold>, MinFold {};
template <class T> struct ReduceAnyOp : ReduceOpBase<T, AnyFold>, AnyFold {};
template <class T> struct ReduceAllOp : ReduceOpBase<T, AllFold>, AllFold {};
template <class T> struct ReduceNansumOp : ReduceOpBase<T, NansumFold>, NansumFold {};
template <class T> struct ReduceLogSumExpOp : ReduceOpBase<T, LogSumExpFold>, LogSumExpFold {};

} // namespace Ops::Base::Vec
