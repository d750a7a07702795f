// Stand-in for the AscendC library header lib/math/cos.h (the newer name of kernel_operator_cos_intf.h): the Cos
// function of the math library (kernel_vec_math.h).
#pragma once

#include "kernel_operator.h"
