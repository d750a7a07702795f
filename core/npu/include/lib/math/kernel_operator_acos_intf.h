// Stand-in for the AscendC library header lib/math/kernel_operator_acos_intf.h: the acos function of the math library (kernel_vec_math.h).
#pragma once

#include "kernel_operator.h"
