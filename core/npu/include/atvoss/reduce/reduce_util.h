// atvoss/reduce/reduce_util.h: type helpers of reduce kernels. GetPromoteType<T>::T is the type a
// reduction accumulates in: float for the 16-bit floats, T otherwise.
#pragma once

#include "kernel_operator.h"

#include <type_traits>

namespace Ops::Base::ReduceOpTmpl::__reduceType {
template <class In> struct GetPromoteType {
    using T = std::conditional_t<std::is_same_v<In, half> || std::is_same_v<In, bfloat16_t>, float, In>;
};
} // namespace Ops::Base::ReduceOpTmpl::__reduceType
