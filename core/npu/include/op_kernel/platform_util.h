// op_kernel/platform_util.h of CANN's op repositories (ops-math, ops-nn): the core's vector
// geometry as compile-time constants, in namespace Ops::Base.
#pragma once

#include "kernel_operator.h"

namespace Ops {
namespace Base {

// UB is addressed in 32-byte blocks (the alignment DataCopy and the vector instructions need).
__aicore__ inline constexpr uint32_t GetUbBlockSize() { return 32U; }
// Bytes one vector instruction repeat (one vector register) processes on this core.
__aicore__ inline constexpr uint32_t GetVRegSize() { return 256U; }

} // namespace Base
} // namespace Ops
