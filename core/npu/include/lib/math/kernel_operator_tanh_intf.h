// Stand-in for the AscendC library header lib/math/kernel_operator_tanh_intf.h: the tanh function of the math library (kernel_vec_math.h).
#pragma once

#include "kernel_operator.h"
