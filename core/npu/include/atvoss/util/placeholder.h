// atvoss/util/placeholder.h: the leaves of an operator DAG. InN<T> is the N-th GM input of the
// kernel (with ScalarAttr<true>: a one-element GM tensor read as a scalar), OutN<T> the N-th GM
// output, Var<T, N> the N-th run-time scalar the kernel sets with SetVar, and MAKE_CONST(T, v)
// a compile-time constant.
#pragma once

#include "kernel_operator.h"

// Op DAG headers name AscendC types (LocalTensor, TPipe, half) after `using namespace Ops::Base`
// alone, as the templates make the kernel API visible through their namespace.
namespace Ops::Base {
using namespace AscendC;
}

namespace Ops::Base::Placeholder {

template <bool isScalar = false> struct ScalarAttr {
    static constexpr bool value = isScalar;
};

enum class LeafKind { Input, Output, Var, Const };

template <int N, class T, class Attr> struct InputLeaf {
    static constexpr LeafKind kind = LeafKind::Input;
    static constexpr int index = N;
    static constexpr bool isScalar = Attr::value;
    using DType = T;
};
template <int N, class T> struct OutputLeaf {
    static constexpr LeafKind kind = LeafKind::Output;
    static constexpr int index = N;
    using DType = T;
};

template <class T, class A = ScalarAttr<false>> struct In0 : InputLeaf<0, T, A> {};
template <class T, class A = ScalarAttr<false>> struct In1 : InputLeaf<1, T, A> {};
template <class T, class A = ScalarAttr<false>> struct In2 : InputLeaf<2, T, A> {};
template <class T, class A = ScalarAttr<false>> struct In3 : InputLeaf<3, T, A> {};
template <class T, class A = ScalarAttr<false>> struct In4 : InputLeaf<4, T, A> {};
template <class T, class A = ScalarAttr<false>> struct In5 : InputLeaf<5, T, A> {};
template <class T, class A = ScalarAttr<false>> struct In6 : InputLeaf<6, T, A> {};
template <class T, class A = ScalarAttr<false>> struct In7 : InputLeaf<7, T, A> {};
template <class T> struct Out0 : OutputLeaf<0, T> {};
template <class T> struct Out1 : OutputLeaf<1, T> {};
template <class T> struct Out2 : OutputLeaf<2, T> {};
template <class T> struct Out3 : OutputLeaf<3, T> {};

// Var<T, N>: set at run time with sch.SetVar<T, N>(value) before Process.
template <class T = float, int N = 0> struct Var {
    static constexpr LeafKind kind = LeafKind::Var;
    static constexpr int index = N;
    using DType = T;
};

// A constant kept as double (C++20 allows a floating-point template argument); converted to T
// where it is used.
template <class T, double V> struct Const {
    static constexpr LeafKind kind = LeafKind::Const;
    using DType = T;
    static constexpr double value = V;
};

} // namespace Ops::Base::Placeholder

#ifndef MAKE_CONST
#define MAKE_CONST(T, v) ::Ops::Base::Placeholder::Const<T, static_cast<double>(v)>
#endif
