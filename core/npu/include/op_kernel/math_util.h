// op_kernel/math_util.h of CANN's op repositories: integer rounding helpers in namespace
// Ops::Base (sage_ops_base_math.h).
#pragma once

#include "kernel_operator.h"
#include "sage_ops_base_math.h"
