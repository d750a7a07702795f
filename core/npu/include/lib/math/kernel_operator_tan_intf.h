// Stand-in for the AscendC library header lib/math/kernel_operator_tan_intf.h: the tan function of the math library (kernel_vec_math.h).
#pragma once

#include "kernel_operator.h"
