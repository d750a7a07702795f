// Stand-in for the AscendC library header lib/math/kernel_operator_cos_intf.h: the cos function of the math library (kernel_vec_math.h).
#pragma once

#include "kernel_operator.h"
