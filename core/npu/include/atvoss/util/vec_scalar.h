// atvoss/util/vec_scalar.h: the element-by-element path of the vector operations, for the data
// types the count-form vector instructions do not take (int8/int64/bfloat16 arithmetic, byte
// masks, rounding modes). It runs on the scalar unit (LocalTensor GetValue/SetValue), so the
// simulator charges scalar time for it and checks its UB accesses like any kernel's.
#pragma once

#include "kernel_operator.h"

#include <limits>
#include <type_traits>

namespace Ops::Base::Vec::atvoss_scalar {

using AscendC::LocalTensor;

// The type arithmetic is done in: float for the 16-bit floats, the type itself otherwise.
template <class T> using Calc = std::conditional_t<std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>, float, T>;

template <class T> constexpr bool isFloatLike() {
    return std::is_floating_point_v<T> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;
}

// One element of an argument: a tensor's i-th element or a scalar.
template <class T> __aicore__ inline Calc<T> at(const LocalTensor<T>& t, uint32_t i) {
    return static_cast<Calc<T>>(t.GetValue(i));
}
template <class S> struct IsLocal : std::false_type {};
template <class T> struct IsLocal<LocalTensor<T>> : std::true_type {};
template <class S> requires(!IsLocal<S>::value) __aicore__ inline S at(const S& s, uint32_t) {
    return s;
}

template <class D, class V> __aicore__ inline D convert(V v) {
    if constexpr (std::is_same_v<D, half> || std::is_same_v<D, bfloat16_t>) return D(static_cast<float>(v));
    else return static_cast<D>(v);
}

// dst[i] = f(args[i]...) for i < count.
template <class D, class F, class... A>
__aicore__ inline void map(const LocalTensor<D>& dst, uint32_t count, F f, const A&... args) {
    for (uint32_t i = 0; i < count; ++i) dst.SetValue(i, convert<D>(f(at(args, i)...)));
}

// Rounds v to an integer value as the AscendC RoundMode number `mode` says
// (0 none and 1 rint: nearest even, 2 floor, 3 ceil, 4 round half away from zero, 5 trunc).
__aicore__ inline double roundBy(int mode, double v) {
    switch (mode) {
    case 2: return __builtin_floor(v);
    case 3: return __builtin_ceil(v);
    case 4: return __builtin_round(v);
    case 5: return __builtin_trunc(v);
    default: return __builtin_nearbyint(v);
    }
}

} // namespace Ops::Base::Vec::atvoss_scalar
