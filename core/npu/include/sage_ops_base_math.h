// Integer rounding helpers of Ops::Base (CANN's op repositories), used by the kernel side
// (op_kernel/math_util.h) and the host side (host/util/math_util.h). A zero divisor returns `a`
// unchanged instead of trapping (kernels are hostile input, and a host-compiled kernel would
// otherwise die of SIGFPE).
#pragma once

#include <cstdint>
#include <type_traits>

#ifndef __aicore__
#define __aicore__
#endif

namespace Ops {
namespace Base {

namespace detail {
// 8- and 16-bit operands are widened to 32 bits, wider ones to 64, so a + b - 1 cannot wrap.
template <typename T>
using Widened = std::conditional_t<(sizeof(T) <= 2), std::conditional_t<std::is_signed_v<T>, int32_t, uint32_t>,
                                   std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>>;
} // namespace detail

template <typename T> __aicore__ inline T CeilDiv(T a, T b) {
    if (b == 0) return a;
    using W = detail::Widened<T>;
    return static_cast<T>((static_cast<W>(a) + static_cast<W>(b) - 1) / static_cast<W>(b));
}
template <typename T> __aicore__ inline T FloorDiv(T a, T b) { return b == 0 ? a : a / b; }
template <typename T> __aicore__ inline T CeilAlign(T a, T b) {
    if (b == 0) return a;
    using W = detail::Widened<T>;
    return static_cast<T>((static_cast<W>(a) + static_cast<W>(b) - 1) / static_cast<W>(b) * static_cast<W>(b));
}
template <typename T> __aicore__ inline T FloorAlign(T a, T b) { return b == 0 ? a : a / b * b; }

} // namespace Base
} // namespace Ops
