// Stand-in for the AscendC library header lib/math/kernel_operator_ceil_intf.h: the ceil function of the math library (kernel_vec_math.h).
#pragma once

#include "kernel_operator.h"
