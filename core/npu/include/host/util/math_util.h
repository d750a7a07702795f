// The host-side util/math_util.h of CANN's current op repositories: the integer rounding helpers
// of Ops::Base, shared with the kernel side's op_kernel/math_util.h.
#pragma once

#include "sage_ops_base_math.h"
